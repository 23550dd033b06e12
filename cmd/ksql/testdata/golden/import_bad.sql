-- Bad CSV stops its import with the line number; nothing is kept.
.import bad_quote.csv t
.import latin1.csv t
.import empty.csv t
.import dup_header.csv t
SELECT count(*) AS tables_made FROM sqlite_schema;
-- Rows of the wrong length go in as sqlite3 puts them: missing fields are
-- NULL, extra ones dropped, each with a warning.
.import too_many.csv many
.import too_few.csv few
.mode quote
SELECT * FROM many;
SELECT * FROM few;
-- Into an existing table the header line is data (sqlite3's rule), checked
-- against the table's columns like any other line.
.import other.csv few
SELECT * FROM few WHERE a IN ('x', '1');
-- An existing table keeps its rows when an import into it fails.
CREATE TABLE iris(id INTEGER, sepal_length REAL, sepal_width REAL, petal_length REAL, petal_width REAL, species TEXT);
INSERT INTO iris VALUES (999, 1, 2, 3, 4, 'kept');
CREATE UNIQUE INDEX one_species ON iris(species);
.import --skip 1 iris.csv iris
SELECT * FROM iris;
-- A failed import inside the user's transaction leaves the transaction alone.
BEGIN;
INSERT INTO iris VALUES (1000, 1, 2, 3, 4, 'in the transaction');
.import --skip 1 iris.csv iris
COMMIT;
SELECT id, species FROM iris ORDER BY id;
-- Options.
.import --skip x iris.csv iris
.import --frobnicate iris.csv iris
.import --skip
