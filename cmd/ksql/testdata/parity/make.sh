#!/bin/sh
# Regenerates NAME.sqlite3, the output of the sqlite3 shell for each
# NAME.sql (run in this directory, the script on standard input), in the
# layout of ../golden. TestParity runs ksql on the same scripts and expects
# the same bytes. Made with: SQLite 3.40.1 2022-12-28 (Debian 12, sqlite3
# 3.40.1-2), /usr/bin/sqlite3.
set -e
cd "$(dirname "$0")"
for f in *.sql; do
	name=${f%.sql}
	rm -f once-output.txt
	set +e
	/usr/bin/sqlite3 < "$f" > "$name.stdout" 2> "$name.stderr"
	code=$?
	set -e
	{
		echo "--- stdout"
		cat "$name.stdout"
		echo "--- stderr"
		cat "$name.stderr"
		echo "--- exit $code"
		if [ -f once-output.txt ]; then
			echo "--- once-output.txt"
			cat once-output.txt
		fi
	} > "$name.sqlite3"
	rm -f "$name.stdout" "$name.stderr" once-output.txt
done
