-- Snowflake ids: layouts, pack/unpack, the generator and its settings
SET TimeZone = 'UTC';
SET DateStyle = 'ISO';
SET IntervalStyle = 'postgres';
\x off

-- ===== the built-in layouts =====
SELECT name, epoch, fields, time_unit, time_bits, node_bits, seq_bits, rand_bits, last_time, builtin
  FROM snowflake_layouts ORDER BY builtin DESC, name;

-- ===== pack / unpack =====
-- the display-id article: storage id 11093174944930914 in display60 (4 zero bits, time 42, seq 9, rand 9)
SELECT * FROM snowflake_unpack(11093174944930914, 'display60');
SELECT snowflake_pack('display60', '2019-07-03 18:45:04.129+00', seq => 270, rand => 98);
-- the nonsequential-keys article: (t << 23) + (node << 13) + rand, t in ms since its moved epoch
SELECT snowflake_pack('nonsequential', '2012-09-18 00:11:56.156+00', 1, rand => 1) AS packed,
       ((1347927116156 - 1346472000000) << 23) + (1 << 13) + 1 AS by_hand;
-- Instagram's published example: shard 1341, sequence 5001 % 1024
SELECT snowflake_pack('instagram', timestamptz '2011-08-24 21:07:01.721+00' + interval '1387263000 ms', 1341, 5001 % 1024);
-- Twitter's layout by hand: (ms since its epoch) << 22 | node << 12 | seq
SELECT snowflake_pack('snowflake', '2024-02-29 12:34:56.789+00', 1023, 4095) AS packed,
       (((extract(epoch FROM timestamptz '2024-02-29 12:34:56.789+00') * 1000)::bigint - 1288834974657) << 22)
         | (1023 << 12) | 4095 AS by_hand;
-- sonyflake: time in 10 ms units, seq before node; ts is floored to its unit
SELECT snowflake_pack('sonyflake', '2024-01-01 00:00:00.019+00', 65535, 255) AS packed,
       (((extract(epoch FROM timestamptz '2024-01-01 00:00:00+00') * 100)::bigint - 140952960000 + 1) << 24)
         | (255 << 16) | 65535 AS by_hand;
SELECT * FROM snowflake_unpack(snowflake_pack('sonyflake', '2024-01-01 00:00:00.019+00', 65535, 255), 'sonyflake');
-- defaults: node, seq and rand are 0; the layout defaults to snowflake
SELECT snowflake_pack('snowflake', '2010-11-04 01:42:54.658+00'), snowflake_timestamp(4194304),
       snowflake_timestamp(4194304, 'snowflake');
SELECT * FROM snowflake_unpack(4194304);

-- exact round trips over every layout: unpack(pack(x)) = x, up to the flooring of ts to its
-- time unit, and pack(unpack(id)) = id
SELECT l.name, count(*) AS ids,
       bool_and(u.ts <= t.ts AND t.ts < u.ts + l.time_unit) AS ts_floored,
       bool_and(u.node = t.node AND u.seq = t.seq AND u.rand = t.rand) AS fields_back,
       bool_and(snowflake_pack(l.name, u.ts, u.node, u.seq, u.rand) = t.id) AS repacks
  FROM snowflake_layouts l,
       LATERAL (SELECT g, l.epoch + (g * 7919 % 300000) * interval '1 hour 1.234567 s' AS ts,
                       CASE WHEN l.node_bits > 0 THEN (g * 31) % (1 << l.node_bits) ELSE 0 END AS node,
                       CASE WHEN l.seq_bits > 0 THEN (g * 17) % (1 << l.seq_bits) ELSE 0 END AS seq,
                       CASE WHEN l.rand_bits > 0 THEN (g * 13) % (1 << l.rand_bits) ELSE 0 END AS rand
                  FROM generate_series(1, 2000) g) t0,
       LATERAL (SELECT t0.*, snowflake_pack(l.name, t0.ts, t0.node, t0.seq, t0.rand) AS id) t,
       LATERAL snowflake_unpack(t.id, l.name) u
 WHERE l.builtin
 GROUP BY l.name ORDER BY l.name;

-- ids sort by time first: min_id is the smallest id of a time unit, for range scans
SELECT snowflake_min_id('2024-05-01 00:00:00+00') AS min_id,
       snowflake_pack('snowflake', '2024-05-01 00:00:00+00', 0, 0) AS same,
       snowflake_pack('snowflake', '2024-04-30 23:59:59.999+00', 1023, 4095) < snowflake_min_id('2024-05-01') AS below;
SELECT snowflake_min_id('2024-05-01 00:00:00.009999+00', 'sonyflake') = snowflake_min_id('2024-05-01', 'sonyflake')
           AS same_unit,
       snowflake_min_id('2024-05-01 00:00:00.01+00', 'sonyflake') > snowflake_min_id('2024-05-01', 'sonyflake')
           AS next_unit;

-- ===== boundaries: the epoch, the last representable time, every field at its maximum =====
SELECT l.name,
       snowflake_pack(l.name, l.epoch) AS at_epoch,
       snowflake_pack(l.name, l.last_time,
                      (1 << l.node_bits) - 1, (1 << l.seq_bits) - 1, (1 << l.rand_bits) - 1) AS all_max,
       snowflake_timestamp(snowflake_pack(l.name, l.last_time), l.name) AS last_unit_start
  FROM snowflake_layouts l WHERE l.builtin ORDER BY l.name;
SELECT * FROM snowflake_unpack(9223372036854775807);
SELECT * FROM snowflake_unpack(1152921504606846975, 'display60');
SELECT * FROM snowflake_unpack(0, 'sonyflake');
-- a set-returning function: in FROM, in the select list, cut short by LIMIT and rescanned
SELECT x, (SELECT snowflake_unpack(x << 22) LIMIT 1) AS first_row, (SELECT count(*) FROM snowflake_unpack(x)) AS n
  FROM generate_series(1, 3) x;

\set VERBOSITY verbose
-- before the epoch, after the last time, infinities: 22003 naming the range
SELECT * FROM expect_error($$SELECT snowflake_pack('snowflake', '2010-11-04 01:42:54.656999+00')$$);
SELECT * FROM expect_error($$SELECT snowflake_pack('snowflake', '2080-07-10 17:30:30.209+00')$$);
SELECT * FROM expect_error($$SELECT snowflake_pack('instagram', 'infinity')$$);
SELECT * FROM expect_error($$SELECT snowflake_min_id('-infinity')$$);
SELECT * FROM expect_error($$SELECT snowflake_min_id('2000-01-01', 'display60')$$);
-- a field that does not fit, or that the layout lacks: 22003 naming the field and its range
SELECT * FROM expect_error($$SELECT snowflake_pack('snowflake', now(), 1024)$$);
SELECT * FROM expect_error($$SELECT snowflake_pack('snowflake', now(), -1)$$);
SELECT * FROM expect_error($$SELECT snowflake_pack('snowflake', now(), 0, 4096)$$);
SELECT * FROM expect_error($$SELECT snowflake_pack('sonyflake', now(), 65536)$$);
SELECT * FROM expect_error($$SELECT snowflake_pack('display60', now(), 0, 0, 512)$$);
SELECT * FROM expect_error($$SELECT snowflake_pack('display60', now(), 1)$$);
SELECT * FROM expect_error($$SELECT snowflake_pack('snowflake', now(), rand => 1)$$);
SELECT * FROM expect_error($$SELECT snowflake_pack('nonsequential', now(), seq => 1)$$);
-- ids outside a layout: negative, or bits above its fields
SELECT * FROM expect_error($$SELECT * FROM snowflake_unpack(-1)$$);
SELECT * FROM expect_error($$SELECT snowflake_timestamp(-9223372036854775808, 'sonyflake')$$);
SELECT * FROM expect_error($$SELECT * FROM snowflake_unpack(1152921504606846976, 'display60')$$);
-- unknown layouts list the known ones
SELECT * FROM expect_error($$SELECT snowflake_pack('twitter', now())$$);
SELECT * FROM expect_error($$SELECT snowflake_timestamp(1, '')$$);
-- NULL in, NULL out (STRICT)
SELECT snowflake_pack('snowflake', NULL) IS NULL AS a, snowflake_timestamp(NULL) IS NULL AS b,
       snowflake_min_id(now(), NULL) IS NULL AS c, (SELECT count(*) FROM snowflake_unpack(NULL)) AS d;

-- ===== custom layouts =====
SELECT snowflake_create_layout('orders', '2024-01-01 00:00:00+00', ' time : 40 , node:6, seq:17 ');
SELECT snowflake_create_layout('per_second', '2020-01-01 00:00:00+00', 'time:32,rand:20,node:11', '1 second');
SELECT snowflake_create_layout('days', '2000-01-01 00:00:00+00', 'time:62,seq:1', '1 day');
SELECT snowflake_create_layout('a_very_long_layout_name_that_takes_all_of_sixty_three_character',
                               '2024-01-01 00:00:00+00', 'time:50,seq:13', '10 microseconds');
SELECT name, epoch, fields, time_unit, time_bits, node_bits, seq_bits, rand_bits, last_time, builtin
  FROM snowflake_layouts WHERE NOT builtin ORDER BY name;
SELECT name, state_seq, last_id_seq FROM idseq_layout_registry ORDER BY name;
SELECT snowflake_pack('orders', '2024-06-01 12:00:00.123456+00', 63, 131071) AS id,
       ((extract(epoch FROM timestamptz '2024-06-01 12:00:00.123+00' - '2024-01-01') * 1000)::bigint << 23)
         | (63 << 17) | 131071 AS by_hand;
SELECT * FROM snowflake_unpack(snowflake_pack('orders', '2024-06-01 12:00:00.123456+00', 63, 131071), 'orders');
SELECT * FROM snowflake_unpack(snowflake_pack('per_second', '2024-06-01 12:00:00.9+00', 2047, rand => 1048575),
                               'per_second');
SELECT snowflake_timestamp(snowflake_pack('days', '2024-06-01 12:00:00+00'), 'days');
-- a layout whose time field outlasts int64 microseconds: its last time is where they end (294247-01-10)
SELECT * FROM expect_error($$SELECT snowflake_pack('days', 'infinity')$$);
SELECT * FROM expect_error($$SELECT snowflake_timestamp(9223372036854775807, 'days')$$);

-- bad definitions: 22023 naming the problem, 42710 for a name in use, 22004 for NULL
SELECT * FROM expect_error($$SELECT snowflake_create_layout('orders', '2020-01-01', 'time:41,seq:22')$$);
SELECT * FROM expect_error($$SELECT snowflake_create_layout('snowflake', '2020-01-01', 'time:41,seq:22')$$);
SELECT * FROM expect_error($$SELECT snowflake_create_layout('Bad', '2020-01-01', 'time:41')$$);
SELECT * FROM expect_error($$SELECT snowflake_create_layout('', '2020-01-01', 'time:41')$$);
SELECT * FROM expect_error($$SELECT snowflake_create_layout(repeat('x', 64), '2020-01-01', 'time:41')$$);
SELECT * FROM expect_error($$SELECT snowflake_create_layout('x', '2020-01-01', 'time:41,node:11,seq:12')$$);
SELECT * FROM expect_error($$SELECT snowflake_create_layout('x', '2020-01-01', 'node:10,seq:12')$$);
SELECT * FROM expect_error($$SELECT snowflake_create_layout('x', '2020-01-01', 'time:41,shard:10')$$);
SELECT * FROM expect_error($$SELECT snowflake_create_layout('x', '2020-01-01', 'time:41,seq:4,seq:2')$$);
SELECT * FROM expect_error($$SELECT snowflake_create_layout('x', '2020-01-01', 'time:0,seq:4')$$);
SELECT * FROM expect_error($$SELECT snowflake_create_layout('x', '2020-01-01', 'time:41;seq:4')$$);
SELECT * FROM expect_error($$SELECT snowflake_create_layout('x', '2020-01-01', '')$$);
SELECT * FROM expect_error($$SELECT snowflake_create_layout('x', '2020-01-01', 'time:20,rand:32')$$);
SELECT * FROM expect_error($$SELECT snowflake_create_layout('x', '2020-01-01', 'time:41', '1 month')$$);
SELECT * FROM expect_error($$SELECT snowflake_create_layout('x', '2020-01-01', 'time:41', '0')$$);
SELECT * FROM expect_error($$SELECT snowflake_create_layout('x', '2020-01-01', 'time:41', '-1 ms')$$);
SELECT * FROM expect_error($$SELECT snowflake_create_layout('x', 'infinity', 'time:41')$$);
SELECT * FROM expect_error($$SELECT snowflake_create_layout('x', '2020-01-01', NULL)$$);
SELECT * FROM expect_error($$SELECT snowflake_create_layout('x', '2020-01-01', 'time:41', NULL)$$);
-- the registry checks rows written behind the function's back too
SELECT * FROM expect_error($$INSERT INTO idseq_layout_registry VALUES ('y', '2020-01-01', 'time:41,rand:3,rand:1', '1 ms', 'idseq_sf_state_orders', 'idseq_sf_last_orders')$$);
SELECT * FROM expect_error($$INSERT INTO idseq_layout_registry VALUES ('y', '2020-01-01', 'time : 41', '1 ms', 'idseq_sf_state_orders', 'idseq_sf_last_orders')$$);
-- layouts are final: no update, no delete
SELECT * FROM expect_error($$UPDATE idseq_layout_registry SET fields = 'time:40,node:6,seq:16' WHERE name = 'orders'$$);
SELECT * FROM expect_error($$DELETE FROM idseq_layout_registry WHERE name = 'orders'$$);
-- a layout created in a rolled-back transaction is gone, and so are its sequences
BEGIN;
SELECT snowflake_create_layout('short_lived', '2020-01-01', 'time:41,seq:10');
SELECT snowflake_pack('short_lived', '2020-01-01 00:00:00.001+00', seq => 5);
ROLLBACK;
SELECT * FROM expect_error($$SELECT snowflake_pack('short_lived', '2020-01-01')$$);
SELECT count(*) FROM pg_class WHERE relname LIKE 'idseq_sf_%short_lived';
\set VERBOSITY default

-- ===== the generator =====
-- These cases pass on any server, whatever its node id, preloaded or not, and change none of
-- its settings: they use layouts without a node field. The node id's cases, which need a
-- server setting, run on clusters of their own in t/040_node_id.pl.
-- display60 has no node field: it needs no node id
SELECT count(*) AS ids, count(DISTINCT id) AS distinct_ids, bool_and(id > prev) AS increasing,
       bool_and(ts BETWEEN now() - interval '1 minute' AND clock_timestamp() + interval '1 minute') AS ts_now
  FROM (SELECT id, lag(id, 1, -1::bigint) OVER (ORDER BY g) AS prev, snowflake_timestamp(id, 'display60') AS ts
          FROM (SELECT g, snowflake_nextval('display60') AS id FROM generate_series(1, 5000) g) s) t;
-- no session can set the node id: it is a server setting (55P02), and the test clock is
-- superuser-only
\set VERBOSITY verbose
SELECT * FROM expect_error($$SET idseq.node_id = 1$$);
SELECT * FROM expect_error($$SELECT set_config('idseq.node_id', '1', false)$$);
SELECT * FROM expect_error($$SET idseq.snowflake_lease_ms = 10$$);
SELECT * FROM expect_error($$SET idseq.snowflake_max_ahead_ms = 1000$$);
CREATE ROLE regress_idseq_snowflake;
SET ROLE regress_idseq_snowflake;
SELECT * FROM expect_error($$SET idseq.test_clock_offset_ms = -3600000$$);
\set VERBOSITY default
-- (fails: only superusers run ALTER SYSTEM, so the server's configuration is untouched)
ALTER SYSTEM SET idseq.node_id = 5;
\echo :LAST_ERROR_SQLSTATE
\set VERBOSITY verbose
RESET ROLE;
-- unknown settings under idseq. are refused
SELECT * FROM expect_error($$SET idseq.no_such_setting = 1$$);
\set VERBOSITY default
-- the settings (their values are the server's, so not shown; idseq.snowflake_max_layouts
-- exists only with preload, see t/041_snowflake_slots.pl)
SELECT name, unit, context, vartype, min_val, max_val, boot_val
  FROM pg_settings WHERE name LIKE 'idseq.%' AND name <> 'idseq.snowflake_max_layouts' ORDER BY name;

-- unique and increasing in every layout without a node field, the embedded time is the clock's
SELECT l.name, count(*) AS ids, count(DISTINCT t.id) = count(*) AS all_distinct, bool_and(t.id > t.prev) AS increasing,
       bool_and(u.node = 0) AS node_ok,
       bool_and(u.ts BETWEEN now() - interval '1 minute' AND clock_timestamp() + interval '2 seconds') AS ts_now
  FROM snowflake_layouts l,
       LATERAL (SELECT id, lag(id, 1, -1::bigint) OVER (ORDER BY g) AS prev
                  FROM (SELECT g, snowflake_nextval(l.name) AS id FROM generate_series(1, 20000) g) s) t,
       LATERAL snowflake_unpack(t.id, l.name) u
 WHERE l.node_bits = 0 AND l.name <> 'days'
 GROUP BY l.name ORDER BY l.name;
-- a unit's seq space is spent: the generator moves to the next unit (512 ids per ms here)
SELECT max(u.seq) <= 511 AS seq_in_range, count(DISTINCT u.ts) >= 3 AS spans_units
  FROM (SELECT snowflake_nextval('display60') AS id FROM generate_series(1, 1537)) s,
       LATERAL snowflake_unpack(s.id, 'display60') u;
-- two ids a second, a unit longer than the lease: three ids increase, the third in a later
-- second. (Not a day's unit: the suite's next run on the same server, in a new database, takes
-- over the layout's claim above the server's fence, a unit ahead, and would wait for the next
-- day; t/037_snowflake_long_units.pl draws ids of minutes, hours and days.)
SELECT snowflake_create_layout('two_a_second', '2000-01-01 00:00:00+00', 'time:40,seq:1', '1 second');
SELECT bool_and(id > prev) AS increasing, max(u.seq) <= 1 AS seq_in_range, count(DISTINCT u.ts) >= 2 AS spans_units
  FROM (SELECT id, lag(id, 1, -1::bigint) OVER (ORDER BY g) AS prev
          FROM (SELECT g, snowflake_nextval('two_a_second') AS id FROM generate_series(1, 3) g) s) t,
       LATERAL snowflake_unpack(t.id, 'two_a_second') u;

-- the durable high-water mark: a time unit at or ahead of every id issued
CREATE TEMP TABLE last_issued AS SELECT snowflake_nextval('display60') AS id;
SELECT (SELECT last_value FROM idseq_sf_state_display60) >= (SELECT id >> 18 FROM last_issued) AS mark_covers_ids;
DROP TABLE last_issued;

-- the clock stepped back an hour (test setting, superuser only): no waiting, no repeat
SET client_min_messages = error; -- the warning's text names times that vary
CREATE TEMP TABLE before_step AS SELECT snowflake_nextval('display60') AS id;
SET idseq.test_clock_offset_ms = '-1h';
SELECT count(*) AS ids, bool_and(id > prev) AS increasing, min(prev) = (SELECT id FROM before_step) AS after_last,
       max(snowflake_timestamp(id, 'display60')) > clock_timestamp() - interval '30 minutes' AS time_kept
  FROM (SELECT id, lag(id, 1, (SELECT id FROM before_step)) OVER (ORDER BY g) AS prev
          FROM (SELECT g, snowflake_nextval('display60') AS id FROM generate_series(1, 20000) g) s) t;
RESET idseq.test_clock_offset_ms;
RESET client_min_messages;

-- any user may draw ids (the extension's sequences need no grants), nobody else's node
GRANT SELECT ON before_step TO regress_idseq_snowflake;
SET ROLE regress_idseq_snowflake;
SELECT snowflake_nextval('display60') > (SELECT id FROM before_step) AS works,
       snowflake_pack('orders', '2024-06-01') > 0 AS custom_pack_works;
\set VERBOSITY verbose
SELECT * FROM expect_error($$SELECT setval('idseq_sf_state_snowflake', 1)$$);
SELECT * FROM expect_error($$SELECT snowflake_create_layout('mine', '2020-01-01', 'time:41')$$);
\set VERBOSITY default
RESET ROLE;
DROP TABLE before_step;
DROP ROLE regress_idseq_snowflake;

-- read-only transactions cannot draw ids (like nextval)
BEGIN READ ONLY;
\set VERBOSITY verbose
SELECT * FROM expect_error($$SELECT snowflake_nextval()$$);
\set VERBOSITY default
ROLLBACK;

-- ===== labels =====
SELECT p.proname, pg_get_function_identity_arguments(p.oid) AS args, p.provolatile, p.proparallel, p.proisstrict
  FROM pg_proc p JOIN pg_depend d ON d.objid = p.oid AND d.classid = 'pg_proc'::regclass AND d.deptype = 'e'
  JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'idseq'
 WHERE p.proname LIKE '%snowflake%' ORDER BY p.proname, args;

\x auto
