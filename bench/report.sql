\pset footer off
SELECT area, label,
       round(net_ns_median::numeric, 0) AS "ns/call (median)",
       round(net_ns_min::numeric, 0) || ' / ' || round(net_ns_max::numeric, 0) AS "min / max",
       baseline,
       round(baseline_ns::numeric, 0) AS "baseline ns",
       CASE WHEN baseline_ns > 0 THEN round((net_ns_median / baseline_ns)::numeric, 2) END AS ratio,
       round(floor_ns::numeric, 0) AS "floor ns"
  FROM bench.results ORDER BY seq;
