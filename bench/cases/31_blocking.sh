#!/usr/bin/env bash
# The seed article's comparison (004), re-created in PostgreSQL: a cycling
# AAA..ZZZ code from
#   1. a string in a table (SELECT ... FOR UPDATE, convert to a number, add 1, convert back,
#      UPDATE), the seed's first approach;
#   2. an integer in a table (one UPDATE advances it, formatted on the way out);
#   3. nextval_code on a native sequence (MINVALUE 0 MAXVALUE 17575 CYCLE);
# and plain nextval as the reference.
# Per call: one call per transaction in a server-side loop, as the seed timed its T-SQL
# loop, with synchronous_commit on and off. Concurrency: the seed's test, 100 clients at
# once, each taking a code and then holding its transaction for 100 ms (BEGIN; code;
# pg_sleep(0.1); COMMIT), one transaction per client; the blocking approaches serialize
# (about 100 x 0.1 s), with pgbench. Runs in well under a minute. Prints tables; never fails on timing. Needs
# PGHOST/PGPORT of a cluster with idseq and max_connections above 100.
set -euo pipefail
PER_CALL_CALLS=${PER_CALL_CALLS:-20000}
CLIENTS=${BLOCKING_CLIENTS:-100}
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
-- The seed timed a server-side loop of 10^6 calls, each its own transaction. The same here:
-- a procedure that commits after every call; microseconds per call, best of 3 runs.
CREATE PROCEDURE bench_seq.per_call(approach text, n int, INOUT us float8 DEFAULT NULL)
LANGUAGE plpgsql AS $$
DECLARE t0 timestamptz; v text; best float8 := 'infinity';
BEGIN
    FOR r IN 1..3 LOOP
        t0 := clock_timestamp();
        FOR i IN 1..n LOOP
            CASE approach
                WHEN 'string_in_table' THEN v := bench_seq.next_str();
                WHEN 'int_in_table' THEN v := bench_seq.next_int();
                WHEN 'nextval_code' THEN v := nextval_code('bench_seq.code_seq');
                WHEN 'nextval' THEN v := nextval('bench_seq.plain_seq');
            END CASE;
            COMMIT;
        END LOOP;
        best := least(best, extract(epoch FROM clock_timestamp() - t0) * 1e6 / n);
    END LOOP;
    us := best;
END $$;
SQL

declare -A call=(
    [string_in_table]="SELECT bench_seq.next_str();"
    [int_in_table]="SELECT bench_seq.next_int();"
    [nextval_code]="SELECT nextval_code('bench_seq.code_seq');"
)

# pgbench ... -> "latency_ms tps" (tps without the initial connection time)
measure() {
    local out
    out=$(pgbench -n -M prepared "$@" 2>&1) || { echo "pgbench failed: $out" >&2; echo "- -"; return; }
    echo "$(sed -n 's/^latency average = \([0-9.]*\) ms.*/\1/p' <<<"$out") $(sed -n 's/^tps = \([0-9.]*\) .*/\1/p' <<<"$out")"
}

echo "per call, one transaction per call, in a server-side loop of ${PER_CALL_CALLS} (fsync $(psql -X -Atc 'SHOW fsync'))"
printf '%-18s %24s %24s\n' approach "us/call sync_commit=on" "us/call sync_commit=off"
vacuum() { psql -X -q -c "VACUUM bench_seq.str_seq, bench_seq.int_seq"; }  # each run starts unbloated
for a in string_in_table int_in_table nextval_code nextval; do
    vacuum
    on=$(psql -X -Atq -c "CALL bench_seq.per_call('$a', $PER_CALL_CALLS)")
    vacuum
    off=$(PGOPTIONS="-c synchronous_commit=off" psql -X -Atq -c "CALL bench_seq.per_call('$a', $PER_CALL_CALLS)")
    awk -v a="$a" -v on="$on" -v off="$off" 'BEGIN { printf "%-18s %24.1f %24.1f\n", a, on, off }'
done

echo
echo "the seed's blocking test: $CLIENTS clients at once, each BEGIN; take a code; pg_sleep(0.1); COMMIT"
printf '%-18s %18s %22s\n' approach "all $CLIENTS done (s)" "transactions/s"
for a in string_in_table int_in_table nextval_code; do
    printf 'BEGIN;\n%s\nSELECT pg_sleep(0.1);\nCOMMIT;\n' "${call[$a]}" >"$work/$a.hold.sql"
    read -r _ tps < <(measure -c "$CLIENTS" -j 4 -t 1 -f "$work/$a.hold.sql")
    awk -v a="$a" -v n="$CLIENTS" -v tps="$tps" 'BEGIN { printf "%-18s %18.2f %22.1f\n", a, (tps > 0 ? n / tps : 0), tps }'
done
