#!/usr/bin/env bash
# The fast path's lock-free compare-and-swap against the slot's spinlock (docs/dev/design.md,
# "What each mechanism of the generator buys"). Builds of idseq.so given as arguments (one
# as is, one whose lock-free step always defers to the locked step) are taken in turns, three
# rounds: each installs a build, restarts a throwaway cluster and runs pgbench at 1, 2 and 8
# clients, each transaction drawing 10,000 ids in one statement, of a layout whose 22-bit
# counter no backend outruns (4M ids per ms), so that the slot, not the layout, is the limit.
# Prints millions of ids per second. Without arguments it measures the installed build only.
# Run as a user that may run PostgreSQL: PGBIN=/usr/lib/postgresql/15/bin bench/mechanisms/slot.sh [a.so b.so ...]
set -euo pipefail
SECONDS_PER_POINT=${SECONDS_PER_POINT:-5}
builds=("$@")
[ ${#builds[@]} -gt 0 ] || builds=("")
CLUSTER_CONF="idseq.node_id = 1"
. "$(dirname "$0")/cluster.sh"
echo "SELECT count(snowflake_nextval('wide')) FROM generate_series(1, 10000);" >"$D/ids.sql"
install_ "${builds[0]}"
start_
psql_ -q -c "CREATE EXTENSION idseq" \
    -c "SELECT snowflake_create_layout('wide', '2020-01-01 00:00:00+00', 'time:41,seq:22')" >/dev/null
stop_
for round in 1 2 3; do
    for b in "${builds[@]}"; do
        install_ "$b"
        start_
        line="round $round ${b:-installed}:"
        for c in 1 2 8; do
            tps=$("$PGBIN/pgbench" -n -h "$D" -d postgres -M prepared -c "$c" -j "$c" -T "$SECONDS_PER_POINT" -f "$D/ids.sql" 2>&1 |
                  awk '/^tps/ { print $3 }')
            line+=" $c clients $(awk -v t="$tps" 'BEGIN { printf "%.2f", t * 10000 / 1e6 }') M ids/s;"
        done
        echo "$line"
        stop_
    done
done
