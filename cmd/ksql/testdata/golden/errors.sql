-- Every error is reported with its line, and the rest of the input still runs.
SELECT 1;
SELECT nosuch FROM nowhere;
.frobnicate
.mode sideways
.headers maybe
.timer
.read no/such/file.sql
.read golden
.output golden
SELECT 'output still on stdout' AS after_bad_output;
.import missing.csv t
.import
.help nosuch
.plot SELECT 'a' AS name, 'b' AS other
.plot SELECT 1 AS x, 'b' AS y
.plot --out plot.gif SELECT 1, 2
.plot --out golden SELECT 1, 2
.plot --colour red SELECT 1, 2
.plot
.plot SELECT 1, 2 WHERE 0
SELECT gauss_kernel('[1,2,3]', '[1,2]', 1.0);
SELECT 'unterminated
