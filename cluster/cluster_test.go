//go:build rqlite

package cluster

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The cluster test (go test -tags rqlite ./cluster/, run by .ci/run): three
// rqlited v8.43.4 nodes on 127.0.0.1 with ksql.so, through the HTTP API.

type node struct {
	id, http, raft, dir string
	ext                 bool
	cmd                 *exec.Cmd
}

func (n *node) api() string { return "http://" + n.http }

func freePort(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// binaries builds ksql.so into a directory for -extensions-path, and
// rqlited (or reuses both).
func binaries(t *testing.T) (rqlited, extDir string) {
	t.Helper()
	extDir = t.TempDir()
	build := exec.Command("go", "build", "-buildmode=c-shared", "-o", filepath.Join(extDir, "ksql.so"), "../cmd/ksql-ext")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building ksql.so: %v\n%s", err, out)
	}
	if p := os.Getenv("RQLITED"); p != "" {
		return p, extDir
	}
	out, err := exec.Command("./build-rqlited.sh").Output()
	if err != nil {
		t.Fatalf("building rqlited: %v", err)
	}
	return filepath.Join(strings.TrimSpace(string(out)), "rqlited"), extDir
}

// start starts n (joining join, unless ""), with rqlited's flags extra
// besides; its log is appended to, so that a restart keeps the first.
func (n *node) start(t *testing.T, rqlited, extDir, join string, extra ...string) {
	t.Helper()
	args := append([]string{"-node-id", n.id, "-http-addr", n.http, "-raft-addr", n.raft,
		"-raft-election-timeout", "500ms", "-raft-timeout", "500ms"}, extra...)
	if n.ext {
		args = append(args, "-extensions-path", extDir)
	}
	if join != "" {
		args = append(args, "-join", join)
	}
	n.cmd = exec.Command(rqlited, append(args, n.dir)...)
	log, err := os.OpenFile(n.dir+".log", os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	n.cmd.Stdout, n.cmd.Stderr = log, log
	n.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := n.cmd.Start(); err != nil {
		t.Fatal(err)
	}
}

func (n *node) stop() {
	if n.cmd != nil && n.cmd.Process != nil {
		syscall.Kill(-n.cmd.Process.Pid, syscall.SIGKILL)
		n.cmd.Wait()
		n.cmd = nil
	}
}

type result struct {
	Columns []string          `json:"columns"`
	Values  []json.RawMessage `json:"values"`
	Error   string            `json:"error"`
}

func post(api, path string, body any) ([]result, error) {
	b, _ := json.Marshal(body)
	resp, err := client.Post(api+path, "application/json", strings.NewReader(string(b)))
	if err != nil {
		return nil, err
	}
	return decode(resp)
}

func decode(resp *http.Response) ([]result, error) {
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("HTTP %s: %s", resp.Status, raw)
	}
	var r struct {
		Results []result `json:"results"`
		Error   string   `json:"error"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, err
	}
	if r.Error != "" {
		return nil, fmt.Errorf("%s", r.Error)
	}
	return r.Results, nil
}

// query runs q on one node; level none reads that node's own database.
func query(api, level, q string) (result, error) {
	v := url.Values{"q": {q}, "level": {level}}
	resp, err := client.Get(api + "/db/query?" + v.Encode())
	if err != nil {
		return result{}, err
	}
	rs, err := decode(resp)
	if err != nil {
		return result{}, err
	}
	if len(rs) != 1 {
		return result{}, fmt.Errorf("%d results", len(rs))
	}
	if rs[0].Error != "" {
		return rs[0], fmt.Errorf("%s", rs[0].Error)
	}
	return rs[0], nil
}

// execute runs statements on the leader (any node forwards them).
func execute(t *testing.T, api string, stmts ...string) {
	t.Helper()
	rs, err := post(api, "/db/execute", stmts)
	if err != nil {
		t.Fatalf("execute: %v", err)
	}
	for i, r := range rs {
		if r.Error != "" {
			t.Fatalf("%s: %s", stmts[i], r.Error)
		}
	}
}

// eventually retries f for up to d.
func eventually(t *testing.T, d time.Duration, what string, f func() error) {
	t.Helper()
	deadline := time.Now().Add(d)
	for {
		err := f()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: %v", what, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func leaderOf(api string) (string, error) {
	var list struct {
		Nodes []struct {
			ID     string `json:"id"`
			Leader bool   `json:"leader"`
		} `json:"nodes"`
	}
	if err := get(api+"/nodes?ver=2", &list); err != nil {
		return "", err
	}
	for _, n := range list.Nodes {
		if n.Leader {
			return n.ID, nil
		}
	}
	return "", fmt.Errorf("no leader")
}

// snapshot is what every node must agree on, to the bit: JSON numbers
// from rqlite are Go's shortest round-trip text of each float64.
var checks = []string{
	"SELECT id, v FROM pts ORDER BY id",
	"SELECT row_id, col_id, value FROM g ORDER BY row_id, col_id",
	"SELECT id, pc1, pc2 FROM k ORDER BY id",
	"SELECT id, label, prediction, decision FROM s ORDER BY id",
	"SELECT part, hex(data) FROM k_fit ORDER BY part",
	"SELECT part, hex(data) FROM s_fit ORDER BY part",
	"SELECT id, kernel('normalize(ngram(n=2))', body, 'kernel methods in sql') FROM docs ORDER BY id",
	"SELECT hex(rff_embed(v, 8, 1.0)) FROM pts ORDER BY id",
}

// state reads the checks on one node: level "none" reads its own
// database, "strong" goes through the leader.
func state(api, level string) (string, error) {
	var b strings.Builder
	for _, q := range checks {
		r, err := query(api, level, q)
		if err != nil {
			return "", fmt.Errorf("%s: %v", q, err)
		}
		fmt.Fprintf(&b, "%s\n", q)
		for _, v := range r.Values {
			fmt.Fprintf(&b, "%s\n", v)
		}
	}
	return b.String(), nil
}

// same waits until every node's state equals want (followers apply the
// log a little after the leader).
func same(t *testing.T, nodes []*node, want string) {
	t.Helper()
	for _, n := range nodes {
		eventually(t, 30*time.Second, n.id+" has the leader's data", func() error {
			got, err := state(n.api(), "none")
			if err != nil {
				return err
			}
			if got != want {
				return fmt.Errorf("differs:\n%s\nwant:\n%s", got, want)
			}
			return nil
		})
	}
}

func TestCluster(t *testing.T) {
	rqlited, extDir := binaries(t)
	root := t.TempDir()
	nodes := make([]*node, 3)
	for i := range nodes {
		nodes[i] = &node{id: fmt.Sprintf("n%d", i+1), http: freePort(t), raft: freePort(t),
			dir: filepath.Join(root, fmt.Sprintf("n%d", i+1)), ext: true}
		t.Cleanup(nodes[i].stop)
	}
	nodes[0].start(t, rqlited, extDir, "")
	for _, n := range nodes[1:] {
		n.start(t, rqlited, extDir, nodes[0].raft)
	}
	eventually(t, 60*time.Second, "three nodes with ksql", func() error {
		ns, err := Check(nodes[0].api())
		if err == nil && len(ns) != 3 {
			err = fmt.Errorf("%d nodes", len(ns))
		}
		return err
	})

	api := nodes[0].api()
	execute(t, api,
		"CREATE TABLE pts(id INTEGER PRIMARY KEY, v TEXT, class TEXT)",
		"CREATE TABLE docs(id INTEGER PRIMARY KEY, body TEXT)",
		`WITH RECURSIVE i(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM i WHERE k < 40)
		 INSERT INTO pts SELECT k, json_array((k % 2) * 3 + (k * 7 % 5) * 0.1, (k * 3 % 7) * 0.2), CASE k % 2 WHEN 0 THEN 'a' ELSE 'b' END FROM i`,
		"INSERT INTO docs VALUES (1, 'kernel methods'), (2, 'sql databases'), (3, 'methods in sql')",
		"CREATE VIRTUAL TABLE g USING gram(table=pts, id=id, column=v, kernel='gauss(sigma=1)')",
		"CREATE VIRTUAL TABLE k USING kpca(table=pts, id=id, column=v, kernel='gauss(sigma=1)', components=2)",
		"CREATE VIRTUAL TABLE s USING svm(table=pts, id=id, column=v, label=class, kernel='gauss(sigma=1)', C=10)",
	)
	want, err := state(api, "strong")
	if err != nil {
		t.Fatal(err)
	}
	if lines := strings.Count(want, "\n"); lines < 40*40+3*40 {
		t.Fatalf("only %d lines of state", lines)
	}
	same(t, nodes, want)

	// Stop the leader: another is elected, writes and reads go on.
	lead, err := leaderOf(api)
	if err != nil {
		t.Fatal(err)
	}
	var live []*node
	for _, n := range nodes {
		if n.id == lead {
			n.stop()
		} else {
			live = append(live, n)
		}
	}
	eventually(t, 30*time.Second, "a new leader", func() error {
		l, err := leaderOf(live[0].api())
		if err == nil && l == lead {
			err = fmt.Errorf("still %s", l)
		}
		return err
	})
	execute(t, live[0].api(), "INSERT INTO pts VALUES (41, '[9, 9]', 'a')", "INSERT INTO docs VALUES (4, 'more kernels')")
	want, err = state(live[0].api(), "strong")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(want, "[41,") {
		t.Fatalf("the write after the election is missing:\n%s", want)
	}
	same(t, live, want)

	// The stopped node comes back and catches up, stored fits included.
	for _, n := range nodes {
		if n.id == lead {
			n.start(t, rqlited, extDir, live[0].raft)
		}
	}
	same(t, nodes, want)

	// A node without the extension joins without any error: the check
	// finds it, naming it.
	bare := &node{id: "bare", http: freePort(t), raft: freePort(t), dir: filepath.Join(root, "bare")}
	t.Cleanup(bare.stop)
	bare.start(t, rqlited, extDir, live[0].raft)
	eventually(t, 60*time.Second, "the check to see the node without ksql", func() error {
		_, err := Check(live[0].api())
		if err == nil {
			return fmt.Errorf("the check passed")
		}
		if !strings.Contains(err.Error(), "bare (http://"+bare.http+")") || !strings.Contains(err.Error(), "no ksql extension") {
			return fmt.Errorf("the check does not name the node: %v", err)
		}
		return nil
	})
}
