-- Each bad CSV stops its import with the line number; nothing is kept.
.import bad_quote.csv t
.import too_many.csv t
.import too_few.csv t
.import latin1.csv t
.import empty.csv t
.import dup_header.csv t
SELECT count(*) AS tables_made FROM sqlite_schema;
-- An existing table keeps its rows when an import into it fails.
CREATE TABLE iris(id INTEGER, sepal_length REAL, sepal_width REAL, petal_length REAL, petal_width REAL, species TEXT);
INSERT INTO iris VALUES (999, 1, 2, 3, 4, 'kept');
.import other.csv iris
.import too_few.csv iris
CREATE UNIQUE INDEX one_species ON iris(species);
.import iris.csv iris
SELECT * FROM iris;
-- A failed import inside the user's transaction leaves the transaction alone.
BEGIN;
INSERT INTO iris VALUES (1000, 1, 2, 3, 4, 'in the transaction');
.import too_many.csv iris
COMMIT;
SELECT id, species FROM iris ORDER BY id;
