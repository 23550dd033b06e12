-- The experiment of the Persian lecture notes (notes 004, §4), on the 8x8
-- digits shipped here: what does a kernel do to the data? Digits 2, 4 and
-- 7, pixels scaled to [0, 1] (x = p/16), d = 64, and two polynomial kernels
-- of degree 9:
--     k1(x, z) = (<x, z>/64)^9                       (naive)
--     k2(x, z) = ((<2x-1, 2z-1>/64 + 1)/2)^9         (chosen with care)
-- both written in the spec language over vectors prepared in SQL:
--     k1 = 2^-54 * poly(degree=9, r=0)        over x
--     k2 = 2^-63 * poly(degree=9, r=64)       over u = 2x - 1
-- Train/test split, half each, by a fixed rule: even ids train, odd ids test.
-- For each kernel: a t-SNE picture of the training images (its
-- trustworthiness, and the 5-nearest-neighbour accuracy of the test images
-- placed into it), and a kernel Fisher discriminant (the accuracy of a
-- nearest-class-mean rule on the test images' projections).
--
--     ksql :memory: ".read examples/digits/kernels.sql"      (10 to 15 s on two cores)

.bail on
.mode box
.print 'Loading digits.csv (digits 2, 4 and 7) ...'
.import digits.csv digits
CREATE TABLE pix AS SELECT id, label AS digit, json_array(p0, p1, p2, p3, p4, p5, p6, p7, p8, p9, p10, p11, p12, p13, p14, p15,
    p16, p17, p18, p19, p20, p21, p22, p23, p24, p25, p26, p27, p28, p29, p30, p31,
    p32, p33, p34, p35, p36, p37, p38, p39, p40, p41, p42, p43, p44, p45, p46, p47,
    p48, p49, p50, p51, p52, p53, p54, p55, p56, p57, p58, p59, p60, p61, p62, p63) AS p
  FROM digits WHERE label IN (2, 4, 7);
CREATE TABLE v(id INTEGER PRIMARY KEY, digit INTEGER, train INTEGER, x float[64], u float[64]);
INSERT INTO v SELECT id, digit, id % 2 = 0,
    vec_f32((SELECT json_group_array(value / 16.0) FROM json_each(p))),
    vec_f32((SELECT json_group_array(value / 8.0 - 1) FROM json_each(p)))
  FROM pix;
SELECT train, count(*) AS images FROM v GROUP BY train;

.print
.print '1. t-SNE pictures of the two feature spaces (training images)'
CREATE VIRTUAL TABLE tsne_k1 USING tsne(query='SELECT id, x FROM v WHERE train',
    kernel='5.551115123125783e-17*poly(degree=9, r=0)', perplexity=30, seed=0);
CREATE VIRTUAL TABLE tsne_k2 USING tsne(query='SELECT id, u FROM v WHERE train',
    kernel='1.0842021724855044e-19*poly(degree=9, r=64)', perplexity=30, seed=0);
.plot --title "t-SNE, k1 = (<x,z>/64)^9" --xlabel x1 --ylabel x2 SELECT t.x1, t.x2, v.digit FROM tsne_k1 AS t JOIN v USING (id)
.plot --title "t-SNE, k2 = ((<2x-1,2z-1>/64 + 1)/2)^9" --xlabel x1 --ylabel x2 SELECT t.x1, t.x2, v.digit FROM tsne_k2 AS t JOIN v USING (id)

.print
.print '2. The test images placed into each picture, and their 5 nearest training images'
CREATE TABLE placed AS
  SELECT 'k1' AS kernel, v.id, v.digit, t.x1, t.x2 FROM v, tsne_k1 AS t WHERE NOT v.train AND t.input = v.x
  UNION ALL
  SELECT 'k2', v.id, v.digit, t.x1, t.x2 FROM v, tsne_k2 AS t WHERE NOT v.train AND t.input = v.u;
CREATE TABLE pictured AS
  SELECT 'k1' AS kernel, t.id, v.digit, t.x1, t.x2 FROM tsne_k1 AS t JOIN v USING (id)
  UNION ALL
  SELECT 'k2', t.id, v.digit, t.x1, t.x2 FROM tsne_k2 AS t JOIN v USING (id);
CREATE TABLE knn AS
  WITH near AS (
    SELECT p.kernel, p.id, p.digit AS truth, q.digit,
           row_number() OVER (PARTITION BY p.kernel, p.id
             ORDER BY (p.x1 - q.x1) * (p.x1 - q.x1) + (p.x2 - q.x2) * (p.x2 - q.x2), q.id) AS r
    FROM placed AS p JOIN pictured AS q ON q.kernel = p.kernel),
  votes AS (SELECT kernel, id, truth, digit, count(*) AS n, min(r) AS first FROM near WHERE r <= 5 GROUP BY kernel, id, digit),
  ranked AS (SELECT *, row_number() OVER (PARTITION BY kernel, id ORDER BY n DESC, first) AS k FROM votes)
  SELECT kernel, id, truth, digit AS guess FROM ranked WHERE k = 1;

.print
.print '3. Kernel Fisher discriminants (2 directions) and a nearest-class-mean rule'
CREATE VIRTUAL TABLE fda_k1 USING kfda(query='SELECT id, x, digit FROM v WHERE train',
    kernel='5.551115123125783e-17*poly(degree=9, r=0)', components=2, reg=1e-3);
CREATE VIRTUAL TABLE fda_k2 USING kfda(query='SELECT id, u, digit FROM v WHERE train',
    kernel='1.0842021724855044e-19*poly(degree=9, r=64)', components=2, reg=1e-3);
CREATE TABLE fproj AS
  SELECT 'k1' AS kernel, v.id, v.digit, f.f1, f.f2 FROM v, fda_k1 AS f WHERE NOT v.train AND f.input = v.x
  UNION ALL
  SELECT 'k2', v.id, v.digit, f.f1, f.f2 FROM v, fda_k2 AS f WHERE NOT v.train AND f.input = v.u;
CREATE TABLE centres AS
  SELECT 'k1' AS kernel, label AS digit, avg(f1) AS c1, avg(f2) AS c2 FROM fda_k1 GROUP BY label
  UNION ALL
  SELECT 'k2', label, avg(f1), avg(f2) FROM fda_k2 GROUP BY label;
CREATE TABLE ncm AS
  SELECT p.kernel, p.id, p.digit AS truth,
         (SELECT c.digit FROM centres AS c WHERE c.kernel = p.kernel
          ORDER BY (p.f1 - c.c1) * (p.f1 - c.c1) + (p.f2 - c.c2) * (p.f2 - c.c2) LIMIT 1) AS guess
  FROM fproj AS p;

.print
.print '4. The two kernels side by side'
SELECT k.kernel,
       round((SELECT value FROM ksql_model(CASE k.kernel WHEN 'k1' THEN 'tsne_k1' ELSE 'tsne_k2' END)
              WHERE name = 'trustworthiness'), 4) AS tsne_trustworthiness,
       round(avg(k.guess = k.truth), 4) AS tsne_5nn_test_accuracy,
       (SELECT round(avg(n.guess = n.truth), 4) FROM ncm AS n WHERE n.kernel = k.kernel) AS kfda_test_accuracy
FROM knn AS k GROUP BY k.kernel;
