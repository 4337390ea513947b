
-- ===== display codecs and keyed public ids =====

--@ comment: code of a non-negative bigint in a charset: digits most significant first, left-padded
--@   to width, last rotate symbols moved to the front
CREATE FUNCTION @extschema@.idseq_encode(id bigint, charset text DEFAULT 'base62', rotate integer DEFAULT 0,
                                         width integer DEFAULT 0)
    RETURNS text AS 'MODULE_PATHNAME', 'idseq_encode' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

--@ comment: exact inverse of idseq_encode with the same arguments; rejects non-canonical codes
CREATE FUNCTION @extschema@.idseq_decode(code text, charset text DEFAULT 'base62', rotate integer DEFAULT 0,
                                         width integer DEFAULT 0)
    RETURNS bigint AS 'MODULE_PATHNAME', 'idseq_decode' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

--@ comment: keyed permutation of 0 .. 2^bits-1 (Feistel network over SipHash-2-4); not encryption
CREATE FUNCTION @extschema@.idseq_scramble(id bigint, key text, bits integer DEFAULT 63)
    RETURNS bigint AS 'MODULE_PATHNAME', 'idseq_scramble' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

--@ comment: inverse of idseq_scramble with the same key and bits
CREATE FUNCTION @extschema@.idseq_unscramble(id bigint, key text, bits integer DEFAULT 63)
    RETURNS bigint AS 'MODULE_PATHNAME', 'idseq_unscramble' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
