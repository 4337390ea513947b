-- Honest labels: every function, operator,
-- operator class and cast of the extension with the properties the planner trusts.
-- Volatility: i = IMMUTABLE, s = STABLE, v = VOLATILE; parallel: s = SAFE, r = RESTRICTED,
-- u = UNSAFE; kind: f = function, a = aggregate.
\pset null '(null)'
\x off
CREATE TEMP VIEW ext_functions AS
SELECT p.oid, p.proname, pg_get_function_identity_arguments(p.oid) AS args,
       pg_get_function_result(p.oid) AS result, p.prokind, p.provolatile, p.proparallel,
       p.proisstrict, p.prosecdef, p.proleakproof, l.lanname, p.proretset, p.proconfig
  FROM pg_proc p
  JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
  JOIN pg_extension e ON e.oid = d.refobjid AND d.refclassid = 'pg_extension'::regclass
  JOIN pg_language l ON l.oid = p.prolang
 WHERE e.extname = 'idseq';

-- The rules. Every function of the extension gets the labels of the first rule that covers it,
-- and the test fails on any function whose labels differ (an empty result is the pass):
-- 1. the exceptions below, by name, each with its labels and its reason;
-- 2. trigger and event trigger functions: VOLATILE PARALLEL UNSAFE, not STRICT;
-- 3. aggregates: IMMUTABLE PARALLEL SAFE (never strict themselves; their support functions
--    follow the rules of functions);
-- 4. everything else is a pure function of its arguments (charsets and layouts cannot be
--    redefined, so a name always means the same symbols or fields): IMMUTABLE STRICT
--    PARALLEL SAFE.
-- A new function with PostgreSQL's default labels (VOLATILE PARALLEL UNSAFE, not STRICT)
-- therefore fails here until it is labelled, or listed below with its reason.
CREATE TEMP TABLE label_exceptions (proname name PRIMARY KEY, vol "char", par "char", strict boolean,
                                    reason text NOT NULL);
INSERT INTO label_exceptions VALUES
    -- the generators change state (sequences, registries, the snowflake high-water mark)
    ('nextval_lexid', 'v', 'u', true, 'generator: draws from a sequence'),
    ('lexid_block', 'v', 'u', true, 'generator: draws a block from a sequence'),
    ('nextval_block', 'v', 'u', true, 'generator: moves a sequence past a block, as nextval moves it'),
    ('nextval_code', 'v', 'u', false, 'generator: draws from a sequence; a NULL charset means the sequence''s own'),
    ('create_code_sequence', 'v', 'u', true, 'generator: creates a sequence'),
    ('idseq_create_charset', 'v', 'u', false, 'registers a charset; case_insensitive may be NULL (default)'),
    ('snowflake_create_layout', 'v', 'u', false, 'registers a layout and its state sequences; time_unit may be NULL'),
    ('snowflake_nextval', 'v', 'u', true, 'generator: raises the snowflake high-water mark'),
    ('idseq_uuidv7', 'v', 'u', true,
     'generator: raises the high-water mark of its own layout, which no parallel worker may write'),
    ('idseq_layout_sequence_privileges', 'v', 'u', false,
     'sets the privileges of a layout''s adopted sequences (REVOKE and GRANT)'),
    ('idseq_node_id', 's', 's', false, 'reads the node-id settings, which a reload changes; no arguments'),
    ('idseq_snowflake_fence_init', 'v', 'u', true,
     'creates the server''s snowflake fence (a replication origin) and raises it at commit'),
    ('idseq_layout_guard', 'v', 'u', false,
     'creates or checks a layout''s guard sequence (install, upgrade and the adopting trigger)'),
    ('lexid_typmod_in', 'v', 'u', true,
     'the self-describing lexid(name, ''symbols'') that pg_dump writes may register the charset (an INSERT); '
     'in a read-only transaction it accepts a registered charset and refuses (25006) to register one'),
    ('idseq_builtin_charsets', 'i', 's', false, 'no arguments, so STRICT means nothing; a constant table'),
    ('idseq_snowflake_builtin_layouts', 'i', 's', false, 'no arguments, so STRICT means nothing; a constant table'),
    ('lexid_smaller_as_written', 'i', 's', false,
     'transition function of lexid_min_as_written: its internal state starts NULL'),
    ('lexid_larger_as_written', 'i', 's', false,
     'transition function of lexid_max_as_written: its internal state starts NULL'),
    ('lexid_as_written_combine', 'i', 's', false,
     'combine function of lexid_min_as_written and lexid_max_as_written: either state may be NULL'),
    -- partitions by date: DDL on the caller's table; not STRICT, so that a NULL argument is an
    -- error (22004) rather than a silent empty result
    ('snowflake_create_partitions', 'v', 'u', false, 'DDL: creates partitions'),
    ('snowflake_retire_partitions', 'v', 'u', false, 'DDL: detaches or drops partitions'),
    ('idseq_sf_partition_parent', 'v', 'u', false, 'locks the parent of snowflake_create_partitions'),
    ('idseq_sf_partition_list', 'v', 'u', false, 'reads the catalogs as they are now (after the lock)'),
    ('idseq_sf_partition_as_owner', 'v', 'u', true, 'runs a statement (partition DDL) as the owner of a table'),
    -- bounds of time predicates that read the session's TimeZone, as the comparisons they
    -- bound do (date with timestamptz, timestamptz::date, date_trunc)
    ('idseq_compare_as_timestamptz', 's', 's', true, 'a date or timestamp in the session''s TimeZone'),
    ('idseq_snowflake_date_lower_id', 's', 's', true, 'dates in the session''s TimeZone'),
    ('idseq_snowflake_date_upper_id', 's', 's', true, 'dates in the session''s TimeZone'),
    ('idseq_snowflake_trunc_lower_id', 's', 's', false,
     'date_trunc in the session''s TimeZone; a NULL zone means that TimeZone'),
    ('idseq_snowflake_trunc_upper_id', 's', 's', false,
     'date_trunc in the session''s TimeZone; a NULL zone means that TimeZone'),
    ('idseq_snowflake_date_exact', 's', 's', true, 'dates in the session''s TimeZone'),
    ('idseq_snowflake_trunc_exact', 's', 's', false,
     'date_trunc in the session''s TimeZone; a NULL zone means that TimeZone'),
    -- named keys (1.3): the management functions write (or, export, read) the key registry and
    -- are not STRICT, so that a NULL name is an error (22004); the public id functions read it
    ('idseq_create_key', 'v', 'u', false, 'writes the key registry'),
    ('idseq_import_key', 'v', 'u', false, 'writes the key registry'),
    ('idseq_drop_key', 'v', 'u', false, 'writes the key registry'),
    ('idseq_grant_key', 'v', 'u', false, 'writes the key registry'),
    ('idseq_revoke_key', 'v', 'u', false, 'writes the key registry'),
    ('idseq_export_key', 's', 's', false, 'reads the key registry'),
    ('idseq_key_registry_pending', 'v', 'u', false,
     'no arguments; the bytes of the key this backend is inserting at the moment, an error at any other time'),
    ('idseq_public_id', 's', 's', true, 'reads the key registry (a key may be dropped or re-created)'),
    ('idseq_from_public_id', 's', 's', true, 'reads the key registry'),
    ('idseq_try_from_public_id', 's', 's', true, 'reads the key registry'),
    -- counters per key (1.3): not STRICT, so that a NULL name or key is an error (22004)
    ('idseq_create_counter', 'v', 'u', false, 'creates a counter and its anchor sequence; period may be NULL'),
    ('idseq_drop_counter', 'v', 'u', false, 'drops a counter and its anchor sequence'),
    ('idseq_counter_next', 'v', 'u', false, 'generator: takes a number of a key'),
    ('idseq_counter_next_text', 'v', 'u', false, 'generator: takes a number of a key'),
    ('idseq_counter_block', 'v', 'u', false, 'generator: takes a block of numbers of a key'),
    ('idseq_counter_set', 'v', 'u', false, 'raises a key''s last number'),
    ('idseq_counter_current', 'v', 'r', false,
     'reads a key''s last number, which moves within a statement (as currval), with a new snapshot'),
    ('idseq_counter_format', 's', 's', false, 'reads the counter''s definition; a NULL key is an error (22004)'),
    ('idseq_counter_render', 's', 's', false, 'reads the counter''s definition; period NULL means none'),
    ('idseq_counter_gaps', 's', 'r', false, 'reads the counter''s state and a table; NULL arguments are an error');
CREATE TEMP VIEW label_rules AS
SELECT f.proname, f.args, f.prokind, f.provolatile, f.proparallel, f.proisstrict,
       coalesce(x.vol, CASE WHEN f.result IN ('trigger', 'event_trigger') THEN 'v' ELSE 'i' END::"char") AS want_vol,
       coalesce(x.par, CASE WHEN f.result IN ('trigger', 'event_trigger') THEN 'u' ELSE 's' END::"char") AS want_par,
       coalesce(x.strict, f.result NOT IN ('trigger', 'event_trigger') AND f.prokind <> 'a') AS want_strict,
       CASE WHEN x.proname IS NOT NULL THEN 'exception: ' || x.reason
            WHEN f.result IN ('trigger', 'event_trigger') THEN 'trigger function'
            WHEN f.prokind = 'a' THEN 'aggregate'
            ELSE 'pure function' END AS rule
  FROM ext_functions f LEFT JOIN label_exceptions x ON x.proname = f.proname;

-- every function is covered (the view has one row per function), and not a handful by mistake
SELECT count(*) >= 100 AS many_functions_checked, count(*) = (SELECT count(*) FROM ext_functions) AS each_once
  FROM label_rules;
-- functions whose labels break their rule: none
SELECT proname, args, rule, provolatile AS vol, want_vol, proparallel AS par, want_par,
       proisstrict AS strict, want_strict
  FROM label_rules
 WHERE (provolatile, proparallel, proisstrict) IS DISTINCT FROM (want_vol, want_par, want_strict)
 ORDER BY proname, args;
-- exceptions that name no function of the extension (left behind by a rename or removal): none
SELECT x.proname FROM label_exceptions x
 WHERE NOT EXISTS (SELECT FROM ext_functions f WHERE f.proname = x.proname);
-- Every aggregate has a combine function (so that it runs in parallel), and its support
-- functions are the extension's own (so the rules above cover them).
SELECT a.aggfnoid::regprocedure AS aggregate
  FROM pg_aggregate a JOIN ext_functions f ON f.oid = a.aggfnoid
 WHERE a.aggcombinefn = 0
    OR EXISTS (SELECT FROM unnest(ARRAY[a.aggtransfn, a.aggfinalfn, a.aggcombinefn, a.aggserialfn,
                                         a.aggdeserialfn]::oid[]) fn
                WHERE fn <> 0 AND NOT EXISTS (SELECT FROM ext_functions g WHERE g.oid = fn));

-- LEAKPROOF (may run before a row-level security or security-barrier filter): the equality,
-- ordering and hash support of lexid, so that indexes stay usable under row-level security.
-- They raise an error only when two values of different charsets meet (42804, naming the
-- two charsets), when an untyped literal of the query does not spell a value of the other
-- side's charset (22P02), when a value refers to a charset missing from the registry, or
-- when a stored digit is not a digit of its charset (XX001, a damaged value).
SELECT proname, args FROM ext_functions WHERE proleakproof ORDER BY proname;

-- Which functions run with their owner's rights (the two SECURITY DEFINER trigger functions,
-- listed with what reaches them in 85_security) and which pin a search_path (the PL/pgSQL
-- ones, and snowflake_create_layout). The SQL ones (lexid LIKE text, the partition bound)
-- must not, so that the planner inlines them: they name every object with its schema.
SELECT proname, prosecdef, lanname, proconfig FROM ext_functions
 WHERE prosecdef OR proconfig IS NOT NULL OR lanname NOT IN ('c', 'internal')
 ORDER BY proname;

-- Operators: commutator, negator, estimators, merge and hash support.
SELECT o.oprname AS op, format_type(o.oprleft, NULL) AS lhs, format_type(o.oprright, NULL) AS rhs,
       format_type(o.oprresult, NULL) AS result, o.oprcode::regprocedure AS function,
       o.oprcom::regoperator AS commutator, o.oprnegate::regoperator AS negator,
       o.oprrest AS restrict, o.oprjoin AS join, o.oprcanmerge AS merges, o.oprcanhash AS hashes
  FROM pg_operator o
  JOIN pg_depend d ON d.classid = 'pg_operator'::regclass AND d.objid = o.oid AND d.deptype = 'e'
  JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'idseq'
 ORDER BY o.oprname, lhs, rhs;
-- each comparison operator's commutator and negator point back at it
SELECT o.oprname, c.oprcom = o.oid AS commutator_symmetric, n.oprnegate = o.oid AS negator_symmetric
  FROM pg_operator o
  JOIN pg_depend d ON d.classid = 'pg_operator'::regclass AND d.objid = o.oid AND d.deptype = 'e'
  JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'idseq'
  LEFT JOIN pg_operator c ON c.oid = o.oprcom
  LEFT JOIN pg_operator n ON n.oid = o.oprnegate
 WHERE o.oprresult = 'boolean'::regtype
 ORDER BY o.oprname, o.oprleft::regtype::text, o.oprright::regtype::text;

-- Operator classes and their members.
SELECT am.amname AS method, opc.opcname AS opclass, format_type(opc.opcintype, NULL) AS type,
       opc.opcdefault AS is_default
  FROM pg_opclass opc JOIN pg_am am ON am.oid = opc.opcmethod
  JOIN pg_depend d ON d.classid = 'pg_opclass'::regclass AND d.objid = opc.oid AND d.deptype = 'e'
  JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'idseq'
 ORDER BY 1, 2;
SELECT am.amname AS method, 'operator ' || ao.amopstrategy AS member, ao.amopopr::regoperator::text AS what
  FROM pg_amop ao JOIN pg_opfamily f ON f.oid = ao.amopfamily JOIN pg_am am ON am.oid = f.opfmethod
 WHERE f.opfname IN ('lexid_ops', 'lexid_hash_ops')
UNION ALL
SELECT am.amname, 'function ' || ap.amprocnum, ap.amproc::regprocedure::text
  FROM pg_amproc ap JOIN pg_opfamily f ON f.oid = ap.amprocfamily JOIN pg_am am ON am.oid = f.opfmethod
 WHERE f.opfname IN ('lexid_ops', 'lexid_hash_ops')
 ORDER BY 1, 2;

-- Casts and the type.
SELECT format_type(c.castsource, NULL) AS source, format_type(c.casttarget, NULL) AS target,
       c.castfunc::regprocedure AS function, c.castcontext AS context
  FROM pg_cast c
  JOIN pg_depend d ON d.classid = 'pg_cast'::regclass AND d.objid = c.oid AND d.deptype = 'e'
  JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'idseq'
 ORDER BY 1, 2;
SELECT t.typname, t.typlen, t.typalign, t.typstorage, t.typcategory, t.typinput, t.typoutput,
       t.typreceive, t.typsend, t.typmodin, t.typmodout, t.typcollation <> 0 AS collatable
  FROM pg_type t WHERE t.typname = 'lexid';
