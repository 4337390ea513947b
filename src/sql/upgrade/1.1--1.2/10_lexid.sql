-- ===== lexid (issue 9): stored lexid values always name their charset =====
CREATE FUNCTION @extschema@.idseq_lexid_column_guard() RETURNS event_trigger
    AS 'MODULE_PATHNAME', 'idseq_lexid_column_guard' LANGUAGE C;
CREATE EVENT TRIGGER idseq_lexid_column_guard ON ddl_command_end
    WHEN TAG IN ('CREATE TABLE', 'CREATE TABLE AS', 'SELECT INTO', 'ALTER TABLE', 'CREATE MATERIALIZED VIEW',
                 'CREATE FOREIGN TABLE', 'ALTER FOREIGN TABLE', 'IMPORT FOREIGN SCHEMA', 'CREATE TYPE',
                 'ALTER TYPE', 'CREATE DOMAIN', 'ALTER DOMAIN', 'CREATE SCHEMA')
    EXECUTE FUNCTION @extschema@.idseq_lexid_column_guard();

-- Columns of 1.0/1.1 declared plain lexid keep working (their values read as before), but
-- they may mix untyped spellings with values of any charset. List them, with the fix.
DO $$
DECLARE
    r record;
BEGIN
    FOR r IN
        SELECT c.oid::pg_catalog.regclass AS rel, a.attname, c.relkind,
               pg_catalog.format_type(a.atttypid, a.atttypmod) AS typ
          FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_class c ON c.oid OPERATOR(pg_catalog.=) a.attrelid
         WHERE a.atttypid OPERATOR(pg_catalog.=) ANY (ARRAY['@extschema@.lexid'::pg_catalog.regtype,
                                                            '@extschema@.lexid[]'::pg_catalog.regtype]::pg_catalog.oid[])
           AND a.atttypmod OPERATOR(pg_catalog.<) 0 AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped
           AND c.relkind OPERATOR(pg_catalog.=) ANY ('{r,p,m,f,c}'::pg_catalog."char"[])
         ORDER BY 1::pg_catalog.text, a.attnum
    LOOP
        RAISE WARNING 'column "%" of "%" has type lexid without a charset', r.attname, r.rel
            USING DETAIL = 'Since idseq 1.2 a stored lexid must name its charset; new columns like it are refused, '
                           'and a dump of this table does not restore until it is converted.',
                  HINT = CASE WHEN r.relkind OPERATOR(pg_catalog.=) 'm' THEN
                             'Recreate the materialized view with the column cast to lexid(base36)'
                         ELSE pg_catalog.format('ALTER %s %s ALTER %s %I TYPE %s',
                                           CASE r.relkind WHEN 'c' THEN 'TYPE' WHEN 'f' THEN 'FOREIGN TABLE' ELSE 'TABLE' END,
                                           r.rel, CASE r.relkind WHEN 'c' THEN 'ATTRIBUTE' ELSE 'COLUMN' END, r.attname,
                                           pg_catalog.replace(r.typ, 'lexid', 'lexid(base36)')) END
                         || ' (or the charset the values were written in).';
    END LOOP;
END $$;

-- 1.0 and 1.1 sorted lexid values longer than 255 symbols wrongly (their abbreviated sort key
-- capped the length), so a btree built by CREATE INDEX or REINDEX over such values may be
-- out of order. List every btree index on lexid for a check or a REINDEX.
DO $$
DECLARE
    r record;
BEGIN
    FOR r IN
        SELECT c.oid::pg_catalog.regclass AS idx
          FROM pg_catalog.pg_class c
          JOIN pg_catalog.pg_am am ON am.oid OPERATOR(pg_catalog.=) c.relam AND am.amname OPERATOR(pg_catalog.=) 'btree'
         WHERE c.relkind OPERATOR(pg_catalog.=) ANY ('{i,I}'::pg_catalog."char"[])
           AND EXISTS (SELECT FROM pg_catalog.pg_attribute a WHERE a.attrelid OPERATOR(pg_catalog.=) c.oid
                          AND a.atttypid OPERATOR(pg_catalog.=) '@extschema@.lexid'::pg_catalog.regtype)
         ORDER BY c.oid::pg_catalog.regclass::pg_catalog.text
    LOOP
        RAISE WARNING 'btree index "%" on lexid values may be out of order if it holds values longer than 255 symbols', r.idx
            USING DETAIL = 'idseq 1.0 and 1.1 sorted values longer than 255 symbols wrongly when building an index.',
                  HINT = pg_catalog.format('REINDEX INDEX %s, or check it with the amcheck extension: SELECT bt_index_check(%L)',
                                           r.idx, r.idx::pg_catalog.text);
    END LOOP;
END $$;
