-- idseq 1.2 -> 1.3. Assembled by the Makefile from src/sql/upgrade/1.2--1.3/*.sql (one
-- fragment per topic); every change made to the fresh-install fragments in src/sql/ since
-- 1.2 is repeated here (a fragment that both scripts run word for word is a link to the
-- src/sql/ file), and t/095_upgrade.pl proves the two agree.

\echo Use "ALTER EXTENSION idseq UPDATE TO '1.3'" to load this file. \quit
