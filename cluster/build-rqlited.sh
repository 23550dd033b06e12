#!/usr/bin/env bash
# Builds rqlited and rqlite v8.43.4 (the version ksql is tested on) into
# $KSQL_RQLITE_DIR (default ~/.cache/ksql-rqlite/v8.43.4) unless they are
# there, and prints the directory. The module proxy serves v8.43.4 with
# upstream's two replace directives (its go.mod's), not @latest or v10.
set -euo pipefail
dir=${KSQL_RQLITE_DIR:-$HOME/.cache/ksql-rqlite/v8.43.4}
if [ -x "$dir/rqlited" ] && [ -x "$dir/rqlite" ]; then
	echo "$dir"; exit 0
fi
mkdir -p "$dir"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/go.mod" <<'MOD'
module ksqlrqlite

go 1.24

require github.com/rqlite/rqlite/v8 v8.43.4

replace (
	github.com/armon/go-metrics => github.com/hashicorp/go-metrics v0.5.1
	github.com/mattn/go-sqlite3 => github.com/rqlite/go-sqlite3 v1.40.0
)
MOD
cat > "$work/tools.go" <<'SRC'
//go:build tools

package ksqlrqlite

import (
	_ "github.com/rqlite/rqlite/v8/cmd/rqlite"
	_ "github.com/rqlite/rqlite/v8/cmd/rqlited"
)
SRC
(cd "$work" && go mod tidy -e >/dev/null 2>&1 && CGO_ENABLED=1 GOBIN="$dir" go install \
	github.com/rqlite/rqlite/v8/cmd/rqlited github.com/rqlite/rqlite/v8/cmd/rqlite) >&2
echo "$dir"
