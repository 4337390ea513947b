-- ===== nextval_code without a charset: the sequence's own =====
-- The default charset becomes null, read as the charset create_code_sequence recorded for
-- the sequence (upper for others); stored calls without a charset take the new default when
-- they are planned. Called on null input, so that the null default reaches the function.
CREATE OR REPLACE FUNCTION @extschema@.nextval_code(seq regclass, charset text DEFAULT NULL) RETURNS text
    AS 'MODULE_PATHNAME', 'nextval_code' LANGUAGE C VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE;
