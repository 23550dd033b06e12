//go:build rqlite

package cluster

import (
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// startSnap starts n as start does, snapshotting after every couple of
// log entries, so that a restarted node restores its database from its
// snapshot instead of replaying every statement in a fresh process.
func (n *node) startSnap(t *testing.T, rqlited, extDir, join string) {
	t.Helper()
	n.start(t, rqlited, extDir, join, "-raft-snap", "2", "-raft-snap-int", "200ms")
}

// fits reads every stored fit of the tables on one node, as hex.
func fits(api string, tables ...string) (string, error) {
	var b strings.Builder
	for _, tb := range tables {
		r, err := query(api, "none", "SELECT part, hex(data) FROM "+tb+"_fit ORDER BY part")
		if err != nil {
			return "", err
		}
		for _, v := range r.Values {
			fmt.Fprintf(&b, "%s %s\n", tb, v)
		}
	}
	return b.String(), nil
}

// A stored fit is bytes that every node writes itself: they must not
// depend on what the node's process did before. A node restored from its
// snapshot runs its first refit in a fresh process, where the leader has
// encoded other models first; the stored bytes must still be the same.
func TestHuntRefitAfterRestoreSameBytes(t *testing.T) {
	rqlited, extDir := binaries(t)
	root := t.TempDir()
	nodes := make([]*node, 3)
	for i := range nodes {
		nodes[i] = &node{id: fmt.Sprintf("n%d", i+1), http: freePort(t), raft: freePort(t),
			dir: filepath.Join(root, fmt.Sprintf("n%d", i+1)), ext: true}
		t.Cleanup(nodes[i].stop)
	}
	nodes[0].startSnap(t, rqlited, extDir, "")
	for _, n := range nodes[1:] {
		n.startSnap(t, rqlited, extDir, nodes[0].raft)
	}
	up := func() error {
		ns, err := Check(nodes[0].api())
		if err == nil && len(ns) != 3 {
			err = fmt.Errorf("%d nodes", len(ns))
		}
		return err
	}
	eventually(t, 60*time.Second, "three nodes with ksql", up)
	eventually(t, 30*time.Second, "n1 leads", func() error {
		l, err := leaderOf(nodes[0].api())
		if err == nil && l != "n1" {
			err = fmt.Errorf("%s leads", l)
		}
		return err
	})
	api := nodes[0].api()
	tables := []string{"k", "m", "s", "r", "f", "c", "gp", "t"}
	execute(t, api,
		"CREATE TABLE pts(id INTEGER PRIMARY KEY, v TEXT, class TEXT, y REAL)",
		`WITH RECURSIVE i(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM i WHERE k < 30)
		 INSERT INTO pts SELECT k, json_array((k % 2) * 3 + (k * 7 % 5) * 0.1, (k * 3 % 7) * 0.2), CASE k % 2 WHEN 0 THEN 'a' ELSE 'b' END, k * 0.1 FROM i`,
		"CREATE VIRTUAL TABLE k USING kpca(table=pts, id=id, column=v, kernel='gauss(sigma=1)', components=2)",
		"CREATE VIRTUAL TABLE m USING kernel_map(table=pts, id=id, column=v, kernel='gauss(sigma=1)')",
		"CREATE VIRTUAL TABLE s USING svm(table=pts, id=id, column=v, label=class, kernel='gauss(sigma=1)', C=10)",
		"CREATE VIRTUAL TABLE r USING krr(table=pts, id=id, column=v, label=y, kernel='gauss(sigma=1)', alpha=0.1)",
		"CREATE VIRTUAL TABLE f USING kfda(table=pts, id=id, column=v, label=class, kernel='gauss(sigma=1)', components=1)",
		"CREATE VIRTUAL TABLE c USING kkmeans(table=pts, id=id, column=v, kernel='gauss(sigma=1)', k=2, seed=0)",
		"CREATE VIRTUAL TABLE gp USING gp(table=pts, id=id, column=v, label=y, kernel='gauss(sigma=1)', noise=0.1)",
		"CREATE VIRTUAL TABLE t USING tsne(table=pts, id=id, column=v, kernel='gauss(sigma=1)', perplexity=5, iterations=300, seed=0)",
	)
	// n3 restarts: a fresh process with its database from its snapshot.
	n3 := nodes[2]
	eventually(t, 30*time.Second, "n3 has the fits", func() error { _, err := fits(n3.api(), tables...); return err })
	// A snapshot now, not at the next check of the threshold: the
	// restart must restore from it, not replay the CREATEs in order.
	resp, err := client.Post(n3.api()+"/snapshot", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("snapshot on n3: %s", resp.Status)
	}
	n3.stop()
	n3.startSnap(t, rqlited, extDir, nodes[0].raft)
	eventually(t, 60*time.Second, "n3 back", up)

	// Refits in the reverse order of the CREATEs: n3 encodes each model
	// first in the reverse order too.
	execute(t, api, "UPDATE pts SET v = json_array(id * 0.05, 1) WHERE id % 5 = 0")
	for i := len(tables) - 1; i >= 0; i-- {
		execute(t, api, fmt.Sprintf("INSERT INTO %s(%s) VALUES ('refit')", tables[i], tables[i]))
	}
	want, err := fits(api, tables...)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range nodes[1:] {
		eventually(t, 30*time.Second, n.id+" stores the leader's bytes", func() error {
			got, err := fits(n.api(), tables...)
			if err == nil && got != want {
				err = fmt.Errorf("differs:\n%.3000s\nwant:\n%.3000s", got, want)
			}
			return err
		})
	}
}
