-- ksql quickstart: kernel methods on real texts, inside SQLite.
--
-- Run it from any directory (the paths below are relative to this file):
--     ksql :memory: ".read examples/quickstart.sql"
-- or, to stay in the shell with the tables afterwards and go on exploring:
--     ksql -cmd ".read examples/quickstart.sql"
-- (from a checkout without installing: go run ./cmd/ksql ... instead of ksql).
-- The pictures of steps 6 and 12 go to temporary files whose paths are printed.
--
-- The data (provenance in examples/README.md): 40 Reuters news texts, 20
-- about company acquisitions (label acq) and 20 about crude oil (crude);
-- 106 E. coli DNA sequences, promoters (+) or not (-); Fisher's iris flowers.

.bail on
.mode box
.print 'Loading reuters.csv, promoters.csv and iris.csv ...'
.import reuters.csv reuters
.import promoters.csv promoters
.import iris.csv iris
.print

-- 1. What is there.
.print '1. The news texts: how many of each label, and how long'
SELECT label, count(*) AS texts, min(length(text)) AS shortest, max(length(text)) AS longest
FROM reuters GROUP BY label;

.print
-- 2. The texts most like text 0 (an acquisition) by the 3-gram spectrum
--    kernel, normalised so that every text has similarity 1 with itself.
--    A gram table is the corpus's kernel matrix; row_id = 0 computes one row.
.print '2. The texts most like text 0 (an acquisition), by normalize(ngram(n=3)) through a gram table'
CREATE VIRTUAL TABLE reuters_gram USING gram(
    table=reuters, id=id, column=text, kernel='normalize(ngram(n=3))');
SELECT g.col_id AS id, r.label, round(g.value, 4) AS similarity,
       substr(replace(r.text, char(10), ' '), 1, 50) AS text
FROM reuters_gram AS g JOIN reuters AS r ON r.id = g.col_id
WHERE g.row_id = 0 AND g.col_id <> 0
ORDER BY g.value DESC LIMIT 5;

.print
-- 3. The same question by the subsequence kernel (common subsequences of
--    3 characters, gaps allowed), with kernel() on any two values.
.print '3. The same question by normalize(subseq(p=3)), with kernel() on two values'
SELECT b.id, b.label,
       round(kernel('normalize(subseq(p=3))', a.text, b.text), 4) AS similarity
FROM reuters AS a, reuters AS b
WHERE a.id = 0 AND b.id <> a.id
ORDER BY similarity DESC LIMIT 5;

.print
-- 4. A nearest-neighbour classifier, leave one out: each text takes the label
--    of the most similar other text. The full scan of the gram table computes
--    each pair once, on all cores. (SQLite gives the bare column col_id from
--    the row where max(value) is reached.)
.print '4. Leave-one-out nearest neighbour on the news texts: right answers per label'
WITH best AS (
  SELECT row_id, col_id, max(value) FROM reuters_gram WHERE row_id <> col_id GROUP BY row_id)
SELECT a.label, count(*) AS texts, sum(a.label = b.label) AS correct
FROM best JOIN reuters AS a ON a.id = best.row_id JOIN reuters AS b ON b.id = best.col_id
GROUP BY a.label;

.print
-- 5. The same on DNA, with the gap-weighted subsequence kernel of Lodhi et al.
.print '5. The same on DNA sequences, by normalize(ssk(p=3, lambda=0.5))'
WITH sims AS (
  SELECT a.id, a.class, b.class AS guess,
         kernel('normalize(ssk(p=3, lambda=0.5))', a.sequence, b.sequence) AS s
  FROM promoters AS a JOIN promoters AS b ON a.id <> b.id),
best AS (SELECT id, class, guess, max(s) FROM sims GROUP BY id)
SELECT class, count(*) AS sequences, sum(guess = class) AS correct FROM best GROUP BY class;

.print
-- 6. Kernel PCA of the corpus: two components, the share of variance they
--    explain, where a new text lands, and a picture.
.print '6. Kernel PCA of the news texts: eigenvalues, a new text projected, and a picture'
CREATE VIRTUAL TABLE reuters_pca USING kpca(
    table=reuters, id=id, column=text, kernel='normalize(ngram(n=3))', components=2);
SELECT component, round(eigenvalue, 4) AS eigenvalue, round(explained_ratio, 4) AS explained
FROM kpca_eigen('reuters_pca');
SELECT round(pc1, 4) AS pc1, round(pc2, 4) AS pc2
FROM reuters_pca('Oil prices rose as OPEC ministers met in Vienna to discuss output quotas');
.plot --title "Kernel PCA of 40 Reuters texts, normalize(ngram(n=3))" SELECT p.pc1, p.pc2, r.label FROM reuters_pca AS p JOIN reuters AS r USING (id)

.print
-- 7. Exact kernel nearest neighbours with sqlite-vec: kernel_map gives each
--    text a vector whose dot products are the kernel values; vec0 searches them.
.print '7. Exact kernel nearest neighbours of a new text: kernel_map vectors in a vec0 index'
CREATE VIRTUAL TABLE reuters_map USING kernel_map(
    table=reuters, id=id, column=text, kernel='normalize(ngram(n=3))');
SELECT id, vector FROM reuters_map LIMIT 2;
CREATE VIRTUAL TABLE reuters_vec USING vec0(embedding float[40]);
INSERT INTO reuters_vec(rowid, embedding) SELECT id, vector FROM reuters_map;
SELECT v.rowid AS id, r.label, round(v.distance, 4) AS distance
FROM reuters_vec AS v JOIN reuters AS r ON r.id = v.rowid
WHERE v.embedding MATCH (SELECT vector FROM reuters_map(
        'Oil prices rose as OPEC ministers met in Vienna to discuss output quotas'))
  AND k = 3
ORDER BY v.distance;

.print
-- 8. Vectors from feature columns, with plain SQL: the flowers nearest to
--    flower 0 by a Gaussian kernel.
.print '8. The flowers nearest to flower 0 by a Gaussian kernel on float32 feature vectors'
SELECT b.id, b.species,
       vec_f32(json_array(b.sepal_length, b.sepal_width, b.petal_length, b.petal_width)) AS features,
       round(gauss_kernel(vec_f32(json_array(a.sepal_length, a.sepal_width, a.petal_length, a.petal_width)),
                          vec_f32(json_array(b.sepal_length, b.sepal_width, b.petal_length, b.petal_width)), 0.5), 4) AS k
FROM iris AS a, iris AS b
WHERE a.id = 0 AND b.id <> a.id
ORDER BY k DESC LIMIT 3;

.print
-- 9. Learning: a support vector machine on the DNA sequences, with the same
--    string kernel, scored by 5-fold cross-validation (each sequence
--    predicted by the svm fitted without its fold).
.print '9. An svm on the DNA sequences by normalize(ssk(p=3, lambda=0.5)): cross-validated accuracy'
CREATE VIRTUAL TABLE promoter_svm USING svm(table=promoters, id=id, column=sequence, label=class,
    kernel='normalize(ssk(p=3, lambda=0.5))', C=10, folds=5, seed=0);
SELECT name, round(value, 4) AS value FROM ksql_model('promoter_svm')
WHERE name IN ('rows', 'training_accuracy', 'cv_accuracy');

.print
-- 10. The fitted svm answers for a sequence it has not seen (promoter 19 with
--     three bases changed), through the table's hidden input column: the
--     class and the decision value (positive for the larger label, '-').
.print '10. The svm classifies a new sequence'
SELECT prediction, round(decision, 4) AS decision
FROM promoter_svm('tcctagcaatacgcttgagttcggtggttaagtatgtataatgcgcgtgcttgtcgt');

.print
-- 11. Regression on numeric columns: kernel ridge regression of the petal
--     width from the other three measurements, standardised (scale=standard),
--     read straight from the table's columns.
.print '11. Kernel ridge regression: iris petal width from the other three measurements'
CREATE VIRTUAL TABLE width_krr USING krr(table=iris, id=id, columns=sepal_length..petal_length,
    scale=standard, label=petal_width, kernel='gauss(sigma=2)', alpha=0.1, folds=5, seed=0);
SELECT name, round(value, 4) AS value FROM ksql_model('width_krr') WHERE name IN ('train_mse', 'cv_mse');
SELECT round(prediction, 2) AS predicted_width FROM width_krr('[6.1, 2.8, 4.7]');

.print
-- 12. A t-SNE picture of the news texts: each text a point, near the texts
--     its kernel finds alike, coloured by label.
.print '12. A t-SNE picture of the news texts by normalize(ngram(n=3)), coloured by label'
CREATE VIRTUAL TABLE reuters_tsne USING tsne(table=reuters, id=id, column=text,
    kernel='normalize(ngram(n=3))', dims=2, perplexity=10, seed=0);
SELECT name, round(value, 4) AS value FROM ksql_model('reuters_tsne') WHERE name = 'trustworthiness';
.plot --title "t-SNE of 40 Reuters texts, normalize(ngram(n=3))" SELECT t.x1, t.x2, r.label FROM reuters_tsne AS t JOIN reuters AS r USING (id)

.print
-- 13. The kernel spec language, for your own queries:
.print '13. The kernel spec language, for your own queries (.help svm shows the arguments of svm, and so on)'
.kernels
