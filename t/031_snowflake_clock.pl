# The server's clock steps back an hour while snowflake_nextval runs under load (the
# superuser-only testing setting idseq.test_clock_offset_ms, set with ALTER SYSTEM and a
# reload, so every backend's clock jumps in the middle of its pgbench run), then forward
# again. No id repeats, every backend's ids keep increasing, their time does not follow the
# clock back, nobody waits for the clock to catch up, and a warning is logged. Done with
# shared memory and without.
use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;
use IdseqTest qw(idseq_node switch_path pgbench_start alter_system not_increasing_sql);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = idseq_node('sf_clock', preload => 1, node_id => 9, conf => "max_connections = 30\nlog_statement = none\n");
$node->safe_psql('postgres', q{
    CREATE TABLE ids (id bigint PRIMARY KEY, round int, pid int, xid bigint, g int,
                      at timestamptz DEFAULT clock_timestamp());
});
my $script_file = $node->basedir . '/load.sql';
append_to_file($script_file, q{
INSERT INTO ids (id, round, pid, xid, g)
SELECT snowflake_nextval(), :round, pg_backend_pid(), pg_current_xact_id()::text::bigint, g
  FROM generate_series(1, 500) g;
});

sub clock_round
{
    my ($round) = @_;
    my $log_offset = -s $node->logfile;
    my ($bench, $out, $err) = pgbench_start($node, clients => 4, time => 6, define => { round => $round },
        file => $script_file);
    ok($node->poll_query_until('postgres', "SELECT count(*) >= 20000 FROM ids WHERE round = $round"),
        "round $round: load is running");
    my $max_before_step = $node->safe_psql('postgres', "SELECT max(id) FROM ids WHERE round = $round");
    alter_system($node, ['idseq.test_clock_offset_ms = -3600000']);
    sleep 2;
    alter_system($node, ['idseq.test_clock_offset_ms = 0']);
    $bench->finish;
    is($?, 0, "round $round: pgbench ran without an error");
    my @warnings = ($$err =~ /WARNING:  system clock went back by/g);
    note("pgbench saw " . scalar(@warnings) . " warnings");

    my $res = $node->safe_psql('postgres', qq{
        SELECT count(*), count(DISTINCT pid),
               @{[ not_increasing_sql('ids', "round = $round") ]},
               count(*) FILTER (WHERE id > $max_before_step),
               bool_and(snowflake_timestamp(id) > at - interval '10 minutes'),
               max(at) - min(at) < interval '30 seconds'
          FROM ids WHERE round = $round});
    my ($n, $backends, $bad, $after, $time_kept, $no_wait) = split /\|/, $res;
    cmp_ok($n, '>=', 20000, "round $round: $n ids, all distinct (primary key)");
    is($bad, 0, "round $round: each of $backends backends drew increasing ids across the steps");
    cmp_ok($after, '>', 10000, "round $round: $after ids were issued after the step back");
    is($time_kept, 't', "round $round: no id took the clock's time an hour back");
    is($no_wait, 't', "round $round: nobody waited for the clock to catch up");
    ok($node->log_contains(qr/WARNING:  system clock went back by 3[56]\d{5} ms/, $log_offset),
        "round $round: the step back was logged as a warning");
}

clock_round(1);

switch_path($node, 'plain');
is($node->safe_psql('postgres', 'SHOW shared_preload_libraries'), '', 'restarted without preload');
clock_round(2);
is($node->safe_psql('postgres', 'SELECT count(*) FROM ids WHERE round = 2 AND id <= (SELECT max(id) FROM ids WHERE round = 1)'),
    0, 'round 2 lies above round 1');

$node->stop;
done_testing();
