#!/usr/bin/env bash
# What the charset cache's committed tier buys (docs/dev/design.md, "The charset cache"):
# builds of idseq.so given as arguments (one as is, one with "committed = false;" as the
# first line of adopt() in src/pg/charset_registry.cpp, so that every definition lives in the
# transaction tier and is read again by the next transaction) are taken in turns, five
# rounds: each installs a build, restarts a throwaway cluster with 2,000 custom charsets and
# times a procedure that converts and prints one lexid(mycs) value per transaction, 20,000
# transactions, then the same 20,000 conversions in one transaction. Prints milliseconds.
# Without arguments it measures the installed build only.
# Run as a user that may run PostgreSQL: PGBIN=/usr/lib/postgresql/15/bin bench/mechanisms/charset_tiers.sh [a.so b.so ...]
set -euo pipefail
builds=("$@")
[ ${#builds[@]} -gt 0 ] || builds=("")
. "$(dirname "$0")/cluster.sh"
install_ "${builds[0]}"
start_
psql_ -q >/dev/null <<'SQL'
CREATE EXTENSION idseq;
SELECT count(idseq_create_charset('cs_' || g, 'ABCDEFGHJKMNPQRSTVWXYZ23456789' || chr(945 + g % 20)))
  FROM generate_series(1, 2000) g;
SELECT idseq_create_charset('mycs', '0123456789abcdefghjkmnpqrstvwxyz');
CREATE PROCEDURE convert_each(n int, commit_each boolean) LANGUAGE plpgsql AS $$
DECLARE s text; r text;
BEGIN
    FOR i IN 1..n LOOP
        s := 'ab' || chr(97 + i % 8);
        r := (s::lexid(mycs) + 1)::text;
        IF commit_each THEN COMMIT; END IF;
    END LOOP;
END $$;
SQL
stop_
for round in 1 2 3 4 5; do
    for b in "${builds[@]}"; do
        install_ "$b"
        start_
        line="round $round ${b:-installed}:"
        for each in true false; do
            ms=$(psql_ -c '\timing on' -c "CALL convert_each(20000, $each)" | awk '/^Time:/ { print $2 }')
            line+=" $([ "$each" = true ] && echo "a transaction each" || echo "one transaction") $ms ms;"
        done
        echo "$line"
        stop_
    done
done
