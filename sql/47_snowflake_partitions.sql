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
