#!/usr/bin/env bash
# Runs every benchmark case against the cluster in PGHOST/PGPORT (make bench starts one with
# idseq in shared_preload_libraries). Prints tables; never fails on timing.
set -euo pipefail
cd "$(dirname "$0")"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(postgres --version)"
psql -X -q -v ON_ERROR_STOP=1 -c "CREATE EXTENSION IF NOT EXISTS idseq" -f harness.sql
for c in cases/*.sql; do
    echo "-- $c"
    psql -X -q -v ON_ERROR_STOP=1 -f "$c" >/dev/null
done
psql -X -q -f report.sql
for c in cases/*.sh; do
    [ -e "$c" ] || continue
    echo "-- $c"
    bash "$c"
done
