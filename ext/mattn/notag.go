//go:build !(sqlite_vtable && cgo)

package mattn

import _ "unsafe" // for go:linkname

// Without -tags sqlite_vtable (and cgo) this package has no driver in it, and
// a program that imports it would only fail at run time, with sql.Open's
// "unknown driver". The function below has no body and names a symbol that
// nothing defines, and init calls it, so building any program that imports
// the package stops with an error that names the tag:
//
//	relocation target github.com/ksql/ksql/ext/mattn.requires_build_tag_sqlite_vtable_and_cgo not defined
//
// The package itself still compiles (go build ./..., go vet ./...), since
// only linking a program looks for the symbol.
//
//go:linkname requires_build_tag_sqlite_vtable_and_cgo github.com/ksql/ksql/ext/mattn.requires_build_tag_sqlite_vtable_and_cgo
func requires_build_tag_sqlite_vtable_and_cgo()

func init() { requires_build_tag_sqlite_vtable_and_cgo() }
