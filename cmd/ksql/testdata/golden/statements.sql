-- Statements over several lines, several on one line, comments, triggers.
SELECT 1; SELECT 2;
SELECT
  3
  AS three;
SELECT 'a;b' AS "semi;colon"; -- a comment with a ; in it
/* a block comment
   over lines; */ SELECT 4;
CREATE TABLE log(msg TEXT);
CREATE TABLE t(x);
CREATE TRIGGER tr AFTER INSERT ON t BEGIN
  INSERT INTO log VALUES ('one;');
  INSERT INTO log VALUES ('two');
END;
INSERT INTO t VALUES (1);
SELECT msg FROM log;
CREATE TEMP TABLE scratch(x);
.tables
.schema t
.schema
   .headers on
SELECT 'last, without semicolon' AS s
