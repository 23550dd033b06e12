-- args: -box
-- A directory of text files: one row per file, non-text files skipped.
.import corpus docs
.schema docs
SELECT id, name, length(body) AS chars, substr(body, 1, 30) AS start FROM docs ORDER BY id;
-- Importing again hits the UNIQUE name: nothing of the second pass stays.
.import corpus docs
SELECT count(*) FROM docs;
