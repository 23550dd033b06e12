-- args: -box
-- Vector BLOBs: from vec_f32, truncated in human modes, in full in csv and json.
CREATE TABLE v(id INTEGER, e BLOB, raw BLOB);
INSERT INTO v VALUES
  (1, vec_f32('[0.12, -0.5, 3, 4, 5, 6, 7, 8]'), x'0102'),
  (2, vec_f32('[1e-3, 2.5e5]'), x'00000000ff');
SELECT id, e, raw, length(e) AS bytes FROM v;
.vectors auto 3
SELECT e FROM v;
.mode csv
SELECT id, e FROM v;
.mode json
SELECT id, e FROM v;
.mode list
-- Four bytes of a tiny subnormal are not data: auto shows hex, on forces.
SELECT x'01000000' AS b;
.vectors on
SELECT x'01000000' AS b;
.vectors off
SELECT e FROM v WHERE id = 2;
.vectors sideways
.vectors auto 0
.vectors
-- A vec0 table declares float[N]: those columns are vectors.
.vectors auto 6
CREATE VIRTUAL TABLE vv USING vec0(emb float[3]);
INSERT INTO vv(rowid, emb) VALUES (1, '[1, 2, 3]');
SELECT rowid, emb FROM vv;
-- vec0's shadow tables are its own business: .tables shows vv and v only.
.tables
