package vtab

import (
	"fmt"
	"strings"

	"github.com/ksql/ksql/ext/host"
)

// Freshness. Reading a million-row source to prove it unchanged costs
// seconds; SQLite can say in microseconds that nothing may have changed.
// A snapshot of a table= source that is an ordinary table keeps a token
// of the database's state when it was read:
//
//   - total_changes(): this connection's INSERTs, UPDATEs and DELETEs (it
//     counts a statement's changes when the statement ends, so a statement
//     keeps seeing the snapshot of its first read, as a cursor always did);
//   - PRAGMA data_version of every attached database: other connections'
//     commits (other processes, other nodes' replicated writes);
//   - PRAGMA schema_version of each: a table dropped and made again, a
//     column added, a transducer table replaced;
//   - the list of attached databases and their files.
//
// Reads inside an explicit transaction keep no token (a ROLLBACK moves no
// counter): every statement there reads the source.
//
// While the token is the same, the next statement uses the snapshot
// without reading the source; any difference reads it again (and refits
// only if its content hashes differently). Views, virtual tables and
// query= sources are read by every statement, as before: what they return
// can change without any write (a function, another module's own data).

// token returns the database's state as a string, or "" when the source
// must be read by every statement.
func (s *source) token(c *host.Conn) (string, error) {
	if s.query != "" || s.from.schema == "" {
		return "", nil
	}
	// Inside BEGIN ... COMMIT a ROLLBACK takes writes back without any
	// counter moving, so no token is kept there (nor where the driver
	// cannot say).
	if auto, known := c.Autocommit(); !auto || !known {
		return "", nil
	}
	plain := false
	err := c.Query("SELECT 1 FROM "+sqlIdent(s.from.schema)+".sqlite_master WHERE type = 'table' AND name = ? COLLATE NOCASE AND sql NOT LIKE 'CREATE VIRTUAL%'",
		[]any{s.from.name}, func([]any) error { plain = true; return nil })
	if err != nil || !plain {
		return "", err
	}
	var dbs []string
	err = c.Query("SELECT name, file FROM pragma_database_list ORDER BY seq", nil, func(v []any) error {
		name, _ := v[0].(string)
		file, _ := v[1].(string)
		dbs = append(dbs, name, file)
		return nil
	})
	if err != nil {
		return "", err
	}
	q := []string{"total_changes()"}
	for i := 0; i < len(dbs); i += 2 {
		db := sqlIdent(dbs[i])
		q = append(q, "(SELECT data_version FROM "+db+".pragma_data_version)", "(SELECT schema_version FROM "+db+".pragma_schema_version)")
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%q", dbs)
	err = c.Query("SELECT "+strings.Join(q, ", "), nil, func(v []any) error {
		for _, x := range v {
			fmt.Fprintf(&b, " %v", x)
		}
		return nil
	})
	return b.String(), err
}
