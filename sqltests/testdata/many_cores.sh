#!/usr/bin/env bash
# many_cores.sh: the Nyström and exact-fit benchmarks and their anchors on a
# machine with many cores and no Go toolchain, inside a fixed wall-time budget.
#
#   many_cores.sh build DIR          here: static test binaries (CGO_ENABLED=0)
#                                    of sqltests, internal/{kpca,krr,tsne,fda},
#                                    the testdata they read and the anchors,
#                                    laid out as in the repository
#   many_cores.sh run DIR OUTDIR     there: the steps below in priority order,
#                                    each under `timeout`, every output
#                                    appended to OUTDIR/log, a summary table
#                                    as the last lines of stdout
#   many_cores.sh run DIR OUTDIR small   every step at tiny sizes, to try the
#                                    whole script on a small machine
#
# Steps (budgets in seconds, estimated for 16 cores from the 2-core figures of
# BENCHMARKS.md): a1/a3/a2 kpca Nyström 1M rows blob (twice)/json at all cores; b the
# scikit-learn anchor at 1M; c kpca 1M blob at GOMAXPROCS=2; d kpca blob at
# 10M rows; e1/e2 krr Nyström 1M and its anchor; f1..f4 the exact fits
# (f1s, f4s: kernel_map and kfda on one core, for their speedups: with a
# spinning team, cpu/wall counts helpers waiting between phases)
# (kernel_map, krr, tsne at 5,391 rows; kfda at 1,000 and 4,000) each with its
# anchor; g svm Nyström 1M with whatever time is left. Each step must end by
# the sum of its budget and those before it (measured from the end of the
# header), so time a step leaves unused goes to the next ones, and a step
# that overruns loses only itself; nothing runs past KSQL_DEADLINE (515 s
# from the start).
#
# Environment: PY (python with numpy, scipy, scikit-learn; default the first
# of python3 and /usr/bin/python3 that imports sklearn), KSQL_TMP (where the
# databases go, default /dev/shm where it has 8 GB free, else /tmp; 10M rows
# take about 3 GB), KSQL_DEADLINE,
# KSQL_STEPS (an extended regex of the step ids to run, default all).
set -u

die() { echo "many_cores.sh: $*" >&2; exit 2; }

build() {
	local dir=$1 root
	root=$(cd "$(dirname "$0")/../.." && pwd) || die "no repository root"
	if [ -e "$dir" ] && [ ! -e "$dir/.many_cores" ] && [ -n "$(ls -A "$dir")" ]; then
		die "$dir exists and was not made by this script; give another DIR"
	fi
	rm -rf "$dir" && mkdir -p "$dir" && touch "$dir/.many_cores" || die "cannot make $dir"
	dir=$(cd "$dir" && pwd)
	local pkg
	for pkg in sqltests internal/kpca internal/krr internal/tsne internal/fda; do
		mkdir -p "$dir/$pkg/testdata"
		(cd "$root" && CGO_ENABLED=0 go test -c -ldflags='-s -w' -o "$dir/$pkg/$(basename "$pkg").test" "./$pkg") ||
			die "go test -c ./$pkg failed"
	done
	local f
	for f in sqltests/testdata/digits.csv sqltests/testdata/sklearn_nystroem_1m.py \
		internal/kpca/testdata/digits.csv internal/kpca/testdata/bench_map5391.py \
		internal/krr/testdata/bench_krr5391.py \
		internal/tsne/testdata/digits.csv internal/tsne/testdata/bench_tsne5391.py \
		internal/fda/testdata/bench_eigh.py; do
		cp "$root/$f" "$dir/$f" || die "cannot copy $f"
	done
	{
		echo "built $(date -u +%Y-%m-%dT%H:%M:%SZ) by $(go version)"
		echo "commit $(cd "$root" && git rev-parse --short HEAD 2>/dev/null) ($(cd "$root" && git status --porcelain --untracked-files=no 2>/dev/null | wc -l) tracked files changed since)"
	} >"$dir/BUILD"
	cat "$dir/BUILD"
	du -sh "$dir"
}

# ---- run ----

now_ms() { date +%s%3N; }

# limited SECONDS CMD...: timeout -k 5, or where coreutils' timeout is
# missing a watchdog that polls once a second (rc 124 when it fired).
limited() {
	local limit=$1
	shift
	if command -v timeout >/dev/null; then
		timeout -k 5 "$limit" "$@"
		return
	fi
	"$@" &
	local pid=$! fired=$KTMP/ksql-many-cores.$$.fired rc
	rm -f "$fired"
	(
		for ((i = 0; i < limit; i++)); do
			kill -0 "$pid" 2>/dev/null || exit 0
			sleep 1
		done
		touch "$fired"
		kill -TERM "$pid" 2>/dev/null
		sleep 5
		kill -KILL "$pid" 2>/dev/null
	) >/dev/null 2>&1 &
	wait "$pid"
	rc=$?
	[ -e "$fired" ] && rc=124
	rm -f "$fired"
	return "$rc"
}

# pick_tmp: KSQL_TMP, else /dev/shm where it is a writable directory with
# 8 GB free (the 10M-row database is about 3 GB), else /tmp.
pick_tmp() {
	if [ -n "${KSQL_TMP:-}" ]; then
		echo "$KSQL_TMP"
	elif [ -d /dev/shm ] && [ -w /dev/shm ] && [ "$(df -Pk /dev/shm 2>/dev/null | awk 'NR == 2 { print $4 }')" -gt 8000000 ] 2>/dev/null; then
		echo /dev/shm
	else
		echo /tmp
	fi
}

pick_python() {
	local p
	for p in ${PY:-} python3 /usr/bin/python3; do
		if "$p" -c 'import numpy, scipy, sklearn' 2>/dev/null; then
			echo "$p"
			return
		fi
	done
	echo python3
}

header() {
	echo "== machine"
	echo "nproc: $(nproc)"
	if command -v lscpu >/dev/null; then
		lscpu | grep -E '^(Model name|CPU\(s\)|Thread|Core|Socket|L2|L3)' | tr -s ' '
	else
		grep -m1 'model name' /proc/cpuinfo
	fi
	if command -v free >/dev/null; then free -g; else head -3 /proc/meminfo; fi
	uname -r
	echo "databases in $KTMP: $(df -h "$KTMP" | tail -1)"
	command -v timeout >/dev/null || echo "no timeout command: a watchdog in the shell stands in"
	timeout 30 $PY -c '
import sys, numpy, scipy, sklearn, scipy.linalg
print("python", sys.version.split()[0], sys.executable, "numpy", numpy.__version__, "scipy", scipy.__version__, "scikit-learn", sklearn.__version__)
try:
    from threadpoolctl import threadpool_info
    print("thread pools:", [(d.get("internal_api"), d.get("num_threads"), d.get("version")) for d in threadpool_info()])
except Exception as e:
    print("no threadpoolctl:", e)
' 2>&1
	cat "$DIR/BUILD" 2>/dev/null
}

declare -a IDS
declare -A DESC STATUS SECS KIND ANCHOR
SCHED=0

# step ID BUDGET DESC KIND ANCHOR CWD CMD...: runs CMD in DIR/CWD until the
# schedule's mark (budget 0: until the deadline), its output in OUTDIR/ID.out
# and appended to the log; KIND is go or py, ANCHOR the id of the step whose
# anchor times sit beside this one's in the summary: its one timed line
# beside every benchmark, or with the suffix :key the line whose key (the
# text before the first colon) is the benchmark's last name part.
step() {
	local id=$1 budget=$2 desc=$3 kind=$4 anchor=$5 cwd=$6
	shift 6
	[[ $id =~ ^(${KSQL_STEPS:-.*})$ ]] || return 0
	IDS+=("$id")
	DESC[$id]=$desc KIND[$id]=$kind ANCHOR[$id]=$anchor SECS[$id]=-
	local elapsed=$(($(now_ms) / 1000 - T0)) mark limit
	if ((budget > 0)); then
		SCHED=$((SCHED + budget))
		mark=$((T1 - T0 + SCHED))
	else
		mark=$DEADLINE
	fi
	((mark > DEADLINE)) && mark=$DEADLINE
	limit=$((mark - elapsed))
	if ((limit < 5 || (budget == 0 && limit < 30))); then
		STATUS[$id]=skipped
		echo "=== $id: $desc: skipped, ${limit}s left by its mark" | tee -a "$LOG"
		return 0
	fi
	local out=$OUTDIR/$id.out tmp=$KTMP/ksql-many-cores.$$.$id
	mkdir -p "$tmp"
	echo "=== $id: $desc (limit ${limit}s, at ${elapsed}s): $*" | tee -a "$LOG"
	local t0 rc
	t0=$(now_ms)
	(cd "$DIR/$cwd" && TMPDIR=$tmp limited "$limit" env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE "$@") >"$out" 2>&1
	rc=$?
	SECS[$id]=$(awk -v a="$t0" -v b="$(now_ms)" 'BEGIN { printf "%.1f", (b - a) / 1000 }')
	rm -rf "$tmp"
	case $rc in
	0) STATUS[$id]=ok ;;
	124 | 137) STATUS[$id]=TIMEOUT ;;
	*) STATUS[$id]="FAIL($rc)" ;;
	esac
	cat "$out" >>"$LOG"
	grep -E '^Benchmark|best of|peak not reset|peak RSS|^(---|FAIL|panic)|rror' "$out" | head -20
	echo "--- $id: ${STATUS[$id]} in ${SECS[$id]}s" | tee -a "$LOG"
}

# gobest FILE: per benchmark, the line of least ns/op as
# "name seconds cpu/wall peak-MB" (- where a metric is missing; cpu/wall
# is create-cpu/wall, the fit's own, where the benchmark reports it).
gobest() {
	awk '/^Benchmark/ && $4 == "ns/op" {
		name = $1; ns = $3; cw = "-"; pk = "-"; fit = 0
		for (i = 5; i < NF; i += 2) {
			if ($(i + 1) == "cpu/wall" && !fit) cw = sprintf("%.1f", $i)
			if ($(i + 1) == "create-cpu/wall") { cw = sprintf("%.1f", $i); fit = 1 }
			if ($(i + 1) == "fit-peak-MiB") pk = sprintf("%.0f", $i)
		}
		if (!(name in best) || ns < best[name]) { best[name] = ns; line[name] = sprintf("%s %.3f %s %s", name, ns / 1e9, cw, pk) }
		if (!(name in seen)) { seen[name] = 1; order[++n] = name }
	}
	END { for (i = 1; i <= n; i++) print line[order[i]] }' "$1"
}

# anchorbest FILE: "key seconds cpu/wall" for each "key: ... best of N: S s, cpu/wall C" line.
anchorbest() {
	sed -nE 's/^([^: ]+): .*best of [0-9]+: ([0-9.]+) s, cpu\/wall ([0-9.]+).*/\1 \2 \3/p' "$1" 2>/dev/null
}

summary() {
	local id name s cw pk a keyed key as acw n flag ab=
	echo
	echo "== summary ($MODE; ${ROWS1M} rows for 1M, ${ROWS10M} for 10M; times in s; peak: fit-peak-MiB; * peak not reset, the load included)"
	printf '%-4s %-34s %-8s %8s %7s %5s %9s %5s\n' step benchmark status ksql peak c/w anchor a-c/w
	for id in "${IDS[@]}"; do
		[ "${KIND[$id]}" = go ] || continue
		flag=
		grep -q 'peak not reset' "$OUTDIR/$id.out" 2>/dev/null && flag='*'
		a=${ANCHOR[$id]%:key} keyed=
		[ "$a" = "${ANCHOR[$id]}" ] || keyed=1
		n=0
		while read -r name s cw pk; do
			n=$((n + 1))
			key=${name##*/}
			key=${key%-[0-9]*}
			as=- acw=-
			if [ -n "$a" ]; then
				read -r as acw < <(anchorbest "$OUTDIR/$a.out" | awk -v k="$key" -v keyed="$keyed" '
					{ n++; if ($1 == k) hit = $2 " " $3; one = $2 " " $3 }
					END { if (hit != "") print hit; else if (n == 1 && !keyed) print one; else print "- -" }')
				if [ "$as" = - ] && [ "${STATUS[$a]:-}" != ok ]; then
					as=${STATUS[$a]:-not-run}
				fi
			fi
			[ "$pk" = - ] || pk=$pk$flag
			printf '%-4s %-34s %-8s %8s %7s %5s %9s %5s\n' "$id" "${name#Benchmark}" "${STATUS[$id]}" "$s" "$pk" "$cw" "${as:--}" "${acw:--}"
		done < <(gobest "$OUTDIR/$id.out" 2>/dev/null)
		((n == 0)) && printf '%-4s %-34.34s %-8s %8s\n' "$id" "${DESC[$id]}" "${STATUS[$id]}" "(${SECS[$id]}s)"
	done
	local a16 a2 a10
	a16=$(gobest "$OUTDIR/a1.out" 2>/dev/null | awk '{ print $2 }')
	a2=$(gobest "$OUTDIR/c.out" 2>/dev/null | awk '{ print $2 }')
	a10=$(gobest "$OUTDIR/d.out" 2>/dev/null | awk '{ print $2 }')
	if [ -n "$a16" ] && [ -n "$a2" ]; then
		awk -v x="$a2" -v y="$a16" 'BEGIN { printf "kpca blob, cores: GOMAXPROCS=2 %.2f s, all cores %.2f s: %.1fx\n", x, y, x / y }'
	fi
	if [ -n "$a16" ] && [ -n "$a10" ]; then
		awk -v x="$a10" -v y="$a16" -v r="$ROWS10M" -v q="$ROWS1M" 'BEGIN { printf "kpca blob, rows: %d rows %.2f s, %d rows %.2f s: %.1fx the time for %.0fx the rows\n", q, y, r, x, x / y, r / q }'
	fi
	for id in "${IDS[@]}"; do
		[ "${STATUS[$id]}" = ok ] || ab="$ab $id:${STATUS[$id]}"
	done
	echo "steps not ok:${ab:- none}; total $(($(now_ms) / 1000 - T0))s of $DEADLINE; full log OUTDIR/log"
}

run() {
	DIR=$(cd "$1" && pwd) || die "no DIR $1"
	[ -f "$DIR/sqltests/sqltests.test" ] || die "$DIR has no sqltests.test: run build first"
	chmod +x "$DIR"/sqltests/*.test "$DIR"/internal/*/*.test 2>/dev/null
	mkdir -p "$2" || die "cannot make $2"
	OUTDIR=$(cd "$2" && pwd)
	MODE=${3:-full}
	LOG=$OUTDIR/log
	: >"$LOG"
	T0=$(($(now_ms) / 1000))
	DEADLINE=${KSQL_DEADLINE:-515}
	KTMP=$(pick_tmp)
	PY=$(pick_python)
	export GOTRACEBACK=single
	if [ "$MODE" = small ]; then
		ROWS1M=20000 ROWS10M=40000 NANCH=1 MAPN=1000 KRRN=1000 TSNEN=600 EIGHN=300,1000 GOCOUNT=1
	else
		[ "$MODE" = full ] || die "mode is small or nothing, not $MODE"
		ROWS1M=1000000 ROWS10M=10000000 NANCH=2 MAPN=5391 KRRN=5391 TSNEN=5391 EIGHN=1000,4000 GOCOUNT=2
	fi
	header 2>&1 | tee -a "$LOG"
	T1=$(($(now_ms) / 1000))

	local S=./sqltests.test B=(-test.run '^$' -test.benchtime 1x)
	local NY=(env -u KSQL_BENCH_ROWS)
	step a1 45 "kpca nystrom ${ROWS1M} blob, all cores" go b sqltests \
		env KSQL_BENCH_ROWS=$ROWS1M $S "${B[@]}" -test.bench '^BenchmarkKPCANystrom1M$/^blob$'
	step a3 45 "kpca nystrom ${ROWS1M} blob, all cores, again" go b sqltests \
		env KSQL_BENCH_ROWS=$ROWS1M $S "${B[@]}" -test.bench '^BenchmarkKPCANystrom1M$/^blob$'
	step a2 50 "kpca nystrom ${ROWS1M} json, all cores" go b sqltests \
		env KSQL_BENCH_ROWS=$ROWS1M $S "${B[@]}" -test.bench '^BenchmarkKPCANystrom1M$/^json$'
	step b 40 "anchor Nystroem+PCA ${ROWS1M}" py "" sqltests/testdata \
		$PY sklearn_nystroem_1m.py $ROWS1M kpca $NANCH
	step c 45 "kpca nystrom ${ROWS1M} blob, GOMAXPROCS=2" go "" sqltests \
		env GOMAXPROCS=2 KSQL_BENCH_ROWS=$ROWS1M $S "${B[@]}" -test.bench '^BenchmarkKPCANystrom1M$/^blob$'
	step d 115 "kpca nystrom ${ROWS10M} blob, all cores" go "" sqltests \
		env KSQL_BENCH_ROWS=$ROWS10M $S "${B[@]}" -test.bench '^BenchmarkKPCANystrom1M$/^blob$'
	step e1 30 "krr nystrom ${ROWS1M}" go e2 sqltests \
		env KSQL_BENCH_ROWS=$ROWS1M $S "${B[@]}" -test.bench '^BenchmarkKRRNystrom1M$'
	step e2 30 "anchor Nystroem+Ridge ${ROWS1M}" py "" sqltests/testdata \
		$PY sklearn_nystroem_1m.py $ROWS1M krr $NANCH
	step f1 20 "kernel_map 5391 (pstrf)" go f1a:key internal/kpca \
		"${NY[@]}" ./kpca.test "${B[@]}" -test.count $GOCOUNT -test.bench '^BenchmarkFitMap5391$'
	step f1s 20 "kernel_map 5391 (pstrf), GOMAXPROCS=1" go "" internal/kpca \
		"${NY[@]}" GOMAXPROCS=1 ./kpca.test "${B[@]}" -test.count 1 -test.bench '^BenchmarkFitMap5391$/^fit$'
	step f1a 20 "anchor rbf_kernel+eigh $MAPN" py "" internal/kpca/testdata \
		$PY bench_map5391.py $MAPN $NANCH
	step f2 12 "krr exact 5391" go f2a internal/krr \
		"${NY[@]}" ./krr.test "${B[@]}" -test.count $GOCOUNT -test.bench '^BenchmarkFitPredict5391$'
	step f2a 12 "anchor KernelRidge $KRRN" py "" internal/krr/testdata \
		$PY bench_krr5391.py $KRRN 3
	step f3 22 "tsne barnes-hut 5391" go f3a internal/tsne \
		"${NY[@]}" ./tsne.test "${B[@]}" -test.count $GOCOUNT -test.bench '^BenchmarkTripled5391BarnesHut$'
	step f3a 25 "anchor TSNE $TSNEN" py "" internal/tsne/testdata \
		$PY bench_tsne5391.py $TSNEN $NANCH
	step f4 16 "kfda 1000, 4000" go f4a:key internal/fda \
		"${NY[@]}" ./fda.test -test.run '^$' -test.benchtime 10x -test.bench '^BenchmarkFitCores$'
	step f4s 10 "kfda 1000, GOMAXPROCS=1" go "" internal/fda \
		"${NY[@]}" GOMAXPROCS=1 ./fda.test -test.run '^$' -test.benchtime 10x -test.bench '^BenchmarkFitCores$/^n=1000$'
	step f4a 20 "anchor eigh(M, N) $EIGHN" py "" internal/fda/testdata \
		$PY bench_eigh.py $EIGHN $NANCH
	step g 0 "svm nystrom ${ROWS1M} (landmarks 100)" go "" sqltests \
		env KSQL_BENCH_ROWS=$ROWS1M $S "${B[@]}" -test.bench '^BenchmarkSVMNystrom$'
	summary | tee -a "$LOG"
}

case ${1:-} in
build)
	[ $# -eq 2 ] || die "usage: many_cores.sh build DIR"
	build "$2"
	;;
run)
	[ $# -eq 3 ] || [ $# -eq 4 ] || die "usage: many_cores.sh run DIR OUTDIR [small]"
	run "$2" "$3" "${4:-}"
	;;
*) die "usage: many_cores.sh build DIR | run DIR OUTDIR [small]" ;;
esac
