-- ===== public ids with named keys (1.3) =====
-- idseq_public_id(id, key) is idseq_encode(scramble(id)) with a 64-bit block, under a key
-- that idseq keeps: SQL text, logs, errors and pg_stat_statements hold the key's name, never
-- its bytes (src/pg/codec_named_keys.cpp; docs/codecs.md, "Public ids with named keys").
--
-- Storage: one row per key in idseq_key_registry. PUBLIC has no privilege on it; the
-- functions below read it for their caller after checking the caller's rights: the key's
-- owner (or a member of its role, or a superuser) exports, drops, grants and revokes; the
-- owner and the roles granted USAGE use it. Creating or importing a key takes CREATE on the
-- database (keys are named objects of the database, like schemas). The view idseq_keys shows
-- every role the names, owners and grants, never the key bytes.
--
-- pg_dump: the table is a configuration table of the extension, so a dump carries every key
-- (a restore must decode the public ids made before it): whoever reads a dump reads the
-- keys. As for every registry of idseq, the database's owner (pg_database_owner) may dump
-- and restore its database: it may SELECT the table (pg_dump copies it; a database owner
-- already decides what runs in its database, through its search_path) and INSERT rows (a
-- restore with pg_restore --no-owner), but only rows of keys owned by a role whose
-- privileges it has (the check trigger). No other role may read, update or delete rows
-- directly.
--@ comment: named keys of idseq_public_id: readable by the extension's and the database's owners
--@   only (pg_dump); use the idseq_*_key functions and the view idseq_keys
CREATE TABLE @extschema@.idseq_key_registry (
    name text PRIMARY KEY,
    owner regrole NOT NULL,
    usage regrole[] NOT NULL DEFAULT '{}',
    key bytea NOT NULL
);
SELECT pg_catalog.pg_extension_config_dump('@extschema@.idseq_key_registry', '');
REVOKE ALL ON @extschema@.idseq_key_registry FROM PUBLIC;
GRANT SELECT, INSERT ON @extschema@.idseq_key_registry TO pg_database_owner;

-- Every row, however it arrives (the functions, a superuser's own INSERT, a restore's COPY),
-- is checked after it is written. An AFTER trigger, and no CHECK constraint, so that a bad
-- row's error neither lists the row's values ("Failing row contains ...") nor quotes the
-- COPY line it came from: its messages name the key and never show its bytes. A row's owner
-- must be a role whose privileges the writing role has (a superuser, or the functions below,
-- which write as the table's owner, may write any): a database owner restoring a dump can
-- bring its own keys, and cannot make a key that seems to be another role's.
CREATE FUNCTION @extschema@.idseq_key_registry_check() RETURNS trigger
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    IF pg_catalog.octet_length(NEW.name) = 0
       OR pg_catalog.octet_length(NEW.name) > pg_catalog.current_setting('max_identifier_length')::integer THEN
        RAISE EXCEPTION 'invalid key name "%"', NEW.name
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = pg_catalog.format('A key name has 1 to %s bytes.', pg_catalog.current_setting('max_identifier_length'));
    END IF;
    IF pg_catalog.octet_length(NEW.key) <> 32 THEN
        RAISE EXCEPTION 'key "%" must be 32 bytes long', NEW.name
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = pg_catalog.format('The value given has %s bytes.', pg_catalog.octet_length(NEW.key));
    END IF;
    IF pg_catalog.array_position(NEW.usage, NULL) IS NOT NULL OR pg_catalog.array_ndims(NEW.usage) > 1 THEN
        RAISE EXCEPTION 'invalid grants of key "%"', NEW.name
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'The roles granted USAGE are a one-dimensional array without NULL.';
    END IF;
    IF NOT pg_catalog.pg_has_role(NEW.owner, 'USAGE') THEN
        RAISE EXCEPTION 'permission denied to write key "%" owned by role %', NEW.name, NEW.owner
            USING ERRCODE = 'insufficient_privilege',
                  DETAIL = 'A role writes only rows of keys owned by a role whose privileges it has.',
                  HINT = 'Restore the keys of other roles as a superuser.';
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER idseq_key_registry_check AFTER INSERT OR UPDATE ON @extschema@.idseq_key_registry
    FOR EACH ROW EXECUTE FUNCTION @extschema@.idseq_key_registry_check();

-- Any change of the table, by any statement, tells every backend's key lookups (a relcache
-- invalidation of the table: src/pg/codec_named_keys.cpp).
CREATE FUNCTION @extschema@.idseq_key_registry_changed() RETURNS trigger
    AS 'MODULE_PATHNAME', 'idseq_key_registry_changed' LANGUAGE C;
CREATE TRIGGER idseq_key_registry_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE
    ON @extschema@.idseq_key_registry FOR EACH STATEMENT EXECUTE FUNCTION @extschema@.idseq_key_registry_changed();

-- The bytes of the key idseq_create_key or idseq_import_key is inserting, which their INSERT
-- reads (src/pg/codec_named_keys.cpp: a parameter's value would be printed by auto_explain); an
-- error at any other time. Only the extension's owner, as whom that INSERT runs, may call it.
--@ comment: internal: the bytes of the key being created or imported, for the INSERT of
--@   idseq_create_key and idseq_import_key
--@ labels: VOLATILE PARALLEL UNSAFE NOT STRICT because no arguments; the bytes of the key this
--@   backend is inserting at the moment, an error at any other time
CREATE FUNCTION @extschema@.idseq_key_registry_pending() RETURNS bytea
    AS 'MODULE_PATHNAME', 'idseq_key_registry_pending' LANGUAGE C VOLATILE PARALLEL UNSAFE;
REVOKE ALL ON FUNCTION @extschema@.idseq_key_registry_pending() FROM PUBLIC;

--@ comment: every named key: name, owner, roles granted USAGE (never the key bytes)
CREATE VIEW @extschema@.idseq_keys AS
    SELECT k.name, k.owner, k.usage FROM @extschema@.idseq_key_registry k;
GRANT SELECT ON @extschema@.idseq_keys TO PUBLIC;

-- Managing keys: VOLATILE (they write the table; export reads it), not STRICT, so that a NULL
-- name is an error (22004) rather than a silent no-op; EXECUTE stays with PUBLIC, the rights
-- are checked inside (see the head of this file).
--@ comment: makes a random 256-bit key held by idseq under name, owned by the current user (needs
--@   CREATE on the database)
--@ labels: VOLATILE PARALLEL UNSAFE NOT STRICT because writes the key registry
CREATE FUNCTION @extschema@.idseq_create_key(name text) RETURNS void
    AS 'MODULE_PATHNAME', 'idseq_create_key' LANGUAGE C VOLATILE PARALLEL UNSAFE;
--@ comment: adds a key exported by idseq_export_key (32 bytes) under name, owned by the current
--@   user (needs CREATE on the database)
--@ labels: VOLATILE PARALLEL UNSAFE NOT STRICT because writes the key registry
CREATE FUNCTION @extschema@.idseq_import_key(name text, key bytea) RETURNS void
    AS 'MODULE_PATHNAME', 'idseq_import_key' LANGUAGE C VOLATILE PARALLEL UNSAFE;
--@ comment: the 32 bytes of a key, for idseq_import_key on another server: for the key's owner and
--@   superusers only
--@ labels: STABLE PARALLEL SAFE NOT STRICT because reads the key registry
CREATE FUNCTION @extschema@.idseq_export_key(name text) RETURNS bytea
    AS 'MODULE_PATHNAME', 'idseq_export_key' LANGUAGE C STABLE PARALLEL SAFE;
--@ comment: drops a key (its owner only); public ids made with it no longer decode
--@ labels: VOLATILE PARALLEL UNSAFE NOT STRICT because writes the key registry
CREATE FUNCTION @extschema@.idseq_drop_key(name text) RETURNS void
    AS 'MODULE_PATHNAME', 'idseq_drop_key' LANGUAGE C VOLATILE PARALLEL UNSAFE;
--@ comment: grants USAGE on a key to a role (and its members): it may make and decode public ids,
--@   not read the key (the key's owner only)
--@ labels: VOLATILE PARALLEL UNSAFE NOT STRICT because writes the key registry
CREATE FUNCTION @extschema@.idseq_grant_key(name text, grantee regrole) RETURNS void
    AS 'MODULE_PATHNAME', 'idseq_grant_key' LANGUAGE C VOLATILE PARALLEL UNSAFE;
--@ comment: revokes USAGE on a key from a role (the key's owner only)
--@ labels: VOLATILE PARALLEL UNSAFE NOT STRICT because writes the key registry
CREATE FUNCTION @extschema@.idseq_revoke_key(name text, grantee regrole) RETURNS void
    AS 'MODULE_PATHNAME', 'idseq_revoke_key' LANGUAGE C VOLATILE PARALLEL UNSAFE;

-- Public ids: STABLE (they read the key registry) STRICT PARALLEL SAFE.
--@ comment: the public id of an id: its 64 bits scrambled with a named key, encoded in a charset,
--@   padded to width
--@ labels: STABLE PARALLEL SAFE STRICT because reads the key registry (a key may be dropped or
--@   re-created)
CREATE FUNCTION @extschema@.idseq_public_id(id bigint, key text, charset text DEFAULT 'base58',
                                            width integer DEFAULT 11) RETURNS text
    AS 'MODULE_PATHNAME', 'idseq_public_id' LANGUAGE C STABLE STRICT PARALLEL SAFE;
--@ comment: the id of a public id (inverse of idseq_public_id with the same key, charset and
--@   width); 22P02 or 22003 for a bad code
--@ labels: STABLE PARALLEL SAFE STRICT because reads the key registry
CREATE FUNCTION @extschema@.idseq_from_public_id(code text, key text, charset text DEFAULT 'base58',
                                                 width integer DEFAULT 11) RETURNS bigint
    AS 'MODULE_PATHNAME', 'idseq_from_public_id' LANGUAGE C STABLE STRICT PARALLEL SAFE;
--@ comment: idseq_from_public_id, but NULL for a bad code (for codes from URLs)
--@ labels: STABLE PARALLEL SAFE STRICT because reads the key registry
CREATE FUNCTION @extschema@.idseq_try_from_public_id(code text, key text, charset text DEFAULT 'base58',
                                                     width integer DEFAULT 11) RETURNS bigint
    AS 'MODULE_PATHNAME', 'idseq_try_from_public_id' LANGUAGE C STABLE STRICT PARALLEL SAFE;

-- Exact integer variants (see 60_integer_variants.sql): idseq_public_id(1001, 'k') finds
-- these by exact match, never an idseq_public_id(integer, ...) of a schema later in the path.
--@ comment: idseq_public_id(id::bigint, key, charset, width), for an exact match of integer
--@   arguments
--@ labels: STABLE PARALLEL SAFE STRICT because reads the key registry (a key may be dropped or
--@   re-created)
CREATE FUNCTION @extschema@.idseq_public_id(id integer, key text, charset text DEFAULT 'base58',
                                            width integer DEFAULT 11) RETURNS text
    AS 'MODULE_PATHNAME', 'idseq_public_id_int4' LANGUAGE C STABLE STRICT PARALLEL SAFE;
--@ comment: idseq_public_id(id::bigint, key, charset, width), for an exact match of smallint
--@   arguments
--@ labels: STABLE PARALLEL SAFE STRICT because reads the key registry (a key may be dropped or
--@   re-created)
CREATE FUNCTION @extschema@.idseq_public_id(id smallint, key text, charset text DEFAULT 'base58',
                                            width integer DEFAULT 11) RETURNS text
    AS 'MODULE_PATHNAME', 'idseq_public_id_int2' LANGUAGE C STABLE STRICT PARALLEL SAFE;
--@ comment: idseq_public_id(id::bigint, key, charset, width), for an exact match of text arguments
--@ labels: STABLE PARALLEL SAFE STRICT because reads the key registry (a key may be dropped or
--@   re-created)
CREATE FUNCTION @extschema@.idseq_public_id(id text, key text, charset text DEFAULT 'base58',
                                            width integer DEFAULT 11) RETURNS text
    AS 'MODULE_PATHNAME', 'idseq_public_id_text' LANGUAGE C STABLE STRICT PARALLEL SAFE;
