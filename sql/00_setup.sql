-- Every regression test runs in this database after this file.
CREATE EXTENSION idseq;
SELECT extversion FROM pg_extension WHERE extname = 'idseq';

-- Runs a statement that must fail and shows its SQLSTATE, message, detail and hint.
CREATE FUNCTION expect_error(q text, OUT state text, OUT message text, OUT detail text, OUT hint text)
LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE q;
    state := 'no error';
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE, message = MESSAGE_TEXT,
                            detail = PG_EXCEPTION_DETAIL, hint = PG_EXCEPTION_HINT;
END $$;
\pset null '(null)'
\x auto
