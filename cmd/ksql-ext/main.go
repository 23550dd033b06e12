// Command ksql-ext is ksql as a SQLite loadable extension:
//
//	go build -buildmode=c-shared -o ksql.so ./cmd/ksql-ext
//
// builds ksql.so, which exports sqlite3_extension_init and
// sqlite3_ksql_init and registers every ksql function, module and setting
// on the connection that loads it (.load ./ksql in the sqlite3 CLI,
// load_extension('./ksql.so') in Python). See package ext/loadable.
package main

import _ "github.com/ksql/ksql/ext/loadable"

func main() {}
