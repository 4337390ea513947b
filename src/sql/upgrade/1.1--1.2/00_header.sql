-- idseq 1.1 -> 1.2. Assembled by the Makefile from src/sql/upgrade/1.1--1.2/*.sql (one
-- fragment per topic); every change made to the fresh-install fragments in src/sql/ since
-- 1.1 is repeated here, and t/095_upgrade.pl proves the two agree.

\echo Use "ALTER EXTENSION idseq UPDATE TO '1.2'" to load this file. \quit
