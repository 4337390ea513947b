#!/usr/bin/env bash
# Runs every benchmark case against the cluster in PGHOST/PGPORT (make bench starts one with
# idseq in shared_preload_libraries). Prints tables; never fails on timing.
# BENCH_SMOKE=1: every case once at a tiny size (2000 rows instead of 10^6, one run, two
# transactions per pgbench point, 10 blocking clients), so that t/093_bench_smoke.pl proves each case still
# runs against the current extension; its figures mean nothing.
# IDSEQ_BENCH_CASES="42 50": only the cases whose file names start with one of these (default all).
set -euo pipefail
cd "$(dirname "$0")"
chosen() {
    [ -z "${IDSEQ_BENCH_CASES:-}" ] && return 0
    local w
    for w in $IDSEQ_BENCH_CASES; do [[ "$(basename "$1")" == "$w"* ]] && return 0; done
    return 1
}
shrink() { cat "$1"; }
if [ "${BENCH_SMOKE:-}" = 1 ]; then
    export RUNS=1 SECONDS_PER_POINT=1 PGBENCH_LENGTH="-t 2" PER_CALL_CALLS=200 BLOCKING_CLIENTS=10 PER_ID_ROWS=2000
    # generate_series(1, N) and bench.compare(..., N) with N >= 10^5 become 2000
    shrink() { sed -E 's/generate_series\(1, [1-9][0-9]{5,}\)/generate_series(1, 2000)/g; s/, [1-9][0-9]{5,}\);/, 2000);/g' "$1"; }
fi
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(postgres --version)"
psql -X -q -v ON_ERROR_STOP=1 -c "CREATE EXTENSION IF NOT EXISTS idseq" -f harness.sql
for c in cases/*.sql; do
    chosen "$c" || continue
    echo "-- $c"
    shrink "$c" | psql -X -q -v ON_ERROR_STOP=1 >/dev/null
done
psql -X -q -f report.sql
for c in cases/*.sh; do
    [ -e "$c" ] && chosen "$c" || continue
    echo "-- $c"
    bash "$c"
done
