#!/usr/bin/env bash
# What the state saved at a clean shutdown buys (docs/design.md, "What each mechanism of the
# generator buys"): five clean restarts of a throwaway cluster with the saved state, five
# with its file removed before each start, and how far the first id after each start lies
# ahead of the clock. Run as a user that may run PostgreSQL:
# PGBIN=/usr/lib/postgresql/15/bin bench/mechanisms/saved_state.sh
set -euo pipefail
PGBIN=${PGBIN:-$(pg_config --bindir)}
D=$(mktemp -d)
trap '"$PGBIN/pg_ctl" -D "$D/data" -m immediate stop >/dev/null 2>&1 || true; rm -rf "$D"' EXIT
"$PGBIN/initdb" -D "$D/data" -A trust >/dev/null
cat >>"$D/data/postgresql.conf" <<CONF
shared_preload_libraries = 'idseq'
idseq.node_id = 1
listen_addresses = ''
unix_socket_directories = '$D'
CONF
P=("$PGBIN/psql" -X -At -h "$D" -d postgres)
"$PGBIN/pg_ctl" -D "$D/data" -l "$D/log" -w start >/dev/null
"${P[@]}" -c "CREATE EXTENSION idseq" >/dev/null
for mode in saved removed; do
    for i in 1 2 3 4 5; do
        "${P[@]}" -c "SELECT count(snowflake_nextval()) FROM generate_series(1, 100000)" >/dev/null
        "$PGBIN/pg_ctl" -D "$D/data" -m fast -w stop >/dev/null
        [ "$mode" = saved ] || rm -f "$D/data/idseq_snowflake.state"
        "$PGBIN/pg_ctl" -D "$D/data" -l "$D/log" -w start >/dev/null
        echo "$mode, restart $i: the first id lies $("${P[@]}" -c "SELECT round(extract(epoch FROM snowflake_timestamp(snowflake_nextval()) - clock_timestamp()) * 1000)") ms ahead of the clock"
    done
done
