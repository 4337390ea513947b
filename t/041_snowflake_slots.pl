# idseq.snowflake_max_layouts: the shared-memory slots of the generator's fast path
# (PGC_POSTMASTER, with preload only). With 2 slots, the first two layouts used take the fast
# path, a third falls back to the path without shared memory -- still correct -- and a
# warning says so once per server start, whichever session hits it. Also: unknown layout
# names (any number, any size) add no cache entry and are echoed as a short prefix.
use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;
use IdseqTest qw(idseq_node);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = idseq_node('sf_slots', preload => 1, conf => "idseq.snowflake_max_layouts = 2\n");
is($node->safe_psql('postgres', "SELECT setting || ' ' || context FROM pg_settings WHERE name = 'idseq.snowflake_max_layouts'"),
    '2 postmaster', 'the setting is read at server start');
$node->safe_psql('postgres', q{
    SELECT snowflake_create_layout('l' || g, timestamptz '2020-01-01 00:00:00+00' + g * interval '1 day', 'time:41,seq:12')
      FROM generate_series(1, 4) g;
});

# The slow path writes the last id into the layout's unlogged last-id sequence; the fast
# path leaves it unknown (NULL).
sub slow_layouts
{
    return $node->safe_psql('postgres', q{
        SELECT string_agg(name, ',' ORDER BY name) FROM idseq_layout_registry
         WHERE pg_sequence_last_value(last_id_seq) IS NOT NULL});
}

my $log_start = -s $node->logfile;
my ($ret, $out, $err) = $node->psql('postgres', q{
    SELECT bool_and(ok) FROM (
      SELECT count(DISTINCT id) = count(*) AND bool_and(id > prev) AS ok FROM (
        SELECT l, id, lag(id, 1, -1::bigint) OVER (PARTITION BY l ORDER BY g) AS prev
          FROM (SELECT g, 'l' || (g % 3 + 1) AS l, snowflake_nextval('l' || (g % 3 + 1)) AS id
                  FROM generate_series(1, 3000) g) s) t
       GROUP BY l) u});
is($out, 't', 'ids unique on all three layouts');
like($err, qr/WARNING:  all 2 shared-memory slots of the snowflake generator are in use/, 'a warning when slots run out');
like($err, qr/HINT:  Raise idseq.snowflake_max_layouts/, 'with a hint');
my $slow = slow_layouts();
like($slow, qr/^l[123]$/, 'two of the three layouts use shared memory, one the path without it');
like($err, qr/Snowflake layout "$slow" in database "postgres", and every further layout definition and node id, uses the slower/,
    'the warning names it');
($ret, $out, $err) = $node->psql('postgres', q{
    SELECT snowflake_nextval('l4') < snowflake_nextval('l4') AND snowflake_nextval('l3') < snowflake_nextval('l3')});
is($out, 't', 'another session: still correct');
is(slow_layouts(), join(',', sort($slow, 'l4')), 'the fourth layout uses the path without shared memory too');
is($err, '', 'and no second warning');
my $log = slurp_file($node->logfile, $log_start);
my $count = () = $log =~ /all 2 shared-memory slots of the snowflake generator are in use/g;
is($count, 1, 'the server log has the warning once');

# Unknown names: no cache entry per name, and a short prefix in the error, also for 100 MB.
SKIP:
{
    skip 'needs /proc/self/status (Linux)', 1 unless -r '/proc/self/status';
    my $growth_kb = $node->safe_psql('postgres', q{
        CREATE FUNCTION rss_anon_kb() RETURNS bigint LANGUAGE sql AS
          $$SELECT substring(pg_read_file('/proc/self/status') FROM 'RssAnon:\s+(\d+) kB')::bigint$$;
        CREATE FUNCTION unknown_names(n integer, start integer) RETURNS void LANGUAGE plpgsql AS $$
        BEGIN
            FOR i IN start .. start + n - 1 LOOP
                BEGIN
                    PERFORM snowflake_pack('nosuch_' || i, now());
                EXCEPTION WHEN invalid_parameter_value THEN NULL;
                END;
            END LOOP;
        END $$;
        SELECT unknown_names(2000, 1);
        CREATE TEMP TABLE m AS SELECT rss_anon_kb() AS before;
        SELECT unknown_names(50000, 10000);
        SELECT rss_anon_kb() - before FROM m;});
    note("RssAnon growth over 50,000 unknown layout names: $growth_kb kB");
    cmp_ok($growth_kb, '<', 2048, 'unknown layout names leave no cache entries (memory flat)');
}
($ret, $out, $err) = $node->psql('postgres', q{SELECT snowflake_nextval(repeat('x', 100 * 1024 * 1024))});
like($err, qr/ERROR:  unknown snowflake layout "x{61}\.\.\."/, 'a 100 MB name is shown as a short prefix');
cmp_ok(length($err), '<', 1000, 'the error is short');
$log = slurp_file($node->logfile, $log_start);
cmp_ok(length($log), '<', 100_000, 'and so is the server log');

# A slot serves one layout definition. A custom layout dropped with the extension and made
# again under its name with another definition takes a slot of its own (a backend still
# running the old definition in a long statement sees no invalidation, and must never move
# the new definition's word); made again with the same definition, it keeps its slot, and
# its ids go on above the ones issued before the drop. (An immediate stop: a clean one would
# carry the slots above into the next start.)
$node->stop('immediate');
$node->append_conf('postgresql.conf', "idseq.snowflake_max_layouts = 3\n");
$node->start;
sub fast_layouts_of
{
    my $db = shift;
    return $node->safe_psql($db, q{
        SELECT string_agg(name || ':' || fields, ',' ORDER BY name) FROM idseq_layout_registry
         WHERE pg_sequence_last_value(last_id_seq) IS NULL});
}
$node->safe_psql('postgres', 'CREATE DATABASE redef');
# (an epoch of its own: database postgres issues l1..l4's definition, and two databases of one
# server may not issue the same one)
my $recreate = sub {
    my $fields = shift;
    $node->safe_psql('redef', qq{
        DROP EXTENSION IF EXISTS idseq CASCADE;
        CREATE EXTENSION idseq;
        SELECT snowflake_create_layout('r', '2021-01-01 00:00:00+00', '$fields');});
};
$recreate->('time:41,seq:12');
my $before = $node->safe_psql('redef', q{SELECT max(snowflake_nextval('r')) FROM generate_series(1, 5000)});
is(fast_layouts_of('redef'), 'r:time:41,seq:12', 'the layout takes a slot (1 of 3)');
$recreate->('time:41,seq:12');
($ret, $out, $err) = $node->psql('redef', qq{SELECT min(snowflake_nextval('r')) > $before FROM generate_series(1, 5000)});
is($out, 't', 'made again with the same definition: its ids go on above the earlier ones');
is(fast_layouts_of('redef'), 'r:time:41,seq:12', 'in the same slot');
$recreate->('time:41,seq:14');
($ret, $out, $err) = $node->psql('redef', q{SELECT count(DISTINCT snowflake_nextval('r')) FROM generate_series(1, 5000)});
is($out, '5000', 'made again with another definition: unique ids');
is($err, '', 'from a slot of its own (2 of 3), no warning');
is(fast_layouts_of('redef'), 'r:time:41,seq:14', 'on the fast path');
$recreate->('time:40,seq:14');
$node->safe_psql('redef', q{SELECT snowflake_nextval('r')});
$recreate->('time:40,seq:13');
($ret, $out, $err) = $node->psql('redef', q{SELECT count(DISTINCT snowflake_nextval('r')) FROM generate_series(1, 5000)});
is($out, '5000', 'a fourth definition with every slot taken: still unique');
like($err, qr/WARNING:  all 3 shared-memory slots of the snowflake generator are in use/,
    'and the warning says the slots are used up: each definition took one');
is(fast_layouts_of('redef'), '', 'it uses the path without shared memory');

$node->stop;
done_testing();
