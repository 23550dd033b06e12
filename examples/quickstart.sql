-- ksql quickstart: kernel methods on real texts, inside SQLite.
--
-- Run it from the repository root:
--     go run ./cmd/ksql < examples/quickstart.sql
-- or interactively, to keep the tables and go on exploring:
--     go run ./cmd/ksql -cmd ".read examples/quickstart.sql"
--
-- The data (provenance in examples/README.md): 40 Reuters news texts, 20
-- about company acquisitions (label acq) and 20 about crude oil (crude);
-- 106 E. coli DNA sequences, promoters (+) or not (-); Fisher's iris flowers.

.mode box
.import examples/reuters.csv reuters
.import examples/promoters.csv promoters
.import examples/iris.csv iris

-- 1. What is there.
SELECT label, count(*) AS texts, min(length(text)) AS shortest, max(length(text)) AS longest
FROM reuters GROUP BY label;

-- 2. The texts most like text 0 (an acquisition), by the 3-gram spectrum
--    kernel, normalised so that every text has similarity 1 with itself.
SELECT b.id, b.label,
       round(kernel('normalize(ngram(n=3))', a.text, b.text), 4) AS similarity,
       substr(replace(b.text, char(10), ' '), 1, 50) AS text
FROM reuters AS a, reuters AS b
WHERE a.id = 0 AND b.id <> a.id
ORDER BY similarity DESC LIMIT 5;

-- 3. The same question by the subsequence kernel: common subsequences of
--    3 characters, gaps allowed.
SELECT b.id, b.label,
       round(kernel('normalize(subseq(p=3))', a.text, b.text), 4) AS similarity
FROM reuters AS a, reuters AS b
WHERE a.id = 0 AND b.id <> a.id
ORDER BY similarity DESC LIMIT 5;

-- 4. A nearest-neighbour classifier, leave one out: each text takes the label
--    of the most similar other text. (SQLite gives the bare column "guess"
--    from the row where max(s) is reached.)
WITH sims AS (
  SELECT a.id, a.label, b.label AS guess,
         kernel('normalize(ngram(n=3))', a.text, b.text) AS s
  FROM reuters AS a JOIN reuters AS b ON a.id <> b.id),
best AS (SELECT id, label, guess, max(s) FROM sims GROUP BY id)
SELECT label, count(*) AS texts, sum(guess = label) AS correct FROM best GROUP BY label;

-- 5. The same on DNA, with the gap-weighted subsequence kernel of Lodhi et al.
WITH sims AS (
  SELECT a.id, a.class, b.class AS guess,
         kernel('normalize(ssk(p=3, lambda=0.5))', a.sequence, b.sequence) AS s
  FROM promoters AS a JOIN promoters AS b ON a.id <> b.id),
best AS (SELECT id, class, guess, max(s) FROM sims GROUP BY id)
SELECT class, count(*) AS sequences, sum(guess = class) AS correct FROM best GROUP BY class;

-- 6. A map of the corpus: every text placed by its similarity to an
--    acquisition text (id 0) and to a crude-oil text (id 20), coloured by label.
.plot --out examples/reuters-map.png SELECT kernel('normalize(ngram(n=3))', d.text, a.text) AS like_acq_0, kernel('normalize(ngram(n=3))', d.text, c.text) AS like_crude_20, d.label FROM reuters AS d, reuters AS a, reuters AS c WHERE a.id = 0 AND c.id = 20

-- 7. Vectors: feature columns become a float32 vector with plain SQL, and
--    print as vectors. The flowers nearest to flower 0 by a Gaussian kernel:
SELECT b.id, b.species,
       vec_f32(json_array(b.sepal_length, b.sepal_width, b.petal_length, b.petal_width)) AS features,
       round(gauss_kernel(vec_f32(json_array(a.sepal_length, a.sepal_width, a.petal_length, a.petal_width)),
                          vec_f32(json_array(b.sepal_length, b.sepal_width, b.petal_length, b.petal_width)), 0.5), 4) AS k
FROM iris AS a, iris AS b
WHERE a.id = 0 AND b.id <> a.id
ORDER BY k DESC LIMIT 3;

-- 8. The kernel spec language, for your own queries:
.kernels
