package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"slices"

	"modernc.org/libc"
	sqlite3 "modernc.org/sqlite/lib"
)

// maxLength is SQLite's default limit on the length of a string, a BLOB
// and an SQL statement (SQLITE_MAX_LENGTH, SQLITE_MAX_SQL_LENGTH). The
// shell reads no line, record, statement or file longer than the limit,
// so that endless input (/dev/zero) ends in an error, not in all memory
// taken. A variable, so that tests can lower it; the connection's own
// limit applies where it is lower (Shell.lengthLimit).
var maxLength = 1_000_000_000

// errTooLong is what the bounded readers return past the limit; the
// callers say which line or record, of which file, under which command.
var errTooLong = errors.New("longer than the limit")

// lengthLimit is the longest string, BLOB or statement the shell reads:
// the connection's SQLITE_LIMIT_LENGTH and SQLITE_LIMIT_SQL_LENGTH, or
// maxLength where that is lower or the connection cannot tell.
func (s *Shell) lengthLimit() int {
	limit := maxLength
	if s.conn == nil {
		return limit
	}
	s.conn.Raw(func(dc any) error {
		tls, db, ok := sqliteHandle(driverConn(dc))
		if ok {
			for _, id := range []int32{sqlite3.SQLITE_LIMIT_LENGTH, sqlite3.SQLITE_LIMIT_SQL_LENGTH} {
				if n := int(sqlite3.Xsqlite3_limit(tls, db, id, -1)); n > 0 {
					limit = min(limit, n)
				}
			}
		}
		return nil
	})
	return limit
}

// sqliteHandle returns the C handle of a modernc.org/sqlite connection,
// which the package does not export, from the connection's fields; the
// tests of errorOffset and lengthLimit fail if the fields move.
func sqliteHandle(raw any) (*libc.TLS, uintptr, bool) {
	v := reflect.ValueOf(raw)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return nil, 0, false
	}
	db, tls := v.Elem().FieldByName("db"), v.Elem().FieldByName("tls")
	if !db.IsValid() || db.Kind() != reflect.Uintptr || !tls.IsValid() ||
		tls.Type() != reflect.TypeOf((*libc.TLS)(nil)) || tls.IsNil() {
		return nil, 0, false
	}
	return (*libc.TLS)(tls.UnsafePointer()), uintptr(db.Uint()), true
}

// lineReader reads lines of at most limit bytes. An endless line costs at
// most limit bytes (plus a chunk) before the error: it is kept in chunks
// and joined only once its end is seen, so that no growing buffer is
// copied over and over.
type lineReader struct {
	br    *bufio.Reader
	limit int
}

func newLineReader(r io.Reader, limit int) *lineReader {
	return &lineReader{br: bufio.NewReaderSize(r, 64*1024), limit: limit}
}

// next returns the next line with its newline (none at the end of input),
// io.EOF after the last, and errTooLong for a line over the limit.
func (lr *lineReader) next() (string, error) {
	var chunks [][]byte
	n := 0
	for {
		part, err := lr.br.ReadSlice('\n')
		n += len(part)
		if n-trailingNewline(part) > lr.limit {
			return "", errTooLong
		}
		if err == bufio.ErrBufferFull {
			chunks = append(chunks, append([]byte(nil), part...))
			continue
		}
		if chunks == nil {
			if err == io.EOF && len(part) > 0 {
				err = nil
			}
			return string(part), err
		}
		chunks = append(chunks, part)
		line := make([]byte, 0, n)
		for _, c := range chunks {
			line = append(line, c...)
		}
		if err == io.EOF {
			err = nil
		}
		return string(line), err
	}
}

// trailingNewline is 1 when part ends a line, which the limit does not
// count.
func trailingNewline(part []byte) int {
	if len(part) > 0 && part[len(part)-1] == '\n' {
		return 1
	}
	return 0
}

// boundedReader fails once more than limit bytes have been read past
// mark, the start of the current record, so that a reader above it (as
// encoding/csv) never holds an endless record. slack covers the reading
// ahead of the buffers between.
type boundedReader struct {
	r     io.Reader
	read  int64
	mark  int64
	limit int64
}

func (b *boundedReader) Read(p []byte) (int, error) {
	if b.read-b.mark > b.limit {
		return 0, errTooLong
	}
	n, err := b.r.Read(p)
	b.read += int64(n)
	return n, err
}

// readAllLimited reads r to its end, or fails with errTooLong past limit
// bytes. Like lineReader it keeps chunks and joins them at the end, so an
// endless r costs at most limit bytes.
func readAllLimited(r io.Reader, limit int) ([]byte, error) {
	var chunks [][]byte
	n := 0
	for {
		chunk := make([]byte, min(1<<20, limit+1-n))
		k, err := io.ReadFull(r, chunk)
		chunks, n = append(chunks, chunk[:k]), n+k
		if n > limit {
			return nil, errTooLong
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	return slices.Concat(chunks...), nil
}

// tooLong words errTooLong for a command: what was too long, in which
// file, and the limit.
func tooLong(what string, limit int) error {
	return fmt.Errorf("%s is longer than %d bytes, SQLite's limit on the length of a string or statement", what, limit)
}

// checkLines reads r through and fails with errTooLong, and the line's
// number, at the first line over limit bytes, holding none of it: for
// files too large for a reader that holds a line whole to meet one.
func checkLines(r io.Reader, limit int) (int, error) {
	br := bufio.NewReaderSize(r, 64*1024)
	for line, n := 1, 0; ; {
		part, err := br.ReadSlice('\n')
		n += len(part) - trailingNewline(part)
		switch {
		case n > limit:
			return line, errTooLong
		case err == nil:
			line, n = line+1, 0
		case err == io.EOF:
			return line, nil
		case err != bufio.ErrBufferFull:
			return line, err
		}
	}
}

// readFileLimited reads a file of at most limit bytes; a file that grows,
// or claims no size (as those of /proc), is read no further than that.
func readFileLimited(path string, limit int) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAllLimited(f, limit)
}
