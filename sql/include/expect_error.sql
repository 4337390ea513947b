-- Runs a statement that must fail and shows its SQLSTATE, message, detail and hint (shared
-- by the regression tests; \ir'd from each database that needs it).
CREATE FUNCTION public.expect_error(q text, OUT state text, OUT message text, OUT detail text, OUT hint text)
LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE q;
    state := 'no error';
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE, message = MESSAGE_TEXT,
                            detail = PG_EXCEPTION_DETAIL, hint = PG_EXCEPTION_HINT;
END $$;
