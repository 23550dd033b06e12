// Command ksql-nodes checks that every node of an rqlite cluster has the
// ksql extension loaded:
//
//	go run ./cmd/ksql-nodes http://127.0.0.1:4001
//
// prints each node with its ksql_version() and exits with status 1, naming
// the nodes, when one lacks ksql (rqlite lets such a node join without
// error; its database then silently differs).
package main

import (
	"fmt"
	"os"

	"github.com/ksql/ksql/cluster"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: ksql-nodes http://HOST:PORT   (the HTTP address of one rqlite node)")
		os.Exit(2)
	}
	nodes, err := cluster.Check(os.Args[1])
	for _, n := range nodes {
		v := n.Version
		if n.Err != nil {
			v = "MISSING: " + n.Err.Error()
		}
		fmt.Printf("%s\t%s\t%s\n", n.ID, n.API, v)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "ksql-nodes:", err)
		os.Exit(1)
	}
}
