
-- ===== the generators' guards: marks only the extension writes =====
-- Since 1.2 (the upgrade from 1.1 is frozen in idseq--1.1--1.2.sql).
--
-- A layout's state sequence (idseq_sf_state_...) carries its durable high-water mark through
-- pg_dump, and the database owner may set it, because pg_restore --no-owner restores it with
-- setval(): so it can also be lowered. Each layout therefore has a guard beside it,
-- idseq_sf_guard_... (the state sequence's name with "guard" for "state"): a logged sequence
-- that belongs to the extension (pg_dump leaves it out), owned by the extension's owner and
-- granted to nobody. Every reservation moves both; the generator's mark is the greater of the
-- two (src/pg/sf_store.cpp), so a lowered state sequence changes nothing, and a raised
-- one (a restore) counts.

-- The guard of a layout's state sequence: created when missing (starting at the state
-- sequence's value), else checked to be the extension's own. Run as the extension's owner:
-- by the install and upgrade scripts and by the registry's adopting trigger.
--@ comment: internal: the guard of a snowflake layout's state sequence, the high-water mark only
--@   the extension writes (created when missing)
--@ labels: VOLATILE PARALLEL UNSAFE NOT STRICT because creates or checks a layout's guard sequence
--@   (install, upgrade and the adopting trigger)
CREATE FUNCTION @extschema@.idseq_layout_guard(state_seq pg_catalog.regclass) RETURNS pg_catalog.regclass
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    st record;
    g record;
    guard_name name;
    guard pg_catalog.regclass;
    state_value bigint;
    state_called boolean;
BEGIN
    SELECT c.relname, c.relnamespace, c.relowner INTO STRICT st FROM pg_class c WHERE c.oid = state_seq;
    guard_name := 'idseq_sf_guard_' || substr(st.relname, 16);
    SELECT c.oid, c.relkind, c.relpersistence, c.relowner INTO g
      FROM pg_class c WHERE c.relname = guard_name AND c.relnamespace = st.relnamespace;
    IF NOT FOUND THEN
        EXECUTE format('CREATE SEQUENCE %s.%I MINVALUE -1 START -1', st.relnamespace::regnamespace, guard_name);
        guard := format('%s.%I', st.relnamespace::regnamespace, guard_name)::regclass;
        IF NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass AND d.objid = guard
                          AND d.deptype = 'e') THEN
            EXECUTE format('ALTER EXTENSION idseq ADD SEQUENCE %s', guard);
        END IF;
        EXECUTE format('SELECT last_value, is_called FROM %s', state_seq) INTO state_value, state_called;
        IF state_called THEN
            PERFORM setval(guard, state_value);
        END IF;
        RETURN guard;
    END IF;
    IF g.relkind <> 'S' OR g.relpersistence <> 'p' OR g.relowner <> st.relowner
       OR NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass AND d.objid = g.oid
                         AND d.deptype = 'e') THEN
        RAISE EXCEPTION 'relation %.% cannot guard the high-water mark of %', st.relnamespace::regnamespace,
                        quote_ident(guard_name), state_seq
            USING ERRCODE = 'duplicate_table',
                  DETAIL = 'The guard of a snowflake layout is a sequence of the extension idseq, owned by its owner.',
                  HINT = 'Drop or rename that relation, then insert the layout again.';
    END IF;
    RETURN g.oid::regclass;
END $$;
REVOKE ALL ON FUNCTION @extschema@.idseq_layout_guard(pg_catalog.regclass) FROM PUBLIC;

-- The built-in layouts' guards, and those of custom layouts created before 1.2 (an update);
-- later layouts get theirs from the registry's adopting trigger (90_privileges.sql).
SELECT @extschema@.idseq_layout_guard(s)
  FROM (VALUES ('@extschema@.idseq_sf_state_snowflake'::pg_catalog.regclass),
               ('@extschema@.idseq_sf_state_instagram'), ('@extschema@.idseq_sf_state_sonyflake'),
               ('@extschema@.idseq_sf_state_display60'), ('@extschema@.idseq_sf_state_nonsequential')) v(s)
UNION ALL
SELECT @extschema@.idseq_layout_guard(r.state_seq) FROM @extschema@.idseq_layout_registry r;
