CREATE TABLE t(n INTEGER, x REAL, s TEXT, b BLOB);
INSERT INTO t VALUES (1, 2.5, 'plain', x'6869'), (-20, 1e20, NULL, NULL), (300, 0.1 + 0.2, 'héllo, "you"', x''),
  (4, 2.0, 'two
lines', NULL), (5, 1.0/3, 'it''s	tabbed', NULL), (6, 100.0, '', NULL), (7, 1.5e-7, ' lead', NULL);
SELECT * FROM t;
.headers on
SELECT * FROM t;
.mode csv
SELECT * FROM t;
.headers off
SELECT * FROM t;
.separator ;
SELECT n, s FROM t;
.mode tabs
SELECT n, s FROM t;
.mode list
.nullvalue NULL
SELECT n, s FROM t;
.nullvalue ''
.mode line
SELECT n, s AS "longer name" FROM t WHERE n < 5;
.mode html
SELECT n, s FROM t WHERE n < 5;
.headers on
SELECT n, s FROM t WHERE n < 5;
.mode insert
SELECT n, s, b FROM t;
.mode insert other
SELECT n, s FROM t WHERE n = 1;
.headers off
.mode quote
SELECT n, s, b FROM t;
.mode ascii
SELECT n, s FROM t WHERE n < 3;
.mode list
.mode
.mode csv
.mode
.mode tabs
.mode
