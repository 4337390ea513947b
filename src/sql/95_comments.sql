-- ===== descriptions (\dT+, \df+, \do+, \dv+, \dC+ and obj_description show them) =====
-- Every user-facing object has a description; sql/92_comments.sql lists any that lacks one
-- and states which internal objects are exempt. The same file is the 1.2 -> 1.3 upgrade
-- fragment (src/sql/upgrade/1.2--1.3/95_comments.sql is a link to it), so it may only
-- comment objects that both the fresh install and the upgrade have created before it.

-- charsets
COMMENT ON FUNCTION @extschema@.idseq_create_charset(text, text, boolean) IS
    'registers a custom charset: 2 to 256 distinct printable symbols, final once created';
COMMENT ON FUNCTION @extschema@.idseq_builtin_charsets() IS
    'the built-in charsets with their symbols in digit order';
COMMENT ON VIEW @extschema@.idseq_charsets IS
    'every charset, built-in and custom: name, symbols, base, case_insensitive, builtin';

-- the lexid type: casts and their functions
COMMENT ON CAST (@extschema@.lexid AS @extschema@.lexid) IS
    'applies a lexid(charset) type modifier: checks the value''s charset';
COMMENT ON CAST (text AS @extschema@.lexid) IS
    'reads text in the charset of the target type modifier (base36 without one)';
COMMENT ON CAST (@extschema@.lexid AS text) IS 'the symbols of a lexid';
COMMENT ON FUNCTION @extschema@.lexid(@extschema@.lexid, integer, boolean) IS
    'applies a lexid(charset) type modifier (the lexid -> lexid cast)';
COMMENT ON FUNCTION @extschema@.lexid(text, integer, boolean) IS
    'reads text as a lexid in the charset of a type modifier (the text -> lexid cast)';
COMMENT ON FUNCTION @extschema@.text(@extschema@.lexid) IS 'the symbols of a lexid (the lexid -> text cast)';

-- the lexid type: comparison, operator classes, aggregates
COMMENT ON FUNCTION @extschema@.lexid_eq(@extschema@.lexid, @extschema@.lexid) IS 'implementation of = operator';
COMMENT ON FUNCTION @extschema@.lexid_ne(@extschema@.lexid, @extschema@.lexid) IS 'implementation of <> operator';
COMMENT ON FUNCTION @extschema@.lexid_lt(@extschema@.lexid, @extschema@.lexid) IS 'implementation of < operator';
COMMENT ON FUNCTION @extschema@.lexid_le(@extschema@.lexid, @extschema@.lexid) IS 'implementation of <= operator';
COMMENT ON FUNCTION @extschema@.lexid_gt(@extschema@.lexid, @extschema@.lexid) IS 'implementation of > operator';
COMMENT ON FUNCTION @extschema@.lexid_ge(@extschema@.lexid, @extschema@.lexid) IS 'implementation of >= operator';
COMMENT ON FUNCTION @extschema@.lexid_cmp(@extschema@.lexid, @extschema@.lexid) IS
    'shortlex comparison: -1, 0 or 1 (btree support)';
COMMENT ON FUNCTION @extschema@.lexid_hash(@extschema@.lexid) IS 'hash of a lexid (hash index support)';
COMMENT ON FUNCTION @extschema@.lexid_hash_extended(@extschema@.lexid, bigint) IS
    'seeded 64-bit hash of a lexid (hash partitioning support)';
COMMENT ON FUNCTION @extschema@.lexid_larger(@extschema@.lexid, @extschema@.lexid) IS 'larger of two lexids';
COMMENT ON FUNCTION @extschema@.lexid_smaller(@extschema@.lexid, @extschema@.lexid) IS 'smaller of two lexids';
COMMENT ON OPERATOR @extschema@.= (@extschema@.lexid, @extschema@.lexid) IS 'equal';
COMMENT ON OPERATOR @extschema@.<> (@extschema@.lexid, @extschema@.lexid) IS 'not equal';
COMMENT ON OPERATOR @extschema@.< (@extschema@.lexid, @extschema@.lexid) IS 'less than, in shortlex order';
COMMENT ON OPERATOR @extschema@.<= (@extschema@.lexid, @extschema@.lexid) IS 'less than or equal, in shortlex order';
COMMENT ON OPERATOR @extschema@.> (@extschema@.lexid, @extschema@.lexid) IS 'greater than, in shortlex order';
COMMENT ON OPERATOR @extschema@.>= (@extschema@.lexid, @extschema@.lexid) IS 'greater than or equal, in shortlex order';
COMMENT ON OPERATOR CLASS @extschema@.lexid_ops USING btree IS 'shortlex order of lexid (the default)';
COMMENT ON OPERATOR CLASS @extschema@.lexid_hash_ops USING hash IS 'hashing of lexid (the default)';
COMMENT ON AGGREGATE @extschema@.min(@extschema@.lexid) IS 'minimum lexid in shortlex order';
COMMENT ON AGGREGATE @extschema@.max(@extschema@.lexid) IS 'maximum lexid in shortlex order';
COMMENT ON AGGREGATE @extschema@.lexid_min_as_written(@extschema@.lexid, @extschema@.lexid) IS
    'the value whose key is the least (min() of values without a charset, as written)';
COMMENT ON AGGREGATE @extschema@.lexid_max_as_written(@extschema@.lexid, @extschema@.lexid) IS
    'the value whose key is the greatest (max() of values without a charset, as written)';
COMMENT ON FUNCTION @extschema@.lexid_smaller_as_written(internal, @extschema@.lexid, @extschema@.lexid) IS
    'transition function of lexid_min_as_written';
COMMENT ON FUNCTION @extschema@.lexid_larger_as_written(internal, @extschema@.lexid, @extschema@.lexid) IS
    'transition function of lexid_max_as_written';
COMMENT ON FUNCTION @extschema@.lexid_as_written_combine(internal, internal) IS
    'combine function of lexid_min_as_written and lexid_max_as_written';
COMMENT ON FUNCTION @extschema@.lexid_as_written_serialize(internal) IS
    'serialization function of lexid_min_as_written and lexid_max_as_written';
COMMENT ON FUNCTION @extschema@.lexid_as_written_deserialize(bytea, internal) IS
    'deserialization function of lexid_min_as_written and lexid_max_as_written';
COMMENT ON FUNCTION @extschema@.lexid_as_written_final(internal) IS
    'final function of lexid_min_as_written and lexid_max_as_written';

-- the lexid type: arithmetic and ranks
COMMENT ON FUNCTION @extschema@.lexical_add(@extschema@.lexid, bigint) IS
    'id + n in shortlex order (n may be negative); the length grows as needed';
COMMENT ON FUNCTION @extschema@.lexid_sub_int8(@extschema@.lexid, bigint) IS 'implementation of lexid - bigint operator';
COMMENT ON FUNCTION @extschema@.lexid_distance(@extschema@.lexid, @extschema@.lexid) IS
    'implementation of lexid - lexid operator';
COMMENT ON OPERATOR @extschema@.+ (@extschema@.lexid, bigint) IS 'lexical_add: the id n places later in shortlex order';
COMMENT ON OPERATOR @extschema@.- (@extschema@.lexid, bigint) IS 'the id n places earlier in shortlex order';
COMMENT ON OPERATOR @extschema@.- (@extschema@.lexid, @extschema@.lexid) IS
    'distance in shortlex order (numeric; same charset)';
COMMENT ON FUNCTION @extschema@.lexical_add(text, text, bigint, boolean) IS
    'source + n in shortlex order over a charset, on plain text (the empty string is the zero)';
COMMENT ON FUNCTION @extschema@.lexid_rank(@extschema@.lexid) IS
    '1-based shortlex rank of a lexid within its charset';
COMMENT ON FUNCTION @extschema@.lexid_from_rank(numeric, text) IS 'inverse of lexid_rank: the lexid of a rank';
COMMENT ON FUNCTION @extschema@.lexid_charset(@extschema@.lexid) IS 'name of the charset of a lexid';

-- lexid compared with text (read in the lexid's charset, never text order)
COMMENT ON FUNCTION @extschema@.lexid_eq_text(@extschema@.lexid, text) IS 'implementation of lexid = text operator';
COMMENT ON FUNCTION @extschema@.lexid_ne_text(@extschema@.lexid, text) IS 'implementation of lexid <> text operator';
COMMENT ON FUNCTION @extschema@.lexid_lt_text(@extschema@.lexid, text) IS 'implementation of lexid < text operator';
COMMENT ON FUNCTION @extschema@.lexid_le_text(@extschema@.lexid, text) IS 'implementation of lexid <= text operator';
COMMENT ON FUNCTION @extschema@.lexid_gt_text(@extschema@.lexid, text) IS 'implementation of lexid > text operator';
COMMENT ON FUNCTION @extschema@.lexid_ge_text(@extschema@.lexid, text) IS 'implementation of lexid >= text operator';
COMMENT ON FUNCTION @extschema@.text_eq_lexid(text, @extschema@.lexid) IS 'implementation of text = lexid operator';
COMMENT ON FUNCTION @extschema@.text_ne_lexid(text, @extschema@.lexid) IS 'implementation of text <> lexid operator';
COMMENT ON FUNCTION @extschema@.text_lt_lexid(text, @extschema@.lexid) IS 'implementation of text < lexid operator';
COMMENT ON FUNCTION @extschema@.text_le_lexid(text, @extschema@.lexid) IS 'implementation of text <= lexid operator';
COMMENT ON FUNCTION @extschema@.text_gt_lexid(text, @extschema@.lexid) IS 'implementation of text > lexid operator';
COMMENT ON FUNCTION @extschema@.text_ge_lexid(text, @extschema@.lexid) IS 'implementation of text >= lexid operator';
COMMENT ON OPERATOR @extschema@.= (@extschema@.lexid, text) IS 'equal; the text is read in the lexid''s charset';
COMMENT ON OPERATOR @extschema@.<> (@extschema@.lexid, text) IS 'not equal; the text is read in the lexid''s charset';
COMMENT ON OPERATOR @extschema@.< (@extschema@.lexid, text) IS 'less than in shortlex order; the text is read in the lexid''s charset';
COMMENT ON OPERATOR @extschema@.<= (@extschema@.lexid, text) IS 'less than or equal in shortlex order; the text is read in the lexid''s charset';
COMMENT ON OPERATOR @extschema@.> (@extschema@.lexid, text) IS 'greater than in shortlex order; the text is read in the lexid''s charset';
COMMENT ON OPERATOR @extschema@.>= (@extschema@.lexid, text) IS 'greater than or equal in shortlex order; the text is read in the lexid''s charset';
COMMENT ON OPERATOR @extschema@.= (text, @extschema@.lexid) IS 'equal; the text is read in the lexid''s charset';
COMMENT ON OPERATOR @extschema@.<> (text, @extschema@.lexid) IS 'not equal; the text is read in the lexid''s charset';
COMMENT ON OPERATOR @extschema@.< (text, @extschema@.lexid) IS 'less than in shortlex order; the text is read in the lexid''s charset';
COMMENT ON OPERATOR @extschema@.<= (text, @extschema@.lexid) IS 'less than or equal in shortlex order; the text is read in the lexid''s charset';
COMMENT ON OPERATOR @extschema@.> (text, @extschema@.lexid) IS 'greater than in shortlex order; the text is read in the lexid''s charset';
COMMENT ON OPERATOR @extschema@.>= (text, @extschema@.lexid) IS 'greater than or equal in shortlex order; the text is read in the lexid''s charset';

-- snowflake ids
COMMENT ON FUNCTION @extschema@.snowflake_create_layout(text, timestamptz, text, interval) IS
    'registers a custom snowflake layout: fields like ''time:41,node:10,seq:12'', final once created';
COMMENT ON FUNCTION @extschema@.idseq_snowflake_builtin_layouts() IS
    'the built-in snowflake layouts: name, epoch, fields, time unit';
COMMENT ON FUNCTION @extschema@.idseq_snowflake_describe(timestamptz, text, interval) IS
    'bit widths of a layout''s fields and the last time it can represent';
COMMENT ON VIEW @extschema@.snowflake_layouts IS
    'every snowflake layout, built-in and custom, with its field widths and last representable time';
COMMENT ON FUNCTION @extschema@.snowflake_pack(text, timestamptz, integer, integer, integer) IS
    'the id of a layout with the given time and fields';
COMMENT ON FUNCTION @extschema@.snowflake_unpack(bigint, text) IS
    'the time and fields of a snowflake id (inverse of snowflake_pack)';
COMMENT ON FUNCTION @extschema@.snowflake_timestamp(bigint, text) IS 'the time embedded in a snowflake id';
COMMENT ON FUNCTION @extschema@.snowflake_min_id(timestamptz, text) IS
    'the smallest id of the time unit of ts, for range scans and partition bounds';
COMMENT ON FUNCTION @extschema@.snowflake_nextval(text) IS
    'a new snowflake id of this node (idseq.node_id): unique and increasing per layout and server';
COMMENT ON FUNCTION @extschema@.snowflake_uuid(bigint, text) IS
    'the RFC 9562 version 7 UUID of an id of a time-first layout: lossless and in the ids'' order';
COMMENT ON FUNCTION @extschema@.snowflake_from_uuid(uuid, text) IS
    'the id of a layout whose snowflake_uuid is the given UUID (exact inverse)';
COMMENT ON FUNCTION @extschema@.idseq_uuidv7() IS
    'a new version 7 UUID, greater than every one this server issued before; 62 random bits';
COMMENT ON FUNCTION @extschema@.idseq_uuidv7_bound(timestamptz) IS
    'the smallest version 7 UUID of the millisecond of ts, for range scans and partition bounds';
COMMENT ON FUNCTION @extschema@.idseq_encode(uuid, text) IS
    'the 128-bit value of a UUID in a charset, padded to a fixed width (crockford32: ULID''s text)';
COMMENT ON FUNCTION @extschema@.idseq_decode_uuid(text, text) IS
    'the UUID of a code made by idseq_encode(uuid, charset) (exact inverse)';
COMMENT ON EVENT TRIGGER idseq_lexid_column_guard IS
    'refuses stored lexid columns, domains and range types without a charset (declare lexid(base36) or the charset meant)';
COMMENT ON EVENT TRIGGER idseq_lexid_seed_guard IS
    'before ALTER TABLE ... ADD COLUMN fills the rows already there, reads an untyped nextval_lexid seed of the default in the column''s charset';
COMMENT ON EVENT TRIGGER idseq_lexid_seed_guard IS
    'before ALTER TABLE ... ADD COLUMN fills the rows already there, reads an untyped nextval_lexid seed of the default in the column''s charset';
COMMENT ON EVENT TRIGGER idseq_sequence_step_guard IS
    'before ALTER SEQUENCE makes INCREMENT smaller, moves the sequence on so that the next lexid_block starts after the last';
COMMENT ON EVENT TRIGGER idseq_sequence_step_guard IS
    'before ALTER SEQUENCE makes INCREMENT smaller, moves the sequence on so that the next lexid_block starts after the last';
COMMENT ON FUNCTION @extschema@.idseq_snowflake_check_new(text, timestamptz, text, interval) IS
    'internal: checks a new layout definition and its field order (ids must increase per node); returns the canonical field list';
COMMENT ON FUNCTION @extschema@.idseq_layout_guard(regclass) IS
    'internal: the guard of a snowflake layout''s state sequence, the high-water mark only the extension writes (created when missing)';
-- partitions by date (1.3)
COMMENT ON FUNCTION @extschema@.snowflake_create_partitions(regclass, timestamptz, timestamptz, interval, text) IS
    'creates the missing partitions of a table partitioned by range on a snowflake id, one per step (UTC), named by date';
COMMENT ON FUNCTION @extschema@.snowflake_retire_partitions(regclass, timestamptz, boolean, text) IS
    'detaches (and with drop, drops) the partitions of a snowflake-id table whose ids all precede a time; returns their names';
COMMENT ON FUNCTION @extschema@.idseq_sf_partition_parent(regclass, text) IS
    'internal: checks a parent partitioned by range on a bigint and a time-first layout, locks the parent, returns its key and the layout''s time range';
COMMENT ON FUNCTION @extschema@.idseq_sf_partition_list(regclass) IS
    'internal: the partitions of a parent with their bigint range bounds (NULL for MINVALUE and MAXVALUE)';
COMMENT ON FUNCTION @extschema@.idseq_sf_partition_as_owner(regclass, text) IS
    'internal: runs a statement as the owner of a table, in a security-restricted operation; the caller must have the owner''s privileges';
COMMENT ON FUNCTION @extschema@.idseq_sf_partition_name(text, text) IS
    'internal: a partition''s name, the parent''s cut to fit with the suffix';
COMMENT ON FUNCTION @extschema@.idseq_sf_partition_bound(timestamptz, text, timestamptz, timestamptz) IS
    'internal: the partition bound of a time: the smallest id of its unit, clamped at the layout''s epoch, NULL (MAXVALUE) after its last time';
-- borders of the registries (1.3)
COMMENT ON FUNCTION @extschema@.idseq_layout_sequence_privileges(regclass) IS
    'internal: gives a layout''s sequence exactly the documented privileges (its owner''s, SELECT and UPDATE for the database owner)';
COMMENT ON FUNCTION @extschema@.idseq_code_sequences_replica() IS
    'internal: a logical replication worker skips the rows of idseq_code_sequences (they name sequences of the publisher)';
-- blocks of a sequence (1.3)
COMMENT ON FUNCTION @extschema@.nextval_block(regclass, integer) IS
    'reserves n consecutive values of an INCREMENT BY 1 sequence in one step: [first, last + 1), never handed out again';
