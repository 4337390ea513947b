-- Partitions by date: snowflake_create_partitions() and
-- snowflake_retire_partitions() create, name and retire the partitions of a table
-- partitioned BY RANGE on a snowflake id, by date, without the user computing an id.
\pset null '(null)'
\x off
-- A session whose time zone is far from UTC: steps and names are UTC days all the same.
SET TimeZone = 'Pacific/Auckland';
CREATE SCHEMA "Sales Data";
CREATE TABLE "Sales Data"."Ev ents" (id bigint NOT NULL, what text) PARTITION BY RANGE (id);
CREATE TABLE "Sales Data".ev_rest PARTITION OF "Sales Data"."Ev ents" DEFAULT;
CREATE TEMP VIEW parts AS
SELECT c.relname, n.nspname, pg_get_expr(c.relpartbound, c.oid) AS bound
  FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_namespace n ON n.oid = c.relnamespace
 WHERE i.inhparent = '"Sales Data"."Ev ents"'::regclass ORDER BY c.relname;

-- Three UTC days from a time in the middle of the first: the step grid starts at its midnight.
SELECT * FROM snowflake_create_partitions('"Sales Data"."Ev ents"', '2024-03-01 12:00+00', '2024-03-04 00:00+00');
-- the bounds are snowflake_min_id of each UTC midnight; the new tables are in the parent's schema
SELECT p.relname, p.nspname,
       p.bound = format('FOR VALUES FROM (''%s'') TO (''%s'')',
                        snowflake_min_id(d), snowflake_min_id(d + interval '1 day')) AS bound_is_min_id
  FROM parts p, LATERAL (SELECT substr(p.relname, 10, 8)::timestamp AT TIME ZONE 'UTC' AS d) x
 WHERE p.relname LIKE 'Ev ents_p%' ORDER BY 1;
-- idempotent: again, and again from a UTC session, creates nothing; an extended range only the new day
SELECT * FROM snowflake_create_partitions('"Sales Data"."Ev ents"', '2024-03-01 12:00+00', '2024-03-04 00:00+00');
SET TimeZone = 'UTC';
SELECT * FROM snowflake_create_partitions('"Sales Data"."Ev ents"', '2024-03-01', '2024-03-04');
SET TimeZone = 'Pacific/Auckland';
SELECT * FROM snowflake_create_partitions('"Sales Data"."Ev ents"', '2024-03-02 00:00+00', '2024-03-05 00:00+00');
-- an empty or reversed range creates nothing
SELECT * FROM snowflake_create_partitions('"Sales Data"."Ev ents"', '2024-03-09 00:00+00', '2024-03-09 00:00+00');
SELECT * FROM snowflake_create_partitions('"Sales Data"."Ev ents"', '2024-03-09 00:00+00', '2024-03-08 00:00+00');

-- Steps under a day are named with the UTC hour and minute; an overlapping step is refused.
SELECT * FROM snowflake_create_partitions('"Sales Data"."Ev ents"', '2024-03-05 00:00+00', '2024-03-05 18:00+00', '6 hours');
SELECT * FROM expect_error($$SELECT snowflake_create_partitions('"Sales Data"."Ev ents"', '2024-03-04 12:00+00', '2024-03-05 06:00+00', '12 hours')$$);
SELECT * FROM expect_error($$SELECT snowflake_create_partitions('"Sales Data"."Ev ents"', '2024-03-05 00:00+00', '2024-03-06 00:00+00')$$);

-- Rows waiting in the default partition: refused with the way out; moved, then created.
INSERT INTO "Sales Data"."Ev ents" VALUES (snowflake_min_id('2024-03-08 10:00+00'), 'early'),
                                          (snowflake_min_id('2024-03-20 10:00+00'), 'later');
SELECT * FROM expect_error($$SELECT snowflake_create_partitions('"Sales Data"."Ev ents"', '2024-03-06 00:00+00', '2024-03-10 00:00+00')$$);
SELECT relname FROM parts;  -- nothing was created by the refused call
CREATE TEMP TABLE held AS
WITH moved AS (DELETE FROM "Sales Data".ev_rest
                WHERE id >= snowflake_min_id('2024-03-06 00:00+00') AND id < snowflake_min_id('2024-03-10 00:00+00')
                RETURNING *)
SELECT * FROM moved;
SELECT * FROM snowflake_create_partitions('"Sales Data"."Ev ents"', '2024-03-06 00:00+00', '2024-03-10 00:00+00');
INSERT INTO "Sales Data"."Ev ents" SELECT * FROM held;
SELECT tableoid::regclass AS partition, what FROM "Sales Data"."Ev ents" ORDER BY id;

-- A query bounded by snowflake_min_id prunes at plan time.
EXPLAIN (COSTS OFF) SELECT * FROM "Sales Data"."Ev ents"
 WHERE id >= snowflake_min_id('2024-03-08 00:00+00') AND id < snowflake_min_id('2024-03-09 00:00+00');

-- Month steps: named by the first day; '3 months' are calendar quarters whatever the start.
CREATE TABLE monthly (id bigint PRIMARY KEY) PARTITION BY RANGE (id);
SELECT * FROM snowflake_create_partitions('monthly', '2024-11-15 00:00+00', '2025-02-01 00:00+00', '1 month');
SELECT * FROM snowflake_create_partitions('monthly', '2025-04-15 00:00+00', '2025-10-01 00:00+00', '3 months');
SELECT c.relname, pg_get_expr(c.relpartbound, c.oid) = format('FOR VALUES FROM (''%s'') TO (''%s'')',
           snowflake_min_id('2025-04-01 00:00+00'), snowflake_min_id('2025-07-01 00:00+00')) AS is_q2
  FROM pg_class c WHERE c.relname = 'monthly_p20250401';
-- a partition made by hand with exactly a step's bounds counts as created, whatever its name
CREATE TABLE monthly_october PARTITION OF monthly
    FOR VALUES FROM (snowflake_min_id('2025-10-01 00:00+00')) TO (snowflake_min_id('2025-11-01 00:00+00'));
SELECT * FROM snowflake_create_partitions('monthly', '2025-10-01 00:00+00', '2025-12-01 00:00+00', '1 month');

-- The layout's epoch and end of time: the step holding the epoch starts at id 0, the step
-- holding the last representable time ends at MAXVALUE; a step with no id at all is refused.
CREATE TABLE edges (id bigint NOT NULL) PARTITION BY RANGE (id);
SELECT epoch, last_time FROM snowflake_layouts WHERE name = 'instagram';
SELECT * FROM snowflake_create_partitions('edges', '2011-08-24 00:00+00', '2011-08-26 00:00+00', layout => 'instagram');
SELECT * FROM snowflake_create_partitions('edges', '2046-06-27 00:00+00', '2046-06-28 00:00+00', layout => 'instagram');
SELECT c.relname, pg_get_expr(c.relpartbound, c.oid) FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
 WHERE i.inhparent = 'edges'::regclass ORDER BY 1;
SELECT * FROM expect_error($$SELECT snowflake_create_partitions('edges', '2046-06-27 00:00+00', '2046-06-28 12:00+00', layout => 'instagram')$$);
SELECT * FROM expect_error($$SELECT snowflake_create_partitions('edges', '2011-08-23 00:00+00', '2011-08-24 00:00+00', layout => 'instagram')$$);
-- refused before creating anything: a range a whole step past the end, an infinite one
SELECT * FROM expect_error($$SELECT snowflake_create_partitions('edges', '2046-06-20 00:00+00', '2100-01-01 00:00+00', layout => 'instagram')$$);
SELECT e.state, e.message FROM expect_error($$SELECT snowflake_create_partitions('edges', '2046-06-20 00:00+00', 'infinity', layout => 'instagram')$$) e;
SELECT e.state, e.message FROM expect_error($$SELECT snowflake_create_partitions('edges', '-infinity', '2046-06-20 00:00+00', layout => 'instagram')$$) e;

-- A parent whose name leaves no room for the suffix: cut between characters to NAMEDATALEN.
CREATE TABLE "ééééééééééééééééééééééééééééé" (id bigint NOT NULL) PARTITION BY RANGE (id);
SELECT octet_length(relname) FROM pg_class WHERE relname LIKE 'ééé%';
SELECT * FROM snowflake_create_partitions('"ééééééééééééééééééééééééééééé"', '2024-01-01 00:00+00', '2024-01-01 02:00+00', '1 hour');
SELECT relname, octet_length(relname) FROM pg_class WHERE relname LIKE 'ééé%' ORDER BY 1;

-- Retiring by date: detach every partition whose ids all precede the time, oldest first;
-- with drop, drop them. The default partition and later partitions stay.
SELECT * FROM snowflake_retire_partitions('"Sales Data"."Ev ents"', '2024-03-03 12:00+00');
SELECT relname FROM parts;
SELECT count(*) AS detached_tables_kept FROM pg_class WHERE relname IN ('Ev ents_p20240301', 'Ev ents_p20240302');
SELECT * FROM snowflake_retire_partitions('"Sales Data"."Ev ents"', '2024-03-05 06:00+00', drop => true);
SELECT count(*) AS dropped_tables_left FROM pg_class WHERE relname IN ('Ev ents_p20240303', 'Ev ents_p20240304', 'Ev ents_p20240305_0000');
SELECT * FROM snowflake_retire_partitions('"Sales Data"."Ev ents"', '2024-03-05 06:00+00');
-- a time after the layout's end retires every partition with a finite upper bound
SELECT * FROM snowflake_retire_partitions('edges', '2100-01-01', true, 'instagram');

-- Rights. The partitions belong to the parent's owner, whoever calls (a superuser, a member
-- of the owner's role), and every statement on the table runs as the owner in a
-- security-restricted operation: the owner's code that runs meanwhile (here an index
-- expression that PostgreSQL folds while it makes a new partition's index) runs as the
-- owner, and cannot RESET ROLE to the caller's.
CREATE ROLE regress_idseq_part_owner;
CREATE ROLE regress_idseq_part_member IN ROLE regress_idseq_part_owner;
CREATE ROLE regress_idseq_part_squatter;
CREATE SCHEMA regress_part AUTHORIZATION regress_idseq_part_owner;
GRANT USAGE, CREATE ON SCHEMA regress_part TO regress_idseq_part_squatter;
SET ROLE regress_idseq_part_owner;
CREATE FUNCTION regress_part.try_reset() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    RESET ROLE;
    RAISE NOTICE 'k(): RESET ROLE worked';
EXCEPTION WHEN OTHERS THEN
    RAISE NOTICE 'k(): % %', SQLSTATE, SQLERRM;
END $$;
CREATE FUNCTION regress_part.k() RETURNS bigint LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
    PERFORM regress_part.try_reset();
    RAISE NOTICE 'k() runs as the owner: %', current_user = 'regress_idseq_part_owner';
    RETURN 0;
END $$;
CREATE TABLE regress_part.t (id bigint NOT NULL) PARTITION BY RANGE (id);
CREATE INDEX t_k ON regress_part.t ((id + regress_part.k()));
RESET ROLE;
SELECT * FROM snowflake_create_partitions('regress_part.t', '2024-01-01 00:00+00', '2024-01-02 00:00+00');
SET ROLE regress_idseq_part_member;
SELECT * FROM snowflake_create_partitions('regress_part.t', '2024-01-02 00:00+00', '2024-01-03 00:00+00');
RESET ROLE;
SELECT c.relname, c.relkind, c.relowner::regrole AS owner FROM pg_class c
 WHERE c.relnamespace = 'regress_part'::regnamespace ORDER BY 1;
-- the statements run through idseq_sf_partition_as_owner: as the owner, restricted, and the
-- settings they change are discarded; a role without the owner's privileges may not use it
SELECT idseq_sf_partition_as_owner('regress_part.t', $$SELECT WHERE current_user = 'regress_idseq_part_owner'$$) AS as_owner;
SELECT idseq_sf_partition_as_owner('regress_part.t', $$SELECT set_config('work_mem', '1234kB', false)$$) AS rows,
       current_setting('work_mem') = '1234kB' AS setting_kept;
SELECT * FROM expect_error($$SELECT idseq_sf_partition_as_owner('regress_part.t', 'CREATE TEMP TABLE regress_tmp (a int)')$$);
SET ROLE regress_idseq_part_squatter;
SELECT * FROM expect_error($$SELECT idseq_sf_partition_as_owner('regress_part.t', 'DROP TABLE regress_part.t')$$);
SELECT * FROM expect_error($$SELECT snowflake_create_partitions('regress_part.t', '2024-01-03 00:00+00', '2024-01-04 00:00+00')$$);
RESET ROLE;
-- an owner without CREATE on the schema gets no partition, even from a superuser
CREATE SCHEMA regress_part_closed;
GRANT USAGE ON SCHEMA regress_part_closed TO regress_idseq_part_owner;
CREATE TABLE regress_part_closed.t (id bigint NOT NULL) PARTITION BY RANGE (id);
ALTER TABLE regress_part_closed.t OWNER TO regress_idseq_part_owner;
SELECT * FROM expect_error($$SELECT snowflake_create_partitions('regress_part_closed.t', '2024-01-01 00:00+00', '2024-01-02 00:00+00')$$);
SELECT count(*) AS partitions_made FROM pg_inherits WHERE inhparent = 'regress_part_closed.t'::regclass;
-- retiring drops only what the owner could drop: a partition that a member of the owner's
-- role made by hand in a schema of its own is detached, then refused with the rest (one
-- transaction), until the owner owns it
CREATE SCHEMA regress_part_member AUTHORIZATION regress_idseq_part_member;
GRANT USAGE ON SCHEMA regress_part_member TO regress_idseq_part_owner;
SET ROLE regress_idseq_part_member;
CREATE TABLE regress_part_member.by_hand PARTITION OF regress_part.t FOR VALUES FROM (0) TO (1);
RESET ROLE;
SELECT * FROM expect_error($$SELECT snowflake_retire_partitions('regress_part.t', '2024-01-02 00:00+00', true)$$);
ALTER TABLE regress_part_member.by_hand OWNER TO regress_idseq_part_owner;
SELECT * FROM snowflake_retire_partitions('regress_part.t', '2024-01-02 00:00+00', true);
SELECT relname FROM pg_class WHERE relnamespace IN ('regress_part'::regnamespace, 'regress_part_member'::regnamespace)
   AND relkind = 'r' ORDER BY 1;

-- a temporary parent (this session's alone): its partitions are temporary and the owner's too
SET ROLE regress_idseq_part_owner;
CREATE TEMP TABLE regress_part_temp (id bigint NOT NULL) PARTITION BY RANGE (id);
RESET ROLE;
SELECT count(*) AS made FROM snowflake_create_partitions('regress_part_temp', '2024-01-01 00:00+00', '2024-01-03 00:00+00');
SELECT c.relname, c.relpersistence, c.relowner::regrole AS owner FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
 WHERE i.inhparent = 'regress_part_temp'::regclass ORDER BY 1;
SELECT count(*) AS retired FROM snowflake_retire_partitions('regress_part_temp', '2100-01-01 00:00+00', true);
DROP TABLE regress_part_temp;

-- Names taken in the schema: a table another role made under a future partition's name, a
-- type, and two parents whose names are cut to the same 63 bytes. Each partition is created
-- all the same, under the first free name with _1, _2, ... appended, with a warning; the
-- holders of the names are left alone, and a second call recognises the partitions by their
-- bounds.
\set SHOW_CONTEXT never
SET ROLE regress_idseq_part_owner;
CREATE TABLE regress_part.sq (id bigint NOT NULL) PARTITION BY RANGE (id);
RESET ROLE;
SET ROLE regress_idseq_part_squatter;
CREATE TABLE regress_part.sq_p20240102 (squat text);
CREATE TABLE regress_part.sq_p20240102_1 (squat text);
CREATE TYPE regress_part.sq_p20240103 AS ENUM ('squat');
RESET ROLE;
SELECT * FROM snowflake_create_partitions('regress_part.sq', '2024-01-01 00:00+00', '2024-01-04 00:00+00');
SELECT * FROM snowflake_create_partitions('regress_part.sq', '2024-01-01 00:00+00', '2024-01-04 00:00+00');
SELECT c.relname, c.relowner::regrole AS owner, i.inhparent::regclass AS partition_of,
       pg_get_expr(c.relpartbound, c.oid) = format('FOR VALUES FROM (''%s'') TO (''%s'')',
           snowflake_min_id(d), snowflake_min_id(d + interval '1 day')) AS bound_is_its_day
  FROM pg_class c LEFT JOIN pg_inherits i ON i.inhrelid = c.oid,
       LATERAL (SELECT substr(c.relname, 5, 8)::timestamp AT TIME ZONE 'UTC' AS d) x
 WHERE c.relnamespace = 'regress_part'::regnamespace AND c.relname LIKE 'sq\_p%' AND c.relkind = 'r'
 ORDER BY 1;
SELECT typname, typowner::regrole AS owner FROM pg_type WHERE typnamespace = 'regress_part'::regnamespace AND typtype = 'e';
SELECT repeat('n', 55) || '_one' AS long_one, repeat('n', 55) || '_two' AS long_two \gset
SET ROLE regress_idseq_part_owner;
CREATE TABLE regress_part.:"long_one" (id bigint NOT NULL) PARTITION BY RANGE (id);
CREATE TABLE regress_part.:"long_two" (id bigint NOT NULL) PARTITION BY RANGE (id);
RESET ROLE;
SELECT * FROM snowflake_create_partitions(format('regress_part.%I', :'long_one'), '2024-01-01 00:00+00', '2024-01-03 00:00+00');
SELECT * FROM snowflake_create_partitions(format('regress_part.%I', :'long_two'), '2024-01-01 00:00+00', '2024-01-03 00:00+00');
SELECT * FROM snowflake_create_partitions(format('regress_part.%I', :'long_two'), '2024-01-01 00:00+00', '2024-01-03 00:00+00');
SELECT right(i.inhparent::regclass::text, 4) AS parent, c.relname, octet_length(c.relname) AS bytes
  FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
 WHERE i.inhparent IN (format('regress_part.%I', :'long_one')::regclass, format('regress_part.%I', :'long_two')::regclass)
 ORDER BY 1, 2;
\unset SHOW_CONTEXT
SET client_min_messages = warning;
DROP SCHEMA regress_part, regress_part_closed, regress_part_member CASCADE;
RESET client_min_messages;
DROP ROLE regress_idseq_part_owner, regress_idseq_part_member, regress_idseq_part_squatter;

-- Errors.
CREATE TABLE plain (id bigint);
CREATE TABLE by_list (id bigint) PARTITION BY LIST (id);
CREATE TABLE by_text (id text) PARTITION BY RANGE (id);
CREATE TABLE by_two (id bigint, k bigint) PARTITION BY RANGE (id, k);
CREATE TABLE by_expr (id bigint) PARTITION BY RANGE ((id + 1));
SELECT t, e.state, e.message FROM unnest(ARRAY['plain', 'by_list', 'by_text', 'by_two', 'by_expr']) t,
       LATERAL expect_error(format($$SELECT snowflake_create_partitions(%L, '2024-01-01', '2024-01-02')$$, t)) e;
SELECT * FROM expect_error($$SELECT snowflake_retire_partitions('plain', '2024-01-01')$$);
SELECT s, e.state, e.message, e.detail FROM unnest(ARRAY['0', '-1 day', '1 month 1 day', '90 seconds']) s,
       LATERAL expect_error(format($$SELECT snowflake_create_partitions('monthly', '2026-01-01', '2026-02-01', %L)$$, s)) e;
-- a step that is not a whole number of the layout's time units
SELECT snowflake_create_layout('sevens', '2020-01-01', 'time:41,node:10,seq:12', '7 milliseconds');
SELECT * FROM expect_error($$SELECT snowflake_create_partitions('monthly', '2026-01-01', '2026-01-02', '1 day', 'sevens')$$);
-- units that do not start at midnight UTC: a day's bound would cut a unit (and the step
-- holding the epoch would hold no id of its own); refused before anything is created
SELECT snowflake_create_layout('day_at_19', '1970-01-01 00:00:00+05', 'time:20,seq:20', '1 day');
SELECT snowflake_create_layout('sec_late', '1999-12-31 23:59:59.999999+00', 'time:40,seq:20', '1 second');
CREATE TABLE misaligned (id bigint NOT NULL) PARTITION BY RANGE (id);
SELECT l, e.* FROM unnest(ARRAY['day_at_19', 'sec_late']) l,
       LATERAL expect_error(format($$SELECT snowflake_create_partitions('misaligned', '1969-12-31 00:00+00', '1970-01-03 00:00+00', '1 day', %L)$$, l)) e;
SELECT count(*) AS partitions_made FROM pg_inherits WHERE inhparent = 'misaligned'::regclass;
DROP TABLE misaligned;
-- a layout whose ids do not order by time, an unknown layout
SELECT snowflake_create_layout('node_first', '2020-01-01', 'node:10,time:41,seq:12');
SELECT * FROM expect_error($$SELECT snowflake_create_partitions('monthly', '2026-01-01', '2026-01-02', '1 day', 'node_first')$$);
SELECT e.state, e.message FROM expect_error($$SELECT snowflake_create_partitions('monthly', '2026-01-01', '2026-01-02', '1 day', 'nope')$$) e;
-- null arguments are errors, not an empty result
SELECT * FROM expect_error($$SELECT snowflake_create_partitions('monthly', NULL, '2026-01-02')$$);
SELECT * FROM expect_error($$SELECT snowflake_retire_partitions('monthly', NULL)$$);
-- only the table's owner (or a member of its role)
CREATE ROLE regress_idseq_part_other;
SET ROLE regress_idseq_part_other;
SELECT * FROM expect_error($$SELECT snowflake_create_partitions('monthly', '2026-01-01', '2026-01-02')$$);
SELECT * FROM expect_error($$SELECT snowflake_retire_partitions('monthly', '2100-01-01')$$);
RESET ROLE;
DROP ROLE regress_idseq_part_other;

DROP TABLE monthly, edges, plain, by_list, by_text, by_two, by_expr, "ééééééééééééééééééééééééééééé";
DROP SCHEMA "Sales Data" CASCADE;
RESET TimeZone;
