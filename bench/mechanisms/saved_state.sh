#!/usr/bin/env bash
# What the state saved at a clean shutdown buys (docs/dev/design.md, "What each mechanism of the
# generator buys"): five clean restarts of a throwaway cluster with the saved state, five
# with its file removed before each start, and how far the first id after each start lies
# ahead of the clock. Run as a user that may run PostgreSQL:
# PGBIN=/usr/lib/postgresql/15/bin bench/mechanisms/saved_state.sh
set -euo pipefail
CLUSTER_CONF="idseq.node_id = 1"
. "$(dirname "$0")/cluster.sh"
start_
psql_ -c "CREATE EXTENSION idseq" >/dev/null
for mode in saved removed; do
    for i in 1 2 3 4 5; do
        psql_ -c "SELECT count(snowflake_nextval()) FROM generate_series(1, 100000)" >/dev/null
        stop_
        [ "$mode" = saved ] || rm -f "$D/data/idseq_snowflake.state"
        start_
        echo "$mode, restart $i: the first id lies $(psql_ -c "SELECT round(extract(epoch FROM snowflake_timestamp(snowflake_nextval()) - clock_timestamp()) * 1000)") ms ahead of the clock"
    done
done
