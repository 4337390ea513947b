-- idseq 1.0 -> 1.1. The Makefile appends the fragments of what 1.1 adds (src/sql/12_*,
-- 15_*, 30_*, 40_*, 50_*) to this file to make idseq--1.0--1.1.sql. Releasing 1.2 means: freeze
-- idseq--1.1.sql and idseq--1.0--1.1.sql as files, and start 1.1--1.2 here.

\echo Use "ALTER EXTENSION idseq UPDATE TO '1.1'" to load this file. \quit

-- ===== lexid: changes since 1.0 =====
-- Comparison and hash functions raise errors that name their inputs (values of two
-- charsets), so by PostgreSQL's definition they are not leakproof.
ALTER FUNCTION @extschema@.lexid_eq(@extschema@.lexid, @extschema@.lexid) NOT LEAKPROOF;
ALTER FUNCTION @extschema@.lexid_ne(@extschema@.lexid, @extschema@.lexid) NOT LEAKPROOF;
ALTER FUNCTION @extschema@.lexid_lt(@extschema@.lexid, @extschema@.lexid) NOT LEAKPROOF;
ALTER FUNCTION @extschema@.lexid_le(@extschema@.lexid, @extschema@.lexid) NOT LEAKPROOF;
ALTER FUNCTION @extschema@.lexid_gt(@extschema@.lexid, @extschema@.lexid) NOT LEAKPROOF;
ALTER FUNCTION @extschema@.lexid_ge(@extschema@.lexid, @extschema@.lexid) NOT LEAKPROOF;
ALTER FUNCTION @extschema@.lexid_cmp(@extschema@.lexid, @extschema@.lexid) NOT LEAKPROOF;
ALTER FUNCTION @extschema@.lexid_hash(@extschema@.lexid) NOT LEAKPROOF;
ALTER FUNCTION @extschema@.lexid_hash_extended(@extschema@.lexid, bigint) NOT LEAKPROOF;
