// Package sqltests runs the SQL test files in this directory (*.test) on
// every ksql driver: "ksql" (modernc) always, and "ksql_mattn" when built
// with -tags sqlite_vtable. The file format is described in README.md.
package sqltests
