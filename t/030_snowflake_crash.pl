# Crashes never make snowflake_nextval reuse an id, even when the server comes back with its
# clock set back an hour. Under load (pgbench inserting ids, and a psql session streaming ids
# to its client, which sees ids that no transaction committed), the server is stopped in
# immediate mode; it restarts with idseq.test_clock_offset_ms = -1 hour; every new id lies
# above every id seen before the crash, because the durable high-water mark was WAL-logged
# and flushed before those ids were issued. Done once with shared memory and once without.
use strict;
use warnings;
use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('sf_crash');
$node->init;
$node->append_conf('postgresql.conf', qq{
shared_preload_libraries = 'idseq'
idseq.node_id = 3
max_connections = 30
});
$node->start;
$node->safe_psql('postgres', q{
    CREATE EXTENSION idseq;
    CREATE TABLE ids (id bigint PRIMARY KEY, round int);
});
my $script_file = $node->basedir . '/load.sql';
append_to_file($script_file, q{
INSERT INTO ids SELECT snowflake_nextval(), :round FROM generate_series(1, 200);
});

sub crash_round
{
    my ($round, $offset_ms) = @_;

    my ($bench_out, $bench_err, $psql_out, $psql_err) = ('', '', '', '');
    my $bench = IPC::Run::start(
        [ 'pgbench', '--no-vacuum', '--client=4', '--jobs=2', '--time=60', '--protocol=prepared',
          "--define=round=$round", "--file=$script_file", '--host=' . $node->host, '--port=' . $node->port,
          'postgres' ],
        '>', \$bench_out, '2>', \$bench_err, IPC::Run::timeout($PostgreSQL::Test::Utils::timeout_default));
    # A cursor streams ids to the client as they are issued, in a transaction that never commits.
    my $psql = IPC::Run::start(
        [ 'psql', '-XAtq', '-v', 'FETCH_COUNT=100', '-h', $node->host, '-p', $node->port, '-d', 'postgres',
          '-c', 'SELECT snowflake_nextval() FROM (SELECT generate_series(1, 1000000000)) s' ],
        '>', \$psql_out, '2>', \$psql_err, IPC::Run::timeout($PostgreSQL::Test::Utils::timeout_default));
    ok($node->poll_query_until('postgres', "SELECT count(*) >= 20000 FROM ids WHERE round = $round"),
        "round $round: load is running");
    $psql->pump until length($psql_out) > 100000;   # ~5000 ids seen by the client
    $node->stop('immediate');
    $bench->finish;
    $psql->finish;

    my @streamed = grep { /^\d+$/ } split /\n/, $psql_out;
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
    $node->pgbench("--no-vacuum --client=4 --jobs=2 --transactions=50 --protocol=prepared --define=round="
          . ($round + 1),
        0, [qr{processed: 200/200}], [qr{^$}], "round $round: load after the crash, no error",
        { "030_snowflake_after_$round" => q{
INSERT INTO ids SELECT snowflake_nextval(), :round FROM generate_series(1, 200);
} });
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
$node->append_conf('postgresql.conf', "shared_preload_libraries = ''\n");
$node->restart;
is($node->safe_psql('postgres', 'SHOW shared_preload_libraries'), '', 'restarted without preload');
crash_round(3, -7200000);

$node->stop;
done_testing();
