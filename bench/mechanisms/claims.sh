#!/usr/bin/env bash
# What the claims buy without preload (docs/dev/design.md, "Inventory"): two databases of one
# server issue the same layout's ids with the same node id, one pgbench client each for 10 s,
# each id inserted into a table of its database. Prints, per build given (an idseq.so; none:
# the installed one), each database's ids per second or its error, how far its ids ran ahead
# of the clock, and how many ids both databases issued. The build compared with the claims
# replaces the body of claim_layout (src/pg/sf_claims.cpp) with restart_above_fence(e, node),
# so that each reservation of each database restarts above the server's fence instead.
# Run as a user that may run PostgreSQL: PGBIN=/usr/lib/postgresql/15/bin bench/mechanisms/claims.sh [a.so b.so ...]
set -euo pipefail
builds=("$@")
[ ${#builds[@]} -gt 0 ] || builds=("")
CLUSTER_CONF="idseq.node_id = 5"
CLUSTER_PRELOAD=no
. "$(dirname "$0")/cluster.sh"
echo "INSERT INTO ids (id) SELECT snowflake_nextval();" >"$D/ins.sql"
for b in "${builds[@]}"; do
    install_ "$b"
    start_
    for db in a b; do
        PGOPTIONS="-c client_min_messages=warning" psql_ -q -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db"
        psql_ -q -d "$db" -c "CREATE EXTENSION idseq" \
            -c "CREATE TABLE ids (id bigint, at timestamptz DEFAULT clock_timestamp())"
    done
    for db in a b; do
        "$PGBIN/pgbench" -n -h "$D" -T 10 -c 1 -f "$D/ins.sql" "$db" >"$D/$db.log" 2>&1 &
    done
    wait || true
    echo "${b:-installed}:"
    for db in a b; do
        err=$(grep -m1 -o 'ERROR: .*' "$D/$db.log" || true)
        echo "  database $db: $(awk '/^tps/ { t = $3 } END { printf "%d ids/s", t }' "$D/$db.log")${err:+ $err};" \
             "$(psql_ -d "$db" -c "SELECT coalesce(round(max(extract(epoch FROM snowflake_timestamp(id) - at)) * 1000), 0) FROM ids") ms ahead of the clock at most"
        psql_ -d "$db" -c "COPY ids (id) TO STDOUT" >"$D/ids.$db"
    done
    echo "  ids issued in both databases: $(sort "$D/ids.a" "$D/ids.b" | uniq -d | wc -l)"
    stop_
done
