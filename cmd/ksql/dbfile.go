package main

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"

	sqlite "modernc.org/sqlite"
)

// fileURI turns a file name into an SQLite URI, so that names holding ?
// or # open the file they name, and options (mode=ro) can be added.
func fileURI(name string, params string) string {
	esc := strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(name)
	if params != "" {
		return "file:" + esc + "?" + params
	}
	return "file:" + esc
}

// openDB opens a database for the shell: name "" is a new in-memory
// database. The errors are sqlite3's: unable to open database "x": file is
// not a database.
func openDB(name string, readonly bool) (*sql.DB, *sql.Conn, error) {
	dsn := ":memory:"
	if name != "" && name != ":memory:" {
		if fi, err := os.Stat(name); err == nil && fi.IsDir() {
			return nil, nil, fmt.Errorf("unable to open database %q: it is a directory, not a database file", name)
		}
		params := ""
		if readonly {
			params = "mode=ro"
		}
		dsn = fileURI(name, params)
	}
	db, err := sql.Open(driverName, dsn)
	if err != nil {
		return nil, nil, openError(name, err)
	}
	conn, err := db.Conn(context.Background())
	if err == nil {
		// Reading the schema makes SQLite check that the file is a database.
		_, err = conn.ExecContext(context.Background(), "SELECT count(*) FROM sqlite_schema")
	}
	if err != nil {
		if conn != nil {
			conn.Close()
		}
		db.Close()
		return nil, nil, openError(name, err)
	}
	return db, conn, nil
}

// openError words a failed open as sqlite3 does, with SQLite's own reason
// (not the step of ksql's set-up that met it).
func openError(name string, err error) error {
	var se *sqlite.Error
	msg := cleanError(err)
	if errors.As(err, &se) {
		msg = cleanError(se)
	}
	if name == "" {
		name = ":memory:"
	}
	return fmt.Errorf("unable to open database %q: %s", name, msg)
}

func cmdOpen(s *Shell, src *source, args []string, _ string) error {
	var name string
	readonly, fresh := false, false
	for _, a := range args[1:] {
		switch {
		case a == "--new" || a == "-new":
			fresh = true
		case a == "--readonly" || a == "-readonly":
			readonly = true
		case strings.HasPrefix(a, "-"):
			return fmt.Errorf(".open: unknown option %q; usage: %s", a, dotCommands["open"].usage)
		case name != "":
			return fmt.Errorf(".open: more than one file given (%q and %q)", name, a)
		default:
			name = a
		}
	}
	if fresh && name != "" {
		if fi, err := os.Stat(name); err == nil && !fi.Mode().IsRegular() {
			return fmt.Errorf(".open --new: %q is not a regular file", name)
		}
		if err := os.Truncate(name, 0); err != nil && !os.IsNotExist(err) {
			return fmt.Errorf(".open --new: cannot empty %q: %v", name, unwrapPath(err))
		}
	}
	db, conn, err := openDB(name, readonly)
	if err != nil {
		return fmt.Errorf("%v; still on %s", err, s.dbLabel())
	}
	s.conn.Close()
	s.db.Close()
	s.db, s.conn, s.dbName, s.readonly, s.funcNames = db, conn, name, readonly, nil
	return nil
}

// dbLabel names the open database for messages.
func (s *Shell) dbLabel() string {
	if s.dbName == "" {
		return "the in-memory database"
	}
	return fmt.Sprintf("%q", s.dbName)
}

// backuper is modernc.org/sqlite's connection: the online backup API.
type backuper interface {
	NewBackup(dstURI string) (*sqlite.Backup, error)
	NewRestore(srcURI string) (*sqlite.Backup, error)
}

// dbAndFile reads the ?DB? FILE arguments of .backup and .restore.
func dbAndFile(args []string) (string, error) {
	if err := wantArgs(args, 1, 2); err != nil {
		return "", err
	}
	if len(args) == 3 && !strings.EqualFold(args[1], "main") {
		return "", fmt.Errorf("%s: only the main database can be copied, not %q", args[0], args[1])
	}
	return args[len(args)-1], nil
}

func cmdBackup(s *Shell, _ *source, args []string, _ string) error {
	file, err := dbAndFile(args)
	if err != nil {
		return err
	}
	if fi, err := os.Stat(file); err == nil && fi.IsDir() {
		return fmt.Errorf("%s: %q is a directory; give a file name", args[0], file)
	}
	return s.copyDB(args[0], func(b backuper) (*sqlite.Backup, error) { return b.NewBackup(fileURI(file, "")) })
}

func cmdRestore(s *Shell, _ *source, args []string, _ string) error {
	file, err := dbAndFile(args)
	if err != nil {
		return err
	}
	// Opening the source read-only, and checking it first, keeps a wrong
	// name from creating an empty file and restoring nothing over main.
	if fi, err := os.Stat(file); err != nil || !fi.Mode().IsRegular() {
		if err != nil {
			return fmt.Errorf(".restore: cannot open %q: %v", file, unwrapPath(err))
		}
		return fmt.Errorf(".restore: %q is not a file", file)
	}
	db, conn, err := openDB(file, true)
	if err != nil {
		return fmt.Errorf(".restore: %v", err)
	}
	conn.Close()
	db.Close()
	err = s.copyDB(".restore", func(b backuper) (*sqlite.Backup, error) { return b.NewRestore(fileURI(file, "mode=ro")) })
	s.funcNames = nil
	return err
}

// copyDB runs one backup or restore to its end.
func (s *Shell) copyDB(cmd string, start func(backuper) (*sqlite.Backup, error)) error {
	err := s.conn.Raw(func(dc any) error {
		b, ok := driverConn(dc).(backuper)
		if !ok {
			return errors.New("the driver has no backup API")
		}
		bk, err := start(b)
		if err != nil {
			return err
		}
		for more := true; more && err == nil; {
			more, err = bk.Step(-1)
		}
		if ferr := bk.Finish(); err == nil {
			err = ferr
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("%s: %s", cmd, cleanError(err))
	}
	return nil
}

// extensionLoader is a driver connection that can load extensions
// (mattn/go-sqlite3's has this method).
type extensionLoader interface {
	LoadExtension(lib, entry string) error
}

func cmdLoad(s *Shell, _ *source, args []string, _ string) error {
	if err := wantArgs(args, 1, 2); err != nil {
		return err
	}
	file, entry := args[1], ""
	if len(args) == 3 {
		entry = args[2]
	}
	found := ""
	for _, suffix := range []string{"", libSuffix()} {
		if fi, err := os.Stat(file + suffix); err == nil && !fi.IsDir() {
			found = file + suffix
			break
		}
	}
	if found == "" {
		return fmt.Errorf(".load: no such file: %s (nor %s%s)", file, file, libSuffix())
	}
	return s.conn.Raw(func(dc any) error {
		l, ok := driverConn(dc).(extensionLoader)
		if !ok {
			return fmt.Errorf(".load: cannot load %s: this ksql runs on modernc.org/sqlite (SQLite translated to Go), "+
				"which cannot load native extensions; ksql's functions and sqlite-vec are built in", found)
		}
		if err := l.LoadExtension(found, entry); err != nil {
			return fmt.Errorf(".load: %s: %s", found, cleanError(err))
		}
		return nil
	})
}

func libSuffix() string {
	switch runtime.GOOS {
	case "windows":
		return ".dll"
	case "darwin":
		return ".dylib"
	}
	return ".so"
}

// readOnlyer is modernc.org/sqlite's connection: sqlite3_db_readonly.
type readOnlyer interface {
	IsReadOnly(schema string) (bool, error)
}

func cmdDatabases(s *Shell, _ *source, args []string, _ string) error {
	if err := wantArgs(args, 0, 0); err != nil {
		return err
	}
	ctx := context.Background()
	rows, err := s.conn.QueryContext(ctx, "SELECT name, file FROM pragma_database_list ORDER BY seq")
	if err != nil {
		return fmt.Errorf(".databases: %s", cleanError(err))
	}
	var names, files []string
	for rows.Next() {
		var n, f string
		if err := rows.Scan(&n, &f); err != nil {
			rows.Close()
			return err
		}
		names, files = append(names, n), append(files, f)
	}
	rows.Close()
	for i, n := range names {
		mode := "r/w"
		s.conn.Raw(func(dc any) error {
			if r, ok := driverConn(dc).(readOnlyer); ok {
				if ro, err := r.IsReadOnly(n); err == nil && ro {
					mode = "r/o"
				}
			}
			return nil
		})
		f := files[i]
		if f == "" {
			f = `""`
		}
		fmt.Fprintf(s.out, "%s: %s %s\n", n, f, mode)
	}
	return nil
}
