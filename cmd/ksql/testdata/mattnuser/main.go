// Command mattnuser imports ext/mattn; TestMattnNeedsTag builds it without
// -tags sqlite_vtable and expects the build to fail with the tag named.
package main

import _ "github.com/ksql/ksql/ext/mattn"

func main() {}
