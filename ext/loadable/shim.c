#include <stdlib.h>
#include <string.h>
#include "sqlite3ext.h"
#include "shim.h"
#include "twin.h"
#include <float.h>

/* SQLITE_EXTENSION_INIT1, hidden so that another extension loaded with
 * RTLD_GLOBAL cannot interpose its own pointer. */
__attribute__((visibility("hidden"))) const sqlite3_api_routines *sqlite3_api = 0;

/* Go's side, exported by the cgo files of this package. */
extern int ksqlGoInit(sqlite3 *db, char **pzErrMsg);
extern int ksqlGoFunc(sqlite3_context *ctx, void *f, int argc, ksql_arg *args, ksql_arg *res);
extern int ksqlGoNumber(sqlite3_context *ctx, void *f, int argc, ksql_arg *args, double *res);
extern void ksqlGoReleaseFunc(void *f);
extern void ksqlGoNewStatement(void *f);
extern void ksqlGoRelease(uintptr_t h);
extern char *ksqlGoConnect(uintptr_t h, sqlite3 *db, int argc, char **argv, int create, uintptr_t *out);
extern char *ksqlGoBestIndex(uintptr_t h, sqlite3_index_info *info);
extern char *ksqlGoDisconnect(uintptr_t h, int destroy);
extern char *ksqlGoOpen(uintptr_t h, uintptr_t *out);
extern void ksqlGoClose(uintptr_t h);
extern char *ksqlGoFilter(uintptr_t h, int idxNum, char *idxStr, int argc, ksql_arg *args);
extern char *ksqlGoNext(uintptr_t h);
extern int ksqlGoEof(uintptr_t h);
extern char *ksqlGoColumn(uintptr_t h, sqlite3_context *ctx, int col);
extern sqlite3_int64 ksqlGoRowid(uintptr_t h);
extern char *ksqlGoUpdate(uintptr_t h, int argc, ksql_arg *args);
extern char *ksqlGoRename(uintptr_t h, char *name);

const char ksql_empty[1] = "";

int sqlite3_ksql_init(sqlite3 *db, char **pzErrMsg, const sqlite3_api_routines *pApi) {
	SQLITE_EXTENSION_INIT2(pApi);
	return ksqlGoInit(db, pzErrMsg);
}

int sqlite3_extension_init(sqlite3 *db, char **pzErrMsg, const sqlite3_api_routines *pApi) {
	return sqlite3_ksql_init(db, pzErrMsg, pApi);
}

int ksql_libversion(void) { return sqlite3_libversion_number(); }

/* Autocommit mode and no write transaction (host.Conn.Settled);
 * sqlite3_txn_state is in the routines from SQLite 3.34 on. */
int ksql_settled(sqlite3 *db) {
	return sqlite3_get_autocommit(db) && sqlite3_libversion_number() >= 3034000 &&
		sqlite3_txn_state(db, 0) < SQLITE_TXN_WRITE;
}

/* sqlite3_is_interrupted is in the routines from SQLite 3.41 on; on an
 * older library the field is past the end of its struct and must not be read. */
int ksql_is_interrupted(sqlite3 *db) {
	return sqlite3_libversion_number() >= 3041000 && sqlite3_is_interrupted(db);
}

static void fill(ksql_arg *a, sqlite3_value *v) {
	a->type = sqlite3_value_type(v);
	switch (a->type) {
	case SQLITE_INTEGER: a->i = sqlite3_value_int64(v); break;
	case SQLITE_FLOAT: a->d = sqlite3_value_double(v); break;
	case SQLITE_TEXT: a->p = sqlite3_value_text(v); a->n = sqlite3_value_bytes(v); break;
	case SQLITE_BLOB: a->p = sqlite3_value_blob(v); a->n = sqlite3_value_bytes(v); break;
	}
}

#define KSQL_STACK_ARGS 8

/* fillArgs reads argv into buf or, past its size, into sqlite3_malloc'd
 * memory (*heap, freed by the caller). */
static ksql_arg *fillArgs(int argc, sqlite3_value **argv, ksql_arg *buf, ksql_arg **heap) {
	ksql_arg *a = buf;
	*heap = 0;
	if (argc > KSQL_STACK_ARGS) {
		a = *heap = sqlite3_malloc64(sizeof(ksql_arg) * (sqlite3_uint64)argc);
		if (!a) return 0;
	}
	for (int i = 0; i < argc; i++) fill(&a[i], argv[i]);
	return a;
}

static void xFunc(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
	ksql_arg buf[KSQL_STACK_ARGS], *heap;
	ksql_arg *a = fillArgs(argc, argv, buf, &heap);
	if (!a) { sqlite3_result_error_nomem(ctx); return; }
	ksql_arg res;
	/* Numbers come back in res, saving a call into C per row; Go sets
	 * text, blobs and errors itself. */
	if (ksqlGoFunc(ctx, sqlite3_user_data(ctx), argc, a, &res)) {
		if (res.type == SQLITE_FLOAT) sqlite3_result_double(ctx, res.d);
		else if (res.type == SQLITE_INTEGER) sqlite3_result_int64(ctx, res.i);
		else sqlite3_result_null(ctx);
	}
	sqlite3_free(heap);
}

/* xNumber is xFunc for a function whose result is a REAL or NULL; its Go
 * side reads the arguments in place, as Go values of the same layout. */
static void xNumber(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
	ksql_arg buf[KSQL_STACK_ARGS], *heap;
	ksql_arg *a = fillArgs(argc, argv, buf, &heap);
	if (!a) { sqlite3_result_error_nomem(ctx); return; }
	double d;
	switch (ksqlGoNumber(ctx, sqlite3_user_data(ctx), argc, a, &d)) {
	case KSQL_REAL: sqlite3_result_double(ctx, d); break;
	case KSQL_NULL: sqlite3_result_null(ctx); break;
	} /* KSQL_SET: Go has set an error */
	sqlite3_free(heap);
}

/* newStatement marks a call as the first of its statement at its call
 * site: SQLite keeps auxiliary data on a constant argument for the whole
 * statement, so finding none on argument 0 means a new statement (or an
 * argument that is not constant, where every call counts as new). */
static void newStatement(sqlite3_context *ctx, int argc) {
	if (argc > 0 && sqlite3_get_auxdata(ctx, 0)) return;
	if (argc > 0) sqlite3_set_auxdata(ctx, 0, (void *)ksql_empty, 0);
	ksqlGoNewStatement(sqlite3_user_data(ctx));
}

static void xFuncStmt(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
	newStatement(ctx, argc);
	xFunc(ctx, argc, argv);
}

static void xNumberStmt(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
	newStatement(ctx, argc);
	xNumber(ctx, argc, argv);
}

static void xRelease(void *p) { ksqlGoRelease((uintptr_t)p); }

/* The twins' trampolines: a float32 BLOB pair and parameters strictly
 * inside their ranges go to internal/kernels/f32c, which answers with the
 * Go code's bits or declines; everything else (NULL, JSON, errors, edge
 * values) goes to Go through xNumber. */
static int blobPair(sqlite3_value **argv, const void **x, const void **z, int *n) {
	if (sqlite3_value_type(argv[0]) != SQLITE_BLOB || sqlite3_value_type(argv[1]) != SQLITE_BLOB) return 0;
	*x = sqlite3_value_blob(argv[0]);
	*n = sqlite3_value_bytes(argv[0]);
	*z = sqlite3_value_blob(argv[1]);
	return *n > 0 && *n % 4 == 0 && *n == sqlite3_value_bytes(argv[1]);
}

/* numberArg reads an INTEGER or REAL as Go's kernelParam does. */
static int numberArg(sqlite3_value *v, double *d) {
	switch (sqlite3_value_type(v)) {
	case SQLITE_FLOAT: *d = sqlite3_value_double(v); return 1;
	case SQLITE_INTEGER: *d = (double)sqlite3_value_int64(v); return 1;
	}
	return 0;
}

/* sigmaArg: σ of gauss and laplace, finite and > 0. */
static int sigmaArg(sqlite3_value *v, double *s) { return numberArg(v, s) && *s > 0 && *s <= DBL_MAX; }

/* sigmaTwin is xGauss and xLaplace: two BLOBs and σ, then twin. */
static void sigmaTwin(sqlite3_context *ctx, int argc, sqlite3_value **argv,
		int (*twin)(const void *, const void *, int, double, double *)) {
	const void *x, *z;
	int n;
	double sigma, v;
	if (argc == 3 && blobPair(argv, &x, &z, &n) && sigmaArg(argv[2], &sigma) && twin(x, z, n, sigma, &v))
		sqlite3_result_double(ctx, v);
	else
		xNumber(ctx, argc, argv);
}

static void xGauss(sqlite3_context *ctx, int argc, sqlite3_value **argv) { sigmaTwin(ctx, argc, argv, ksql_twin_gauss); }
static void xLaplace(sqlite3_context *ctx, int argc, sqlite3_value **argv) { sigmaTwin(ctx, argc, argv, ksql_twin_laplace); }

static void xLinear(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
	const void *x, *z;
	int n;
	double v;
	if (argc == 2 && blobPair(argv, &x, &z, &n) && ksql_twin_linear(x, z, n, &v))
		sqlite3_result_double(ctx, v);
	else
		xNumber(ctx, argc, argv);
}

/* xPoly: an INTEGER degree in [1, maxDegree] and r finite and ≥ 0. */
static void xPoly(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
	const void *x, *z;
	int n;
	double r = ksql_twin.polyR, v;
	sqlite3_int64 deg = 0;
	int ok = (argc == 3 || argc == 4) && blobPair(argv, &x, &z, &n) && sqlite3_value_type(argv[2]) == SQLITE_INTEGER;
	if (ok) deg = sqlite3_value_int64(argv[2]);
	ok = ok && deg >= 1 && deg <= ksql_twin.maxDegree;
	if (ok && argc == 4) ok = numberArg(argv[3], &r) && r >= 0 && r <= DBL_MAX;
	if (ok && ksql_twin_poly(x, z, n, (int)deg, r, &v))
		sqlite3_result_double(ctx, v);
	else
		xNumber(ctx, argc, argv);
}

/* f is the address of the function's Go value, pinned until SQLite calls
 * the destructor; kind picks the trampoline (ksql_fn_kind). */
int ksql_create_function(sqlite3 *db, const char *name, int flags, uintptr_t f, int kind) {
	void (*x)(sqlite3_context *, int, sqlite3_value **) = xFunc;
	if (kind & KSQL_FN_STMT) {
		x = (kind & ~KSQL_FN_STMT) == KSQL_FN_NUMBER ? xNumberStmt : xFuncStmt;
		kind = -1;
	}
	switch (kind) {
	case KSQL_FN_NUMBER: x = xNumber; break;
	case KSQL_FN_GAUSS: x = xGauss; break;
	case KSQL_FN_LAPLACE: x = xLaplace; break;
	case KSQL_FN_LINEAR: x = xLinear; break;
	case KSQL_FN_POLY: x = xPoly; break;
	}
	return sqlite3_create_function_v2(db, name, -1, SQLITE_UTF8 | flags, (void *)f, x, 0, 0, ksqlGoReleaseFunc);
}

/* setErr moves a Go error message (malloc'd, or NULL) into *pz. */
static int setErr(char **pz, char *msg) {
	if (!msg) return SQLITE_OK;
	if (pz) {
		sqlite3_free(*pz);
		*pz = sqlite3_mprintf("%s", msg);
	}
	free(msg);
	return SQLITE_ERROR;
}

static int openTable(sqlite3 *db, void *aux, int argc, const char *const *argv, sqlite3_vtab **pp, char **pzErr, int create) {
	uintptr_t h = 0;
	char *msg = ksqlGoConnect((uintptr_t)aux, db, argc, (char **)argv, create, &h);
	if (msg) return setErr(pzErr, msg);
	ksql_vtab *t = sqlite3_malloc(sizeof(*t));
	if (!t) {
		free(ksqlGoDisconnect(h, 0));
		return SQLITE_NOMEM;
	}
	memset(t, 0, sizeof(*t));
	t->h = h;
	*pp = &t->base;
	return SQLITE_OK;
}

static int xCreate(sqlite3 *db, void *aux, int argc, const char *const *argv, sqlite3_vtab **pp, char **pzErr) {
	return openTable(db, aux, argc, argv, pp, pzErr, 1);
}

static int xConnect(sqlite3 *db, void *aux, int argc, const char *const *argv, sqlite3_vtab **pp, char **pzErr) {
	return openTable(db, aux, argc, argv, pp, pzErr, 0);
}

static int xBestIndex(sqlite3_vtab *vt, sqlite3_index_info *info) {
	return setErr(&vt->zErrMsg, ksqlGoBestIndex(((ksql_vtab *)vt)->h, info));
}

static int closeTable(sqlite3_vtab *vt, int destroy) {
	ksql_vtab *t = (ksql_vtab *)vt;
	char *msg = ksqlGoDisconnect(t->h, destroy);
	if (msg && destroy) return setErr(&vt->zErrMsg, msg);
	free(msg);
	sqlite3_free(vt->zErrMsg);
	sqlite3_free(t);
	return SQLITE_OK;
}

static int xDisconnect(sqlite3_vtab *vt) { return closeTable(vt, 0); }
static int xDestroy(sqlite3_vtab *vt) { return closeTable(vt, 1); }

static int xOpen(sqlite3_vtab *vt, sqlite3_vtab_cursor **pp) {
	uintptr_t h = 0;
	char *msg = ksqlGoOpen(((ksql_vtab *)vt)->h, &h);
	if (msg) return setErr(&vt->zErrMsg, msg);
	ksql_cursor *c = sqlite3_malloc(sizeof(*c));
	if (!c) {
		ksqlGoClose(h);
		return SQLITE_NOMEM;
	}
	memset(c, 0, sizeof(*c));
	c->h = h;
	*pp = &c->base;
	return SQLITE_OK;
}

static int xClose(sqlite3_vtab_cursor *cur) {
	ksqlGoClose(((ksql_cursor *)cur)->h);
	sqlite3_free(cur);
	return SQLITE_OK;
}

static int xFilter(sqlite3_vtab_cursor *cur, int idxNum, const char *idxStr, int argc, sqlite3_value **argv) {
	ksql_arg buf[KSQL_STACK_ARGS], *heap;
	ksql_arg *a = fillArgs(argc, argv, buf, &heap);
	if (!a) return SQLITE_NOMEM;
	char *msg = ksqlGoFilter(((ksql_cursor *)cur)->h, idxNum, (char *)idxStr, argc, a);
	sqlite3_free(heap);
	return setErr(&cur->pVtab->zErrMsg, msg);
}

static int xNext(sqlite3_vtab_cursor *cur) {
	return setErr(&cur->pVtab->zErrMsg, ksqlGoNext(((ksql_cursor *)cur)->h));
}

static int xEof(sqlite3_vtab_cursor *cur) { return ksqlGoEof(((ksql_cursor *)cur)->h); }

static int xColumn(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int col) {
	return setErr(&cur->pVtab->zErrMsg, ksqlGoColumn(((ksql_cursor *)cur)->h, ctx, col));
}

static int xRowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *rowid) {
	*rowid = ksqlGoRowid(((ksql_cursor *)cur)->h);
	return SQLITE_OK;
}

static int xUpdate(sqlite3_vtab *vt, int argc, sqlite3_value **argv, sqlite3_int64 *rowid) {
	ksql_arg buf[KSQL_STACK_ARGS], *heap;
	ksql_arg *a = fillArgs(argc, argv, buf, &heap);
	if (!a) return SQLITE_NOMEM;
	char *msg = ksqlGoUpdate(((ksql_vtab *)vt)->h, argc, a);
	sqlite3_free(heap);
	*rowid = 0;
	return setErr(&vt->zErrMsg, msg);
}

static int xRename(sqlite3_vtab *vt, const char *name) {
	return setErr(&vt->zErrMsg, ksqlGoRename(((ksql_vtab *)vt)->h, (char *)name));
}

static sqlite3_module tableModule = {
	1, xCreate, xConnect, xBestIndex, xDisconnect, xDestroy,
	xOpen, xClose, xFilter, xNext, xEof, xColumn, xRowid, xUpdate,
	0, 0, 0, 0, 0, xRename,
};

/* An eponymous-only module has no xCreate: CREATE VIRTUAL TABLE refuses it. */
static sqlite3_module eponymousModule = {
	1, 0, xConnect, xBestIndex, xDisconnect, xDisconnect,
	xOpen, xClose, xFilter, xNext, xEof, xColumn, xRowid, 0,
};

int ksql_create_module(sqlite3 *db, const char *name, int eponymous, uintptr_t h) {
	return sqlite3_create_module_v2(db, name, eponymous ? &eponymousModule : &tableModule, (void *)h, xRelease);
}

int ksql_declare_vtab(sqlite3 *db, const char *schema) { return sqlite3_declare_vtab(db, schema); }

char *ksql_strdup(const char *s, int n) {
	char *p = sqlite3_malloc(n + 1);
	if (p) {
		memcpy(p, s, n);
		p[n] = 0;
	}
	return p;
}

void ksql_result_null(sqlite3_context *ctx) { sqlite3_result_null(ctx); }
void ksql_result_int64(sqlite3_context *ctx, sqlite3_int64 v) { sqlite3_result_int64(ctx, v); }
void ksql_result_double(sqlite3_context *ctx, double v) { sqlite3_result_double(ctx, v); }
void ksql_result_text(sqlite3_context *ctx, const char *p, int n) { sqlite3_result_text(ctx, p, n, SQLITE_TRANSIENT); }
void ksql_result_blob(sqlite3_context *ctx, const void *p, int n) { sqlite3_result_blob(ctx, p, n, SQLITE_TRANSIENT); }
void ksql_result_error(sqlite3_context *ctx, const char *p, int n) { sqlite3_result_error(ctx, p, n); }

int ksql_prepare(sqlite3 *db, const char *sql, int n, sqlite3_stmt **stmt) {
	return sqlite3_prepare_v2(db, sql, n, stmt, 0);
}

int ksql_bind_null(sqlite3_stmt *stmt, int i) { return sqlite3_bind_null(stmt, i); }
int ksql_bind_int64(sqlite3_stmt *stmt, int i, sqlite3_int64 v) { return sqlite3_bind_int64(stmt, i, v); }
int ksql_bind_double(sqlite3_stmt *stmt, int i, double v) { return sqlite3_bind_double(stmt, i, v); }
int ksql_bind_text(sqlite3_stmt *stmt, int i, const char *p, int n) { return sqlite3_bind_text(stmt, i, p, n, SQLITE_TRANSIENT); }
int ksql_bind_blob(sqlite3_stmt *stmt, int i, const void *p, int n) { return sqlite3_bind_blob(stmt, i, p, n, SQLITE_TRANSIENT); }

int ksql_step(sqlite3_stmt *stmt) { return sqlite3_step(stmt); }
int ksql_column_count(sqlite3_stmt *stmt) { return sqlite3_column_count(stmt); }

void ksql_column(sqlite3_stmt *stmt, int i, ksql_arg *a) {
	a->type = sqlite3_column_type(stmt, i);
	switch (a->type) {
	case SQLITE_INTEGER: a->i = sqlite3_column_int64(stmt, i); break;
	case SQLITE_FLOAT: a->d = sqlite3_column_double(stmt, i); break;
	case SQLITE_TEXT: a->p = sqlite3_column_text(stmt, i); a->n = sqlite3_column_bytes(stmt, i); break;
	case SQLITE_BLOB: a->p = sqlite3_column_blob(stmt, i); a->n = sqlite3_column_bytes(stmt, i); break;
	}
}

int ksql_step_row(sqlite3_stmt *stmt, int n, ksql_arg *a) {
	int rc = sqlite3_step(stmt);
	if (rc == SQLITE_ROW) {
		for (int i = 0; i < n; i++) ksql_column(stmt, i, &a[i]);
	}
	return rc;
}

int ksql_finalize(sqlite3_stmt *stmt) { return sqlite3_finalize(stmt); }
const char *ksql_errmsg(sqlite3 *db) { return sqlite3_errmsg(db); }
