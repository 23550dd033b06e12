#!/usr/bin/python3
"""Runs SQL for sqltests on Python's sqlite3 module with ksql loaded as an
extension (the library built from cmd/ksql-ext): one connection (in memory,
or to the database named by $KSQL_RUNNER_DB),
sqlite-vec loaded first when its library is given too (as the Go drivers
bundle it), one JSON request per line on stdin, one JSON answer per line on stdout.

  {"op": "exec", "sql": ...}   run every statement, discard rows
  {"op": "query", "sql": ...}  run one statement, return its rows

Values are typed exactly: {"i": "12"}, {"f": "0.1"} (repr, so inf and nan
survive), {"s": hex of UTF-8}, {"b": hex}, null.
"""
import json
import os
import sqlite3
import sys


def enc(v):
    if v is None:
        return None
    if isinstance(v, int):
        return {"i": str(v)}
    if isinstance(v, float):
        return {"f": repr(v)}
    if isinstance(v, str):
        return {"s": v.encode("utf-8", "surrogateescape").hex()}
    return {"b": bytes(v).hex()}


def statements(sql):
    """Splits sql into complete statements (the last may be incomplete)."""
    out, buf = [], ""
    for piece in sql.split(";"):
        buf += piece + ";"
        if sqlite3.complete_statement(buf):
            if buf.strip(" \t\r\n;"):
                out.append(buf)
            buf = ""
    if buf[:-1].strip():
        out.append(buf[:-1])
    return out or [""]


def main():
    db = os.environ.get("KSQL_RUNNER_DB") or ":memory:"
    conn = sqlite3.connect(db, isolation_level=None, uri=db.startswith("file:"))
    conn.text_factory = lambda b: b.decode("utf-8", "surrogateescape")
    conn.enable_load_extension(True)
    for lib in sys.argv[1:]:
        conn.load_extension(lib)
    print(json.dumps({"version": sqlite3.sqlite_version}), flush=True)
    for line in sys.stdin:
        req = json.loads(line)
        try:
            if req["op"] == "exec":
                conn.executescript(req["sql"])
                out = {"cols": [], "rows": []}
            else:
                *first, last = statements(req["sql"])
                for q in first:  # as the Go drivers do: every statement runs
                    conn.execute(q).fetchall()
                cur = conn.execute(last)
                cols = [d[0] for d in cur.description or []]
                out = {"cols": cols, "rows": [[enc(v) for v in r] for r in cur.fetchall()]}
        except Exception as e:  # every error goes back to the test
            out = {"error": str(e)}
        print(json.dumps(out), flush=True)


main()
