package main

import (
	"context"
	"database/sql"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/ksql/ksql/ext/catalog"
	"github.com/ksql/ksql/ext/host"
)

// .help NAME for a module, a function or a setting. What can be read
// from ksql itself is: a function's signature and a setting's default,
// bounds and description from ext/catalog; a module's argument keys (its
// unknown-argument error lists them) and its columns (pragma_table_xinfo
// of a table made on a private in-memory database, or of the table-valued
// function) from the module. Only the words, and the defaults, are written
// here (helpDocs), and TestHelpDocs checks them against the modules: every
// key documented, no key documented that the module lacks, and every
// default giving the same table as leaving the argument out.

// argDoc is one documented argument: its default as written in SQL ("" when
// it has none), what it does, and the arguments under which it applies
// (landmarks= with method=nystrom), for TestHelpDocs.
type argDoc struct{ key, def, doc, with string }

// moduleDoc is the written part of a module's help.
type moduleDoc struct {
	summary string
	args    []argDoc
	// probe are the required arguments (beside the source's) with which
	// a table of the module can be made, to read its columns.
	probe string
	// same are pairs of table-valued function calls, without and with the
	// defaults the summary names, that must give the same rows.
	same [][2]string
}

// sourceDocs describe the source arguments every fitted module shares.
var sourceDocs = []argDoc{
	{"table", "", "the source table (schema.name allowed), with id= and column= or columns=", ""},
	{"id", "", "the source's id column: unique, not NULL", ""},
	{"column", "", "the object column: a vector (JSON array text or float32 BLOB) or a string", ""},
	{"columns", "", "numeric columns as one vector: 'a, b, c' (quoted), a range p0..p63, or both", ""},
	{"query", "", "instead of table=: one read-only SELECT of (id, object[, label])", ""},
	{"kernel", "", "a kernel spec (.kernels), quoted or bare", ""},
	{"nulls", "error", "with columns=: error, or skip (leave out a row with a NULL)", ""},
	{"scale", "none", "none, or standard (centre and divide by the training rows' std)", ""},
	{"label", "", "the label column (the class, or the number to predict)", ""},
}

// helpDocs are the modules' summaries and arguments, in the order shown.
var helpDocs = map[string]moduleDoc{
	"gram": {summary: "the Gram matrix of the source as rows (row_id, col_id, value); WHERE row_id = ? computes one row"},
	"kpca": {summary: "kernel PCA: the source's projections on the top components, and new objects' through input",
		probe: "components=1",
		args: []argDoc{
			{"components", "", "the number of components, 1 to the number of rows", ""},
			{"method", "exact", "exact, or nystrom (landmarks= sampled rows, O(n·m²))", ""},
			{"landmarks", "500", "the Nyström sample size", "method=nystrom"},
			{"seed", "0", "the Nyström sample's seed", "method=nystrom, landmarks=10"},
		}},
	"kernel_map": {summary: "the exact explicit feature map: a float32 vector per object whose dot products are the kernel values",
		args: []argDoc{{"tol", "", "the pivoted Cholesky stop, relative to the largest k(x, x) (default n·2⁻⁵²)", ""}}},
	"svm": {summary: "support vector machines as libsvm: classification (c_svc, nu_svc), one-class, regression (eps_svr, nu_svr)",
		args: []argDoc{
			{"type", "c_svc", "c_svc, nu_svc, one_class, eps_svr or nu_svr", ""},
			{"C", "1", "the penalty C (c_svc, eps_svr, nu_svr)", ""},
			{"nu", "0.5", "ν in (0, 1] (nu_svc, one_class, nu_svr)", "type=nu_svc"},
			{"epsilon", "0.1", "the ε-insensitive tube (eps_svr)", "type=eps_svr"},
			{"tol", "0.001", "the stopping tolerance", ""},
			{"class_weight", "", "balanced: C scaled by n / (classes · rows of the class)", ""},
			{"folds", "", "k-fold cross-validation into cv_prediction (k ≥ 2)", ""},
			{"seed", "0", "the fold assignment's seed (and probability='s)", "folds=3"},
			{"probability", "false", "true: Platt probabilities by libsvm's 5-fold cv (c_svc, nu_svc): probability, probabilities", ""},
			{"method", "exact", "exact (libsvm's SMO), or nystrom (LinearSVC's hinge loss one-vs-rest on landmarks= Nyström features; tol 1e-4)", ""},
			{"landmarks", "500", "the Nyström sample size (seed= picks it)", "method=nystrom"},
			{"max_iter", "1000", "method=nystrom's bound on passes per class (LinearSVC's max_iter)", "method=nystrom"},
		}},
	"krr": {summary: "kernel ridge regression (scikit-learn's KernelRidge, no intercept)",
		args: []argDoc{
			{"alpha", "1", "the ridge penalty", ""},
			{"method", "exact", "exact, or nystrom", ""},
			{"landmarks", "500", "the Nyström sample size", "method=nystrom"},
			{"seed", "0", "the Nyström sample's and folds' seed", "method=nystrom, landmarks=10, folds=3"},
			{"folds", "", "k-fold cross-validation into cv_prediction", ""},
		}},
	"klms": {summary: "kernel least mean squares: β ← β + step·(y − Kβ), epochs times",
		probe: "step=0.01",
		args: []argDoc{
			{"step", "", "the step size, below 2/λ_max(K) (the error says the largest stable one)", ""},
			{"epochs", "20", "passes over the rows (at most max_klms_epochs)", ""},
			{"mode", "batch", "batch, or online (one row at a time, in id order)", ""},
			{"seed", "0", "the folds' seed", "folds=3"},
			{"folds", "", "k-fold cross-validation into cv_prediction", ""},
		}},
	"gp": {summary: "Gaussian process regression with fixed hyperparameters: the posterior mean and std",
		probe: "noise=0.1",
		args: []argDoc{
			{"noise", "", "the noise variance added to the diagonal (scikit-learn's alpha), > 0", ""},
			{"normalize_y", "false", "true: centre and scale the labels first", ""},
			{"folds", "", "k-fold cross-validation into cv_prediction", ""},
			{"seed", "0", "the folds' seed", "folds=3"},
		}},
	"tsne": {summary: "t-SNE of the kernel's feature-space distances: a picture of the objects in dims dimensions",
		args: []argDoc{
			{"dims", "2", "1, 2 or 3", ""},
			{"perplexity", "30", "the effective number of neighbours, below rows − 1", ""},
			{"seed", "0", "the start's seed", ""},
			{"iterations", "1000", "gradient steps, at least 250", ""},
			{"method", "", "barnes_hut (the default above 1,000 objects in 2 dimensions) or exact", ""},
		}},
	"kfda": {summary: "the multi-class kernel Fisher discriminant: at most classes − 1 directions",
		probe: "components=1",
		args: []argDoc{
			{"components", "", "the number of directions, 1 to classes − 1", ""},
			{"reg", "0.001", "added to the within-class scatter's diagonal", ""},
			{"folds", "", "k-fold cross-validation into cv_prediction (nearest class mean; k ≥ 2)", ""},
			{"seed", "0", "the folds' seed", "folds=3"},
		}},
	"kkmeans": {summary: "kernel k-means: a cluster per row, and the nearest centre for a new object",
		probe: "k=1",
		args:  clusterDocs},
	"spectral": {summary: "spectral clustering with the kernel matrix as affinity (Ng, Jordan & Weiss)",
		probe: "k=1",
		args:  clusterDocs},
	"kpca_eigen":      {summary: "the eigenvalues of a kpca table: kpca_eigen('table')"},
	"ksql_model":      {summary: "what a fitted table reports, as (name, value) rows: ksql_model('table')"},
	"fst_text":        {summary: "AT&T / OpenFst text as transducer rows: fst_text(text [, 'codepoints' and/or 'log'])"},
	"kernel_spectrum": {summary: "the eigenvalues of a query's Gram matrix, largest first (Mercer's condition on the data)"},
	"kernel_mmd": {summary: "the kernel two-sample test: MMD² and its permutation p-value (permutations default 1000, seed 0)",
		same: [][2]string{{"kernel_mmd('linear', 'VALUES (''[1]''), (''[2]''), (''[3]'')', 'VALUES (''[2]''), (''[4]'')')",
			"kernel_mmd('linear', 'VALUES (''[1]''), (''[2]''), (''[3]'')', 'VALUES (''[2]''), (''[4]'')', 1000, 0)"}}},
	"kernel_sigma": {summary: "pairwise distance quantiles and the gauss and laplace sigma they suggest (quantiles default '0.1,0.5,0.9', seed 0)",
		same: [][2]string{{"kernel_sigma('VALUES (''[1]''), (''[2]''), (''[4]'')')",
			"kernel_sigma('VALUES (''[1]''), (''[2]''), (''[4]'')', '0.1,0.5,0.9', 1999000, 0)"}}},
	"model_search": {summary: "cross-validated search over a model's arguments"},
}

var clusterDocs = []argDoc{
	{"k", "", "the number of clusters, at most the number of rows", ""},
	{"seed", "0", "the k-means++ seeding's seed", ""},
	{"n_init", "10", "seedings tried; the lowest objective is kept", ""},
	{"max_iter", "300", "Lloyd passes per seeding", ""},
}

// moduleInfo is what a module says of itself.
type moduleInfo struct {
	name      string
	eponymous bool     // a table-valued function only
	keys      []string // its arguments as it lists them (not eponymous)
	columns   []string
	hidden    []string // a table's input, or a function's arguments
}

var knownRE = regexp.MustCompile(`unknown argument .* \(known: ([^)]*)\)`)

// probeModule reads a module's keys and columns on a private in-memory
// database, so that nothing the user has is touched.
func probeModule(ctx context.Context, name string) (moduleInfo, error) {
	db, conn, err := openDB("", false)
	if err != nil {
		return moduleInfo{}, err
	}
	defer db.Close()
	defer conn.Close()
	info := moduleInfo{name: name}
	if err := tableColumns(ctx, conn, name, &info); err != nil || len(info.columns) > 0 {
		info.eponymous = true
		return info, err
	}
	_, err = conn.ExecContext(ctx, "CREATE VIRTUAL TABLE temp.ksql_help USING "+name+"(ksql_help=1)")
	m := knownRE.FindStringSubmatch(fmt.Sprint(err))
	if m == nil {
		return info, fmt.Errorf("%s lists no arguments: %v", name, err)
	}
	info.keys = strings.Split(m[1], ", ")
	args := []string{"table=ksql_help_src", "id=id", "column=x", "kernel=linear"}
	if slices.Contains(info.keys, "label") {
		args = append(args, "label=label")
	}
	if p := helpDocs[name].probe; p != "" {
		args = append(args, p)
	}
	if _, err := conn.ExecContext(ctx, "CREATE TEMP TABLE ksql_help_src(id INTEGER PRIMARY KEY, x, label)"); err != nil {
		return info, err
	}
	if _, err := conn.ExecContext(ctx, "CREATE VIRTUAL TABLE temp.ksql_help USING "+name+"("+strings.Join(args, ", ")+")"); err != nil {
		return info, fmt.Errorf("%s: making a table to read its columns: %v", name, err)
	}
	err = tableColumns(ctx, conn, "ksql_help", &info)
	if i := slices.Index(info.hidden, "ksql_help"); i >= 0 {
		info.hidden = slices.Delete(info.hidden, i, i+1) // the command column, named after the table
	}
	return info, err
}

// tableColumns reads a table's visible and hidden columns.
func tableColumns(ctx context.Context, conn *sql.Conn, table string, info *moduleInfo) error {
	rows, err := conn.QueryContext(ctx, "SELECT name, hidden FROM pragma_table_xinfo(?)", table)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var col string
		var hidden int
		if err := rows.Scan(&col, &hidden); err != nil {
			return err
		}
		if hidden != 0 {
			info.hidden = append(info.hidden, col)
		} else {
			info.columns = append(info.columns, col)
		}
	}
	return rows.Err()
}

// moduleHelp is the text of .help MODULE.
func moduleHelp(ctx context.Context, name string) (string, error) {
	info, err := probeModule(ctx, name)
	if err != nil {
		return "", err
	}
	doc := helpDocs[name]
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s\n", name, orNone(doc.summary))
	if info.eponymous {
		fmt.Fprintf(&b, "  SELECT %s FROM %s(%s)\n", strings.Join(info.columns, ", "), name, strings.Join(argNames(info), ", "))
		return b.String(), nil
	}
	fmt.Fprintf(&b, "  CREATE VIRTUAL TABLE t USING %s(key=value, ...)\n", name)
	if slices.ContainsFunc(info.keys, func(k string) bool { return !isSourceKey(k) }) {
		b.WriteString("  arguments:\n")
	}
	for _, k := range info.keys {
		if isSourceKey(k) {
			continue
		}
		writeArg(&b, findArg(doc.args, k))
	}
	b.WriteString("  source:\n")
	for _, k := range info.keys {
		if isSourceKey(k) {
			writeArg(&b, findArg(sourceDocs, k))
		}
	}
	fmt.Fprintf(&b, "  columns: %s\n", strings.Join(info.columns, ", "))
	if slices.Contains(info.hidden, "input") {
		b.WriteString("  a new object: SELECT ... FROM t('object') (the hidden column input)\n")
	}
	return b.String(), nil
}

// argNames are a table-valued function's arguments, its hidden columns,
// as a call writes them: an argument named apart from the result column
// it sets (kernel_mmd's permutations_arg beside permutations) by its
// result's name.
func argNames(info moduleInfo) []string {
	names := slices.Clone(info.hidden)
	for i, h := range names {
		if r, ok := strings.CutSuffix(h, "_arg"); ok && slices.Contains(info.columns, r) {
			names[i] = r
		}
	}
	return names
}

func isSourceKey(k string) bool {
	return slices.ContainsFunc(sourceDocs, func(a argDoc) bool { return a.key == k })
}

func findArg(args []argDoc, key string) argDoc {
	for _, a := range args {
		if a.key == key {
			return a
		}
	}
	return argDoc{key: key}
}

func writeArg(b *strings.Builder, a argDoc) {
	name := a.key + "="
	if a.def != "" {
		name += a.def
	}
	fmt.Fprintf(b, "    %-20s %s\n", name, orNone(a.doc))
}

func orNone(s string) string {
	if s == "" {
		return "(not described)"
	}
	return s
}

// funcDoc is the written part of a function's help: what it returns,
// its defaults, and calls that TestHelpDocs requires to be equal (a call
// without the defaulted argument and one with it).
type funcDoc struct {
	doc  string
	same [][2]string
}

// funcDocs describe ksql's functions (the shell's own, readfile and
// writefile, too).
var funcDocs = map[string]funcDoc{
	"linear_kernel": {doc: "⟨x, z⟩ of two vectors (JSON array text or float32 BLOBs)"},
	"poly_kernel": {doc: "(⟨x, z⟩ + r)^degree; degree a whole number 1…1000, r ≥ 0, default 1",
		same: [][2]string{{"poly_kernel('[1,2]', '[3,4]', 3)", "poly_kernel('[1,2]', '[3,4]', 3, 1)"}}},
	"gauss_kernel":   {doc: "exp(−‖x−z‖² / (2σ²)), σ > 0"},
	"laplace_kernel": {doc: "exp(−‖x−z‖₁ / σ), σ > 0"},
	"subseq_kernel": {doc: "pairs of equal subsequences of s and t; without p all lengths (the empty one included), with p only length p",
		same: [][2]string{{"subseq_kernel('abab', 'abba')", "kernel('subseq', 'abab', 'abba')"}}},
	"ssk_kernel":      {doc: "gap-weighted subsequences of length p (Lodhi et al.), 0 < λ ≤ 1"},
	"ngram_kernel":    {doc: "Σ over n-grams u of count_u(s)·count_u(t)"},
	"kernel":          {doc: "the kernel of any spec (.kernels) on two objects"},
	"kernel_distance": {doc: "sqrt(K(a,a) − 2K(a,b) + K(b,b)), the distance in feature space"},
	"transducer_weight": {doc: "T(x, y) of the transducer stored in table name; unit 'char' (default) or 'word'",
		same: [][2]string{{"transducer_weight('t', 'ab', 'ab')", "transducer_weight('t', 'ab', 'ab', 'char')"}}},
	"kernel_alignment": {doc: "centred kernel–target alignment of a query of (object, label) rows; higher is better"},
	"rff_embed": {doc: "random Fourier features of x (a float32 BLOB of dim values) for gauss or laplace; seed default 0",
		same: [][2]string{{"hex(rff_embed('[1,2]', 8, 1.0))", "hex(rff_embed('[1,2]', 8, 1.0, 0))"}}},
	"ksql_config":  {doc: "a setting of this connection (.help max_gram_bytes), set with a value; all of them as JSON without a name"},
	"ksql_version": {doc: "ksql's version"},
	"readfile":     {doc: "the shell's: a file's bytes as a BLOB"},
	"writefile":    {doc: "the shell's: writes data to a file and returns the bytes written"},
}

// funcHelp is the text of .help FUNCTION, from the catalogue.
func funcHelp(f *host.Func) string {
	var notes []string
	if f.Deterministic {
		notes = append(notes, "deterministic")
	}
	if f.ReadsTables {
		notes = append(notes, "reads the table its arguments name")
	}
	args := fmt.Sprintf("%d to %d arguments", f.MinArgs, f.MaxArgs)
	if f.MinArgs == f.MaxArgs {
		args = fmt.Sprintf("%d arguments", f.MinArgs)
	}
	if f.MaxArgs < 0 {
		args = fmt.Sprintf("at least %d arguments", f.MinArgs)
	}
	return fmt.Sprintf("%s\n    %s\n    %s; %s\n", f.Usage, orNone(funcDocs[f.Name].doc), args,
		strings.Join(append(notes, "NULL in gives NULL out"), "; "))
}

// settingHelp is the text of .help SETTING, from the catalogue.
func settingHelp(s *host.Setting) string {
	return fmt.Sprintf("%s (ksql_config('%s' [, value]))\n    %s\n    default %d, from %d to %d\n",
		s.Name, s.Name, s.Doc, s.Default, s.Min, s.Max)
}

// catalogHelp answers .help NAME for a module, function or setting of
// ksql; ok is false when NAME is none of them.
func catalogHelp(ctx context.Context, name string) (text string, ok bool, err error) {
	for i := range catalog.Extension.Functions {
		if f := &catalog.Extension.Functions[i]; f.Name == name {
			return funcHelp(f), true, nil
		}
	}
	for _, s := range catalog.Extension.Settings {
		if s.Name == name {
			return settingHelp(s), true, nil
		}
	}
	for _, m := range catalog.Extension.Modules {
		if m.Name == name {
			text, err := moduleHelp(ctx, name)
			return text, true, err
		}
	}
	return "", false, nil
}

// specModules lists the modules that take kernel=, and the table-valued
// functions with a kernel argument, as the modules say.
func specModules(ctx context.Context) []string {
	var out []string
	for _, m := range catalog.Extension.Modules {
		info, err := probeModule(ctx, m.Name)
		if err == nil && (slices.Contains(info.keys, "kernel") || slices.Contains(info.hidden, "kernel")) {
			out = append(out, m.Name)
		}
	}
	return out
}
