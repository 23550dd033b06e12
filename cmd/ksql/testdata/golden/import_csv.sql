-- args: -box
-- A real data set (iris, see testdata/README.md): the table is created from
-- the header with inferred types, in one transaction.
.import iris.csv iris
.schema iris
SELECT count(*) AS n, typeof(sepal_length) AS t1, typeof(id) AS t2, typeof(species) AS t3 FROM iris;
SELECT species, count(*) AS n, round(avg(petal_length), 3) AS mean_petal FROM iris GROUP BY species;
SELECT * FROM iris WHERE id IN (0, 34, 149);
-- Into an existing table the first line is data, as in sqlite3: --skip 1
-- skips the header. Values go in as text, for the columns' affinity.
CREATE TABLE few(id INTEGER, sepal_length REAL, sepal_width REAL, petal_length REAL, petal_width REAL, species TEXT);
.import --skip 1 iris.csv few
SELECT count(*), typeof(id), typeof(sepal_length), sum(id) FROM few;
-- A new table in the temp schema.
.import --schema temp --csv iris.csv t_iris
SELECT count(*) FROM temp.t_iris;
-- Tab-separated values: .mode tabs sets the separator .import uses.
.mode tabs
.import tabs.tsv tsv
.mode box
SELECT * FROM tsv;
-- Quoted fields with line breaks, commas and quotes.
.import --csv multiline.csv m
.mode line
SELECT * FROM m;
-- ASCII unit and record separators (--ascii, or .mode ascii): no quoting.
.import --ascii units.txt units
.mode list
SELECT * FROM units;
