-- args: -box
-- A real data set (iris, see testdata/README.md): the table is created from
-- the header with inferred types, in one transaction.
.import iris.csv iris
.schema iris
SELECT count(*) AS n, typeof(sepal_length) AS t1, typeof(id) AS t2, typeof(species) AS t3 FROM iris;
SELECT species, count(*) AS n, round(avg(petal_length), 3) AS mean_petal FROM iris GROUP BY species;
SELECT * FROM iris WHERE id IN (0, 34, 149);
-- Importing into an existing table matches the header by name.
CREATE TABLE few(species TEXT, id INTEGER, sepal_length REAL, sepal_width REAL, petal_length REAL, petal_width REAL);
.import iris.csv few
SELECT count(*) FROM few;
-- Quoted fields with line breaks, commas and quotes.
.import --csv multiline.csv m
.mode line
SELECT * FROM m;
