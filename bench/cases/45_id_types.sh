#!/usr/bin/env bash
# Id types side by side, as users compare them: ROWS rows (default 10^6) inserted through a
# primary-key default with pgbench at 1 and 8 clients, each transaction inserting BATCH rows
# (default 100) in one statement, so that the figure is the insert's and not the round trip's.
# Reported per id type and client count: rows per second (median of RUNS, default 3), the
# primary key's size, the heap's size, and WAL bytes per row (pg_current_wal_lsn() before
# and after; a CHECKPOINT before each run, so every run pays the same full-page images).
# Types whose function this server lacks (uuidv7() before PostgreSQL 18) print "(n/a)".
# Needs PGHOST/PGPORT of a cluster with idseq preloaded and idseq.node_id set (make bench's).
# ID_TYPES: an extended regular expression; only the id types whose label matches it run.
# Prints a table; never fails on timing.
set -euo pipefail
RUNS=${RUNS:-3}
ID_TYPES=${ID_TYPES:-.}
ROWS=${ROWS:-1000000}
BATCH=${BATCH:-100}
if [ "${BENCH_SMOKE:-}" = 1 ]; then ROWS=2000; BATCH=10; fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
q() { psql -X -Atq -v ON_ERROR_STOP=1 "$@"; }

q <<'SQL' >/dev/null
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS idseq;
DROP SCHEMA IF EXISTS bench_ids CASCADE;
CREATE SCHEMA bench_ids;
CREATE SEQUENCE bench_ids.code_seq;
SQL

# label | column definition | function that must exist (regprocedure text, or -)
types=(
    "bigint identity|id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY|-"
    "snowflake_nextval()|id bigint PRIMARY KEY DEFAULT snowflake_nextval()|snowflake_nextval(text)"
    "snowflake_uuid(snowflake_nextval())|id uuid PRIMARY KEY DEFAULT snowflake_uuid(snowflake_nextval())|snowflake_uuid(bigint,text)"
    "idseq_uuidv7()|id uuid PRIMARY KEY DEFAULT idseq_uuidv7()|idseq_uuidv7()"
    "gen_random_uuid()|id uuid PRIMARY KEY DEFAULT gen_random_uuid()|gen_random_uuid()"
    "uuidv7() (PostgreSQL 18)|id uuid PRIMARY KEY DEFAULT uuidv7()|pg_catalog.uuidv7()"
    "nextval_lexid code (base36)|id lexid(base36) PRIMARY KEY DEFAULT nextval_lexid('bench_ids.code_seq', '00A000')|nextval_lexid(regclass,lexid)"
)

clients_list=(1 8)
echo "id types: $ROWS rows inserted through the primary key's default, $BATCH rows per transaction (pgbench -M prepared), median of $RUNS runs taken in turns"
printf '%-38s %8s %12s %10s %10s %10s\n' "id type" clients "rows/s" "pk MB" "heap MB" "WAL B/row"
echo "INSERT INTO bench_ids.t (payload) SELECT g FROM generate_series(1, $BATCH) g;" >"$work/ins.sql"
# The types this server has, in order.
present=()
for t in "${types[@]}"; do
    IFS='|' read -r label coldef fn <<<"$t"
    grep -Eq -- "$ID_TYPES" <<<"$label" || continue
    if [ "$fn" != - ] && [ "$(q -c "SELECT to_regprocedure('$fn') IS NOT NULL")" != t ]; then
        printf '%-38s %8s %12s\n' "$label" "-" "(n/a)"
        continue
    fi
    present+=("$t")
done
# One run inserts ROWS rows into a fresh table of one type; its line goes to $work/<type>-<clients>.
run_one() {
    local i=$1 c=$2 label coldef fn
    IFS='|' read -r label coldef fn <<<"${present[$i]}"
    local per_client=$(( ROWS / BATCH / c ))
    q -c "SET client_min_messages = warning" -c "DROP TABLE IF EXISTS bench_ids.t" -c "CREATE TABLE bench_ids.t ($coldef, payload int)" -c "CHECKPOINT" >/dev/null
    local lsn0 start end rows pk heap wal
    lsn0=$(q -c "SELECT pg_current_wal_lsn()")
    start=$(date +%s.%N)
    pgbench -n -M prepared -c "$c" -j "$c" -t "$per_client" -f "$work/ins.sql" >"$work/pgbench.out" 2>&1 \
        || { echo "pgbench failed for $label:" >&2; cat "$work/pgbench.out" >&2; exit 1; }
    end=$(date +%s.%N)
    read -r rows pk heap wal < <(q -F ' ' -c "SELECT count(*), pg_relation_size('bench_ids.t_pkey'), pg_relation_size('bench_ids.t'), pg_wal_lsn_diff(pg_current_wal_lsn(), '$lsn0') FROM bench_ids.t")
    awk -v r="$rows" -v s="$start" -v e="$end" -v pk="$pk" -v heap="$heap" -v wal="$wal" \
        'BEGIN { printf "%.0f %s %s %s %s\n", r / (e - s), pk, heap, wal, r }' >>"$work/$i-$c"
}
# Runs taken in turns (every type's first run, then every type's second, ...), so that a
# machine whose load drifts during the benchmark weighs on every type alike.
for c in "${clients_list[@]}"; do
    for _ in $(seq "$RUNS"); do
        for i in "${!present[@]}"; do run_one "$i" "$c"; done
    done
done
for i in "${!present[@]}"; do
    IFS='|' read -r label coldef fn <<<"${present[$i]}"
    for c in "${clients_list[@]}"; do
        # the median run by rows/s; sizes and WAL of that run
        read -r rps pk heap wal rows < <(sort -n "$work/$i-$c" | awk '{ a[NR] = $0 } END { print a[int((NR + 1) / 2)] }')
        awk -v l="$label" -v c="$c" -v rps="$rps" -v pk="$pk" -v heap="$heap" -v wal="$wal" -v rows="$rows" \
            'BEGIN { printf "%-38s %8d %12d %10.1f %10.1f %10.0f\n", l, c, rps, pk / 1048576, heap / 1048576, wal / rows }'
    done
done
q -c "DROP SCHEMA IF EXISTS bench_ids CASCADE" >/dev/null 2>&1 || true
