#!/usr/bin/env bash
# Snowflake ids on both of snowflake_nextval's paths, beside nextval (CACHE 1):
#   1. ns per id in one statement (count(f(g)) over 2*10^6 rows, 5 runs, the floor
#      subtracted; the method is in docs/dev/benchmarks.md) with idseq in shared_preload_libraries (the
#      cluster in PGHOST/PGPORT) and without it (a throwaway cluster started here, same
#      settings otherwise), each beside nextval on its own cluster;
#   2. ids per second with pgbench -M prepared at 1, 2, 8 and 32 clients, SECONDS_PER_POINT
#      (default 5) per point, each transaction drawing 1000 ids in one statement, so that the
#      figure is the generator's and not the round trip's.
# Layouts: snowflake (4096 ids per ms per node: past about 4 million ids/s it waits for the
# clock) and bench_wide (time:41,node:2,seq:20, which never waits here).
# Prints tables; never fails on timing. Needs PGHOST/PGPORT of a cluster with idseq
# preloaded, idseq.node_id set and max_connections above 32.
set -euo pipefail
SECONDS_PER_POINT=${SECONDS_PER_POINT:-5}
# section 1's ids per run and runs (BENCH_SMOKE makes both tiny)
PER_ID_ROWS=${PER_ID_ROWS:-2000000}
RUNS=${RUNS:-5}
# how long each pgbench point runs (BENCH_SMOKE: a couple of transactions)
PGBENCH_LENGTH=${PGBENCH_LENGTH:--T $SECONDS_PER_POINT}
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
main_host=$PGHOST main_port=$PGPORT main_db=${PGDATABASE:-postgres}
plain_port=$((40000 + RANDOM % 10000))
plain_up=
cleanup() {
    [ -n "$plain_up" ] && pg_ctl -D "$work/data" -m immediate -w stop >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT

# The throwaway cluster without shared_preload_libraries.
initdb -D "$work/data" -A trust -U "$(id -un)" >"$work/initdb.log" 2>&1
cat >>"$work/data/postgresql.conf" <<CONF
listen_addresses = ''
unix_socket_directories = '$work'
port = $plain_port
idseq.node_id = 2
max_connections = 120
fsync = off
CONF
pg_ctl -D "$work/data" -l "$work/server.log" -w start >/dev/null
plain_up=1

db_of() { [ "$1" = "$work" ] && echo postgres || echo "$main_db"; }   # host -> database

setup() { # host port
    PGHOST=$1 PGPORT=$2 PGDATABASE=$(db_of "$1") psql -X -q -v ON_ERROR_STOP=1 >/dev/null <<'SQL'
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS idseq;
DROP SCHEMA IF EXISTS bench_sf CASCADE;
CREATE SCHEMA bench_sf;
CREATE SEQUENCE bench_sf.seq;
SELECT snowflake_create_layout('bench_wide', '2020-01-01 00:00:00+00', 'time:41,node:2,seq:20')
 WHERE NOT EXISTS (SELECT FROM snowflake_layouts WHERE name = 'bench_wide');
SQL
}
setup "$main_host" "$main_port"
setup "$work" "$plain_port"
PGHOST=$work PGPORT=$plain_port PGDATABASE=postgres PGOPTIONS="-c client_min_messages=warning" \
    psql -X -q -v ON_ERROR_STOP=1 -f "$here/harness.sql" >/dev/null

# ---- 1. ns per id ----
per_id() { # host port label expr -> median net ns, via bench.measure of harness.sql
    PGHOST=$1 PGPORT=$2 PGDATABASE=$(db_of "$1") psql -X -Atq -v ON_ERROR_STOP=1 -c \
        "SELECT round(med) || ' ' || round(mn) || ' ' || round(mx) FROM bench.measure(\$q\$$3\$q\$, '(SELECT generate_series(1, $PER_ID_ROWS) g) s', 'g', $RUNS)"
}
echo "ns per id in one statement (median of $RUNS runs, min-max; $PER_ID_ROWS ids per run)"
printf '%-34s %-22s %16s %20s %7s\n' generator path "ns/id (min-max)" "nextval ns, same run" ratio
for path in "shared memory|$main_host|$main_port" "no preload|$work|$plain_port"; do
    IFS='|' read -r label host port <<<"$path"
    read -r base _ _ < <(per_id "$host" "$port" "nextval('bench_sf.seq')")
    for expr in "snowflake_nextval('bench_wide')" "snowflake_nextval()"; do
        read -r med mn mx < <(per_id "$host" "$port" "$expr")
        awk -v e="$expr" -v p="$label" -v med="$med" -v mn="$mn" -v mx="$mx" -v b="$base" \
            'BEGIN { printf "%-34s %-22s %16s %20d %7.2f\n", e, p, med " (" mn "-" mx ")", b, (b > 0 ? med / b : 0) }'
    done
done

# ---- 2. ids per second ----
tps() { # host port clients script -> tps
    local out jobs=$(( $3 < 2 ? 1 : 2 ))
    out=$(PGHOST=$1 PGPORT=$2 PGDATABASE=$(db_of "$1") pgbench -n -M prepared -c "$3" -j "$jobs" $PGBENCH_LENGTH -f "$4" 2>&1) \
        || { echo "pgbench failed: $out" >&2; echo 0; return; }
    sed -n 's/^tps = \([0-9.]*\) .*/\1/p' <<<"$out"
}
echo
echo "ids per second (pgbench -M prepared, 1000 ids per transaction, ${SECONDS_PER_POINT} s per point)"
printf '%-44s %12s %12s %12s %12s\n' "generator [path]" "1 client" "2 clients" "8 clients" "32 clients"
series=(
    "nextval [shared memory cluster]|$main_host|$main_port|nextval('bench_sf.seq')"
    "snowflake_nextval('bench_wide') [shared mem]|$main_host|$main_port|snowflake_nextval('bench_wide')"
    "snowflake_nextval() [shared memory]|$main_host|$main_port|snowflake_nextval()"
    "nextval [no-preload cluster]|$work|$plain_port|nextval('bench_sf.seq')"
    "snowflake_nextval('bench_wide') [no preload]|$work|$plain_port|snowflake_nextval('bench_wide')"
    "snowflake_nextval() [no preload]|$work|$plain_port|snowflake_nextval()"
)
i=0
for s in "${series[@]}"; do
    IFS='|' read -r label host port expr <<<"$s"
    i=$((i + 1))
    echo "SELECT count($expr) FROM (SELECT generate_series(1, 1000)) s;" >"$work/s$i.sql"
    row=$(printf '%-44s' "$label")
    for c in 1 2 8 32; do
        t=$(tps "$host" "$port" "$c" "$work/s$i.sql")
        row+=$(awk -v t="$t" 'BEGIN { printf " %12.0f", t * 1000 }')
    done
    echo "$row"
done
PGHOST=$main_host PGPORT=$main_port PGDATABASE=$main_db psql -X -q -c 'DROP SCHEMA IF EXISTS bench_sf CASCADE' >/dev/null 2>&1 || true
