-- One size of bench/cases/43_snowflake_time_quals.sql: tq_rows ids over the last 30 days.
SET client_min_messages = warning;
CREATE TABLE bench.tq_ev (id bigint PRIMARY KEY);
INSERT INTO bench.tq_ev
SELECT snowflake_pack('snowflake', now() - interval '30 days' + g * (interval '30 days' / :tq_rows), 0, g % 4096)
  FROM generate_series(1, :tq_rows) g
ON CONFLICT DO NOTHING;
VACUUM ANALYZE bench.tq_ev;
RESET client_min_messages;

SELECT bench.compare_queries('time predicate',
    format('count(*) WHERE snowflake_timestamp(id) >= now() - 1 hour [%s rows, ns/query]', :tq_rows),
    $$SELECT count(*) FROM bench.tq_ev WHERE snowflake_timestamp(id) >= now() - interval '1 hour'$$,
    'WHERE id >= snowflake_min_id(now() - 1 hour)',
    $$SELECT count(*) FROM bench.tq_ev WHERE id >= snowflake_min_id(now() - interval '1 hour')$$);
SELECT bench.compare_queries('time predicate',
    format('count(*) WHERE snowflake_timestamp(id) BETWEEN now() - 24 hours AND now() - 23 hours [%s rows, ns/query]', :tq_rows),
    $$SELECT count(*) FROM bench.tq_ev
       WHERE snowflake_timestamp(id) BETWEEN now() - interval '24 hours' AND now() - interval '23 hours'$$,
    'WHERE id >= snowflake_min_id(..) AND id < snowflake_min_id(..)',
    $$SELECT count(*) FROM bench.tq_ev
       WHERE id >= snowflake_min_id(now() - interval '24 hours') AND id < snowflake_min_id(now() - interval '23 hours')$$);
-- The date forms: the time against a date (replaced by the range as the timestamptz form is),
-- and the time's date (the range, with the predicate kept beside it), beside the range of the
-- same day written by hand.
SELECT bench.compare_queries('time predicate',
    format('count(*) WHERE snowflake_timestamp(id) >= current_date - 1 [%s rows, ns/query]', :tq_rows),
    $$SELECT count(*) FROM bench.tq_ev WHERE snowflake_timestamp(id) >= current_date - 1$$,
    'WHERE id >= snowflake_min_id(current_date - 1)',
    $$SELECT count(*) FROM bench.tq_ev WHERE id >= snowflake_min_id((current_date - 1)::timestamptz)$$);
SELECT bench.compare_queries('time predicate',
    format('count(*) WHERE snowflake_timestamp(id)::date = current_date - 1 [%s rows, ns/query]', :tq_rows),
    $$SELECT count(*) FROM bench.tq_ev WHERE snowflake_timestamp(id)::date = current_date - 1$$,
    'WHERE id >= snowflake_min_id(..) AND id < snowflake_min_id(..)',
    $$SELECT count(*) FROM bench.tq_ev
       WHERE id >= snowflake_min_id((current_date - 1)::timestamptz) AND id < snowflake_min_id(current_date::timestamptz)$$);
DROP TABLE bench.tq_ev;
