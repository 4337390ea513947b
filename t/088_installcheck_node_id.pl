# `make installcheck` (pg_regress and isolation, the whole selection) against a server
# configured as production servers are: idseq.node_id set, first with
# shared_preload_libraries = 'idseq', then, on the same server restarted, without it. The
# second run is also the suite's second run on one server the same day, in a new
# contrib_regression, so it takes over the claims of the layouts the first run drew. Before,
# sql/70_uuid showed the server's node id (it assumed none), and sql/40_snowflake drew two ids
# of a layout with a day's unit, whose claim a second run took over above the server's fence
# and waited for the next day.
use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;
use IdseqTest qw(idseq_node switch_path);
use File::Temp qw(tempdir);
use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $top = "$FindBin::RealBin/..";
my $node = idseq_node('installcheck', preload => 1, node_id => 5, extension => 0,
    conf => "max_connections = 30\n");

# make installcheck against the node; its results and diffs in a directory of their own, so
# that the tree's results/ and regression.diffs are left alone.
sub installcheck_ok
{
    my ($what) = @_;
    my $out_dir = tempdir("installcheck_XXXX", DIR => $PostgreSQL::Test::Utils::tmp_check, CLEANUP => 1);
    # the make running this file passes its command line (PROVE_TESTS=...) to sub-makes in
    # MAKEFLAGS: the inner make must see only its own
    local %ENV = %ENV;
    delete @ENV{qw(MAKEFLAGS MFLAGS MAKELEVEL PGDATABASE PGOPTIONS)};
    $ENV{PGHOST} = $node->host;
    $ENV{PGPORT} = $node->port;
    # a time limit, since a test that waits (for the next day's unit) would otherwise hang
    my $stdout = '';
    my $ok = eval {
        IPC::Run::run([ 'make', '-s', '-C', $top, 'installcheck', "EXTRA_REGRESS_OPTS=--outputdir=$out_dir" ],
            '>', \$stdout, '2>&1', IPC::Run::timeout(3 * $PostgreSQL::Test::Utils::timeout_default));
    };
    $stdout .= "\n$@" if $@;
    my @passed = $stdout =~ /All (\d+) tests passed/g;
    ok($ok && @passed == 2, "$what: make installcheck passed (pg_regress @{[ $passed[0] // '-' ]}, isolation @{[ $passed[1] // '-' ]} tests)")
      or diag($stdout, -f "$out_dir/regression.diffs" ? slurp_file("$out_dir/regression.diffs") : '');
}

is($node->safe_psql('postgres', "SELECT current_setting('idseq.node_id')"), '5', 'the server sets idseq.node_id');
installcheck_ok('node id 5, preloaded');
switch_path($node, 'plain');
is($node->safe_psql('postgres', 'SHOW shared_preload_libraries'), '', 'restarted without preload');
installcheck_ok('node id 5, not preloaded, the suite\'s second run on the server');
$node->stop;
done_testing();
