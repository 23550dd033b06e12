SELECT 1;
selec 2;
SELECT nosuch FROM (SELECT 1);
SELECT foo(1);
SELECT 1 +
  ;
SELECT 1 a b c;
SELECT x FROM
(SELECT 1 AS y);
SELECT abs(-9223372036854775808);
SELECT 'after errors';
SELECT 'no semicolon at the end'
