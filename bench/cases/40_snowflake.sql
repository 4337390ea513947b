-- Snowflake ids: the generator beside nextval, pack/unpack beside the same arithmetic written
-- in SQL. The cluster has idseq in shared_preload_libraries and idseq.node_id = 1, so these
-- are the shared-memory path; 41_snowflake_pgbench.sh measures the path without preload.
--
-- The built-in snowflake layout holds 4096 ids per millisecond per node: drawn flat out in
-- one statement it waits for the clock, so its figure is that limit (about 244 ns per id),
-- not the generator's cost. bench_wide (seq:20, a million ids per millisecond) shows the cost.
SET client_min_messages = warning;
SELECT snowflake_create_layout('bench_wide', '2020-01-01 00:00:00+00', 'time:41,node:2,seq:20')
 WHERE NOT EXISTS (SELECT FROM snowflake_layouts WHERE name = 'bench_wide');
CREATE SEQUENCE bench.sf_seq;                   -- CACHE 1, the default
RESET client_min_messages;

SELECT bench.compare('snowflake', 'snowflake_nextval(''bench_wide'') [shared memory]',
                     $$snowflake_nextval('bench_wide')$$,
                     'nextval (CACHE 1)', $$nextval('bench.sf_seq')$$, 2000000);
SELECT bench.compare('snowflake', 'snowflake_nextval() [4096 ids/ms: clock-bound]', $$snowflake_nextval()$$,
                     'nextval (CACHE 1)', $$nextval('bench.sf_seq')$$, 2000000);
SELECT bench.compare('snowflake', 'snowflake_nextval(''nonsequential'')', $$snowflake_nextval('nonsequential')$$,
                     'nextval (CACHE 1)', $$nextval('bench.sf_seq')$$, 2000000);

-- The built-in time-ordered ids users compare with: gen_random_uuid() (13+) and, from
-- PostgreSQL 18, uuidv7() (48 bits of ms, a 12-bit sub-ms fraction, random bits; 128 bits).
-- Not a like-for-like pair (uuids are twice as wide and need no node id), but the choice
-- users weigh: their cost per id beside snowflake_nextval's.
SELECT bench.compare('snowflake', 'snowflake_nextval() [4096 ids/ms: clock-bound]', $$snowflake_nextval()$$,
                     'gen_random_uuid()', $$gen_random_uuid()$$, 1000000);
SELECT current_setting('server_version_num')::int >= 180000 AS has_uuidv7 \gset
\if :has_uuidv7
SELECT bench.compare('snowflake', 'snowflake_nextval(''bench_wide'') [shared memory]',
                     $$snowflake_nextval('bench_wide')$$, 'uuidv7() (PostgreSQL 18)', $$uuidv7()$$, 1000000);
SELECT bench.compare('snowflake', 'snowflake_nextval() [4096 ids/ms: clock-bound]', $$snowflake_nextval()$$,
                     'uuidv7() (PostgreSQL 18)', $$uuidv7()$$, 1000000);
\endif

-- pack, unpack, timestamp, min_id beside the expressions one writes by hand for the
-- snowflake layout (41 time bits in ms since 1288834974657, 10 node bits, 12 seq bits)
SELECT bench.compare('snowflake', 'snowflake_pack(snowflake, ts, node, seq)',
                     $$snowflake_pack('snowflake', timestamptz '2024-01-01' + g * interval '1 ms', 5, g & 4095)$$,
                     'SQL arithmetic',
                     $$(((extract(epoch FROM timestamptz '2024-01-01' + g * interval '1 ms') * 1000)::int8
                         - 1288834974657) << 22) | (5 << 12) | (g & 4095)$$, 1000000);
SELECT bench.compare('snowflake', 'snowflake_timestamp(id)',
                     $$snowflake_timestamp(1785459115422646272 + (g::int8 << 22))$$,
                     'to_timestamp(SQL arithmetic)',
                     $$to_timestamp((((1785459115422646272 + (g::int8 << 22)) >> 22) + 1288834974657) / 1000.0)$$,
                     1000000);
SELECT bench.compare('snowflake', 'snowflake_min_id(ts)',
                     $$snowflake_min_id(timestamptz '2024-01-01' + g * interval '1 ms')$$,
                     'SQL arithmetic',
                     $$((extract(epoch FROM timestamptz '2024-01-01' + g * interval '1 ms') * 1000)::int8
                        - 1288834974657) << 22$$, 1000000);
-- a set-returning function of one row, beside PostgreSQL's own in the same subquery
SELECT bench.compare('snowflake', 'snowflake_unpack(id) (one row of four fields)',
                     $$(SELECT u FROM snowflake_unpack(1785459115422646272 + (g::int8 << 12)) u)$$,
                     'generate_series(x, x) (one row)',
                     $$(SELECT u FROM generate_series(1785459115422646272 + (g::int8 << 12),
                                                      1785459115422646272 + (g::int8 << 12)) u)$$, 1000000);
