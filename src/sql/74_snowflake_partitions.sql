-- ===== partitions by date (1.3) =====
-- snowflake_create_partitions() and snowflake_retire_partitions() manage the partitions of a
-- table partitioned BY RANGE on one bigint column of snowflake ids, by date: the bounds are
-- snowflake_min_id() of the steps' starts, the names are the dates.
--
-- Rights: the functions are SECURITY INVOKER and refuse a caller who does not have the
-- privileges of the parent's owner (its owner, a member of its role, a superuser). They read
-- the catalogs and lock the parent as the caller; every statement that touches the table or
-- its partitions (CREATE TABLE ... PARTITION OF, the look into the default partition, DETACH,
-- DROP) runs through idseq_sf_partition_as_owner(): as the parent's owner, in a
-- security-restricted operation, as PostgreSQL runs VACUUM, ANALYZE and CREATE INDEX. So the
-- new partitions belong to the parent's owner (never to a superuser who scheduled the call:
-- ANALYZE, VACUUM and REINDEX run a table's index expressions as its owner), the owner needs
-- CREATE on the schema as for hand-written DDL, and code of the owner's that runs meanwhile
-- (index expressions folded while a partition's indexes are made, policies of the default
-- partition) has the owner's rights only and cannot RESET ROLE back to the caller's (for a
-- temporary parent, whose partitions a restricted operation may not create, the switch is
-- that of a SECURITY DEFINER function: src/pg/sf_partitions.cpp).
-- The search_path is pinned to pg_catalog, pg_temp and every object is named with its schema,
-- so a hostile search_path captures nothing; identifiers reach dynamic SQL through format('%I').
--
-- Time: the step grid and the names are in UTC, whatever the session's TimeZone: a day is a
-- UTC day, the same partitions whoever creates them. Fixed steps (no months) are aligned on
-- multiples of the step from Monday 2000-01-03 00:00 UTC (so '1 day' starts at midnight,
-- '1 hour' on the hour, '7 days' on Mondays); month steps on multiples of the step from
-- January 2000 ('3 months' gives quarters).

-- Runs a statement (one, built with format('%I')) as parent's owner in a security-restricted
-- operation and returns the number of rows it processed (src/pg/sf_partitions.cpp);
-- the caller must have the owner's privileges, so that it only ever lowers rights.
--@ comment: internal: runs a statement as the owner of a table, in a security-restricted operation;
--@   the caller must have the owner's privileges
--@ labels: VOLATILE PARALLEL UNSAFE STRICT because runs a statement (partition DDL) as the owner of
--@   a table
CREATE FUNCTION @extschema@.idseq_sf_partition_as_owner(parent regclass, command text) RETURNS bigint
    AS 'MODULE_PATHNAME', 'idseq_sf_partition_as_owner' LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;

-- The parent's partition key and the layout's time range, after checking both; takes a
-- SHARE UPDATE EXCLUSIVE lock on the parent (self-conflicting, so that two sessions managing
-- the same parent run one after the other; reads and writes of the table go on).
--@ comment: internal: checks a parent partitioned by range on a bigint and a time-first layout,
--@   locks the parent, returns its key and the layout's time range
--@ labels: VOLATILE PARALLEL UNSAFE NOT STRICT because locks the parent of
--@   snowflake_create_partitions
CREATE FUNCTION @extschema@.idseq_sf_partition_parent(parent regclass, layout text,
        OUT nsp name, OUT relname name, OUT key name, OUT epoch timestamptz,
        OUT last_time timestamptz, OUT unit_us bigint, OUT nsp_oid oid, OUT owner oid)
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    c record;
    l record;
BEGIN
    IF parent IS NULL OR layout IS NULL THEN
        RAISE EXCEPTION 'parent table and layout must not be null' USING ERRCODE = 'null_value_not_allowed';
    END IF;
    SELECT n.nspname, k.relnamespace, k.relname, k.relkind, k.relowner, p.partstrat, p.partnatts, p.partattrs[0] AS attnum,
           a.attname, a.atttypid
      INTO c
      FROM pg_catalog.pg_class k
      JOIN pg_catalog.pg_namespace n ON n.oid = k.relnamespace
      LEFT JOIN pg_catalog.pg_partitioned_table p ON p.partrelid = k.oid
      LEFT JOIN pg_catalog.pg_attribute a ON a.attrelid = k.oid AND a.attnum = p.partattrs[0]
     WHERE k.oid = parent;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'relation with OID % does not exist', parent::oid USING ERRCODE = 'undefined_table';
    END IF;
    IF c.relkind <> 'p' OR c.partstrat <> 'r' OR c.partnatts <> 1 OR c.attnum = 0
       OR c.atttypid <> 'pg_catalog.int8'::pg_catalog.regtype THEN
        RAISE EXCEPTION 'table % is not partitioned by range on one bigint column', parent
            USING ERRCODE = 'invalid_object_definition',
                  DETAIL = 'Snowflake partitions need a table created with PARTITION BY RANGE (id) on a bigint column id.';
    END IF;
    IF NOT pg_catalog.pg_has_role(c.relowner, 'USAGE') THEN
        RAISE EXCEPTION 'must be owner of table %', parent USING ERRCODE = 'insufficient_privilege';
    END IF;
    SELECT s.epoch, s.last_time, s.fields,
           (EXTRACT(epoch FROM s.time_unit) * 1000000)::bigint AS unit_us
      INTO l
      FROM @extschema@.snowflake_layouts s WHERE s.name = layout;
    IF NOT FOUND THEN
        -- snowflake_min_id raises the usual unknown-layout error, with the known names
        PERFORM @extschema@.snowflake_min_id(pg_catalog.now(), layout);
    END IF;
    IF l.fields NOT LIKE 'time:%' THEN
        RAISE EXCEPTION 'snowflake layout "%" does not start with its time field', layout
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'Its ids do not order by time, so a time range is not an id range.';
    END IF;
    EXECUTE pg_catalog.format('LOCK TABLE %I.%I IN SHARE UPDATE EXCLUSIVE MODE', c.nspname, c.relname);
    nsp := c.nspname; relname := c.relname; key := c.attname; nsp_oid := c.relnamespace; owner := c.relowner;
    epoch := l.epoch; last_time := l.last_time; unit_us := l.unit_us;
END $$;

-- The partitions of a parent (one level) with their bounds: lo NULL for MINVALUE, hi NULL for
-- MAXVALUE, both NULL for the default partition. The list comes from pg_partition_tree(),
-- which reads the catalogs as they are now; a partition created by a transaction this one's
-- snapshot cannot see (REPEATABLE READ waiting for a concurrent creation) is a
-- serialization failure, to retry.
--@ comment: internal: the partitions of a parent with their bigint range bounds (NULL for MINVALUE
--@   and MAXVALUE)
--@ labels: VOLATILE PARALLEL UNSAFE NOT STRICT because reads the catalogs as they are now (after
--@   the lock)
CREATE FUNCTION @extschema@.idseq_sf_partition_list(parent regclass,
        OUT part regclass, OUT nsp name, OUT relname name, OUT is_default boolean, OUT lo bigint, OUT hi bigint)
RETURNS SETOF record
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    r record;
    m text[];
BEGIN
    FOR r IN
        SELECT t.relid, n.nspname, k.relname, pg_catalog.pg_get_expr(k.relpartbound, k.oid) AS bound
          FROM pg_catalog.pg_partition_tree(parent) t
          LEFT JOIN pg_catalog.pg_class k ON k.oid = t.relid
          LEFT JOIN pg_catalog.pg_namespace n ON n.oid = k.relnamespace
         WHERE t.parentrelid = parent AND t.level = 1
    LOOP
        IF r.bound IS NULL THEN
            RAISE EXCEPTION 'could not serialize access due to a concurrent change of the partitions of %', parent
                USING ERRCODE = 'serialization_failure',
                      HINT = 'Retry the transaction.';
        END IF;
        part := r.relid; nsp := r.nspname; relname := r.relname;
        is_default := r.bound = 'DEFAULT';
        m := pg_catalog.regexp_match(r.bound, '^FOR VALUES FROM \(''?(-?[0-9]+|MINVALUE)''?\) TO \(''?(-?[0-9]+|MAXVALUE)''?\)$');
        lo := CASE WHEN m[1] <> 'MINVALUE' THEN m[1]::bigint END;
        hi := CASE WHEN m[2] <> 'MAXVALUE' THEN m[2]::bigint END;
        RETURN NEXT;
    END LOOP;
END $$;

-- The id bound of a time for the layout: the smallest id of ts's unit, that of the epoch for
-- a time before it, NULL (MAXVALUE) for a time after the layout's last representable one.
--@ comment: internal: the partition bound of a time: the smallest id of its unit, clamped at the
--@   layout's epoch, NULL (MAXVALUE) after its last time
CREATE FUNCTION @extschema@.idseq_sf_partition_bound(ts timestamptz, layout text, epoch timestamptz,
                                                     last_time timestamptz)
    RETURNS bigint LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN CASE WHEN ts OPERATOR(pg_catalog.>) last_time THEN NULL
                ELSE @extschema@.snowflake_min_id(GREATEST(ts, epoch), layout) END;

-- A partition's name: the parent's name, cut (between characters) so that it and the suffix
-- fit in max_identifier_length bytes (fixed when PostgreSQL is built), then the suffix.
--@ comment: internal: a partition's name, the parent's cut to fit with the suffix
CREATE FUNCTION @extschema@.idseq_sf_partition_name(parent_name text, suffix text) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    base text := parent_name;
BEGIN
    WHILE pg_catalog.octet_length(base || suffix) > pg_catalog.current_setting('max_identifier_length')::integer LOOP
        base := pg_catalog.left(base, -1);
    END LOOP;
    RETURN base || suffix;
END $$;

--@ comment: creates the missing partitions of a table partitioned by range on a snowflake id, one
--@   per step (UTC), named by date
--@ labels: VOLATILE PARALLEL UNSAFE NOT STRICT because DDL: creates partitions
CREATE FUNCTION @extschema@.snowflake_create_partitions(parent regclass, from_ts timestamptz, to_ts timestamptz,
        step interval DEFAULT '1 day', layout text DEFAULT 'snowflake')
RETURNS SETOF regclass
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    p record;
    x record;
    months integer;
    step_us numeric;
    with_time boolean;
    s timestamp;      -- a step's start, UTC
    e timestamp;      -- its end
    stop_at timestamp;
    lo_id bigint;
    hi_id bigint;
    suffix text;
    part_name text;   -- the partition's name: the parent's (cut to fit) and the suffix
    taken record;     -- what already holds a name
    conflict record;
    attempt integer;
    may_create boolean;
    found_rows boolean;
    new_part regclass;
    -- the parent's partitions, read once under the lock (only this call adds to them)
    parts regclass[];
    los bigint[];
    his bigint[];
    defaults regclass[];
    range_detail text;
BEGIN
    IF from_ts IS NULL OR to_ts IS NULL OR step IS NULL THEN
        RAISE EXCEPTION 'from_ts, to_ts and step must not be null' USING ERRCODE = 'null_value_not_allowed';
    END IF;
    IF NOT pg_catalog.isfinite(from_ts) OR NOT pg_catalog.isfinite(to_ts) THEN
        RAISE EXCEPTION 'partition range must be finite' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    p := @extschema@.idseq_sf_partition_parent(parent, layout);
    months := EXTRACT(year FROM step)::integer * 12 + EXTRACT(month FROM step)::integer;
    step_us := EXTRACT(epoch FROM step - pg_catalog.make_interval(months => months)) * 1000000;
    IF months < 0 OR step_us < 0 OR (months > 0 AND step_us > 0) OR (months = 0 AND step_us = 0) THEN
        RAISE EXCEPTION 'invalid partition step "%"', step
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'A step is a positive number of months, or a positive number of days, hours and minutes.';
    END IF;
    IF months = 0 AND step_us % 60000000 <> 0 THEN
        RAISE EXCEPTION 'invalid partition step "%"', step
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'A step is a whole number of minutes: partitions are named by the minute.';
    END IF;
    IF (CASE WHEN months > 0 THEN 86400000000 ELSE step_us END) % p.unit_us <> 0 THEN
        RAISE EXCEPTION 'partition step "%" is not a whole number of time units of snowflake layout "%"', step, layout
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = pg_catalog.format('The layout counts time in units of %s microseconds; partition bounds fall between units.',
                                             p.unit_us);
    END IF;
    -- Partition bounds (every midnight UTC, and every step from 2000-01-03 00:00 UTC) must
    -- start time units of the layout: a partition named by a date then holds exactly the ids
    -- whose time falls in it, and no unit is cut in two.
    IF ((EXTRACT(epoch FROM '2000-01-03 00:00:00+00'::timestamptz) - EXTRACT(epoch FROM p.epoch)) * 1000000)
       % p.unit_us <> 0 THEN
        RAISE EXCEPTION 'partition bounds would fall inside the time units of snowflake layout "%"', layout
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = pg_catalog.format('Its units of %s microseconds start at its epoch, %s UTC; partitions by date start at midnight UTC.',
                                             p.unit_us,
                                             pg_catalog.rtrim(pg_catalog.rtrim(pg_catalog.to_char(p.epoch AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.US'), '0'), '.')),
                  HINT = 'Partition by ranges of ids of your own (snowflake_min_id), or use a layout whose epoch starts a unit at midnight UTC.';
    END IF;
    with_time := months = 0 AND step_us % 86400000000 <> 0;
    stop_at := to_ts AT TIME ZONE 'UTC';
    IF months > 0 THEN
        s := pg_catalog.date_trunc('month', from_ts AT TIME ZONE 'UTC');
        s := s - pg_catalog.make_interval(months =>
                 (((EXTRACT(year FROM s)::integer - 2000) * 12 + EXTRACT(month FROM s)::integer - 1)
                  % months + months) % months);
    ELSE
        s := pg_catalog.date_bin(step, from_ts AT TIME ZONE 'UTC', '2000-01-03 00:00:00'::timestamp);
    END IF;
    SELECT pg_catalog.array_agg(l.part) FILTER (WHERE NOT l.is_default),
           pg_catalog.array_agg(l.lo) FILTER (WHERE NOT l.is_default),
           pg_catalog.array_agg(l.hi) FILTER (WHERE NOT l.is_default),
           pg_catalog.array_agg(l.part) FILTER (WHERE l.is_default)
      INTO parts, los, his, defaults
      FROM @extschema@.idseq_sf_partition_list(parent) l;
    range_detail := pg_catalog.format('The layout "%s" represents timestamps from %s to %s UTC.', layout,
        pg_catalog.rtrim(pg_catalog.rtrim(pg_catalog.to_char(p.epoch AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.US'), '0'), '.'),
        pg_catalog.rtrim(pg_catalog.rtrim(pg_catalog.to_char(p.last_time AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.US'), '0'), '.'));
    -- refused before creating anything: a range running a whole step past the layout's last time
    IF stop_at > (p.last_time AT TIME ZONE 'UTC') + step THEN
        RAISE EXCEPTION 'partitions up to % UTC go past the last time of snowflake layout "%"',
                        pg_catalog.to_char(stop_at, 'YYYY-MM-DD HH24:MI'), layout
            USING ERRCODE = 'numeric_value_out_of_range', DETAIL = range_detail;
    END IF;
    WHILE s < stop_at LOOP
        e := s + step;
        IF e AT TIME ZONE 'UTC' <= p.epoch OR s AT TIME ZONE 'UTC' > p.last_time THEN
            RAISE EXCEPTION 'partition from % to % UTC holds no id of snowflake layout "%"',
                            pg_catalog.to_char(s, 'YYYY-MM-DD HH24:MI'), pg_catalog.to_char(e, 'YYYY-MM-DD HH24:MI'), layout
                USING ERRCODE = 'numeric_value_out_of_range', DETAIL = range_detail;
        END IF;
        lo_id := @extschema@.idseq_sf_partition_bound(s AT TIME ZONE 'UTC', layout, p.epoch, p.last_time);
        hi_id := @extschema@.idseq_sf_partition_bound(e AT TIME ZONE 'UTC', layout, p.epoch, p.last_time);
        suffix := '_p' || pg_catalog.to_char(s, 'YYYYMMDD') || CASE WHEN with_time THEN pg_catalog.to_char(s, '_HH24MI') ELSE '' END;
        part_name := @extschema@.idseq_sf_partition_name(p.relname, suffix);
        SELECT * INTO x FROM ROWS FROM (pg_catalog.unnest(parts), pg_catalog.unnest(los), pg_catalog.unnest(his)) AS l(part, lo, hi)
         WHERE (l.hi IS NULL OR l.hi > lo_id) AND (l.lo IS NULL OR hi_id IS NULL OR l.lo < hi_id)
         ORDER BY l.lo NULLS FIRST LIMIT 1;
        IF FOUND THEN
            IF x.lo IS DISTINCT FROM lo_id OR x.hi IS DISTINCT FROM hi_id THEN
                RAISE EXCEPTION 'partition "%" would overlap partition %', part_name, x.part
                    USING ERRCODE = 'check_violation',
                          DETAIL = pg_catalog.format('Ids from %s to %s overlap %s, which holds ids from %s to %s.',
                                                     lo_id, coalesce(hi_id::text, 'MAXVALUE'), x.part,
                                                     coalesce(x.lo::text, 'MINVALUE'), coalesce(x.hi::text, 'MAXVALUE'));
            END IF;
            s := e;
            CONTINUE;  -- already there (idempotent)
        END IF;
        -- the owner must be able to create it (checked once, when a partition is missing)
        IF may_create IS NULL THEN
            may_create := pg_catalog.has_schema_privilege(p.owner, p.nsp_oid, 'CREATE');
            IF NOT may_create THEN
                RAISE EXCEPTION 'role "%" cannot create the partitions of table % in schema "%"',
                                pg_catalog.pg_get_userbyid(p.owner), parent, p.nsp
                    USING ERRCODE = 'insufficient_privilege',
                          DETAIL = pg_catalog.format('New partitions are created by the table''s owner, "%s", who has no CREATE privilege on schema "%s".',
                                                     pg_catalog.pg_get_userbyid(p.owner), p.nsp),
                          HINT = pg_catalog.format('Grant the role CREATE on the schema (GRANT CREATE ON SCHEMA %I TO %I).',
                                                   p.nsp, pg_catalog.pg_get_userbyid(p.owner));
            END IF;
        END IF;
        -- rows waiting in the default partition would make CREATE fail: say so, with the way out
        -- (the look runs as the owner: a policy of the default partition is the owner's code)
        FOR x IN SELECT d.part FROM pg_catalog.unnest(defaults) AS d(part) LOOP
            found_rows := @extschema@.idseq_sf_partition_as_owner(parent,
                              pg_catalog.format('SELECT FROM %s WHERE %I OPERATOR(pg_catalog.>=) %s::pg_catalog.int8%s LIMIT 1',
                                                x.part, p.key, lo_id,
                                                CASE WHEN hi_id IS NOT NULL
                                                     THEN pg_catalog.format(' AND %I OPERATOR(pg_catalog.<) %s::pg_catalog.int8', p.key, hi_id)
                                                     ELSE '' END)) > 0;
            IF found_rows THEN
                RAISE EXCEPTION 'default partition % holds rows of partition "%"', x.part, part_name
                    USING ERRCODE = 'check_violation',
                          DETAIL = pg_catalog.format('Rows with %I from %s to %s are in the default partition.',
                                                     p.key, lo_id, coalesce(hi_id::text, 'MAXVALUE')),
                          HINT = 'Move them out of the default partition first (DELETE ... RETURNING into a holding table), create the partition, then insert them again.';
            END IF;
        END LOOP;
        -- A name already taken in the schema (a table someone else made, a partition of
        -- another parent whose name was cut to the same 63 bytes, a type) does not stop the
        -- partition: it gets the first free name with _1, _2, ... appended, and a warning says so.
        attempt := 0;
        LOOP
            SELECT k.oid::regclass::text AS what, 'relation' AS kind, 'duplicate_table' AS state INTO taken
              FROM pg_catalog.pg_class k WHERE k.relnamespace = p.nsp_oid AND k.relname = part_name
            UNION ALL
            SELECT t.oid::regtype::text, 'type', 'duplicate_object'
              FROM pg_catalog.pg_type t WHERE t.typnamespace = p.nsp_oid AND t.typname = part_name
            LIMIT 1;
            EXIT WHEN NOT FOUND;
            IF attempt = 0 THEN
                conflict := taken;  -- the holder of the name the partition would have had
            END IF;
            attempt := attempt + 1;
            part_name := @extschema@.idseq_sf_partition_name(p.relname, suffix || '_' || attempt);
        END LOOP;
        IF attempt > 0 THEN
            RAISE WARNING '% % already exists, naming the partition "%"', conflict.kind, conflict.what, part_name
                USING ERRCODE = conflict.state,
                      DETAIL = pg_catalog.format('It is not the partition of table %s from %s to %s UTC, which takes another name.',
                                                 parent, pg_catalog.to_char(s, 'YYYY-MM-DD HH24:MI'),
                                                 pg_catalog.to_char(e, 'YYYY-MM-DD HH24:MI')),
                      HINT = 'A partition is recognised by its bounds, whatever its name: rename either at will.';
        END IF;
        PERFORM @extschema@.idseq_sf_partition_as_owner(parent,
            pg_catalog.format('CREATE TABLE %I.%I PARTITION OF %I.%I FOR VALUES FROM (%s) TO (%s)',
                              p.nsp, part_name, p.nsp, p.relname, lo_id, coalesce(hi_id::text, 'MAXVALUE')));
        new_part := pg_catalog.format('%I.%I', p.nsp, part_name)::regclass;
        parts := parts || new_part;
        los := los || lo_id;
        his := his || hi_id;
        RETURN NEXT new_part;
        s := e;
    END LOOP;
END $$;

--@ comment: detaches (and with drop, drops) the partitions of a snowflake-id table whose ids all
--@   precede a time; returns their names
--@ labels: VOLATILE PARALLEL UNSAFE NOT STRICT because DDL: detaches or drops partitions
CREATE FUNCTION @extschema@.snowflake_retire_partitions(parent regclass, before_ts timestamptz,
        "drop" boolean DEFAULT false, layout text DEFAULT 'snowflake')
RETURNS SETOF text
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    p record;
    x record;
    cut bigint;
BEGIN
    IF before_ts IS NULL OR "drop" IS NULL THEN
        RAISE EXCEPTION 'before_ts and drop must not be null' USING ERRCODE = 'null_value_not_allowed';
    END IF;
    p := @extschema@.idseq_sf_partition_parent(parent, layout);
    cut := @extschema@.idseq_sf_partition_bound(before_ts, layout, p.epoch, p.last_time);
    FOR x IN SELECT * FROM @extschema@.idseq_sf_partition_list(parent) l
              WHERE NOT l.is_default AND l.hi IS NOT NULL AND (cut IS NULL OR l.hi <= cut)
              ORDER BY l.hi LOOP
        -- as the parent's owner (see the head of this file): DROP needs the owner to own the partition too
        PERFORM @extschema@.idseq_sf_partition_as_owner(parent,
            pg_catalog.format('ALTER TABLE %I.%I DETACH PARTITION %I.%I', p.nsp, p.relname, x.nsp, x.relname));
        IF "drop" THEN
            PERFORM @extschema@.idseq_sf_partition_as_owner(parent, pg_catalog.format('DROP TABLE %I.%I', x.nsp, x.relname));
        END IF;
        RETURN NEXT pg_catalog.format('%I.%I', x.nsp, x.relname);
    END LOOP;
END $$;
