#!/usr/bin/env bash
# The seed article's comparison (004), re-created in PostgreSQL with pgbench: a cycling
# AAA..ZZZ code from
#   1. a string in a table (SELECT ... FOR UPDATE, convert to a number, add 1, convert back,
#      UPDATE), the seed's first approach;
#   2. an integer in a table (one UPDATE advances it, formatted on the way out);
#   3. nextval_code on a native sequence (MINVALUE 0 MAXVALUE 17575 CYCLE);
# and plain nextval as the round-trip reference.
# Per call: one client, one call per transaction (as the seed timed its loop), 5 s per
# point, with synchronous_commit on and off. Concurrency: the seed's test, 100 clients at
# once, each taking a code and then holding its transaction for 100 ms (BEGIN; code;
# pg_sleep(0.1); COMMIT), one transaction per client; the blocking approaches serialize
# (about 100 x 0.1 s). Runs in about a minute. Prints tables; never fails on timing. Needs
# PGHOST/PGPORT of a cluster with idseq and max_connections above 100.
set -euo pipefail
PER_CALL_SECONDS=${PER_CALL_SECONDS:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"; psql -X -q -c "DROP SCHEMA IF EXISTS bench_seq CASCADE" >/dev/null 2>&1 || true' EXIT

psql -X -q -v ON_ERROR_STOP=1 >/dev/null <<'SQL'
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS idseq;
DROP SCHEMA IF EXISTS bench_seq CASCADE;
CREATE SCHEMA bench_seq;
-- 1. the string in a table
CREATE TABLE bench_seq.str_seq (val char(3) NOT NULL CHECK (val ~ '^[A-Z]{3}$'));
INSERT INTO bench_seq.str_seq VALUES ('ZZZ');
CREATE FUNCTION bench_seq.next_str() RETURNS text LANGUAGE plpgsql AS $$
DECLARE v text; n int;
BEGIN
    SELECT val INTO v FROM bench_seq.str_seq FOR UPDATE;
    n := ((ascii(substr(v, 1, 1)) - 65) * 676 + (ascii(substr(v, 2, 1)) - 65) * 26
          + (ascii(substr(v, 3, 1)) - 65) + 1) % 17576;
    v := chr(65 + n / 676 % 26) || chr(65 + n / 26 % 26) || chr(65 + n % 26);
    UPDATE bench_seq.str_seq SET val = v;
    RETURN v;
END $$;
-- 2. the integer in a table
CREATE TABLE bench_seq.int_seq (v int NOT NULL CHECK (v BETWEEN 0 AND 17575));
INSERT INTO bench_seq.int_seq VALUES (17575);
CREATE FUNCTION bench_seq.next_int() RETURNS text LANGUAGE plpgsql AS $$
DECLARE n int;
BEGIN
    UPDATE bench_seq.int_seq SET v = (v + 1) % 17576 RETURNING v INTO n;
    RETURN chr(65 + n / 676 % 26) || chr(65 + n / 26 % 26) || chr(65 + n % 26);
END $$;
-- 3. nextval_code, and plain nextval for reference
SELECT create_code_sequence('bench_seq.code_seq', 3);
CREATE SEQUENCE bench_seq.plain_seq;
SQL

declare -A call=(
    [string_in_table]="SELECT bench_seq.next_str();"
    [int_in_table]="SELECT bench_seq.next_int();"
    [nextval_code]="SELECT nextval_code('bench_seq.code_seq');"
    [nextval]="SELECT nextval('bench_seq.plain_seq');"
)
order=(string_in_table int_in_table nextval_code nextval)

# pgbench ... -> "latency_ms tps" (tps without the initial connection time)
measure() {
    local out
    out=$(pgbench -n -M prepared "$@" 2>&1) || { echo "pgbench failed: $out" >&2; echo "- -"; return; }
    echo "$(sed -n 's/^latency average = \([0-9.]*\) ms.*/\1/p' <<<"$out") $(sed -n 's/^tps = \([0-9.]*\) .*/\1/p' <<<"$out")"
}

echo "per call: 1 client, one call per transaction, ${PER_CALL_SECONDS} s per point (fsync $(psql -X -Atc 'SHOW fsync'))"
printf '%-18s %22s %22s\n' approach "us/call sync_commit=on" "us/call sync_commit=off"
for a in "${order[@]}"; do
    echo "${call[$a]}" >"$work/$a.sql"
    read -r lat_on _ < <(measure -c 1 -T "$PER_CALL_SECONDS" -f "$work/$a.sql")
    read -r lat_off _ < <(PGOPTIONS="-c synchronous_commit=off" measure -c 1 -T "$PER_CALL_SECONDS" -f "$work/$a.sql")
    awk -v a="$a" -v on="$lat_on" -v off="$lat_off" 'BEGIN { printf "%-18s %22.1f %22.1f\n", a, on * 1000, off * 1000 }'
done

echo
echo "the seed's blocking test: 100 clients at once, each BEGIN; take a code; pg_sleep(0.1); COMMIT"
printf '%-18s %18s %22s\n' approach "all 100 done (s)" "transactions/s"
for a in string_in_table int_in_table nextval_code; do
    printf 'BEGIN;\n%s\nSELECT pg_sleep(0.1);\nCOMMIT;\n' "${call[$a]}" >"$work/$a.hold.sql"
    read -r _ tps < <(measure -c 100 -j 4 -t 1 -f "$work/$a.hold.sql")
    awk -v a="$a" -v tps="$tps" 'BEGIN { printf "%-18s %18.2f %22.1f\n", a, (tps > 0 ? 100 / tps : 0), tps }'
done
