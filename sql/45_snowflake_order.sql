-- Field orders. The generator fills time with the clock, node with a
-- constant, seq with a counter restarted every unit and rand with random bits (without seq:
-- a counter started at a random offset), so its ids increase only when time comes before
-- seq and rand and seq before rand; node may go anywhere. snowflake_create_layout refuses
-- every other order with a hint naming one that works; a layout created before 1.2 in such
-- an order still packs and unpacks, but snowflake_nextval refuses it.

-- Every order of every field set that has time: 49 definitions, 16 accepted.
CREATE TEMP TABLE orders AS
WITH RECURSIVE f(name, width) AS (VALUES ('time', 20), ('node', 3), ('seq', 2), ('rand', 2)),
perm(spec, used, n) AS (
    SELECT f.name || ':' || f.width, ARRAY[f.name], 1 FROM f
    UNION ALL
    SELECT p.spec || ',' || f.name || ':' || f.width, p.used || f.name, p.n + 1
      FROM perm p JOIN f ON f.name <> ALL (p.used)
)
SELECT row_number() OVER (ORDER BY n, spec) AS k, spec FROM perm WHERE 'time' = ANY (used);
SELECT count(*) AS definitions FROM orders;

SELECT o.spec, e.state, e.hint
  FROM orders o,
       LATERAL expect_error(format('SELECT snowflake_create_layout(%L, %L, %L)', 'ord_' || o.k, '2020-01-01', o.spec)) e
 ORDER BY o.k;
SELECT count(*) AS accepted FROM snowflake_layouts WHERE name LIKE 'ord\_%';

-- The issue's two examples, in full.
SELECT * FROM expect_error($$SELECT snowflake_create_layout('seqfirst', '2010-11-04 01:42:54.657+00', 'seq:12,time:41,node:10')$$);
SELECT * FROM expect_error($$SELECT snowflake_create_layout('randmid', '2010-11-04 01:42:54.657+00', 'time:41,node:10,rand:4,seq:8')$$);

-- A layout registered before 1.2 in an order that cannot increase (the registry's CHECK still
-- takes it, so that old dumps restore): it packs and unpacks, and issues no id.
CREATE SEQUENCE idseq_sf_state_legacy MINVALUE -1 START -1;
CREATE UNLOGGED SEQUENCE idseq_sf_last_legacy MINVALUE -1 START -1;
INSERT INTO idseq_layout_registry VALUES ('legacy', '2020-01-01', 'seq:12,time:41', '1 millisecond',
                                          'idseq_sf_state_legacy', 'idseq_sf_last_legacy');
SELECT u.* FROM snowflake_unpack(snowflake_pack('legacy', '2024-01-01', 0, 77), 'legacy') u;
SELECT * FROM expect_error($$SELECT snowflake_nextval('legacy')$$);
