package vtab

import (
	"slices"
	"strings"
	"sync"

	"github.com/ksql/ksql/ext/host"
)

// registry lists the kpca tables connected on one connection, so that
// kpca_eigen('docs_pca') finds the model docs_pca fits. It lives in the
// connection's host.Conn.Value store: models are per connection, like the
// tables SQLite connects.
type registry struct {
	mu     sync.Mutex
	tables map[string]*kpcaTable // by lower(schema) + "." + lower(name)
}

type registryKey struct{}

func registryOf(c *host.Conn) *registry {
	return c.Value(registryKey{}, func() any { return &registry{tables: map[string]*kpcaTable{}} }).(*registry)
}

func regKey(schema, name string) string {
	return strings.ToLower(schema) + "." + strings.ToLower(name)
}

func (r *registry) add(t *kpcaTable) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.tables[regKey(t.name.schema, t.name.name)] = t
}

func (r *registry) remove(t *kpcaTable) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if k := regKey(t.name.schema, t.name.name); r.tables[k] == t {
		delete(r.tables, k)
	}
}

// lookup finds a table by name, as SQLite resolves an unqualified name:
// main first, then temp, then attached databases in name order.
func (r *registry) lookup(id ident) *kpcaTable {
	r.mu.Lock()
	defer r.mu.Unlock()
	if id.schema != "" {
		return r.tables[regKey(id.schema, id.name)]
	}
	for _, s := range []string{"main", "temp"} {
		if t := r.tables[regKey(s, id.name)]; t != nil {
			return t
		}
	}
	var keys []string
	for k, t := range r.tables {
		if strings.EqualFold(t.name.name, id.name) {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	if len(keys) > 0 {
		return r.tables[keys[0]]
	}
	return nil
}
