# The benchmark still runs: `make bench` is never a timed test, but a benchmark that breaks
# silently (a case that no longer matches the extension) is found only when someone needs
# its figures. bench/run.sh with BENCH_SMOKE=1 runs every case once at a tiny size against a
# preloaded cluster like make bench's; this asserts that it exits 0, that every case ran to
# its end (each prints its last table), and that no SQL error was printed. Figures are not
# looked at. The comparison with pgEdge's snowflake is what the benchmark exists for: when
# pgEdge is installed in the server's installation (make test and make bench build it from
# the source release the project keeps, bench/pgedge.sh), its rows must be there; when it is
# not, the test fails unless IDSEQ_BENCH_WITHOUT_PGEDGE=1 says that a run without them is
# meant (then those checks are skipped, and say so).
use strict;
use warnings;
use IPC::Run;
use FindBin;
use lib $FindBin::RealBin;
use IdseqTest qw(idseq_node);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = idseq_node('bench_smoke', preload => 1, node_id => 1, conf => "max_connections = 120\nfsync = off\n",
    extension => 0);

# Whether pgEdge's extension is installed where the cluster's server looks for extensions.
my $pgedge_status = `PG_CONFIG='@{[ $node->installed_command('pg_config') ]}' bash bench/pgedge.sh status`;
chomp $pgedge_status;
my $pgedge_installed = $? == 0;
note("pgEdge snowflake: $pgedge_status");

my ($out, $err);
{
    local $ENV{PGHOST} = $node->host;
    local $ENV{PGPORT} = $node->port;
    local $ENV{PGDATABASE} = 'postgres';
    local $ENV{BENCH_SMOKE} = '1';
    my $ok = IPC::Run::run([ 'bash', 'bench/run.sh' ], '<', \undef, '>', \$out, '2>', \$err);
    ok($ok, 'bench/run.sh (BENCH_SMOKE=1) exits 0') or diag("stdout:\n$out\nstderr:\n$err");
}
my @cases = map { s{^bench/}{}r } sort glob('bench/cases/*');
cmp_ok(scalar @cases, '>=', 7, 'the benchmark has its cases');
for my $c (@cases) {
    like($out, qr/^-- \Q$c\E$/m, "$c ran");
}
# the last table of each kind of case
like($out, qr/^ *codecs +\| idseq_decode/m, 'the SQL cases filled the main table');
like($out, qr/the seed's blocking test: .*\n.*\n(?:.*\n){2}nextval_code/m, '31_blocking.sh: its last table');
like($out, qr/ids per second \(pgbench -M prepared, 1000 ids per transaction.*\n.*\n(?:.*\n)*snowflake_nextval\(\) \[no preload\]/m,
    '41_snowflake_pgbench.sh: its last table');
like($out, qr/^snowflake_nextval\(\) \[built-in, max_ahead 10 min\] +\d+ +\d+ +\d+$/m,
    '42_snowflake_pgedge.sh: its pgbench table, to the run-ahead row');
like($out, qr/^gap-free bound at commit \+ 2 ms \/ limit \(table hot key\) .*\n(?:.*\n)*counters per key: done$/m,
    '55_counters.sh: its ratios, to its end');
# pgEdge's rows: required whenever pgEdge is installed; without it, only by explicit consent.
SKIP:
{
    if (!$pgedge_installed)
    {
        ok($ENV{IDSEQ_BENCH_WITHOUT_PGEDGE}, 'pgEdge snowflake is installed, or IDSEQ_BENCH_WITHOUT_PGEDGE=1 allows a run without it')
          or diag($pgedge_status);
        like($out, qr/^pgEdge snowflake\.nextval\(\) +\(skipped\)$/m, '42_snowflake_pgedge.sh: without pgEdge, its rows say skipped');
        skip "pgEdge snowflake is not installed: $pgedge_status", 3;
    }
    unlike($out, qr/^pgEdge snowflake rows skipped/m, '42_snowflake_pgedge.sh: pgEdge is installed, so its rows ran');
    like($out, qr/^pgEdge snowflake\.nextval\(\) +\d+ +\d+ +\d+$/m, '42_snowflake_pgedge.sh: pgEdge\'s pgbench row');
    like($out, qr/^  snowflake_nextval\(\) \[built-in, max_ahead 10 min\] \/ pgEdge, net +(?:[\d.]+x|-) +(?:[\d.]+x|-) +(?:[\d.]+x|-) \(10000 ids\/tx\)$/m,
        '42_snowflake_pgedge.sh: the ratios net of the floor');
}
unlike($out . $err, qr/^(?:psql:.*)?ERROR:/m, 'no SQL error');
is($node->safe_psql('postgres', "SELECT setting FROM pg_settings WHERE name = 'idseq.snowflake_max_ahead_ms'"),
    '0', 'the run-ahead rows reset the setting');
$node->stop;
done_testing();
