-- idseq 1.3 install script. Assembled by the Makefile from src/sql/*.sql; edit those.
-- Built-ins are called as pg_catalog.x and our own objects through @extschema@, so the
-- script is safe under any search_path.

\echo Use "CREATE EXTENSION idseq" to load this file. \quit
