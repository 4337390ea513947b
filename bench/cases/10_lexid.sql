-- lexid: input, output, arithmetic and sorting, each beside a comparable built-in.
SELECT bench.compare('lexid', 'text -> lexid(base36)', $$('A' || g)::lexid(base36)$$,
                     'text -> int8', $$(g::text)::int8$$, 1000000);
SELECT bench.compare('lexid', 'lexid -> text', $$(('A0' || (g % 1000))::lexid(base36))::text$$,
                     'int8 -> text', $$((g % 1000)::int8)::text$$, 1000000);
SELECT bench.compare('lexid', 'lexid + bigint', $$'00A000'::lexid(base36) + g$$,
                     'int8 + int8', $$1000::int8 + g$$, 1000000);
SELECT bench.compare('lexid', 'lexical_add(text)', $$lexical_add('00A000', 'base36', g)$$,
                     'to_hex(int8)', $$to_hex(g::int8)$$, 1000000);

-- sorting 10^6 stored values: lexid vs the same strings as text COLLATE "C"
CREATE TABLE bench.sortdata AS
    SELECT lexid_from_rank((hashint4(g)::int8 & 2147483647) + 1, 'base36')::lexid(base36) AS l FROM generate_series(1, 1000000) g;
ALTER TABLE bench.sortdata ADD COLUMN t text;
UPDATE bench.sortdata SET t = l::text;
VACUUM ANALYZE bench.sortdata;
SET work_mem = '512MB';
CREATE FUNCTION bench.sort_ns(q text) RETURNS float8 LANGUAGE plpgsql AS $$
DECLARE t0 timestamptz; best float8 := 'infinity'; c bigint;
BEGIN
    FOR i IN 1..4 LOOP
        t0 := clock_timestamp();
        EXECUTE q INTO c;
        IF i > 1 THEN best := least(best, extract(epoch FROM clock_timestamp() - t0) * 1e9 / 1000000); END IF;
    END LOOP;
    RETURN best;
END $$;
INSERT INTO bench.results (area, label, net_ns_median, net_ns_min, net_ns_max, floor_ns, baseline, baseline_ns)
SELECT 'lexid', 'ORDER BY lexid (10^6, per row, best of 3)', a, a, a, NULL, 'ORDER BY text COLLATE "C"', b
  FROM (SELECT bench.sort_ns('SELECT count(*) FROM (SELECT l FROM bench.sortdata ORDER BY l OFFSET 0) s') AS a,
               bench.sort_ns('SELECT count(*) FROM (SELECT t FROM bench.sortdata ORDER BY t COLLATE "C" OFFSET 0) s') AS b) x;
RESET work_mem;
