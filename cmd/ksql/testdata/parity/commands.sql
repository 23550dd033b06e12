CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT);
CREATE INDEX tb ON t(b);
CREATE TABLE "odd name"(x);
CREATE VIEW v AS SELECT a FROM t;
INSERT INTO t VALUES (1, 'x'), (2, 'y');
.tables
.tables t%
.schema t
.indexes
.indexes t
.print plain words "double\tquoted" 'single\tquoted' un\tquoted
.changes on
INSERT INTO t VALUES (3, 'z');
UPDATE t SET b = b || '!';
SELECT 1;
.changes off
.echo on
SELECT b FROM t WHERE a = 1;
.print echoed too
.echo off
.parameter set :a 42
.parameter set @b 'two words'
.parameter set $c 2.5
.parameter set :d text
.parameter set ?3 7
.parameter set :e x'0102'
.parameter set :f NULL
.parameter set :g 1+2
.parameter list
SELECT :a, @b, $c, :d, ?3, :e IS NOT NULL, :f IS NULL, :g, :unset IS NULL;
SELECT ?1, ?3;
.parameter unset :a
.parameter list
.parameter clear
.parameter list
SELECT :a IS NULL;
.separator , ;
SELECT 1, 2;
SELECT 3, 4;
.separator | \n
.nullvalue (nil)
SELECT NULL;
.once once-output.txt
SELECT 'to the file';
SELECT 'to stdout';
