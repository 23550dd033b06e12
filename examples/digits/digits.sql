-- Handwritten digits: kernel PCA of 8x8 images, and a picture coloured by digit.
--
-- Run it from any directory (digits.csv is found next to this file):
--     ksql :memory: ".read examples/digits/digits.sql"
-- or stay at the prompt afterwards, with the tables, to go on:
--     ksql -cmd ".read examples/digits/digits.sql"
-- The picture goes to a temporary file whose path is printed.
--
-- The data (digits.csv, provenance in ../README.md): 1,797 images of
-- handwritten digits from scikit-learn, 8x8 pixels of grey levels 0-16, in
-- columns p0 … p63 row by row, and the digit shown (label).

.bail on
.mode box
.print 'Loading digits.csv ...'
.import digits.csv digits
.print

.print '1. The images: how many of each digit'
SELECT label AS digit, count(*) AS images FROM digits GROUP BY label;

.print
.print '2. One vector per image: the 64 pixels as a float32 vector (a column declared float[64])'
CREATE TABLE digit_vectors(id INTEGER PRIMARY KEY, digit INTEGER, pixels float[64]);
INSERT INTO digit_vectors
  SELECT id, label,
         vec_f32(json_array(p0, p1, p2, p3, p4, p5, p6, p7, p8, p9, p10, p11, p12, p13, p14, p15,
         p16, p17, p18, p19, p20, p21, p22, p23, p24, p25, p26, p27, p28, p29, p30, p31,
         p32, p33, p34, p35, p36, p37, p38, p39, p40, p41, p42, p43, p44, p45, p46, p47,
         p48, p49, p50, p51, p52, p53, p54, p55, p56, p57, p58, p59, p60, p61, p62, p63))
  FROM digits;
SELECT id, digit, pixels FROM digit_vectors LIMIT 3;

.print
.print '3. The images most like image 0 (a zero) by a Gaussian kernel, and their digits'
SELECT b.id, b.digit, round(gauss_kernel(a.pixels, b.pixels, 30), 4) AS similarity
FROM digit_vectors AS a, digit_vectors AS b
WHERE a.id = 0 AND b.id <> 0
ORDER BY similarity DESC LIMIT 5;

.print
.print '4. Kernel PCA with gauss(sigma=30): the two leading components'
CREATE VIRTUAL TABLE digits_pca USING kpca(
    table=digit_vectors, id=id, column=pixels, kernel='gauss(sigma=30)', components=2);
SELECT component, round(eigenvalue, 4) AS eigenvalue, round(explained_ratio, 4) AS explained
FROM kpca_eigen('digits_pca');

.print
.print '5. Where each digit lies on the two components, on average'
SELECT v.digit, round(avg(p.pc1), 3) AS mean_pc1, round(avg(p.pc2), 3) AS mean_pc2, count(*) AS images
FROM digits_pca AS p JOIN digit_vectors AS v USING (id)
GROUP BY v.digit ORDER BY mean_pc1;

.print
.print '6. The picture: each image at its two components, coloured by its digit'
.plot --title "Kernel PCA of 1,797 handwritten digits, gauss(sigma=30)" SELECT p.pc1, p.pc2, v.digit FROM digits_pca AS p JOIN digit_vectors AS v USING (id)

.print
.print '7. An SVM that tells the digits apart, with 5-fold cross-validation'
CREATE VIRTUAL TABLE digits_svm USING svm(table=digit_vectors, id=id,
    column=pixels, label=digit, kernel='gauss(sigma=30)', C=10, folds=5);
SELECT label AS digit, count(*) AS images, sum(cv_prediction = label) AS right_in_cv
FROM digits_svm GROUP BY label;
SELECT name, value FROM ksql_model('digits_svm') WHERE name IN ('support_vectors', 'cv_accuracy');

.print
.print "8. A t-SNE picture of the same kernel's feature space, coloured by digit"
CREATE VIRTUAL TABLE digits_tsne USING tsne(table=digit_vectors, id=id,
    column=pixels, kernel='gauss(sigma=30)', dims=2, perplexity=30, seed=0);
SELECT name, round(value, 4) AS value FROM ksql_model('digits_tsne') WHERE name IN ('kl_divergence', 'trustworthiness');
.plot --title "t-SNE of 1,797 handwritten digits, gauss(sigma=30)" SELECT t.x1, t.x2, v.digit FROM digits_tsne AS t JOIN digit_vectors AS v USING (id)

-- Next: examples/digits/kernels.sql compares two polynomial kernels on
-- digits 2, 4 and 7 with t-SNE and kernel Fisher discriminants.
