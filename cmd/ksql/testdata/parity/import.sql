CREATE TABLE e(a, b, c);
.import --csv ragged.csv e
SELECT * FROM e;
.import --csv ragged.csv n
SELECT * FROM n;
.import --csv --skip 1 ragged.csv e2
SELECT count(*) FROM e2;
.import --csv --schema temp ragged.csv tt
SELECT count(*) FROM temp.tt;
.mode csv
.import ragged.csv e3
SELECT * FROM e3;
