CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT, c REAL, d BLOB);
INSERT INTO t VALUES (1, 'it''s', 2.5, x'0102'), (2, NULL, 1e300*1e10, NULL), (3, 'a
b', 2.0, ''), (4, 'x\ny
z', -1e300*1e10, x'ff'), (5, 'cr' || char(13) || 'x', 0.5, NULL);
CREATE INDEX tb ON t(b);
CREATE VIEW v AS SELECT a FROM t;
CREATE TABLE "odd name"(x);
INSERT INTO "odd name" VALUES (5);
CREATE TRIGGER tr AFTER INSERT ON t BEGIN SELECT 1; END;
CREATE TABLE s(id INTEGER PRIMARY KEY AUTOINCREMENT, y);
INSERT INTO s(y) VALUES (1);
CREATE TABLE "table"("select" TEXT);
INSERT INTO "table" VALUES ('kw');
.dump
.dump t
.dump --data-only t
.dump --nosys
.dump --newlines t
