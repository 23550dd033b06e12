-- Bad input gets a clear error, and the shell goes on.
.open corpus
.open iris.csv
SELECT 'still here';
.output /nonexistent/dir/out.txt
.output corpus
.once corpus
.parameter set :x (select 1
.parameter set x 1
.parameter set :y
.parameter set :z abs(-9223372036854775808)
.parameter set :w plain_text
.parameter list
.parameter frobnicate
.load no/such/library
.load iris.csv
.restore no/such.db
.restore iris.csv
.backup corpus
.backup temp x.db
.read corpus
.import corpus/image.bin t
.mode box
.width x
.exit 300
.timeout -1
.separator
.cd no/such/dir
SELECT readfile('corpus');
SELECT writefile('corpus', 'x');
SELECT writefile('x.txt', 42);
SELECT 'the end';
