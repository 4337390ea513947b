# Sourced by the scripts beside it: a throwaway cluster run by the calling user, with idseq
# preloaded (unless CLUSTER_PRELOAD=no), listening on a private socket only; removed on exit. After sourcing: $PGBIN,
# $LIB (its pkglibdir), $D (the cluster's directory), psql_ (psql on it, extra arguments
# passed), start_, stop_ and install_ BUILD (copies an idseq.so over the installed one; an
# empty BUILD keeps the installed build). Extra postgresql.conf lines: $CLUSTER_CONF.
PGBIN=${PGBIN:-$(pg_config --bindir)}
LIB=$("$PGBIN/pg_config" --pkglibdir)
D=$(mktemp -d)
trap '"$PGBIN/pg_ctl" -D "$D/data" -m immediate stop >/dev/null 2>&1 || true; rm -rf "$D"' EXIT
"$PGBIN/initdb" -D "$D/data" -A trust >/dev/null
cat >>"$D/data/postgresql.conf" <<CONF
shared_preload_libraries = '$([ "${CLUSTER_PRELOAD:-yes}" = no ] || echo idseq)'
listen_addresses = ''
unix_socket_directories = '$D'
${CLUSTER_CONF:-}
CONF
psql_() { "$PGBIN/psql" -X -At -h "$D" -d postgres "$@"; }
start_() { "$PGBIN/pg_ctl" -D "$D/data" -l "$D/log" -w start >/dev/null; }
stop_() { "$PGBIN/pg_ctl" -D "$D/data" -m fast -w stop >/dev/null; }
install_() { [ -z "$1" ] || cp "$1" "$LIB/idseq.so"; }
