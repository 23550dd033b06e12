// Package vtab holds ksql's virtual table modules (gram, kpca, kernel_map,
// kpca_eigen), written once against the driver-neutral host.Module. Each
// is an exported value (Gram, KPCA, ...) that the declared list in
// ext/catalog names, beside the setting they read, MaxGramBytes. Every
// fitted table (kpca, kernel_map, and the model tables to come) is one
// file on the core in model.go, whose comment says how to add one.
//
// # Sources
//
// Every module reads its objects with SQL on the connection it runs on (so
// a :memory: database works), as (id, object) pairs:
//
//	table=docs, id=id, column=body        -- names, quoted when used, never pasted
//	query='SELECT id, body FROM docs WHERE lang = ''ru'''
//
// Names may be written bare, or quoted as "...", [...] or `...`; table= may
// be schema-qualified (temp.docs). query= must be one read-only SELECT (or
// VALUES, or WITH ... SELECT) of exactly two columns. It is placed in the
// body of a common table expression, WITH ksql_source(id, object) AS
// (query) SELECT ..., where SQLite accepts nothing but a select statement;
// before that, ksql refuses any ';' outside quotes and comments (a second
// statement) and unbalanced parentheses (which could close the CTE early
// and continue as INSERT). Both drivers support this; neither exposes
// sqlite3_stmt_readonly to Go code running inside a statement.
//
// kernel= is any kernel spec (quoted or bare). The source is read ordered
// by id, which fixes the training order and so the result.
//
// Ids must be unique and not NULL: a fitted model's rows are named by
// them, and gram's row_id = ? must name one row. Equality is SQLite's (1
// and 1.0 are the same id; 1 and '1' are not). A NULL or duplicate id is an
// error naming it. A NULL object leaves its row out of every computation:
// the row is still listed, with NULL kernel values, projections or vector
// (NULL in, NULL out). Objects of the wrong type (a number under a string
// kernel, text that is not a vector) are errors naming the row.
//
// # Freshness
//
// Every query re-reads the source and hashes its ids and objects
// (SHA-256). A fit (kpca, kernel_map) and the decoded objects are kept per
// table and per connection and reused while the hash is unchanged; any
// change (INSERT, UPDATE, DELETE, by this or another connection, or a
// query= whose result changes) refits on the next query. Fits are counted
// in ksql_config('fit_count'). A failed fit is cached like a model when the
// failure is a property of the data (too many components, identical
// objects); bound errors and interrupts are not, so raising a setting or
// retrying works at once.
//
// # gram(row_id, col_id, value)
//
// Every ordered pair of rows with its kernel value. WHERE row_id = ? (or
// col_id = ?) computes one row of n values, both together one value, in
// parallel; a full scan computes each unordered pair once on all cores and
// needs the n×n matrix in memory, bounded by max_gram_bytes.
//
// # kpca(id, pc1, …, pck, input HIDDEN)
//
// Kernel PCA (internal/kpca): components=k (required, 1..1000),
// method=exact (default) or method=nystrom with landmarks=m (default 500)
// and seed=s (default 0). Stored rows project to sqrt(λ_j)·v_ij; a new
// object given as docs_pca('text') (the hidden input column) to
// Σ_i α_ij·k̃(x_i, z), with id NULL. Sign rule: each eigenvector's entry of
// largest |value| is positive, the lowest index (smallest id) winning ties,
// as scikit-learn's svd_flip. Nyström samples the m landmarks uniformly
// without replacement from the rows in id order with a specified generator
// (kpca.SampleLandmarks), so a seed gives the same landmarks everywhere;
// m ≥ n is exact kernel PCA. The exact method needs the n×n Gram matrix
// (8n² bytes ≤ max_gram_bytes, else an error pointing at method=nystrom);
// Nyström needs about 8(n·m + 4m²) bytes, bounded by the same setting.
//
// # kpca_eigen(name)
//
// component, eigenvalue, explained_ratio of the kpca table called name on
// this connection (eigenvalues of the centred Gram matrix, as scikit-learn's
// eigenvalues_; ratios of its trace), fitted on the source as it is now.
// Models live in a per-connection registry (host.Conn.Value) keyed by
// schema and table name, filled when SQLite connects a model table; a table
// this connection has not used yet is connected by preparing a statement
// that names it.
//
// # kernel_map(id, vector, input HIDDEN)
//
// The exact explicit feature map of Ghiasi-Shirazi & Qaraei as float32
// BLOBs, through the pivoted Cholesky factor PᵀKP = UᵀU (internal/kpca's
// Map): a stored object's vector is its column of U's first r rows, a new
// one's U₁⁻ᵀ times its kernel values against the r pivots, so that
// ⟨φ(x_i), φ(z)⟩ = k(x_i, z) for every stored x_i. The dimension r is the
// numerical rank (tol= option: remaining diagonal at most tol·max k(x, x),
// default n·2⁻⁵²): n for a non-singular Gram matrix, less when objects
// coincide; read it with length(vector)/4 before creating a vec0 table. A
// new object maps to the projection of its feature vector on the span of
// the stored ones, so L2
// distances to it differ from kernel_distance by one constant and nearest
// neighbours in vec0 are the kernel's.
package vtab
