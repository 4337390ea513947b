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
-- 1. the declared exceptions, by name, each with its labels and its reason;
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
-- The exceptions are declared beside each function's CREATE ("--@ labels: ... because ..."
-- in src/sql/), and tools/sqlgen writes them into sql/include/label_exceptions.sql when the
-- extension is built: the labels declared there, not the ones of the CREATE, are what the
-- installed functions are held to. Not echoed, so that a new exception changes no output.
\set ECHO none
\ir sql/include/label_exceptions.sql
\set ECHO all
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
