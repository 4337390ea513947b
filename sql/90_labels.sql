-- Honest labels (issue 6): every function, operator,
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

SELECT proname, args, prokind AS kind, provolatile AS vol, proparallel AS par, proisstrict AS strict,
       prosecdef AS secdef, proleakproof AS leakproof, lanname AS lang
  FROM ext_functions ORDER BY proname, args;

-- The review. The generators, which change state (sequences, registries, the snowflake
-- high-water mark), must be VOLATILE and PARALLEL UNSAFE:
SELECT proname, args, provolatile AS vol, proparallel AS par, proisstrict AS strict, lanname AS lang
  FROM ext_functions
 WHERE proname IN ('nextval_lexid', 'lexid_block', 'nextval_code', 'create_code_sequence',
                   'idseq_create_charset', 'snowflake_create_layout', 'snowflake_nextval')
 ORDER BY proname, args;
-- Everything else is a pure function of its arguments (charsets and layouts cannot be
-- redefined, so a name always means the same symbols or fields): IMMUTABLE STRICT PARALLEL
-- SAFE. Listed here are the exceptions, each with its reason below.
SELECT proname, args, prokind AS kind, provolatile AS vol, proparallel AS par, proisstrict AS strict,
       result
  FROM ext_functions
 WHERE proname NOT IN ('nextval_lexid', 'lexid_block', 'nextval_code', 'create_code_sequence',
                       'idseq_create_charset', 'snowflake_create_layout', 'snowflake_nextval')
   AND NOT (provolatile = 'i' AND proparallel = 's' AND proisstrict)
 ORDER BY proname, args;
-- - min(lexid), max(lexid): aggregates, never strict themselves; their transition function
--   (lexid_smaller, lexid_larger) is IMMUTABLE STRICT PARALLEL SAFE and they are PARALLEL SAFE
--   with a combine function.
-- - lexid_min_as_written, lexid_max_as_written: the aggregates the planner calls for min and
--   max of values without a charset; PARALLEL SAFE, with combine, serialization and
--   deserialization functions. Their transition and combine functions
--   (lexid_smaller_as_written, lexid_larger_as_written, lexid_as_written_combine) start from
--   a NULL internal state, so they are not STRICT; IMMUTABLE PARALLEL SAFE.
-- - idseq_builtin_charsets(), idseq_snowflake_builtin_layouts(): no arguments, so STRICT
--   means nothing; constant tables, IMMUTABLE PARALLEL SAFE.
-- - idseq_charset_registry_dedup(), idseq_layout_registry_replica(): trigger functions.
-- - idseq_lexid_column_guard(): an event trigger function (refuses stored lexid without a
--   charset).
-- - idseq_sequence_step_guard(): an event trigger function (before ALTER SEQUENCE makes
--   INCREMENT smaller, moves the sequence on past the last lexid_block).
-- - lexid_typmod_in: runs when a type name lexid(...) is parsed; the self-describing
--   lexid(name, 'symbols') that pg_dump writes may register the charset (an INSERT), so it
--   is VOLATILE PARALLEL UNSAFE. In a read-only transaction it still accepts a charset that
--   is registered, and refuses (25006) to register a new one.

-- LEAKPROOF (may run before a row-level security or security-barrier filter): the equality,
-- ordering and hash support of lexid, so that indexes stay usable under row-level security.
-- They raise an error only when two values of different charsets meet (42804, naming the
-- two charsets), when an untyped literal of the query does not spell a value of the other
-- side's charset (22P02), when a value refers to a charset missing from the registry, or
-- when a stored digit is not a digit of its charset (XX001, a damaged value).
SELECT proname, args FROM ext_functions WHERE proleakproof ORDER BY proname;

-- No function runs with its owner's rights, and only the PL/pgSQL ones pin a search_path.
-- The SQL ones (lexid LIKE text) must not, so that the planner inlines them: they name
-- every object with its schema.
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
