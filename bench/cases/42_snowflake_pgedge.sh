#!/usr/bin/env bash
# snowflake_nextval beside nextval and beside pgEdge's snowflake.nextval() (2.6.0, Twitter's
# layout: 41 bits of ms, 10 of node, 12 of counter), all in the cluster in PGHOST/PGPORT, in
# the same run:
#   1. net ns per id in one statement, SELECT count(f) over 10^6 streamed rows, floor
#      subtracted, median of RUNS (default 7) runs (the method of docs/dev/benchmarks.md): nextval
#      CACHE 1 and CACHE 100, pgEdge, snowflake_nextval() on the built-in layout (flat out it
#      meets the layout's cap, 4096 ids per ms = 244 ns per id) and on the wide layout
#      time:41,node:4,seq:18 (never at its cap here);
#   2. the same below the cap: bursts of 2000 ids, each started at a fresh millisecond, so no
#      generator waits and the figure is its cost per id;
#   3. ids per millisecond at the cap, one session flat out (2*10^6 ids), and how far ahead
#      of the clock the last id's time was;
#   4. ids per second with pgbench -M prepared at 1, 2 and 8 clients (1000 and 10,000 ids
#      per transaction, SECONDS_PER_POINT, default 5, per point), beside the floor (count(g)
#      with no generator, the same way), with the ratios to pgEdge as measured and net of it.
# Rows marked "max_ahead 10 min" run with idseq.snowflake_max_ahead_ms = 600000 (set for that
# row only, server-wide, then reset): a spent millisecond moves on into the next ones, as pgEdge's
# generator always does, but never more than ten minutes ahead of the clock (more than the
# whole benchmark runs ahead, so the rows measure the generator, not the bound; section 4
# prints how far ahead the ids were after the row). They use a layout of
# their own with the built-in layout's fields and an epoch 1 ms later (bench_tw; an identical
# layout is refused), so that their ids, ahead of the clock, never touch the other rows' generator.
# pgEdge is built from its source release by ../pgedge.sh (PGEDGE_SNOWFLAKE_SRC) and preloaded
# here (the cluster is restarted once with it in shared_preload_libraries and snowflake.node
# set); without it its rows are skipped with a message. Prints tables; never fails on timing.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
RUNS=${RUNS:-7}
PER_ID_ROWS=${PER_ID_ROWS:-1000000}   # section 1's ids per run (BENCH_SMOKE: 2000)
SECONDS_PER_POINT=${SECONDS_PER_POINT:-5}
# how long each pgbench point runs (BENCH_SMOKE: a couple of transactions)
PGBENCH_LENGTH=${PGBENCH_LENGTH:--T $SECONDS_PER_POINT}
q() { psql -X -Atq -v ON_ERROR_STOP=1 "$@"; }

echo "load before: $(uptime | sed 's/.*load average/load average/')"
pgedge=1
if ! why=$("$here/pgedge.sh" status); then
    if "$here/pgedge.sh" ensure >&2; then why=installed; else why=$("$here/pgedge.sh" status) || true; pgedge=; fi
fi
if [ -n "$pgedge" ] && ! q -c "SHOW shared_preload_libraries" | grep -qw snowflake; then
    libs=$(q -c "SHOW shared_preload_libraries" | tr ',' '\n' | sed -n "s/^ *\([^ ].*[^ ]\|[^ ]\) *$/'\1', /p" | tr -d '\n')
    q -c "LOAD 'snowflake'" -c "ALTER SYSTEM SET shared_preload_libraries = ${libs}'snowflake'" \
      -c "ALTER SYSTEM SET snowflake.node = 1"
    data=$(q -c "SHOW data_directory")
    pg_ctl -D "$data" -l "$(dirname "$data")/server-pgedge.log" -m fast -w restart >/dev/null
fi
[ -n "$pgedge" ] || echo "pgEdge snowflake rows skipped: $why"

q >/dev/null <<'SQL'
SET client_min_messages = warning;
DROP SCHEMA IF EXISTS bench_pg CASCADE;
CREATE SCHEMA bench_pg;
CREATE SEQUENCE bench_pg.c1;
CREATE SEQUENCE bench_pg.c100 CACHE 100;
SELECT snowflake_create_layout('bench_w18', '2010-11-04 01:42:54.657+00', 'time:41,node:4,seq:18')
 WHERE NOT EXISTS (SELECT FROM snowflake_layouts WHERE name = 'bench_w18');
SELECT snowflake_create_layout('bench_tw', '2010-11-04 01:42:54.658+00', 'time:41,node:10,seq:12')
 WHERE NOT EXISTS (SELECT FROM snowflake_layouts WHERE name = 'bench_tw');
-- ns per id of expr in bursts of batch ids, each burst started at a fresh millisecond (the
-- loop lives in a function of its own, so the burst's statement is planned once).
CREATE FUNCTION bench_pg.paced_ns(expr text, batch int, bursts int) RETURNS float8 LANGUAGE plpgsql AS $f$
BEGIN
    EXECUTE format($d$CREATE OR REPLACE FUNCTION bench_pg.paced_run() RETURNS float8 LANGUAGE plpgsql AS $b$
        DECLARE t0 timestamptz; total float8 := 0; c bigint; ms timestamptz;
        BEGIN
            FOR i IN 1..%2$s LOOP
                ms := date_trunc('milliseconds', clock_timestamp());
                WHILE date_trunc('milliseconds', clock_timestamp()) = ms LOOP END LOOP;
                t0 := clock_timestamp();
                SELECT count(%1$s) INTO c FROM (SELECT generate_series(1, %3$s) g) s;
                total := total + extract(epoch FROM clock_timestamp() - t0);
            END LOOP;
            RETURN total * 1e9 / (%2$s::float8 * %3$s);
        END $b$ $d$, expr, bursts, batch);
    RETURN bench_pg.paced_run();
END $f$;
CREATE FUNCTION bench_pg.paced(expr text, runs int, OUT med float8, OUT mn float8, OUT mx float8, OUT floor_ns float8)
LANGUAGE plpgsql AS $f$
DECLARE nets float8[] := '{}'; floors float8[] := '{}'; f float8; t float8;
BEGIN
    PERFORM bench_pg.paced_ns(expr, 2000, 20); -- warm-up
    FOR i IN 1..runs LOOP
        f := bench_pg.paced_ns('g', 2000, 150);
        t := bench_pg.paced_ns(expr, 2000, 150);
        nets := nets || greatest(t - f, 0);
        floors := floors || f;
    END LOOP;
    SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x), min(x), max(x) INTO med, mn, mx FROM unnest(nets) x;
    SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x) INTO floor_ns FROM unnest(floors) x;
END $f$;
-- One session flat out: ids per ms of wall time and of the ids' own time field, and how far
-- the last id's time is ahead of the clock when the statement ends.
CREATE FUNCTION bench_pg.cap(expr text, shift int, epoch_ms bigint, OUT wall float8, OUT span float8, OUT ahead float8)
LANGUAGE plpgsql AS $f$
DECLARE t0 timestamptz; t1 timestamptz; mn bigint; mx bigint; n bigint;
BEGIN
    t0 := clock_timestamp();
    EXECUTE format('SELECT min(id), max(id), count(*) FROM (SELECT %s AS id FROM (SELECT generate_series(1, 2000000) g) s0) s',
                   expr)
       INTO mn, mx, n;
    t1 := clock_timestamp();
    wall := n / (extract(epoch FROM t1 - t0) * 1000);
    span := n::float8 / ((mx >> shift) - (mn >> shift) + 1);
    ahead := (mx >> shift) + epoch_ms - extract(epoch FROM t1) * 1000;
END $f$;
SQL
[ -n "$pgedge" ] && q -c "CREATE EXTENSION IF NOT EXISTS snowflake" >/dev/null

# idseq.snowflake_max_ahead_ms for the rows that ask for it (server-wide: set, reloaded and
# seen by a new session before the row, reset after it)
ahead() { # ms
    q -c "ALTER SYSTEM SET idseq.snowflake_max_ahead_ms = $1" -c "SELECT pg_reload_conf()" >/dev/null
    local i
    for i in $(seq 50); do
        [ "$(q -c "SELECT setting FROM pg_settings WHERE name = 'idseq.snowflake_max_ahead_ms'")" = "$1" ] && return 0
        sleep 0.1
    done
    echo "idseq.snowflake_max_ahead_ms did not become $1" >&2; return 1
}
# label|expr|needs pgEdge|max_ahead ms
ahead_label="snowflake_nextval() [built-in, max_ahead 10 min]"
rows=(
    "nextval, CACHE 1|nextval('bench_pg.c1')||"
    "nextval, CACHE 100|nextval('bench_pg.c100')||"
    "pgEdge snowflake.nextval()|snowflake.nextval()|1|"
    "snowflake_nextval() [built-in layout]|snowflake_nextval()||"
    "snowflake_nextval('bench_w18') [wide]|snowflake_nextval('bench_w18')||"
    "$ahead_label|snowflake_nextval('bench_tw')||600000"
)
table() { # title, measuring SQL with %s for the expression
    local title=$1 sql=$2 label expr needs ms out med mn mx fl base=0 edge=0
    echo
    echo "$title"
    printf '%-48s %8s %14s %7s %11s %11s\n' generator "ns/id" "min-max" floor "x nextval1" "pgEdge/this"
    for r in "${rows[@]}"; do
        IFS='|' read -r label expr needs ms <<<"$r"
        if [ -n "$needs" ] && [ -z "$pgedge" ]; then printf '%-48s %s\n' "$label" "(skipped)"; continue; fi
        [ -z "$ms" ] || ahead "$ms"
        out=$(q -c "$(printf "$sql" "\$q\$$expr\$q\$")")
        [ -z "$ms" ] || ahead 0
        read -r med mn mx fl <<<"$out"
        [ "$label" = "nextval, CACHE 1" ] && base=$med
        [ -n "$needs" ] && edge=$med
        awk -v l="$label" -v m="$med" -v a="$mn" -v b="$mx" -v f="$fl" -v n="$base" -v e="$edge" 'BEGIN {
            printf "%-48s %8.0f %14s %7.0f %11s %11s\n", l, m, sprintf("%.0f-%.0f", a, b), f,
                   (n > 0 && m > 0 ? sprintf("%.2f", m / n) : "-"), (e > 0 && m > 0 ? sprintf("%.2f", e / m) : "-") }'
    done
}
table "1. ns per id, one statement of $PER_ID_ROWS ids, flat out (median of $RUNS runs; floor subtracted)" \
    "SELECT med || ' ' || mn || ' ' || mx || ' ' || floor_ns FROM bench.measure(%s, '(SELECT generate_series(1, $PER_ID_ROWS) g) s', 'g', $RUNS)"
rows=("${rows[@]:0:4}")
table "2. ns per id below the cap: 150 bursts of 2000 ids, each at a fresh millisecond (median of $RUNS runs)" \
    "SELECT med || ' ' || mn || ' ' || mx || ' ' || floor_ns FROM bench_pg.paced(%s, $RUNS)"

echo
echo "3. ids per millisecond, one session flat out (2*10^6 ids; the layouts' cap: 4096 per ms per node)"
printf '%-48s %12s %14s %22s\n' generator "ids/ms wall" "ids/ms of ids" "last id ahead of clock"
cap() { # label, expr, shift, epoch ms
    local r
    r=$(q -c "SELECT round(wall) || ' ' || round(span) || ' ' || round(ahead) FROM bench_pg.cap(\$q\$$2\$q\$, $3, $4)")
    read -r wall span ahead <<<"$r"
    printf '%-48s %12s %14s %19s ms\n' "$1" "$wall" "$span" "$ahead"
}
for i in 1 2 3; do
    cap "snowflake_nextval() [built-in], run $i" "snowflake_nextval()" 22 1288834974657
done
[ -n "$pgedge" ] && cap "pgEdge snowflake.nextval()" "snowflake.nextval()" 22 1672531200000
ahead 600000
cap "$ahead_label" "snowflake_nextval('bench_tw')" 22 1288834974658
ahead 0

echo
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
declare -A ips
# A transaction also costs its round trip and statement (some 100 us here): 1000 ids per
# transaction shows the generators with that overhead, 10,000 mostly without it.
for per_tx in 1000 10000; do
echo
echo "4. ids per second, pgbench -M prepared, $per_tx ids per transaction, ${SECONDS_PER_POINT} s per point"
printf '%-48s %12s %12s %12s\n' generator "1 client" "2 clients" "8 clients"
for r in "floor: count(g), no generator|g|" \
         "nextval, CACHE 1|nextval('bench_pg.c1')|" "nextval, CACHE 100|nextval('bench_pg.c100')|" \
         "pgEdge snowflake.nextval()|snowflake.nextval()|1" "snowflake_nextval() [built-in layout]|snowflake_nextval()|" \
         "snowflake_nextval('bench_w18') [wide]|snowflake_nextval('bench_w18')|" \
         "$ahead_label|snowflake_nextval('bench_tw')||600000"; do
    IFS='|' read -r label expr needs ms <<<"$r"
    if [ -n "$needs" ] && [ -z "$pgedge" ]; then printf '%-48s %s\n' "$label" "(skipped)"; continue; fi
    [ -z "$ms" ] || ahead "$ms"
    echo "SELECT count($expr) FROM (SELECT generate_series(1, $per_tx) g) s;" >"$work/s.sql"
    row=$(printf '%-48s' "$label")
    for c in 1 2 8; do
        out=$(pgbench -n -M prepared -c "$c" -j $((c < 2 ? 1 : 2)) $PGBENCH_LENGTH -f "$work/s.sql" 2>&1) || out=
        t=$(sed -n 's/^tps = \([0-9.]*\) .*/\1/p' <<<"$out")
        ips["$label,$c"]=$(awk -v t="${t:-0}" -v n="$per_tx" 'BEGIN { printf "%.0f", t * n }')
        row+=$(printf ' %12s' "${ips["$label,$c"]}")
    done
    echo "$row"
    if [ -n "$ms" ]; then
        printf '  %s\n' "(its ids $(q -c "SELECT round(extract(epoch FROM snowflake_timestamp(snowflake_nextval('bench_tw'), 'bench_tw') - clock_timestamp()) * 1000)") ms ahead of the clock after the row)"
        ahead 0
    fi
done
if [ -n "$pgedge" ]; then
    for l in "snowflake_nextval() [built-in layout]" "snowflake_nextval('bench_w18') [wide]" "$ahead_label"; do
        row=$(printf '%-48s' "  $l / pgEdge")
        for c in 1 2 8; do
            row+=$(awk -v a="${ips["$l,$c"]}" -v b="${ips["pgEdge snowflake.nextval(),$c"]}" \
                'BEGIN { printf " %12s", (b > 0 ? sprintf("%.2fx", a / b) : "-") }')
        done
        echo "$row ($per_tx ids/tx)"
    done
    # Net of the floor (the executor's and pgbench's cost per row, measured the same way):
    # ns of wall time per id minus the floor's, pgEdge's over ours.
    for l in "snowflake_nextval() [built-in layout]" "snowflake_nextval('bench_w18') [wide]" "$ahead_label"; do
        row=$(printf '%-48s' "  $l / pgEdge, net")
        for c in 1 2 8; do
            row+=$(awk -v a="${ips["$l,$c"]}" -v b="${ips["pgEdge snowflake.nextval(),$c"]}" \
                -v f="${ips["floor: count(g), no generator,$c"]}" 'BEGIN {
                    na = (a > 0 && f > 0) ? 1e9 / a - 1e9 / f : 0; nb = (b > 0 && f > 0) ? 1e9 / b - 1e9 / f : 0
                    printf " %12s", (na > 0 && nb > 0 ? sprintf("%.2fx", nb / na) : "-") }')
        done
        echo "$row ($per_tx ids/tx)"
    done
fi
done
echo "load after: $(uptime | sed 's/.*load average/load average/')"
q -c "DROP SCHEMA IF EXISTS bench_pg CASCADE" >/dev/null 2>&1 || true
