// Package loadable is ksql over SQLite's C extension API: the adapter that
// binds the declared list (ext/catalog) to a sqlite3* through the
// sqlite3_api_routines pointer SQLite hands to an extension, so that the
// library built from cmd/ksql-ext links only libc and loads into any
// SQLite 3.x host: the sqlite3 CLI (.load ./ksql), Python's sqlite3
// (load_extension), rqlite (-extensions-path).
//
// shim.c holds the entry points (sqlite3_extension_init, sqlite3_ksql_init)
// and the trampolines from SQLite's callbacks to the exported Go functions
// of this package; Go values reach C as cgo.Handles. sqlite3.h and
// sqlite3ext.h are SQLite 3.54.1's public-domain headers (from
// mattn/go-sqlite3 v1.14.53, its USE_LIBSQLITE3 wrapper removed), vendored
// so that no -dev package is needed; routines newer than the host's
// library (sqlite3_is_interrupted, 3.41) are used only after checking
// sqlite3_libversion_number().
//
// The package needs cgo; without it, it is empty.
package loadable
