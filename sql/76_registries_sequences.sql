-- Borders of the registries: sequences a layout row takes over, twins of a
-- layout, temporary code sequences and rows of missing sequences.
SET TimeZone = 'UTC';
\set VERBOSITY default
CREATE ROLE regress_border_other;

-- A layout row's sequences, taken over by the registry, keep only the documented privileges:
-- all for their owner, SELECT and UPDATE for the database's owner. Grants made before the
-- takeover (here to PUBLIC and to a role, with grant option) are revoked.
CREATE SEQUENCE idseq_sf_state_taken MINVALUE -1 START -1;
CREATE UNLOGGED SEQUENCE idseq_sf_last_taken MINVALUE -1 START -1;
GRANT UPDATE ON idseq_sf_state_taken, idseq_sf_last_taken TO PUBLIC;
GRANT ALL ON idseq_sf_state_taken TO regress_border_other WITH GRANT OPTION;
INSERT INTO idseq_layout_registry
    VALUES ('taken', '2020-01-01+00', 'time:41,seq:12', '1 millisecond', 'idseq_sf_state_taken', 'idseq_sf_last_taken');
SELECT c.relname,
       CASE WHEN a.grantee = 0 THEN 'PUBLIC' WHEN a.grantee = c.relowner THEN 'owner' ELSE a.grantee::regrole::text END
           AS grantee,
       string_agg(a.privilege_type || CASE WHEN a.is_grantable THEN '*' ELSE '' END, ', ' ORDER BY a.privilege_type)
           AS privileges
  FROM pg_class c, LATERAL aclexplode(c.relacl) a
 WHERE c.relname IN ('idseq_sf_state_taken', 'idseq_sf_last_taken')
 GROUP BY 1, 2 ORDER BY 1, 2;
SELECT has_sequence_privilege('regress_border_other', 'idseq_sf_state_taken', 'UPDATE') AS other_may_update,
       has_sequence_privilege('public', 'idseq_sf_last_taken', 'UPDATE') AS public_may_update;
SELECT snowflake_nextval('taken') > 0 AS generates;

-- State sequences that cannot hold a mark are refused when the row is inserted: too small
-- a MAXVALUE (with CYCLE), descending, integer, a MINVALUE above -1.
CREATE UNLOGGED SEQUENCE idseq_sf_last_shape MINVALUE -1 START -1;
CREATE SEQUENCE idseq_sf_state_shape1 MINVALUE -1 MAXVALUE 10 START -1 CYCLE;
CREATE SEQUENCE idseq_sf_state_shape2 INCREMENT -1 MINVALUE -100 MAXVALUE 9223372036854775807 START -1;
CREATE SEQUENCE idseq_sf_state_shape3 AS integer MINVALUE -1 START -1;
CREATE SEQUENCE idseq_sf_state_shape4 MINVALUE 0 START 0;
SELECT s, (expect_error(format($$INSERT INTO idseq_layout_registry
                                 VALUES ('shape', '2020-01-01+00', 'time:41,seq:12', '1 ms', %L, 'idseq_sf_last_shape')$$, s))).*
  FROM unnest(ARRAY['idseq_sf_state_shape1', 'idseq_sf_state_shape2', 'idseq_sf_state_shape3',
                    'idseq_sf_state_shape4']) s;
-- the last-id sequence too
CREATE SEQUENCE idseq_sf_state_shape5 MINVALUE -1 START -1;
CREATE UNLOGGED SEQUENCE idseq_sf_last_shape5 MINVALUE -1 MAXVALUE 10 START -1 CYCLE;
SELECT * FROM expect_error($$INSERT INTO idseq_layout_registry
                             VALUES ('shape', '2020-01-01+00', 'time:41,seq:12', '1 ms', 'idseq_sf_state_shape5', 'idseq_sf_last_shape5')$$);
SELECT count(*) AS shape_layouts FROM idseq_layout_registry WHERE name = 'shape';

-- A twin of a layout (same epoch, fields and time unit under another name) would issue the
-- same ids as that layout on one node: snowflake_create_layout refuses it, naming the layout.
SELECT * FROM expect_error($$SELECT snowflake_create_layout('snowflake_v2', '2010-11-04 01:42:54.657+00', 'time:41,node:10,seq:12')$$);
SELECT * FROM expect_error($$SELECT snowflake_create_layout('taken_v2', '2020-01-01 00:00:00+00', ' time:41, seq:12 ', '1000 microseconds')$$);
-- another epoch, unit or field list is another layout
SELECT snowflake_create_layout('snowflake_later', '2010-11-04 01:42:54.658+00', 'time:41,node:10,seq:12');
SELECT snowflake_create_layout('taken_seconds', '2020-01-01 00:00:00+00', 'time:41,seq:12', '1 second');
-- a registry row is not refused (a restore of a database that has twins, made before 1.3)
CREATE SEQUENCE idseq_sf_state_twin_row MINVALUE -1 START -1;
CREATE UNLOGGED SEQUENCE idseq_sf_last_twin_row MINVALUE -1 START -1;
INSERT INTO idseq_layout_registry
    VALUES ('twin_row', '2020-01-01+00', 'time:41,seq:12', '1 millisecond', 'idseq_sf_state_twin_row', 'idseq_sf_last_twin_row');
SELECT name FROM snowflake_layouts WHERE name IN ('taken', 'twin_row', 'snowflake_later', 'taken_seconds') ORDER BY name;

-- A temporary code sequence's charset is not recorded (its row would outlive it as a bare
-- OID: session end, DISCARD TEMP and ON COMMIT DROP fire no sql_drop event); rows naming a
-- temporary sequence or a relation that does not exist are skipped, so that a restore of an
-- older dump that carries such a row keeps every other row.
SELECT create_code_sequence('pg_temp.border_scratch', 3, 'hex');
SELECT count(*) AS temp_rows FROM idseq_code_sequences WHERE seq = 'pg_temp.border_scratch'::regclass;
SELECT nextval_code('pg_temp.border_scratch', 'hex') AS code_with_charset;
INSERT INTO idseq_code_sequences VALUES ('pg_temp.border_scratch', 'hex');
CREATE SEQUENCE border_desk MINVALUE 0 MAXVALUE 99 START 0 CYCLE;
INSERT INTO idseq_code_sequences VALUES (4000000000::oid::regclass, 'hex'), ('border_desk', 'digits');
SELECT seq, charset FROM idseq_code_sequences WHERE seq::oid IN (4000000000, 'border_desk'::regclass, 'pg_temp.border_scratch'::regclass);
-- a row of a sequence that is not there any more is left out of dumps (the extension's filter)
SELECT (SELECT c FROM pg_extension e, unnest(e.extconfig, e.extcondition) AS u(t, c)
         WHERE e.extname = 'idseq' AND t = 'idseq_code_sequences'::regclass) LIKE 'WHERE EXISTS%' AS code_filter;
DROP SEQUENCE border_desk;
-- the takeover left the role no privilege to drop first
DROP ROLE regress_border_other;
