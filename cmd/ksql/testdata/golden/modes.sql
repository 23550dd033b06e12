-- args: -box
-- Every output mode on the same rows: integers, REALs, NULL, wide text.
CREATE TABLE t(n INTEGER, x REAL, s TEXT);
INSERT INTO t VALUES (1, 2.5, 'plain'), (-20, 1e20, NULL), (300, 0.1 + 0.2, 'héllo 你好'),
                     (4, 2.0, 'two
lines'), (5, 1.0/3, 'совсем новый текст');
SELECT * FROM t;
.mode table
SELECT * FROM t;
.mode list
SELECT * FROM t;
.headers on
.separator ;
SELECT n, s FROM t WHERE n < 4;
.separator |
.nullvalue (null)
SELECT n, s FROM t WHERE s IS NULL;
.mode csv
SELECT * FROM t;
.headers off
SELECT x FROM t WHERE n = 300;
.mode json
SELECT * FROM t;
SELECT 'empty result' AS none_here WHERE 0;
.mode line
SELECT n, x AS "a longer name" FROM t WHERE n <= 1;
.mode box
.maxwidth 8
SELECT s FROM t;
.mode
.show
