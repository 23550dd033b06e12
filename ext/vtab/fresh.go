package vtab

import (
	"fmt"
	"strings"

	"github.com/ksql/ksql/ext/host"
)

// Freshness. Reading a million-row source to prove it unchanged costs
// seconds; SQLite can say in microseconds that nothing may have changed.
// A snapshot of a table= source that is an ordinary table of the virtual
// table's own schema, with a kernel that names no transducer tables, keeps
// a token of the database's state when it was read:
//
//   - total_changes(): this connection's INSERTs, UPDATEs and DELETEs,
//     counted when each statement ends;
//   - PRAGMA data_version of the schema: other connections' commits
//     (other processes, other nodes' replicated writes);
//   - PRAGMA schema_version of the schema: the table dropped and made
//     again, a column added.
//
// While the token is the same, the next statement uses the snapshot
// without reading the source; any difference reads it again (and refits
// only if its content hashes differently). No token is kept where those
// counters could stay still while the content changes: inside BEGIN ...
// COMMIT (a ROLLBACK), during a writing statement (its own changes are
// counted when it ends, and never if it fails), for a table of another
// schema (DETACH and ATTACH again start its data_version afresh), for
// transducer tables, on a connection with PRAGMA read_uncommitted (another
// connection's ROLLBACK). Views, virtual tables and query= sources are read by
// every statement, as before: what they return can change without any
// write (a function, another module's own data).

// token returns the database's state as a string, or "" when the source
// must be read by every statement.
func (s *source) token(c *host.Conn) (string, error) {
	if s.query != "" || s.from.schema == "" || !strings.EqualFold(s.from.schema, s.home) || len(s.spec.References()) > 0 {
		return "", nil
	}
	// Inside BEGIN ... COMMIT a ROLLBACK takes writes back without any
	// counter moving, and during a writing statement (a trigger, INSERT ...
	// SELECT) the statement's own changes are counted only when it ends,
	// or never if it fails: no token is kept then (nor where the driver
	// cannot say).
	if !c.Settled() {
		return "", nil
	}
	db := sqlIdent(s.from.schema)
	var token string
	err := c.Query("SELECT total_changes(), EXISTS (SELECT 1 FROM "+db+".sqlite_master WHERE type = 'table' AND name = ?1 COLLATE NOCASE AND sql NOT LIKE 'CREATE VIRTUAL%')",
		[]any{s.from.name}, func(v []any) error {
			if v[1] == int64(1) { // an ordinary table, not a view or virtual table
				token = fmt.Sprint(v[0])
			}
			return nil
		})
	// PRAGMA statements, not the pragma_data_version table: after
	// sqlite3_deserialize, SQLite 3.40 (Debian 12's) reads a freed schema
	// through an eponymous table it made before, and crashes. With
	// read_uncommitted (a shared cache), another connection's rows are
	// read before it commits and go at its ROLLBACK, which moves no
	// counter: no token then.
	for _, pragma := range []string{"read_uncommitted", db + ".data_version", db + ".schema_version"} {
		if err != nil || token == "" {
			break
		}
		err = c.Query("PRAGMA "+pragma, nil, func(v []any) error {
			switch {
			case pragma != "read_uncommitted":
				token += fmt.Sprintf(" %v", v[0])
			case v[0] != int64(0):
				token = ""
			}
			return nil
		})
	}
	if err != nil {
		return "", err
	}
	return token, nil
}
