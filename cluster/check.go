// Package cluster checks an rqlite cluster that runs ksql: every node must
// have the extension loaded, or statements that use ksql silently do
// nothing on it (rqlite lets such a node join without an error) and its
// database differs from the others'.
package cluster

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Node is one node of the cluster as the check saw it.
type Node struct {
	ID, API string
	// Version is ksql_version() on the node, "" when the node lacks ksql.
	Version string
	// Err says why the node could not answer or lacks ksql.
	Err error
}

var client = &http.Client{Timeout: 10 * time.Second}

// Check lists the nodes of the cluster that api (one node's HTTP address,
// such as http://127.0.0.1:4001) belongs to, voters and non-voters, and
// asks each for ksql_version() with a node-local read (level=none). The
// error names every node without ksql, or that could not be asked.
func Check(api string) ([]Node, error) {
	var list struct {
		Nodes []struct {
			ID      string `json:"id"`
			APIAddr string `json:"api_addr"`
		} `json:"nodes"`
	}
	if err := get(strings.TrimRight(api, "/")+"/nodes?ver=2&nonvoters", &list); err != nil {
		return nil, fmt.Errorf("listing the nodes through %s: %v", api, err)
	}
	var nodes []Node
	var bad []string
	for _, n := range list.Nodes {
		node := Node{ID: n.ID, API: n.APIAddr}
		node.Version, node.Err = version(n.APIAddr)
		if node.Err != nil {
			bad = append(bad, fmt.Sprintf("%s (%s): %v", n.ID, n.APIAddr, node.Err))
		}
		nodes = append(nodes, node)
	}
	if len(nodes) == 0 {
		return nil, fmt.Errorf("%s lists no nodes", api)
	}
	if len(bad) > 0 {
		return nodes, fmt.Errorf("%d of %d nodes cannot run ksql: %s", len(bad), len(nodes), strings.Join(bad, "; "))
	}
	return nodes, nil
}

func version(api string) (string, error) {
	var res struct {
		Results []struct {
			Values [][]any `json:"values"`
			Error  string  `json:"error"`
		} `json:"results"`
	}
	q := url.Values{"q": {"SELECT ksql_version()"}, "level": {"none"}}
	if err := get(strings.TrimRight(api, "/")+"/db/query?"+q.Encode(), &res); err != nil {
		return "", err
	}
	switch {
	case len(res.Results) != 1:
		return "", fmt.Errorf("unexpected answer")
	case res.Results[0].Error != "":
		return "", fmt.Errorf("no ksql extension (%s); start it with -extensions-path pointing at ksql.so", res.Results[0].Error)
	case len(res.Results[0].Values) != 1 || len(res.Results[0].Values[0]) != 1:
		return "", fmt.Errorf("unexpected answer to ksql_version()")
	}
	v, _ := res.Results[0].Values[0][0].(string)
	return v, nil
}

func get(u string, into any) error {
	resp, err := client.Get(u)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("HTTP %s: %s", resp.Status, strings.TrimSpace(string(body)))
	}
	return json.Unmarshal(body, into)
}
