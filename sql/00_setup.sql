-- Every regression test runs in this database after this file.
CREATE EXTENSION idseq;
SELECT extversion FROM pg_extension WHERE extname = 'idseq';

\ir sql/include/expect_error.sql
\pset null '(null)'
\x auto
