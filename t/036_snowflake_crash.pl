# Crashes never make snowflake_nextval reuse an id, even when the server comes back with its
# clock set back an hour. Under load (pgbench inserting ids, and a psql session streaming ids
# to its client, which sees ids that no transaction committed), the server is stopped in
# immediate mode; it restarts with idseq.test_clock_offset_ms = -1 hour; every new id lies
# above every id seen before the crash, because the durable high-water mark was WAL-logged
# and flushed before those ids were issued. Done once with shared memory and once without.
use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;
use IdseqTest qw(idseq_node switch_path pgbench_ok pgbench_start crash_while_streaming);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = idseq_node('sf_crash', preload => 1, node_id => 3, conf => "max_connections = 30\n");
$node->safe_psql('postgres', q{
    CREATE TABLE ids (id bigint PRIMARY KEY, round int);
});
my $script_file = $node->basedir . '/load.sql';
append_to_file($script_file, q{
INSERT INTO ids SELECT snowflake_nextval(), :round FROM generate_series(1, 200);
});

sub crash_round
{
    my ($round, $offset_ms) = @_;

    my ($bench) = pgbench_start($node, clients => 4, time => 60, define => { round => $round }, file => $script_file);
    # ~5000 ids seen by the client
    my @streamed = grep { /^\d+$/ } crash_while_streaming($node, $bench, 'snowflake_nextval()',
        "SELECT count(*) >= 20000 FROM ids WHERE round = $round", "round $round: load is running");
    my $seen = 0;
    for (@streamed) { $seen = $_ if $_ > $seen; }
    cmp_ok(scalar(@streamed), '>', 4000, "round $round: the client saw " . scalar(@streamed) . ' uncommitted ids');

    $node->append_conf('postgresql.conf', "idseq.test_clock_offset_ms = $offset_ms\n");
    $node->start;
    my ($committed, $max_committed) = split /\|/,
      $node->safe_psql('postgres', "SELECT count(*), max(id) FROM ids WHERE round = $round");
    cmp_ok($committed, '>=', 20000, "round $round: $committed ids committed before the crash");
    my $max_before = $seen > $max_committed ? $seen : $max_committed;

    # More load after recovery; the clock is now an hour behind the ids.
    pgbench_ok($node, "round $round: load after the crash, no error", clients => 4, transactions => 50,
        define => { round => $round + 1 }, file => $script_file);
    my $res = $node->safe_psql('postgres', qq{
        SELECT count(*), min(id) > $max_before,
               min(snowflake_timestamp(id)) >= snowflake_timestamp($max_before),
               max(snowflake_timestamp(id)) > now() - interval '10 minutes'
          FROM ids WHERE round = $round + 1});
    my ($n, $above, $time_kept, $not_back) = split /\|/, $res;
    is($n, 40000, "round $round: 40000 ids after the crash");
    is($above, 't', "round $round: every id after the crash is above every id issued before it");
    is($time_kept, 't', "round $round: their time did not follow the clock back");
    is($not_back, 't', "round $round: and is not an hour behind");
    my $fresh = $node->safe_psql('postgres', 'SELECT snowflake_nextval()');
    cmp_ok($fresh, '>', $max_before, "round $round: a single new id too");
}

# Round 1: the shared-memory path.
crash_round(1, -3600000);

# Round 3: without shared memory; the clock goes back another hour.
switch_path($node, 'plain');
is($node->safe_psql('postgres', 'SHOW shared_preload_libraries'), '', 'restarted without preload');
crash_round(3, -7200000);

$node->stop;
done_testing();
