-- Counters per key (1.3): idseq_create_counter, idseq_drop_counter, idseq_counter_next,
-- _next_text, _format, _block, _current, _set, _fill (and binding at commit), _gaps, the views
-- idseq_counters and idseq_counter_keys; errors with their SQLSTATEs; privileges with real
-- roles. (Concurrency: the isolation specs; crashes, standbys, dump and upgrade: TAP.)
\pset null '(null)'
\x off
SET client_min_messages = warning;
CREATE ROLE regress_counter_owner;
CREATE ROLE regress_counter_user;
CREATE ROLE regress_counter_other;
RESET client_min_messages;
CREATE SCHEMA regress_counters AUTHORIZATION regress_counter_owner;
GRANT USAGE ON SCHEMA regress_counters TO regress_counter_user, regress_counter_other;
SET search_path = regress_counters, public;

-- ===== a fast counter: numbers per key, never undone =====
-- a counter named like a table of the same schema works beside it
CREATE TABLE regress_counters.orders (id int);
SELECT idseq_create_counter('orders');
SELECT relname, relkind, relnamespace::regnamespace FROM pg_class WHERE oid = 'regress_counters.orders_counter'::regclass;
SELECT idseq_counter_next('orders', 't1') AS t1_a, idseq_counter_next('orders', 't1') AS t1_b,
       idseq_counter_next('orders', 't2') AS t2_a, idseq_counter_next('orders') AS empty_key;
BEGIN;
SELECT idseq_counter_next('orders', 't1') AS in_rolled_back;
ROLLBACK;
SELECT idseq_counter_next('orders', 't1') AS after_rollback;
-- a key first used in a transaction that rolls back keeps its number too
BEGIN;
SELECT idseq_counter_next('orders', 'fresh') AS fresh_rolled_back;
ROLLBACK;
SELECT idseq_counter_next('orders', 'fresh') AS fresh_after;
SELECT idseq_counter_current('orders', 't1') AS t1, idseq_counter_current('orders', 'never') AS never;
-- blocks: disjoint from every other number of the key, the change flushed
SELECT idseq_counter_block('orders', 't1', 10) AS block;
SELECT idseq_counter_next('orders', 't1') AS after_block;
SELECT idseq_counter_block('orders', 'new_block_key', 3) AS new_key_block;
-- set: raises, never lowers
SELECT idseq_counter_set('orders', 't1', 100) AS raised, idseq_counter_set('orders', 't1', 5) AS not_lowered,
       idseq_counter_next('orders', 't1') AS next;
SELECT idseq_counter_set('orders', 'moved_in', 41) AS moved_in, idseq_counter_next('orders', 'moved_in') AS next;
SELECT idseq_counter_set('orders', 'below_start', 0) AS below_start,
       idseq_counter_current('orders', 'below_start') AS no_row;
-- moving existing numbering in, one statement
CREATE TABLE regress_counters.legacy (tenant int, no bigint);
INSERT INTO legacy VALUES (1, 7), (1, 9), (2, 3);
SELECT tenant, idseq_counter_set('orders', 'legacy' || tenant, max(no)) FROM legacy GROUP BY tenant ORDER BY tenant;
SELECT idseq_counter_next('orders', 'legacy1') AS legacy1, idseq_counter_next('orders', 'legacy2') AS legacy2;
-- a key's numbers increase in issue order across many calls
SELECT bool_and(n = i) AS in_order
  FROM (SELECT i, idseq_counter_next('orders', 'many') AS n FROM generate_series(1, 500) i) s;
-- many keys in one statement: one row each
SELECT count(*) AS keys, count(DISTINCT n) AS distinct_numbers, min(n), max(n)
  FROM (SELECT idseq_counter_next('orders', 'k' || i) AS n FROM generate_series(1, 2000) i) s;
SELECT count(*) AS state_rows FROM idseq_counter_keys WHERE counter = 'orders' AND key LIKE 'k%';
-- a number goes straight to the place its key's row was last seen; after VACUUM FULL moves
-- every row (each place then holds another key's row, or none), each key still continues
-- from its own last number and gets no second row
SELECT idseq_create_counter('moving');
SELECT idseq_create_counter('spacer');
SELECT count(idseq_counter_next('moving', 'm' || i)) + count(idseq_counter_next('spacer', 's' || i)) AS taken
  FROM generate_series(1, 3000) i;
SELECT count(idseq_counter_next('moving', 'm' || i)) AS odd_keys_again FROM generate_series(1, 3000, 2) i;
SELECT idseq_drop_counter('spacer');
VACUUM FULL idseq_counter_state;
SELECT count(*) AS keys, bool_and(n = CASE WHEN i % 2 = 1 THEN 3 ELSE 2 END) AS each_continues
  FROM (SELECT i, idseq_counter_next('moving', 'm' || i) AS n FROM generate_series(1, 3000) i) s;
SELECT count(*) AS rows, count(DISTINCT key) AS keys, sum(last) AS numbers
  FROM idseq_counter_keys WHERE counter = 'moving';
SELECT idseq_drop_counter('moving');
-- the same for gap-free keys, whose rows move at each number: the spacer's rows vacuumed
-- away leave room in each page, so the next versions of the keys' rows are written among
-- them; VACUUM FULL then puts other keys' rows where many hints point (about 750 of 3000 on
-- a quiet server; fewer where an older snapshot keeps the spacer's rows, as autovacuum's can
-- on a server in use), and each key still continues from its own number
SELECT idseq_create_counter('moving_gf', gapless => true);
SELECT idseq_create_counter('spacer_gf', gapless => true);
SELECT count(idseq_counter_next('moving_gf', 'm' || i)) + count(idseq_counter_next('spacer_gf', 's' || i)) AS taken
  FROM generate_series(1, 3000) i;
SELECT idseq_drop_counter('spacer_gf');
VACUUM idseq_counter_state;
SELECT count(idseq_counter_next('moving_gf', 'm' || i)) AS again FROM generate_series(1, 3000) i;
SELECT count(idseq_counter_next('moving_gf', 'm' || i)) AS odd_keys_again FROM generate_series(1, 3000, 2) i;
VACUUM FULL idseq_counter_state;
SELECT count(*) AS keys, bool_and(n = CASE WHEN i % 2 = 1 THEN 4 ELSE 3 END) AS each_continues
  FROM (SELECT i, idseq_counter_next('moving_gf', 'm' || i) AS n FROM generate_series(1, 3000) i) s;
SELECT count(*) AS rows, count(DISTINCT key) AS keys, sum(last) AS numbers
  FROM idseq_counter_keys WHERE counter = 'moving_gf';
SELECT idseq_drop_counter('moving_gf');
-- in a read-only transaction numbers cannot be taken, state can be read
BEGIN READ ONLY;
SELECT * FROM expect_error($$SELECT idseq_counter_next('orders', 't1')$$);
ROLLBACK;
BEGIN READ ONLY;
SELECT idseq_counter_current('orders', 't1') AS read_only_current;
ROLLBACK;
-- read in a parallel query's leader, above its workers (a new snapshot may not be taken
-- there): the fast counter's state as the gap-free one's
SELECT idseq_create_counter('par_fast'), idseq_create_counter('par_gapfree', gapless => true);
CREATE TABLE regress_counters.parallel_read AS
SELECT c, g::text AS k, idseq_counter_next(c, g::text) AS n
  FROM generate_series(1, 3000) g, (VALUES ('par_fast'), ('par_gapfree')) v(c);
ANALYZE regress_counters.parallel_read;
BEGIN;
SET LOCAL max_parallel_workers_per_gather = 2;
SET LOCAL parallel_setup_cost = 0;
SET LOCAL parallel_tuple_cost = 0;
SET LOCAL min_parallel_table_scan_size = 0;
SET LOCAL enable_hashagg = off;
SELECT c, count(*) AS keys_read FROM (
    SELECT c, k FROM regress_counters.parallel_read GROUP BY 1, 2 HAVING max(n) = idseq_counter_current(c, k)) s
 GROUP BY c ORDER BY c;
COMMIT;
DROP TABLE regress_counters.parallel_read;
SELECT idseq_drop_counter('par_fast'), idseq_drop_counter('par_gapfree');

-- ===== bad input =====
SELECT * FROM expect_error($$SELECT idseq_create_counter('orders')$$);
SELECT * FROM expect_error($$SELECT idseq_create_counter('Orders')$$);
SELECT * FROM expect_error($$SELECT idseq_create_counter('1st')$$);
SELECT * FROM expect_error($$SELECT idseq_create_counter(repeat('a', 49))$$);
SELECT * FROM expect_error($$SELECT idseq_create_counter('')$$);
SELECT * FROM expect_error($$SELECT idseq_create_counter(NULL)$$);
SELECT * FROM expect_error($$SELECT idseq_create_counter('p', false, 'week')$$);
SELECT * FROM expect_error($$SELECT idseq_create_counter('p', false, 'year', 'Mars/Olympus')$$);
SELECT * FROM expect_error($$SELECT idseq_create_counter('p', false, NULL, 'UTC', 1, 'ORD-{x}')$$);
SELECT * FROM expect_error($$SELECT idseq_create_counter('p', false, NULL, 'UTC', 1, 'no number')$$);
SELECT * FROM expect_error($$SELECT idseq_create_counter('p', false, NULL, 'UTC', 1, '{code:nosuch}')$$);
SELECT * FROM expect_error($$SELECT idseq_create_counter('p', false, NULL, 'UTC', 1, '{n}-{period}')$$);
SELECT * FROM expect_error($$SELECT idseq_create_counter('p', false, NULL, 'UTC', -1)$$);
SELECT * FROM expect_error($$SELECT idseq_create_counter('p', NULL)$$);
SELECT count(*) AS nothing_made FROM idseq_counters WHERE name = 'p';
SELECT * FROM expect_error($$SELECT idseq_counter_next('nosuch', 'k')$$);
SELECT * FROM expect_error($$SELECT idseq_counter_next(NULL, 'k')$$);
SELECT * FROM expect_error($$SELECT idseq_counter_next('orders', NULL)$$);
SELECT * FROM expect_error($$SELECT idseq_counter_next('orders', repeat('x', 1001))$$);
SELECT idseq_counter_next('orders', repeat('x', 1000)) AS longest_key;
SELECT * FROM expect_error($$SELECT idseq_counter_block('orders', 't1', 0)$$);
SELECT * FROM expect_error($$SELECT idseq_counter_block('orders', 't1', NULL)$$);
SELECT * FROM expect_error($$SELECT idseq_counter_set('orders', 't1', NULL)$$);
SELECT * FROM expect_error($$SELECT idseq_counter_current('orders', NULL)$$);
-- the end of bigint: a clear error, the key stays at its last number
SELECT idseq_counter_set('orders', 'end', 9223372036854775806) AS near_end;
SELECT idseq_counter_next('orders', 'end') AS last_number;
SELECT * FROM expect_error($$SELECT idseq_counter_next('orders', 'end')$$);
SELECT * FROM expect_error($$SELECT idseq_counter_block('orders', 'end2', 2147483647) FROM
                               (SELECT idseq_counter_set('orders', 'end2', 9223372036854775000)) s$$);
SELECT idseq_counter_current('orders', 'end') AS still;

-- ===== a gap-free counter: transactional =====
SELECT idseq_create_counter('invoice', gapless => true, period => 'year', time_zone => 'Europe/Paris',
                            format => 'INV-{period}-{n:6}');
BEGIN;
SELECT idseq_counter_next('invoice', 'c7') AS first_try;
ROLLBACK;
SELECT idseq_counter_next('invoice', 'c7') AS returned_by_rollback;
BEGIN;
SELECT idseq_counter_next('invoice', 'c7') AS second;
-- current is the last committed number: this transaction's own is not yet
SELECT idseq_counter_current('invoice', 'c7') AS committed_in_transaction;
ROLLBACK;
SELECT idseq_counter_current('invoice', 'c7') AS current_after_rollback;
SELECT idseq_counter_next_text('invoice', 'c7')
       = 'INV-' || to_char(now() AT TIME ZONE 'Europe/Paris', 'YYYY') || '-000002' AS text_in_this_year;
SELECT * FROM expect_error($$SELECT idseq_counter_block('invoice', 'c7', 5)$$);
SELECT idseq_counter_set('invoice', 'c8', 41) AS set, idseq_counter_next('invoice', 'c8') AS next;
-- one statement takes an existing key's numbers one after another, each call seeing the one
-- before
SELECT array_agg(n ORDER BY g) AS one_statement
  FROM (SELECT g, idseq_counter_next('invoice', 'c8') AS n FROM generate_series(1, 5) g) s;
-- subtransactions: a rolled back savepoint returns its number
BEGIN;
SELECT idseq_counter_next('invoice', 'c9') AS one;
SAVEPOINT s;
SELECT idseq_counter_next('invoice', 'c9') AS two_rolled_back;
ROLLBACK TO SAVEPOINT s;
SELECT idseq_counter_next('invoice', 'c9') AS two_again;
COMMIT;

-- ===== formats and periods, at explicit times =====
SELECT idseq_create_counter('daily', period => 'day', time_zone => 'America/New_York',
                            format => 'D{period}/{key}/{n:3}');
SELECT idseq_create_counter('monthly', period => 'month', time_zone => 'Asia/Tokyo', start => 1000,
                            format => '{{{n}}}-{period}');
SELECT idseq_create_counter('coded', format => 'T-{code:base58}-{code:crockford32:4}');
SELECT t AS at,
       idseq_counter_format('invoice', 17, 'c7', t) AS invoice,
       idseq_counter_format('daily', 5, 'shop', t) AS daily,
       idseq_counter_format('monthly', 1000, '', t) AS monthly
  FROM unnest(ARRAY['2026-12-31 22:59:59+00', '2026-12-31 23:00:00+00', '2027-01-01 04:59:59+00',
                    '2027-01-01 05:00:00+00', '2026-11-30 14:59:59+00', '2026-11-30 15:00:00+00']::timestamptz[]) t;
SELECT idseq_counter_format('invoice', 1234567, 'c7', '2026-06-01') AS wider_than_pad,
       idseq_counter_format('orders', 42) AS plain,
       idseq_counter_format('coded', 1) AS code_1, idseq_counter_format('coded', 58) AS code_58,
       idseq_counter_format('coded', 59) AS code_59;
SELECT * FROM expect_error($$SELECT idseq_counter_format('coded', 0)$$);
SELECT * FROM expect_error($$SELECT idseq_counter_format('coded', 1048576)$$);
SELECT idseq_counter_format('orders', NULL) AS null_number, idseq_counter_format('orders', 1, 'k', NULL) AS null_time;
SELECT * FROM expect_error($$SELECT idseq_counter_format('orders', 1, NULL)$$);
SELECT * FROM expect_error($$SELECT idseq_counter_format('no_such_counter', 5, 'k', NULL)$$);
SELECT * FROM expect_error($$SELECT idseq_counter_format('invoice', 1, 'k', 'infinity')$$);
-- the period of numbers taken is the transaction's start (now()), in the counter's zone
SELECT idseq_counter_next('daily', 'shop') AS daily_first, idseq_counter_next('monthly') AS monthly_first;
SELECT k.counter, k.period = to_char(now() AT TIME ZONE d.time_zone,
                                     CASE d.period WHEN 'day' THEN 'YYYY-MM-DD' WHEN 'month' THEN 'YYYY-MM' ELSE 'YYYY' END)
                      AS period_of_now
  FROM idseq_counter_keys k JOIN idseq_counters d ON d.name = k.counter
 WHERE k.counter IN ('daily', 'monthly', 'invoice') AND k.key IN ('shop', '', 'c7') ORDER BY 1;

-- ===== the views =====
SELECT name, owner, gapless, period, time_zone, start, format, keys, anchor
  FROM idseq_counters WHERE name IN ('orders', 'invoice', 'daily', 'monthly', 'coded') ORDER BY name;
SELECT counter, key, last FROM idseq_counter_keys
 WHERE counter = 'orders' AND key IN ('t1', 't2', '', 'fresh', 'moved_in', 'new_block_key') ORDER BY key;

-- ===== privileges: those of the anchor sequence =====
ALTER SEQUENCE regress_counters.orders_counter OWNER TO regress_counter_owner;
SET ROLE regress_counter_owner;
SELECT idseq_create_counter('owned', gapless => true);
SELECT owner FROM idseq_counters WHERE name = 'owned';
SELECT idseq_counter_next('owned', 'a') AS owner_takes;
RESET ROLE;
SET ROLE regress_counter_user;
SELECT * FROM expect_error($$SELECT idseq_counter_next('owned', 'a')$$);
SELECT * FROM expect_error($$SELECT idseq_counter_next_text('owned', 'a')$$);
SELECT * FROM expect_error($$SELECT idseq_counter_set('owned', 'a', 10)$$);
SELECT * FROM expect_error($$SELECT idseq_counter_current('owned', 'a')$$);
SELECT * FROM expect_error($$SELECT idseq_drop_counter('owned')$$);
SELECT * FROM expect_error($$SELECT * FROM idseq_counter_gaps('owned', 'a', 'regress_counters.legacy', 'no')$$);
SELECT count(*) AS keys_seen FROM idseq_counter_keys WHERE counter = 'owned';
SELECT * FROM expect_error($$SELECT * FROM idseq_counter_state$$);
SELECT * FROM expect_error($$SELECT * FROM idseq_counter_def$$);
SELECT idseq_counter_format('owned', 5) AS formats_without_privilege;
RESET ROLE;
SET ROLE regress_counter_owner;
GRANT USAGE ON SEQUENCE regress_counters.owned_counter TO regress_counter_user;
RESET ROLE;
SET ROLE regress_counter_user;
SELECT idseq_counter_next('owned', 'a') AS with_usage;
SELECT * FROM expect_error($$SELECT idseq_counter_set('owned', 'a', 10)$$);
SELECT * FROM expect_error($$SELECT idseq_counter_current('owned', 'a')$$);
RESET ROLE;
SET ROLE regress_counter_owner;
GRANT SELECT, UPDATE ON SEQUENCE regress_counters.owned_counter TO regress_counter_user;
RESET ROLE;
SET ROLE regress_counter_user;
SELECT idseq_counter_set('owned', 'a', 10) AS with_update;
SELECT idseq_counter_current('owned', 'a') AS with_select;
SELECT counter, key, last FROM idseq_counter_keys WHERE counter = 'owned';
-- creating a counter takes CREATE on the current schema, as CREATE SEQUENCE does
SELECT * FROM expect_error($$SELECT idseq_create_counter('stolen')$$);
RESET ROLE;
SET ROLE regress_counter_owner;
REVOKE USAGE ON SEQUENCE regress_counters.owned_counter FROM regress_counter_user;
RESET ROLE;
SET ROLE regress_counter_user;
SELECT * FROM expect_error($$SELECT idseq_counter_next('owned', 'a')$$);
RESET ROLE;

-- ===== the trigger helper =====
CREATE TABLE regress_counters.shop_order (id serial, tenant int, no bigint, code text);
CREATE TRIGGER number_it BEFORE INSERT ON shop_order
    FOR EACH ROW EXECUTE FUNCTION idseq_counter_fill('orders', 'tenant', 'no');
CREATE TRIGGER code_it BEFORE INSERT ON shop_order
    FOR EACH ROW EXECUTE FUNCTION idseq_counter_fill('coded', 'tenant', 'code');
INSERT INTO shop_order (tenant) VALUES (1), (1), (2) RETURNING tenant, no, code;
INSERT INTO shop_order (tenant, no, code) VALUES (1, 500, 'given') RETURNING tenant, no, code;
SELECT * FROM expect_error($$INSERT INTO regress_counters.shop_order (tenant) VALUES (NULL)$$);
-- the column's type modifier holds, as in an assignment
CREATE TABLE regress_counters.typed (k text, v varchar(3), n numeric(2));
CREATE TRIGGER fill_v BEFORE INSERT ON typed FOR EACH ROW EXECUTE FUNCTION idseq_counter_fill('orders', 'k', 'v');
CREATE TRIGGER fill_n BEFORE INSERT ON typed FOR EACH ROW EXECUTE FUNCTION idseq_counter_fill('orders', 'k', 'n');
SELECT idseq_counter_set('orders', 'wide', 998) AS wide;
INSERT INTO typed (k, n) VALUES ('wide', 1) RETURNING v, n;
SELECT * FROM expect_error($$INSERT INTO regress_counters.typed (k, n) VALUES ('wide', 1)$$);
SELECT idseq_counter_set('orders', 'deep', 98) AS deep;
INSERT INTO typed (k, v) VALUES ('deep', 'x') RETURNING v, n;
SELECT * FROM expect_error($$INSERT INTO regress_counters.typed (k, v) VALUES ('deep', 'x')$$);
CREATE TABLE regress_counters.bad_fill (k int, v int, d date);
CREATE TRIGGER wrong_column BEFORE INSERT ON bad_fill
    FOR EACH ROW EXECUTE FUNCTION idseq_counter_fill('orders', 'k', 'nosuch');
SELECT * FROM expect_error($$INSERT INTO regress_counters.bad_fill VALUES (1)$$);
DROP TRIGGER wrong_column ON bad_fill;
CREATE TRIGGER wrong_type BEFORE INSERT ON bad_fill
    FOR EACH ROW EXECUTE FUNCTION idseq_counter_fill('orders', 'k', 'd');
SELECT * FROM expect_error($$INSERT INTO regress_counters.bad_fill VALUES (1)$$);
DROP TRIGGER wrong_type ON bad_fill;
CREATE TRIGGER wrong_arg BEFORE INSERT ON bad_fill
    FOR EACH ROW EXECUTE FUNCTION idseq_counter_fill('orders', 'k', 'v', 'later');
SELECT * FROM expect_error($$INSERT INTO regress_counters.bad_fill VALUES (1)$$);
DROP TRIGGER wrong_arg ON bad_fill;
CREATE TRIGGER wrong_timing AFTER INSERT ON bad_fill
    FOR EACH ROW EXECUTE FUNCTION idseq_counter_fill('orders', 'k', 'v');
SELECT * FROM expect_error($$INSERT INTO regress_counters.bad_fill VALUES (1)$$);
DROP TRIGGER wrong_timing ON bad_fill;
CREATE TRIGGER no_counter BEFORE INSERT ON bad_fill
    FOR EACH ROW EXECUTE FUNCTION idseq_counter_fill('nosuch', 'k', 'v');
SELECT * FROM expect_error($$INSERT INTO regress_counters.bad_fill VALUES (1)$$);
SELECT * FROM expect_error($$SELECT idseq_counter_fill()$$);

-- ===== numbers bound at commit =====
CREATE TABLE regress_counters.invoices (id int PRIMARY KEY, company int, no text, amount int);
CREATE TRIGGER number_at_commit BEFORE INSERT ON invoices
    FOR EACH ROW EXECUTE FUNCTION idseq_counter_fill('invoice', 'company', 'no', 'commit');
-- the companion: internal, deferred, gone with the user's trigger
SELECT tgname = 'number_at_commit' AS users, tgisinternal, tgdeferrable, tginitdeferred, tgfoid::regproc
  FROM pg_trigger WHERE tgrelid = 'regress_counters.invoices'::regclass ORDER BY tgisinternal;
SELECT idseq_counter_current('invoice', '70') AS before;
BEGIN;
INSERT INTO invoices VALUES (1, 70, NULL, 10), (2, 70, NULL, 20), (3, 71, NULL, 30), (4, 70, 'kept', 40), (5, 70, NULL, 50);
SELECT id, no FROM invoices ORDER BY id;  -- NULL inside the transaction
SELECT idseq_counter_current('invoice', '70') AS none_taken_yet;
UPDATE invoices SET amount = 21 WHERE id = 2;  -- the number goes to the row's latest version
DELETE FROM invoices WHERE id = 5;             -- a deleted row takes no number
UPDATE invoices SET company = 72 WHERE id = 3; -- the key is read at commit
COMMIT;
SELECT id, company, no = 'INV-' || to_char(now() AT TIME ZONE 'Europe/Paris', 'YYYY') || '-' || lpad(right(no, 6), 6, '0')
           AS well_formed, right(no, 6) AS n, amount
  FROM invoices ORDER BY id;
-- a rollback binds nothing and takes nothing
BEGIN;
INSERT INTO invoices VALUES (6, 70, NULL, 60);
ROLLBACK;
SELECT idseq_counter_current('invoice', '70') AS after_rollback;
-- a single statement's own commit binds too (no command boundary between INSERT and commit)
INSERT INTO invoices VALUES (7, 70, NULL, 70);
SELECT id, right(no, 6) AS n FROM invoices WHERE id = 7;
-- the UPDATE that binds is planned once per table and column in a session: a table renamed,
-- with another made under its old name, still gets its own numbers; a column of another type
-- under the same name is planned again
SELECT idseq_create_counter('bind_plans', gapless => true);
CREATE TABLE regress_counters.bp (id int, k text, no bigint);
CREATE TRIGGER number_at_commit BEFORE INSERT ON bp
    FOR EACH ROW EXECUTE FUNCTION idseq_counter_fill('bind_plans', 'k', 'no', 'commit');
INSERT INTO bp VALUES (1, 'a');
ALTER TABLE bp RENAME TO bp_renamed;
CREATE TABLE regress_counters.bp (id int, k text, no bigint);
INSERT INTO bp VALUES (1, 'a', NULL);
INSERT INTO bp_renamed VALUES (2, 'a');
SELECT 'bp_renamed' AS t, id, no FROM bp_renamed UNION ALL SELECT 'bp', id, no FROM bp ORDER BY 1, 2;
-- a schema renamed keeps its OID: the plan is made again, and a table of the old schema's
-- name made since gets nothing
CREATE SCHEMA regress_bp_s;
CREATE TABLE regress_bp_s.inv (id int, k text, no bigint);
CREATE TRIGGER number_at_commit BEFORE INSERT ON regress_bp_s.inv
    FOR EACH ROW EXECUTE FUNCTION idseq_counter_fill('bind_plans', 'k', 'no', 'commit');
INSERT INTO regress_bp_s.inv VALUES (1, 's');
ALTER SCHEMA regress_bp_s RENAME TO regress_bp_s2;
CREATE SCHEMA regress_bp_s;
CREATE TABLE regress_bp_s.inv (id int, k text, no bigint);
INSERT INTO regress_bp_s.inv SELECT g, 'decoy', NULL FROM generate_series(1, 5) g;
INSERT INTO regress_bp_s2.inv VALUES (2, 's'), (3, 's');
SELECT 'renamed' AS t, id, no FROM regress_bp_s2.inv UNION ALL
SELECT 'decoy', id, no FROM regress_bp_s.inv WHERE no IS NOT NULL ORDER BY 1, 2;
DROP SCHEMA regress_bp_s, regress_bp_s2 CASCADE;
ALTER TABLE bp_renamed DROP COLUMN no;
ALTER TABLE bp_renamed ADD COLUMN no numeric(3);
INSERT INTO bp_renamed VALUES (3, 'a');
SELECT id, no, pg_typeof(no) FROM bp_renamed WHERE id = 3;
-- more tables than the session keeps plans for (16), in one transaction; then, with every
-- kept plan in use, a binding UPDATE whose trigger inserts a row bound at once (SET
-- CONSTRAINTS ... IMMEDIATE) into a table of its own: that row's UPDATE is planned without
-- being kept, and the plan running meanwhile is not freed
DO $$
BEGIN
    FOR i IN 1..20 LOOP
        EXECUTE format('CREATE TABLE regress_counters.bp_%s (id int, k text, no bigint)', i);
        EXECUTE format('CREATE TRIGGER number_at_commit BEFORE INSERT ON regress_counters.bp_%s
                        FOR EACH ROW EXECUTE FUNCTION idseq_counter_fill(''bind_plans'', ''k'', ''no'', ''commit'')', i);
    END LOOP;
END $$;
BEGIN;
DO $$ BEGIN FOR i IN 1..20 LOOP EXECUTE format('INSERT INTO regress_counters.bp_%s VALUES (1, ''many'')', i); END LOOP; END $$;
COMMIT;
SELECT string_agg(no::text, ',' ORDER BY no) AS numbers FROM (
    SELECT no FROM bp_1 UNION ALL SELECT no FROM bp_2 UNION ALL SELECT no FROM bp_3 UNION ALL SELECT no FROM bp_4
    UNION ALL SELECT no FROM bp_5 UNION ALL SELECT no FROM bp_6 UNION ALL SELECT no FROM bp_7
    UNION ALL SELECT no FROM bp_8 UNION ALL SELECT no FROM bp_9 UNION ALL SELECT no FROM bp_10
    UNION ALL SELECT no FROM bp_11 UNION ALL SELECT no FROM bp_12 UNION ALL SELECT no FROM bp_13
    UNION ALL SELECT no FROM bp_14 UNION ALL SELECT no FROM bp_15 UNION ALL SELECT no FROM bp_16
    UNION ALL SELECT no FROM bp_17 UNION ALL SELECT no FROM bp_18 UNION ALL SELECT no FROM bp_19
    UNION ALL SELECT no FROM bp_20) s;
CREATE TABLE regress_counters.bp_nested (id int, k text, no bigint);
CREATE TRIGGER number_at_commit BEFORE INSERT ON bp_nested
    FOR EACH ROW EXECUTE FUNCTION idseq_counter_fill('bind_plans', 'k', 'no', 'commit');
CREATE FUNCTION regress_counters.bp_log() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO regress_counters.bp_nested VALUES (NEW.id, 'nested');
    RETURN NULL;
END $$;
CREATE TRIGGER log_number AFTER UPDATE ON bp_5 FOR EACH ROW EXECUTE FUNCTION regress_counters.bp_log();
BEGIN;
SET CONSTRAINTS ALL IMMEDIATE;
DO $$ BEGIN FOR i IN 1..20 LOOP EXECUTE format('INSERT INTO regress_counters.bp_%s VALUES (2, ''nested'')', i); END LOOP; END $$;
COMMIT;
SELECT (SELECT no FROM bp_5 WHERE id = 2) AS bp_5, (SELECT no FROM bp_nested) AS nested,
       idseq_counter_current('bind_plans', 'nested') AS current;
-- two columns of one table bound at commit, each by its own trigger and companion
CREATE TABLE regress_counters.bp_two (id int, k text, no bigint, yearly bigint);
CREATE TRIGGER number_at_commit BEFORE INSERT ON bp_two
    FOR EACH ROW EXECUTE FUNCTION idseq_counter_fill('bind_plans', 'k', 'no', 'commit');
CREATE TRIGGER yearly_at_commit BEFORE INSERT ON bp_two
    FOR EACH ROW EXECUTE FUNCTION idseq_counter_fill('invoice', 'k', 'yearly', 'commit');
SELECT count(*) FILTER (WHERE tgisinternal) AS companions FROM pg_trigger WHERE tgrelid = 'regress_counters.bp_two'::regclass;
INSERT INTO bp_two VALUES (1, 'two'), (2, 'two');
SELECT id, no, yearly FROM bp_two ORDER BY id;
DROP TABLE bp_two;
DO $$ BEGIN FOR i IN 1..20 LOOP EXECUTE format('DROP TABLE regress_counters.bp_%s', i); END LOOP; END $$;
DROP TABLE bp, bp_renamed, bp_nested;
DROP FUNCTION regress_counters.bp_log();
SELECT idseq_drop_counter('bind_plans');

-- partitioned tables: the trigger of the parent is cloned to each partition, now and later
-- (CREATE TABLE ... PARTITION OF, ATTACH PARTITION), and each clone gets its companion
CREATE TABLE regress_counters.parted (id int, company int, no bigint) PARTITION BY LIST (company);
CREATE TABLE regress_counters.parted_1 PARTITION OF parted FOR VALUES IN (1);
CREATE TRIGGER number_at_commit BEFORE INSERT ON parted
    FOR EACH ROW EXECUTE FUNCTION idseq_counter_fill('invoice', 'company', 'no', 'commit');
CREATE TABLE regress_counters.parted_2 PARTITION OF parted FOR VALUES IN (2);
CREATE TABLE regress_counters.parted_3 (id int, company int, no bigint);
ALTER TABLE parted ATTACH PARTITION parted_3 FOR VALUES IN (3);
SELECT tgrelid::regclass AS partition, count(*) FILTER (WHERE tgisinternal) AS companions
  FROM pg_trigger WHERE tgrelid IN ('parted_1'::regclass, 'parted_2'::regclass, 'parted_3'::regclass)
 GROUP BY 1 ORDER BY 1;
INSERT INTO parted VALUES (1, 1), (2, 2), (3, 1), (4, 3);
SELECT id, company, no FROM parted ORDER BY id;
DROP TRIGGER number_at_commit ON parted;
SELECT count(*) AS triggers_left FROM pg_trigger
 WHERE tgrelid IN ('parted_1'::regclass, 'parted_2'::regclass, 'parted_3'::regclass);
-- a row its table's owner may not update (row-level security forced on the owner) would get
-- no number: the bind fails rather than leave a gap; SET CONSTRAINTS ... IMMEDIATE binds at
-- the end of the statement instead of the commit
SET ROLE regress_counter_owner;
CREATE TABLE regress_counters.guarded (id int, company int, no bigint);
ALTER TABLE guarded ENABLE ROW LEVEL SECURITY;
ALTER TABLE guarded FORCE ROW LEVEL SECURITY;
CREATE POLICY may_insert ON guarded FOR INSERT WITH CHECK (true);
CREATE POLICY may_read ON guarded FOR SELECT USING (true);
CREATE TRIGGER number_at_commit BEFORE INSERT ON guarded
    FOR EACH ROW EXECUTE FUNCTION idseq_counter_fill('owned', 'company', 'no', 'commit');
BEGIN;
SET CONSTRAINTS ALL IMMEDIATE;
SELECT * FROM expect_error($$INSERT INTO regress_counters.guarded VALUES (1, 1)$$);
ROLLBACK;
CREATE POLICY may_update ON guarded FOR UPDATE USING (true);
BEGIN;
SET CONSTRAINTS ALL IMMEDIATE;
INSERT INTO guarded VALUES (2, 1);
SELECT id, no FROM guarded;  -- bound already
COMMIT;
RESET ROLE;
-- a trigger made while event triggers were off has no companion: the number is taken at
-- once (with a WARNING), never left NULL
CREATE TABLE regress_counters.no_companion (id int, company int, no bigint);
SET session_replication_role = replica;
ALTER EVENT TRIGGER idseq_counter_companions DISABLE;
CREATE TRIGGER number_at_commit BEFORE INSERT ON no_companion
    FOR EACH ROW EXECUTE FUNCTION idseq_counter_fill('invoice', 'company', 'no', 'commit');
ALTER EVENT TRIGGER idseq_counter_companions ENABLE ALWAYS;
RESET session_replication_role;
BEGIN;
INSERT INTO regress_counters.no_companion VALUES (1, 1);
SELECT id, no FROM regress_counters.no_companion;  -- numbered already, inside the transaction
COMMIT;
CREATE OR REPLACE TRIGGER number_at_commit BEFORE INSERT ON no_companion
    FOR EACH ROW EXECUTE FUNCTION idseq_counter_fill('invoice', 'company', 'no', 'commit');
BEGIN;
INSERT INTO regress_counters.no_companion VALUES (2, 1);
SELECT id, no FROM regress_counters.no_companion ORDER BY id;  -- the trigger made again binds at commit
COMMIT;
SELECT id, no FROM regress_counters.no_companion ORDER BY id;

-- ===== gaps: numbers not accounted for =====
SELECT * FROM idseq_counter_gaps('orders', '1', 'regress_counters.shop_order', 'no');
DELETE FROM shop_order WHERE tenant = 1 AND no = 1;
SELECT * FROM idseq_counter_gaps('orders', '1', 'regress_counters.shop_order', 'no') AS missing;
SELECT * FROM idseq_counter_gaps('invoice', '70', 'regress_counters.invoices', 'no') AS none_missing;
DELETE FROM invoices WHERE id = 1;
SELECT * FROM idseq_counter_gaps('invoice', '70', 'regress_counters.invoices', 'no') AS voided;
SELECT * FROM idseq_counter_gaps('invoice', '70', 'regress_counters.invoices', 'no', '1999') AS other_year;
-- without the trigger, the table must hold that key's numbers only: here key 72's number 1
-- stands for key 70's
DROP TRIGGER number_at_commit ON invoices;
SELECT count(*) AS triggers_left FROM pg_trigger WHERE tgrelid = 'regress_counters.invoices'::regclass;
SELECT * FROM idseq_counter_gaps('invoice', '70', 'regress_counters.invoices', 'no') AS without_trigger;
SELECT * FROM expect_error($$SELECT * FROM idseq_counter_gaps('invoice', '70', 'regress_counters.invoices', 'no', '26')$$);
SELECT * FROM expect_error($$SELECT * FROM idseq_counter_gaps('orders', '1', 'regress_counters.shop_order', 'no', '2026')$$);
SELECT * FROM expect_error($$SELECT * FROM idseq_counter_gaps('orders', '1', 'regress_counters.shop_order', 'nosuch')$$);
SELECT * FROM expect_error($$SELECT * FROM idseq_counter_gaps('orders', '1', 'regress_counters.bad_fill', 'd')$$);

-- ===== a publication FOR ALL TABLES includes the state table =====
SET client_min_messages = error;
CREATE PUBLICATION regress_counters_all FOR ALL TABLES;
RESET client_min_messages;
SELECT idseq_counter_next('invoice', 'published') AS gap_free_under_publication;
SELECT idseq_create_counter('published');
SELECT idseq_drop_counter('published');
DROP PUBLICATION regress_counters_all;

-- ===== dropping =====
SELECT * FROM expect_error($$SELECT idseq_drop_counter('nosuch')$$);
SELECT idseq_drop_counter('coded');
SELECT count(*) AS coded_left FROM idseq_counters WHERE name = 'coded';
SELECT to_regclass('regress_counters.coded_counter') AS coded_anchor;
SELECT * FROM expect_error($$SELECT idseq_counter_next('coded')$$);
-- the trigger of a dropped counter fails clearly
SELECT * FROM expect_error($$INSERT INTO regress_counters.shop_order (tenant) VALUES (3)$$);
DROP TRIGGER code_it ON shop_order;
-- DROP SEQUENCE of an anchor drops the counter; a new one of the same name starts afresh
DROP SEQUENCE regress_counters.daily_counter;
SELECT count(*) AS daily_left FROM idseq_counters WHERE name = 'daily';
SELECT idseq_create_counter('daily');
SELECT idseq_counter_next('daily', 'shop') AS starts_afresh;
SELECT idseq_drop_counter(name) FROM idseq_counters WHERE name IN ('orders', 'invoice', 'daily', 'monthly', 'owned')
 ORDER BY name;
SELECT count(*) AS counters_left FROM idseq_counters;
SELECT count(*) AS state_left FROM idseq_counter_state;

-- ===== clean up =====
RESET search_path;
DROP SCHEMA regress_counters CASCADE;
DROP ROLE regress_counter_owner, regress_counter_user, regress_counter_other;
