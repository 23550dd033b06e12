package functions

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/ksql/ksql/ext/host"
)

// Version is ksql's version, reported by ksql_version().
const Version = "0.1.0"

// KSQLConfig is ksql_config([name [, value]]): reads and changes the settings.
var KSQLConfig = host.Func{Name: "ksql_config", MinArgs: 0, MaxArgs: 2,
	Usage: "ksql_config([name [, value]])", Body: ksqlConfig}

// KSQLVersion is ksql_version(): ksql's version.
var KSQLVersion = host.Func{Name: "ksql_version", MinArgs: 0, MaxArgs: 0, Deterministic: true,
	Usage: "ksql_version()", Body: func(*host.Conn, []any) (any, error) { return Version, nil }}

// statistics are read-only names that ksql_config reports next to the
// settings.
var statistics = map[string]func(c *host.Conn) int64{
	"fit_count":        func(c *host.Conn) int64 { return c.Stats.Fits.Load() },
	"source_reads":     func(c *host.Conn) int64 { return c.Stats.Reads.Load() },
	"transducer_loads": func(c *host.Conn) int64 { return c.Stats.TransducerLoads.Load() },
	"transducer_reads": func(c *host.Conn) int64 { return c.Stats.TransducerReads.Load() },
}

func ksqlConfig(c *host.Conn, args []any) (any, error) {
	if len(args) == 0 {
		all := map[string]int64{}
		for _, s := range c.Config.Settings() {
			all[s.Name] = s.Get(c)
		}
		for name, f := range statistics {
			all[name] = f(c)
		}
		b, err := json.Marshal(all)
		return string(b), err
	}
	name, null, err := Text(args, 0, "name")
	if err != nil || null {
		return nil, err
	}
	if stat, ok := statistics[name]; ok {
		if len(args) == 2 {
			return nil, fmt.Errorf("%s is a read-only statistic", name)
		}
		return stat(c), nil
	}
	if len(args) == 2 {
		if c.Reading() {
			return nil, fmt.Errorf("settings cannot change while a ksql module reads its source (a query= or a view it reads calls ksql_config(%s, ...)); change them in a statement of their own", sqlText(name))
		}
		v, err := Integer(args, 1, "value", -1<<62, 1<<62)
		if err != nil {
			return nil, err
		}
		if err := c.Config.Set(name, v); err != nil {
			return nil, err
		}
	}
	return c.Config.Value(name)
}

// sqlText renders a name as an SQL string literal for a message, cut after
// 40 bytes.
func sqlText(s string) string {
	if len(s) > 40 {
		return "'" + strings.ReplaceAll(s[:40], "'", "''") + "...'"
	}
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}
