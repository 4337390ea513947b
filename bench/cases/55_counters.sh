#!/usr/bin/env bash
# Counters per key (issue 27, API section 7) beside what users build without them, in one run:
#   A. 10^6 keys of one counter: disk bytes per key (heap and index of the state table,
#      keys of 10 characters taken in random order) and pg_dump -s time with them, beside
#      10^5 native sequences (created in batches: one transaction cannot hold them) and
#      pg_dump -s of those. Each side in a database of its own, dropped afterwards.
#   B. transactions per second, pgbench -M prepared, SECONDS_PER_POINT (default 10) per
#      point, at 8 and 32 clients, each transaction inserting one row that gets a number:
#        native sequence (one, CACHE 1):  INSERT ... VALUES (k, nextval(seq))
#        counter table:                   WITH c AS (INSERT ... ON CONFLICT DO UPDATE ...
#                                         RETURNING last) INSERT ... SELECT k, last FROM c
#        fast counter / gap-free counter: INSERT ... VALUES (k, idseq_counter_next(c, k))
#      over KEYS (default 10^5) random keys (every key taken once beforehand, so each point
#      measures keys that exist) and on one hot key; and the hot key with 2 ms of work in
#      the transaction (pg_sleep(0.002) after the insert): the gap-free counter bound at
#      commit (idseq_counter_fill(..., 'commit')), the counter table holding its row lock to
#      commit, and the limit of binding at commit (the counter table's hot key with no work:
#      one commit flush per number of the key).
# Part B runs with fsync on (ALTER SYSTEM, reset at exit), as the anchors of issue 27 were
# measured: a commit's flush is what serialises a hot key. COUNTERS_FSYNC=keep leaves the
# cluster's setting (BENCH_SMOKE does). The goals of issue 27 are printed beside the ratios;
# nothing fails on timing. Without the counter functions (an extension older than 1.4) the
# idseq rows print "(n/a)" and the anchors still run.
# Needs PGHOST/PGPORT of a cluster with idseq (make bench's), max_connections above 32, and
# the right to create databases.
set -euo pipefail
SECONDS_PER_POINT=${SECONDS_PER_POINT:-10}
PGBENCH_LENGTH=${PGBENCH_LENGTH:--T $SECONDS_PER_POINT}
ROUNDS=${COUNTER_ROUNDS:-1}
KEYS=${KEYS:-100000}
MANY_KEYS=${MANY_KEYS:-1000000}
SEQUENCES=${SEQUENCES:-100000}
SEQ_BATCH=${SEQ_BATCH:-5000}
COUNTERS_FSYNC=${COUNTERS_FSYNC:-on}
if [ "${BENCH_SMOKE:-}" = 1 ]; then
    KEYS=2000 MANY_KEYS=2000 SEQUENCES=200 SEQ_BATCH=100 COUNTERS_FSYNC=keep ROUNDS=1
fi
db=${PGDATABASE:-postgres}
export PGOPTIONS="${PGOPTIONS:-} -c client_min_messages=warning"
case "$PGBENCH_LENGTH" in
    -T*) length="${PGBENCH_LENGTH#-T} s per point" ;;
    -t*) length="${PGBENCH_LENGTH#-t} transactions per client per point" ;;
    *) length=$PGBENCH_LENGTH ;;
esac
work=$(mktemp -d)
fsync_changed=
cleanup() {
    if [ -n "$fsync_changed" ]; then
        psql -X -q -d "$db" -c "ALTER SYSTEM RESET fsync" -c "SELECT pg_reload_conf()" >/dev/null 2>&1 || true
    fi
    psql -X -q -d "$db" -c "DROP DATABASE IF EXISTS bench_ctr_keys" -c "DROP DATABASE IF EXISTS bench_ctr_seqs" >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT
q() { psql -X -Atq -v ON_ERROR_STOP=1 "$@"; }
now() { date +%s.%N; }
# seconds of pg_dump -s of a database, the median of $2 runs
dump_time() {
    local i s e
    : >"$work/dump_times"
    for i in $(seq "$2"); do
        s=$(now)
        pg_dump -s -d "$1" >/dev/null || return 1
        e=$(now)
        awk -v s="$s" -v e="$e" 'BEGIN { printf "%.3f\n", e - s }' >>"$work/dump_times"
    done
    sort -n "$work/dump_times" | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'
}

have=$(q -d "$db" -c "SELECT to_regprocedure('idseq_create_counter(text,boolean,text,text,bigint,text)') IS NOT NULL
                        AND to_regprocedure('idseq_counter_next(text,text)') IS NOT NULL
                        AND to_regprocedure('idseq_counter_fill()') IS NOT NULL")
echo "counters per key (issue 27): PostgreSQL $(q -d "$db" -c 'SHOW server_version'), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the start"

# ---- A. 10^6 keys: bytes per key, pg_dump -s; 10^5 sequences ----
q -d "$db" -c "DROP DATABASE IF EXISTS bench_ctr_keys" -c "DROP DATABASE IF EXISTS bench_ctr_seqs" -c "CREATE DATABASE bench_ctr_keys" -c "CREATE DATABASE bench_ctr_seqs" >/dev/null
q -d bench_ctr_keys -c "SET client_min_messages = warning" -c "CREATE EXTENSION idseq" >/dev/null
echo
echo "$MANY_KEYS keys of 10 characters, taken in random order, one fast counter (fsync as the cluster has it: $(q -d "$db" -c 'SHOW fsync'))"
if [ "$have" = t ]; then
    dump_empty=$(dump_time bench_ctr_keys 3) || exit 1
    sizes=$(q -F ' ' -d bench_ctr_keys <<SQL
SET client_min_messages = warning;
SELECT idseq_create_counter('bench_million');
CREATE TEMP TABLE size0 AS SELECT pg_relation_size('idseq_counter_state') heap, pg_indexes_size('idseq_counter_state') idx;
CREATE TEMP TABLE t0 AS SELECT clock_timestamp() t;
SELECT count(idseq_counter_next('bench_million', k))
  FROM (SELECT lpad(g::text, 10, '0') k FROM generate_series(1, $MANY_KEYS) g ORDER BY random()) s \\g /dev/null
SELECT extract(epoch FROM clock_timestamp() - t0.t),
       pg_relation_size('idseq_counter_state') - size0.heap,
       pg_indexes_size('idseq_counter_state') - size0.idx,
       pg_relation_size('idseq_counter_state') + pg_indexes_size('idseq_counter_state') - size0.heap - size0.idx,
       (SELECT count(*) FROM idseq_counter_state)
  FROM t0, size0;
SQL
    )
    read -r secs heap idx total keys <<<"$(tail -1 <<<"$sizes")"
    dump_keys=$(dump_time bench_ctr_keys 3) || exit 1
    awk -v s="$secs" -v h="$heap" -v i="$idx" -v t="$total" -v k="$keys" -v n="$MANY_KEYS" \
        'BEGIN { printf "  state rows %d; heap %.1f B/key, index %.1f B/key, total %.1f B/key (goal <= 100); taking them %.1f s (%.1f us per new key)\n",
                 k, h / n, i / n, t / n, s, s * 1e6 / n }'
    awk -v a="$dump_empty" -v b="$dump_keys" -v n="$MANY_KEYS" \
        'BEGIN { printf "  pg_dump -s: %.2f s before the keys, %.2f s with %d keys (%.2fx; goal: flat)\n", a, b, n, (a > 0 ? b / a : 0) }'
else
    echo "  (n/a: this idseq has no counters)"
fi
q -d "$db" -c "DROP DATABASE bench_ctr_keys" >/dev/null

echo "$SEQUENCES native sequences, created in batches of $SEQ_BATCH (one transaction each)"
dump_empty=$(dump_time bench_ctr_seqs 3) || exit 1
size0=$(q -d bench_ctr_seqs -c "SELECT pg_database_size(current_database())")
s=$(now)
for ((b = 0; b < SEQUENCES; b += SEQ_BATCH)); do
    q -d bench_ctr_seqs -c "DO \$\$ BEGIN FOR i IN $((b + 1))..$((b + SEQ_BATCH < SEQUENCES ? b + SEQ_BATCH : SEQUENCES)) LOOP
                              EXECUTE format('CREATE SEQUENCE s%s', i); END LOOP; END \$\$" >/dev/null
done
e=$(now)
size1=$(q -d bench_ctr_seqs -c "SELECT pg_database_size(current_database())")
dump_seqs=$(dump_time bench_ctr_seqs 1) || exit 1
awk -v s="$s" -v e="$e" -v a="$size0" -v b="$size1" -v n="$SEQUENCES" \
    'BEGIN { printf "  created in %.1f s; database %.0f MB -> %.0f MB (%.0f B per sequence)\n", e - s, a / 1048576, b / 1048576, (b - a) / n }'
awk -v a="$dump_empty" -v b="$dump_seqs" -v n="$SEQUENCES" \
    'BEGIN { printf "  pg_dump -s: %.2f s empty, %.2f s with %d sequences (%.1fx)\n", a, b, n, (a > 0 ? b / a : 0) }'
q -d "$db" -c "DROP DATABASE bench_ctr_seqs" >/dev/null

# ---- B. transactions per second ----
q -d "$db" >/dev/null <<SQL
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS idseq;
DROP SCHEMA IF EXISTS bench_ctr CASCADE;
CREATE SCHEMA bench_ctr;
CREATE SEQUENCE bench_ctr.seq;
CREATE TABLE bench_ctr.ctr (key text PRIMARY KEY, last bigint NOT NULL);
INSERT INTO bench_ctr.ctr SELECT g::text, 0 FROM generate_series(1, $KEYS) g;
INSERT INTO bench_ctr.ctr VALUES ('hot', 0), ('hot_work', 0);
CREATE TABLE bench_ctr.t_seq (tenant int, no bigint);
CREATE TABLE bench_ctr.t_table (tenant int, no bigint);
CREATE TABLE bench_ctr.t_table_hot (tenant int, no bigint);
CREATE TABLE bench_ctr.t_table_work (tenant int, no bigint);
CREATE TABLE bench_ctr.t_fast (tenant int, no bigint);
CREATE TABLE bench_ctr.t_fast_hot (tenant int, no bigint);
CREATE TABLE bench_ctr.t_gapfree (tenant int, no bigint);
CREATE TABLE bench_ctr.t_gapfree_work (tenant int, no bigint);
VACUUM ANALYZE bench_ctr.ctr;
SQL
if [ "$have" = t ]; then
    q -d "$db" >/dev/null <<SQL
SET client_min_messages = warning;
SELECT idseq_drop_counter(name) FROM idseq_counters WHERE name IN ('bench_ctr_fast', 'bench_ctr_gapfree', 'bench_ctr_bound');
SELECT idseq_create_counter('bench_ctr_fast');
SELECT idseq_create_counter('bench_ctr_gapfree', gapless => true);
SELECT idseq_create_counter('bench_ctr_bound', gapless => true);
SELECT count(idseq_counter_next('bench_ctr_fast', g::text)) FROM generate_series(1, $KEYS) g;
SELECT count(idseq_counter_next('bench_ctr_gapfree', g::text)) FROM generate_series(1, $KEYS) g;
SELECT idseq_counter_next('bench_ctr_fast', 'hot');
CREATE TRIGGER number_at_commit BEFORE INSERT ON bench_ctr.t_gapfree_work
    FOR EACH ROW EXECUTE FUNCTION idseq_counter_fill('bench_ctr_bound', 'tenant', 'no', 'commit');
SQL
fi

upsert() { # key expression, target table
    echo "WITH c AS (INSERT INTO bench_ctr.ctr AS r (key, last) VALUES ($1, 1) ON CONFLICT (key) DO UPDATE SET last = r.last + 1 RETURNING last) INSERT INTO bench_ctr.$2 (tenant, no) SELECT 0, last FROM c;"
}
rand="\\set k random(1, $KEYS)"
# name | label | needs counters (1/0) | script
workloads=(
    "seq|native sequence: insert + nextval (CACHE 1)|0|$rand
INSERT INTO bench_ctr.t_seq (tenant, no) VALUES (:k, nextval('bench_ctr.seq'));"
    "table|counter table upsert, $KEYS random keys|0|$rand
$(upsert ':k::text' t_table)"
    "fast|fast counter, $KEYS random keys|1|$rand
INSERT INTO bench_ctr.t_fast (tenant, no) VALUES (:k, idseq_counter_next('bench_ctr_fast', :k::text));"
    "gapfree|gap-free counter, $KEYS random keys|1|$rand
INSERT INTO bench_ctr.t_gapfree (tenant, no) VALUES (:k, idseq_counter_next('bench_ctr_gapfree', :k::text));"
    "table_hot|counter table upsert, one hot key|0|$(upsert "'hot'" t_table_hot)"
    "fast_hot|fast counter, one hot key|1|INSERT INTO bench_ctr.t_fast_hot (tenant, no) VALUES (0, idseq_counter_next('bench_ctr_fast', 'hot'));"
    "table_work|counter table, hot key, 2 ms of work (lock to commit)|0|BEGIN;
$(upsert "'hot_work'" t_table_work)
SELECT pg_sleep(0.002);
COMMIT;"
    "bound_work|gap-free, hot key, 2 ms of work, bound at commit|1|BEGIN;
INSERT INTO bench_ctr.t_gapfree_work (tenant) VALUES (0);
SELECT pg_sleep(0.002);
COMMIT;"
)
clients_list=(8 32)

if [ "$COUNTERS_FSYNC" = on ] && [ "$(q -d "$db" -c 'SHOW fsync')" != on ]; then
    q -d "$db" -c "ALTER SYSTEM SET fsync = on" -c "SELECT pg_reload_conf()" >/dev/null
    fsync_changed=1
    for _ in $(seq 50); do [ "$(q -d "$db" -c 'SHOW fsync')" = on ] && break; sleep 0.1; done
fi
echo
echo "transactions per second (pgbench -M prepared, ${length# }, one row inserted per transaction; fsync $(q -d "$db" -c 'SHOW fsync'), synchronous_commit $(q -d "$db" -c 'SHOW synchronous_commit'); median of $ROUNDS round(s) taken in turns, every other round in reverse order, each point after a checkpoint)"
run_point() { # name clients script -> tps appended to $work/<name>-<clients>
    local threads=$(( $2 < $(nproc) ? $2 : $(nproc) ))
    printf '%s\n' "$3" >"$work/$1.sql"
    pgbench -n -M prepared -c "$2" -j "$threads" $PGBENCH_LENGTH -f "$work/$1.sql" -d "$db" >"$work/pgbench.out" 2>&1 \
        || { echo "pgbench failed for $1 at $2 clients:" >&2; cat "$work/pgbench.out" >&2; exit 1; }
    sed -n 's/^tps = \([0-9.]*\) .*/\1/p' "$work/pgbench.out" | tail -1 >>"$work/$1-$2"
}
# Each point starts from a checkpoint, so that no point pays for another's dirty pages or
# runs while a checkpoint writes them; and each round runs the client counts and the
# workloads in the reverse order of the round before, so that a drift of the machine over
# the run falls on both sides of each ratio (a ratio's two workloads, and 8 and 32 clients
# of one workload, are measured in both orders).
round=0
for _ in $(seq "$ROUNDS"); do
    round=$((round + 1))
    order=("${workloads[@]}") counts=("${clients_list[@]}")
    if [ $((round % 2)) = 0 ]; then
        order=() counts=()
        for ((i = ${#workloads[@]} - 1; i >= 0; i--)); do order+=("${workloads[i]}"); done
        for ((i = ${#clients_list[@]} - 1; i >= 0; i--)); do counts+=("${clients_list[i]}"); done
    fi
    for c in "${counts[@]}"; do
        for w in "${order[@]}"; do
            IFS='|' read -r name label needs script <<<"${w%%$'\n'*}"
            script=${w#*|*|*|}
            [ "$needs" = 1 ] && [ "$have" != t ] && continue
            q -d "$db" -c CHECKPOINT >/dev/null
            run_point "$name" "$c" "$script"
        done
    done
done
tps() { # name clients -> median tps, or empty
    [ -s "$work/$1-$2" ] || return 0
    sort -n "$work/$1-$2" | awk '{ a[NR] = $1 } END { printf "%.0f", a[int((NR + 1) / 2)] }'
}
printf '%-58s %10s %10s\n' workload "8 clients" "32 clients"
for w in "${workloads[@]}"; do
    IFS='|' read -r name label needs _ <<<"${w%%$'\n'*}"
    a=$(tps "$name" 8) b=$(tps "$name" 32)
    printf '%-58s %10s %10s\n' "$label" "${a:-(n/a)}" "${b:-(n/a)}"
done
ratio() { # label goal numerator denominator
    local row
    row=$(printf '%-58s' "$1")
    for c in "${clients_list[@]}"; do
        local x y
        x=$(tps "$3" "$c") y=$(tps "$4" "$c")
        if [ -n "$x" ] && [ -n "$y" ] && [ "$y" != 0 ]; then
            row+=$(awk -v x="$x" -v y="$y" 'BEGIN { printf " %9.2fx", x / y }')
        else
            row+=$(printf ' %10s' "-")
        fi
    done
    echo "$row   $2"
}
echo
echo "ratios (goal of issue 27 beside each)"
printf '%-58s %10s %10s   %s\n' ratio "8 clients" "32 clients" goal
ratio "fast counter, random keys / native sequence" ">= 0.9x" fast seq
ratio "  counter table upsert / native sequence" "(reported beside)" table seq
ratio "fast counter, hot key / native sequence" ">= 0.9x" fast_hot seq
ratio "  counter table hot key / native sequence" "(reported beside)" table_hot seq
ratio "gap-free, random keys / counter table upsert" ">= 1.0x" gapfree table
ratio "gap-free bound at commit + 2 ms / counter table + 2 ms" ">= 4x" bound_work table_work
ratio "gap-free bound at commit + 2 ms / limit (table hot key)" "0.8x where the disk flushes slower than the work" bound_work table_hot
b8=$(tps bound_work 8) b32=$(tps bound_work 32)
if [ -n "$b8" ] && [ -n "$b32" ] && [ "$b8" != 0 ]; then
    awk -v a="$b8" -v b="$b32" 'BEGIN { printf "%-58s %21.2fx   %s\n", "gap-free bound at commit + 2 ms: 32 clients / 8 clients", b / a, ">= 1.0x (no slower at 32)" }'
fi

# The numbers bound at commit are checked, so that a figure never comes from a broken run.
if [ "$have" = t ]; then
    q -d "$db" -F ' ' -c "SELECT 'gap-free bound at commit: ' || count(*) || ' rows, ' || count(no) || ' numbered, ' ||
                                 count(DISTINCT no) || ' distinct, max ' || coalesce(max(no), 0) ||
                                 CASE WHEN count(*) = count(DISTINCT no) AND coalesce(max(no), 0) = count(*)
                                      THEN ' (1..n without gap)' ELSE ' (NOT 1..n: a bug)' END
                            FROM bench_ctr.t_gapfree_work"
fi
echo "load average $(cut -d' ' -f1-3 /proc/loadavg) at the end"
q -d "$db" -c "SET client_min_messages = warning" -c "DROP SCHEMA bench_ctr CASCADE" >/dev/null
if [ "$have" = t ]; then
    q -d "$db" -c "SELECT idseq_drop_counter(name) FROM idseq_counters WHERE name IN ('bench_ctr_fast', 'bench_ctr_gapfree', 'bench_ctr_bound')" >/dev/null
fi
echo "counters per key: done"
