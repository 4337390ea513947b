
-- ===== charset cache (issue 9) =====
-- lexid_typmod_in may register a charset (an INSERT): VOLATILE, no longer STABLE.
ALTER FUNCTION @extschema@.lexid_typmod_in(pg_catalog.cstring[]) VOLATILE;
