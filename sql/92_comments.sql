-- Descriptions: every user-facing object of the extension has a
-- COMMENT, so \df+, \do+, \dT+, \dv+ and \dC+ explain it. The query lists every member of
-- the extension that lacks a description and is not exempt by one of the rules below;
-- it must return no rows. A new object shows up here until it gets its description (a
-- "--@ comment:" line above its CREATE in src/sql/; the install script and the 1.2 -> 1.3
-- upgrade both run the COMMENT ON statements tools/sqlgen writes from them).
--
-- Exempt, by rule (no list of names):
--   io        a type's input, output, receive, send and type-modifier functions: they take
--             or return cstring/internal and are described by the type
--   internal  functions with an argument of type internal or the result type trigger: only
--             the server calls them (sort support, triggers, event triggers)
--   check     functions that a CHECK constraint of an extension table calls: the row
--             validators of the registries, described by their tables
--   family    an operator family created implicitly by the operator class of the same name
--             and access method: the class carries the description
--   state     sequences: the snowflake generators' internal state, read and written only by
--             the extension's own functions
-- Not listed at all: the row types of the extension's tables and views and the array types
-- of its types, which the relation or the element type describes (PostgreSQL 17 and later
-- record them as extension members, 15 does not).
CREATE TEMP VIEW ext_members AS
SELECT d.classid, d.objid, d.objsubid, pg_describe_object(d.classid, d.objid, d.objsubid) AS object,
       CASE
         WHEN d.classid = 'pg_proc'::regclass AND EXISTS (
                SELECT 1 FROM pg_type t
                 WHERE d.objid IN (t.typinput, t.typoutput, t.typreceive, t.typsend, t.typmodin, t.typmodout))
           THEN 'io'
         WHEN d.classid = 'pg_proc'::regclass AND EXISTS (
                SELECT 1 FROM pg_proc p
                 WHERE p.oid = d.objid
                   AND ('internal'::regtype = ANY (p.proargtypes) OR p.prorettype IN ('trigger'::regtype, 'event_trigger'::regtype)))
           THEN 'internal'
         WHEN d.classid = 'pg_proc'::regclass AND EXISTS (
                SELECT 1 FROM pg_depend c JOIN pg_constraint k ON k.oid = c.objid
                 WHERE c.classid = 'pg_constraint'::regclass AND c.refclassid = 'pg_proc'::regclass
                   AND c.refobjid = d.objid AND k.contype = 'c')
           THEN 'check'
         WHEN d.classid = 'pg_opfamily'::regclass AND EXISTS (
                SELECT 1 FROM pg_opfamily f JOIN pg_opclass c
                    ON c.opcfamily = f.oid AND c.opcname = f.opfname AND c.opcmethod = f.opfmethod
                 WHERE f.oid = d.objid)
           THEN 'family'
         WHEN d.classid = 'pg_class'::regclass AND EXISTS (
                SELECT 1 FROM pg_class r WHERE r.oid = d.objid AND r.relkind = 'S')
           THEN 'state'
       END AS exempt,
       pg_catalog.obj_description(d.objid, d.classid::regclass::name) AS description
  FROM pg_depend d
  JOIN pg_extension e ON e.oid = d.refobjid
 WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e' AND e.extname = 'idseq'
   AND NOT (d.classid = 'pg_type'::regclass AND EXISTS (
              SELECT 1 FROM pg_type t WHERE t.oid = d.objid AND (t.typrelid <> 0 OR t.typcategory = 'A')));

-- The user-facing objects without a description: none.
SELECT object FROM ext_members WHERE exempt IS NULL AND coalesce(description, '') = ''
 ORDER BY object COLLATE "C";

-- What the rules exempt (each is internal by the reason given above). The guards of custom
-- layouts (idseq_sf_guard_..., one per layout, made with it) are counted, not listed, so that
-- this list does not depend on the layouts the other tests create. idseq_uuidv7()'s layout
-- (uuidv7) is built in but not listed among the layouts.
CREATE TEMP VIEW custom_guards AS
SELECT m.* FROM ext_members m
 WHERE m.object LIKE 'sequence idseq\_sf\_guard\_%'
   AND substr(m.object, 25) NOT IN (SELECT name FROM idseq_snowflake_builtin_layouts() UNION ALL SELECT 'uuidv7');
SELECT exempt, object FROM ext_members WHERE exempt IS NOT NULL
   AND object NOT IN (SELECT object FROM custom_guards)
 ORDER BY exempt COLLATE "C", object COLLATE "C";
SELECT count(*) = (SELECT count(*) FROM idseq_layout_registry) AS one_guard_per_custom_layout,
       coalesce(bool_and(exempt = 'state'), true) AS all_state
  FROM custom_guards;

-- The rules cover every kind of member the extension has: a kind not listed here would need
-- a decision (a COMMENT or a new rule).
SELECT DISTINCT classid::regclass::text COLLATE "C" AS catalog FROM ext_members ORDER BY 1;
