/* The C side of the loadable extension: SQLite's routines reached through
 * the sqlite3_api_routines pointer (the extension links only libc), the
 * entry points, and the trampolines from SQLite's callbacks to Go. */
#ifndef KSQL_SHIM_H
#define KSQL_SHIM_H
#include <stdint.h>
#include "sqlite3.h"

/* ksql_arg is one SQL value handed to Go without a call per field. */
typedef struct ksql_arg {
	int type; /* SQLITE_INTEGER, SQLITE_FLOAT, SQLITE_TEXT, SQLITE_BLOB or SQLITE_NULL */
	int n;    /* bytes of p */
	sqlite3_int64 i;
	double d;
	const void *p;
} ksql_arg;

/* A virtual table and a cursor carry the handle of their Go value. */
typedef struct ksql_vtab {
	sqlite3_vtab base;
	uintptr_t h;
} ksql_vtab;

typedef struct ksql_cursor {
	sqlite3_vtab_cursor base;
	uintptr_t h;
} ksql_cursor;

extern const char ksql_empty[1];

int ksql_libversion(void);
/* What ksqlGoNumber returns: a REAL in *res, NULL, or a result it set. */
enum { KSQL_REAL, KSQL_NULL, KSQL_SET };

/* How a function's calls reach Go: Func.Call, Func.CallNumber, or first a
 * C twin of a vector kernel (internal/kernels/f32c). */
enum ksql_fn_kind { KSQL_FN_BOXED, KSQL_FN_NUMBER, KSQL_FN_GAUSS, KSQL_FN_LAPLACE, KSQL_FN_LINEAR, KSQL_FN_POLY };
/* KSQL_FN_STMT, or'd into a kind: the function reads tables, and Go hears
 * of each statement that calls it (host.Conn.NewStatement). */
#define KSQL_FN_STMT 64

int ksql_create_function(sqlite3 *db, const char *name, int flags, uintptr_t f, int kind);
int ksql_create_module(sqlite3 *db, const char *name, int eponymous, uintptr_t h);
int ksql_is_interrupted(sqlite3 *db);
int ksql_settled(sqlite3 *db);
int ksql_declare_vtab(sqlite3 *db, const char *schema);
char *ksql_strdup(const char *s, int n);

void ksql_result_null(sqlite3_context *ctx);
void ksql_result_int64(sqlite3_context *ctx, sqlite3_int64 v);
void ksql_result_double(sqlite3_context *ctx, double v);
void ksql_result_text(sqlite3_context *ctx, const char *p, int n);
void ksql_result_blob(sqlite3_context *ctx, const void *p, int n);
void ksql_result_error(sqlite3_context *ctx, const char *p, int n);

/* Statements of the connection, for modules that read their source. */
int ksql_prepare(sqlite3 *db, const char *sql, int n, sqlite3_stmt **stmt);
int ksql_bind_null(sqlite3_stmt *stmt, int i);
int ksql_bind_int64(sqlite3_stmt *stmt, int i, sqlite3_int64 v);
int ksql_bind_double(sqlite3_stmt *stmt, int i, double v);
int ksql_bind_text(sqlite3_stmt *stmt, int i, const char *p, int n);
int ksql_bind_blob(sqlite3_stmt *stmt, int i, const void *p, int n);
int ksql_step(sqlite3_stmt *stmt);
int ksql_column_count(sqlite3_stmt *stmt);
void ksql_column(sqlite3_stmt *stmt, int i, ksql_arg *a);
/* ksql_step_row steps stmt and, on a row, describes its first n columns
 * in a: one call from Go a row, not one a value. */
int ksql_step_row(sqlite3_stmt *stmt, int n, ksql_arg *a);
int ksql_finalize(sqlite3_stmt *stmt);
const char *ksql_errmsg(sqlite3 *db);
#endif
