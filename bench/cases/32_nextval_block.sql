-- nextval_block(seq, n): one call reserves n consecutive values. Beside what an application
-- would do without it, in the same run: n calls of nextval() (CACHE 1 and CACHE 100; the
-- subquery refers to g so that it runs for every row), and the hand-rolled reservation
-- setval(seq, nextval(seq) + n - 1), which is one round trip too but not safe (another
-- session's nextval between the two lands inside the block, and setval can move the sequence
-- back). Each row's ratio is per block: a call of nextval_block against n nextval calls, or
-- against one hand-rolled reservation. nextval_block writes one WAL record and flushes it per
-- call; make bench's cluster runs with fsync = off, so the flush costs a write() here and a
-- disk flush more on a server that syncs (docs/benchmarks.md, the figures).
CREATE SEQUENCE bench.block_seq;
CREATE SEQUENCE bench.block_plain_c1;
CREATE SEQUENCE bench.block_plain_c100 CACHE 100;
CREATE SEQUENCE bench.block_hand;

SELECT bench.compare('sequences', 'nextval_block(seq, 100)', $$nextval_block('bench.block_seq', 100)$$,
                     '100 x nextval, CACHE 1',
                     $$(SELECT count(nextval('bench.block_plain_c1')) FROM generate_series(1, 100 + 0 * g))$$, 100000);
SELECT bench.compare('sequences', 'nextval_block(seq, 100)', $$nextval_block('bench.block_seq', 100)$$,
                     '100 x nextval, CACHE 100',
                     $$(SELECT count(nextval('bench.block_plain_c100')) FROM generate_series(1, 100 + 0 * g))$$, 100000);
SELECT bench.compare('sequences', 'nextval_block(seq, 1000)', $$nextval_block('bench.block_seq', 1000)$$,
                     'setval(seq, nextval(seq) + 999) (unsafe)',
                     $$setval('bench.block_hand', nextval('bench.block_hand') + 999)$$, 200000);
SELECT bench.compare('sequences', 'nextval_block(seq, 1)', $$nextval_block('bench.block_seq', 1)$$,
                     'nextval, CACHE 1', $$nextval('bench.block_plain_c1')$$, 200000);
