#!/usr/bin/env bash
# The clock waiter at a layout's capacity (docs/dev/design.md, "What each mechanism of the
# generator buys"). Builds of idseq.so given as arguments are taken in turns, three rounds:
# each round installs a build, restarts a throwaway cluster and draws ids of a layout with
# 16 ids per 100-microsecond unit (160,000 ids/s) flat out, from 1 and from 4 sessions.
# Prints the time taken against the capacity and the backends' CPU seconds (their statement
# statistics). Without arguments it measures the installed build only.
# ROUNDS="1 2 3" (the default) names the rounds.
# Run as a user that may run PostgreSQL: PGBIN=/usr/lib/postgresql/15/bin bench/mechanisms/waiter.sh [a.so b.so ...]
set -euo pipefail
builds=("$@")
[ ${#builds[@]} -gt 0 ] || builds=("")
. "$(dirname "$0")/cluster.sh"
install_ "${builds[0]}"
start_
psql_ -c "CREATE EXTENSION idseq" \
    -c "SELECT snowflake_create_layout('cap16', '2020-01-01 00:00:00+00', 'time:45,seq:4', '100 microseconds')" >/dev/null
stop_
burst() { # sessions, ids each
    local c=$1 n=$2 t0 t1 from cpu
    from=$(($(wc -l <"$D/log") + 1))
    t0=$(date +%s.%N)
    for _ in $(seq "$c"); do
        psql_ -c "SET log_statement_stats = on" -c "SELECT count(snowflake_nextval('cap16')) FROM generate_series(1, $n)" >/dev/null &
    done
    wait
    t1=$(date +%s.%N)
    # the statement's own line ("user, system, elapsed"), not the backend's running total
    cpu=$(tail -n +"$from" "$D/log" | grep -E 's user, .* s system, .* s elapsed' |
          grep -oE '[0-9.]+ s user, [0-9.]+ s system' | awk '{ t += $1 + $4 } END { printf "%.2f", t }')
    awk -v a="$t0" -v b="$t1" -v cpu="$cpu" -v ids=$((c * n)) \
        'BEGIN { printf "%.2f s (%.0f%% of capacity), %s s CPU", b - a, 100 * (ids / 160000) / (b - a), cpu }'
}
for round in ${ROUNDS:-1 2 3}; do
    for b in "${builds[@]}"; do
        install_ "$b"
        start_
        psql_ -c "SELECT count(snowflake_nextval('cap16')) FROM generate_series(1, 1000)" >/dev/null
        echo "round $round ${b:-installed}: 1 session $(burst 1 320000); 4 sessions $(burst 4 80000)"
        stop_
    done
done
