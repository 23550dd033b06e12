-- args: -box
-- Vector BLOBs: a column declared float[N], cut in display modes, in full
-- in json; quote mode writes the BLOB literal.
CREATE TABLE v(id INTEGER, e float[8], raw BLOB);
INSERT INTO v VALUES
  (1, vec_f32('[0.12, -0.5, 3, 4, 5, 6, 7, 8]'), x'0102'),
  (2, vec_f32('[1e-3, 2.5e5]'), CAST('abcd' AS BLOB));
SELECT id, e, raw, length(e) AS bytes FROM v;
.vectors auto 3
SELECT e FROM v;
.mode csv
SELECT id, e FROM v;
.mode json
SELECT id, e, raw FROM v;
.mode quote
SELECT id, e FROM v WHERE id = 2;
.mode list
-- A BLOB column holds BLOBs: they print as sqlite3 prints them, whatever
-- their bytes, unless .vectors on.
SELECT raw FROM v WHERE id = 2;
SELECT CAST('abcd' AS BLOB) AS b;
.vectors on
SELECT CAST('abcd' AS BLOB) AS b;
.vectors off
SELECT length(e), e = vec_f32('[1e-3, 2.5e5]') FROM v WHERE id = 2;
.vectors sideways
.vectors auto 0
.vectors
.vectors auto 6
-- Functions that return vectors, under an alias or not, in parentheses.
SELECT rff_embed('[1, 2]', 4, 1.0) AS r, (vec_f32('[3]')), vec_f32('[4, 5]'), length(vec_f32('[1]')) AS n;
-- A vec0 table's float[N] columns are vectors (vec0 declares no types).
CREATE VIRTUAL TABLE vv USING vec0(emb float[3]);
INSERT INTO vv(rowid, emb) VALUES (1, '[1, 2, 3]');
SELECT rowid, emb FROM vv;
SELECT emb AS through_a_subquery FROM (SELECT emb FROM vv);
-- kernel_map's vector column.
CREATE TABLE pts(id INTEGER PRIMARY KEY, x TEXT);
INSERT INTO pts VALUES (1, '[1, 0]'), (2, '[0, 1]'), (3, '[1, 1]');
CREATE VIRTUAL TABLE pts_map USING kernel_map(table=pts, id=id, column=x, kernel='linear');
SELECT id, vector FROM pts_map ORDER BY id;
-- Shadow tables are the modules' business: .tables shows the user's tables.
.tables
