package main

import (
	"fmt"
	"os"

	"github.com/ksql/ksql/ext/catalog"
	"github.com/ksql/ksql/ext/host"
)

// readfile and writefile are the sqlite3 shell's file functions. They are
// the shell's own: added to the catalog here, in the command, before any
// connection is opened, and never by the library, so a program or server
// that uses ksql gives SQL no way to the file system.
func init() {
	catalog.Extension.Functions = append(catalog.Extension.Functions,
		host.Func{Name: "readfile", MinArgs: 1, MaxArgs: 1, Usage: "readfile(path)", Body: sqlReadFile},
		host.Func{Name: "writefile", MinArgs: 2, MaxArgs: 2, Usage: "writefile(path, data)", Body: sqlWriteFile})
}

// readFile returns the bytes of a file as a BLOB. Unlike sqlite3's, which
// returns NULL, a file that cannot be read is an error that says why.
func sqlReadFile(_ *host.Conn, args []any) (any, error) {
	path, null, err := pathArg(args[0])
	if err != nil || null {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read %q: %v", path, unwrapPath(err))
	}
	defer f.Close()
	fi, err := f.Stat()
	switch {
	case err != nil:
		return nil, fmt.Errorf("cannot read %q: %v", path, unwrapPath(err))
	case fi.IsDir():
		return nil, fmt.Errorf("%q is a directory", path)
	case fi.Size() > int64(maxLength):
		return nil, fmt.Errorf("%q has %d bytes, more than the %d a BLOB may hold", path, fi.Size(), maxLength)
	}
	// The size is no bound for a device such as /dev/zero: the reading is.
	b, err := readAllLimited(f, maxLength)
	if err == errTooLong {
		return nil, fmt.Errorf("%q has more than the %d bytes a BLOB may hold", path, maxLength)
	}
	if err != nil {
		return nil, fmt.Errorf("cannot read %q: %v", path, unwrapPath(err))
	}
	if b == nil {
		b = []byte{}
	}
	return b, nil
}

// writeFile writes TEXT or a BLOB to a file, replacing it, and returns the
// number of bytes written. NULL data writes nothing and returns NULL.
func sqlWriteFile(_ *host.Conn, args []any) (any, error) {
	path, null, err := pathArg(args[0])
	if err != nil || null || args[1] == nil {
		return nil, err
	}
	var data []byte
	switch v := args[1].(type) {
	case []byte:
		data = v
	case string:
		data = []byte(v)
	default:
		return nil, fmt.Errorf("data must be TEXT or a BLOB, got %T; convert numbers with CAST(x AS TEXT)", v)
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return nil, fmt.Errorf("%q is a directory", path)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return nil, fmt.Errorf("cannot write %q: %v", path, unwrapPath(err))
	}
	return int64(len(data)), nil
}

func pathArg(v any) (string, bool, error) {
	switch p := v.(type) {
	case nil:
		return "", true, nil
	case string:
		if p == "" {
			return "", false, fmt.Errorf("the path is empty")
		}
		return p, false, nil
	case []byte:
		return string(p), false, nil
	}
	return "", false, fmt.Errorf("the path must be TEXT, got %T", v)
}
