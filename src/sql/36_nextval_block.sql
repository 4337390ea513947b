-- ===== nextval_block: a block of consecutive values of a sequence (1.3) =====
-- n values [first, last + 1) of an INCREMENT BY 1 sequence, moved past in one step under the
-- sequence's buffer lock, so that no nextval and no other block ever hands them out
-- (src/pg/seq_generators.cpp). VOLATILE and PARALLEL UNSAFE as nextval; STRICT: a NULL sequence
-- or size gives NULL and takes nothing, as nextval(NULL). EXECUTE stays with PUBLIC, like
-- nextval's: what a caller may do is decided by its privileges on the sequence (USAGE or
-- UPDATE, as for nextval).
--@ comment: reserves n consecutive values of an INCREMENT BY 1 sequence in one step: [first, last +
--@   1), never handed out again
--@ labels: VOLATILE PARALLEL UNSAFE STRICT because generator: moves a sequence past a block, as
--@   nextval moves it
CREATE FUNCTION @extschema@.nextval_block(seq regclass, n integer) RETURNS int8range
    AS 'MODULE_PATHNAME', 'nextval_block' LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;
