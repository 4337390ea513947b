# snowflake_nextval under concurrency, on both of its paths: 8 pgbench clients draw 10^5 ids
# each into a table whose primary key is the id, first with idseq in shared_preload_libraries
# (the shared-memory path), then after a restart without it (the path that keeps its state
# in sequences), then with it again. No id repeats (an insert would fail), the ids of every
# backend increase in the order it drew them, and every phase lies above the one before, so
# switching paths keeps the guarantees. Layouts with little room per time unit (sonyflake:
# 256 ids per 10 ms, nonsequential's random start) run out of it and wait for the clock.
use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;
use IdseqTest qw(idseq_node switch_path pgbench_ok not_increasing_sql count_above_mark);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = idseq_node('sf_pgbench', preload => 1, node_id => 7, conf => "max_connections = 30\n");
$node->safe_psql('postgres', q{
    CREATE TABLE ids (layout text, id bigint, phase int, pid int, xid bigint, g int, PRIMARY KEY (layout, id));
});

# One transaction draws 1000 ids; xid and g give the order in which a backend drew them.
my $script = q{
INSERT INTO ids SELECT :layout, snowflake_nextval(:layout), :phase, pg_backend_pid(),
                       pg_current_xact_id()::text::bigint, g
  FROM generate_series(1, :per_txn) g;
};

sub load
{
    my ($phase, $layout, $clients, $txns, $per_txn) = @_;
    pgbench_ok($node, "phase $phase: $clients clients draw " . $clients * $txns * $per_txn . " $layout ids, no error",
        clients => $clients, transactions => $txns, script => $script,
        define => { phase => $phase, layout => $layout, per_txn => $per_txn });
}

sub check
{
    my ($phase, $layout, $expected) = @_;
    my $res = $node->safe_psql('postgres', qq{
        SELECT count(*), count(DISTINCT pid),
               @{[ not_increasing_sql('ids', "phase = $phase AND layout = '$layout'") ]},
               coalesce(min(id) > (SELECT max(id) FROM ids WHERE phase < $phase AND layout = '$layout'), true),
               bool_and(u.node = CASE WHEN '$layout' = 'display60' THEN 0 ELSE 7 END)
          FROM ids, LATERAL snowflake_unpack(id, '$layout') u WHERE phase = $phase AND layout = '$layout'});
    my ($n, $backends, $bad, $above, $node_ok) = split /\|/, $res;
    is($n, $expected, "phase $phase $layout: $expected ids, all distinct (primary key)");
    is($bad, 0, "phase $phase $layout: each of $backends backends drew increasing ids");
    is($above, 't', "phase $phase $layout: every id is above every id of the earlier phases");
    is($node_ok, 't', "phase $phase $layout: the node field holds idseq.node_id");
}

# Phase 1: shared memory.
load(1, 'snowflake', 8, 100, 1000);
check(1, 'snowflake', 800000);
load(1, 'sonyflake', 8, 4, 500);       # 16000 ids: at least 0.6 s of 10 ms units
check(1, 'sonyflake', 16000);
load(1, 'nonsequential', 8, 20, 1000);
check(1, 'nonsequential', 160000);
load(1, 'display60', 8, 20, 1000);
check(1, 'display60', 160000);
my $units = $node->safe_psql('postgres',
    q{SELECT count(DISTINCT snowflake_timestamp(id, 'sonyflake')) FROM ids WHERE layout = 'sonyflake'});
cmp_ok($units, '>=', 63, "sonyflake's 16000 ids spread over $units units of 256 ids");

# Phase 2: the same server without shared_preload_libraries.
switch_path($node, 'plain');
is($node->safe_psql('postgres', 'SHOW shared_preload_libraries'), '', 'restarted without preload');
load(2, 'snowflake', 8, 25, 1000);
check(2, 'snowflake', 200000);
load(2, 'sonyflake', 8, 2, 500);
check(2, 'sonyflake', 8000);
load(2, 'nonsequential', 8, 5, 1000);
check(2, 'nonsequential', 40000);

# Phase 3: shared memory again.
switch_path($node, 'shared');
load(3, 'snowflake', 8, 25, 1000);
check(3, 'snowflake', 200000);
load(3, 'nonsequential', 8, 5, 1000);
check(3, 'nonsequential', 40000);

# A backend that drew ids without preload leaves the last one in the layout's unlogged
# sequence; the shared-memory path marked it unknown when it took over.
is($node->safe_psql('postgres', 'SELECT is_called FROM idseq_sf_last_snowflake'), 'f',
    'the shared-memory path made the last-id sequence unknown');
# (the mark's unit: a mark inside a unit is 2^41 plus the packed unit, node and counter >> 1)
is(count_above_mark($node, 'postgres', 'ids', "layout = 'snowflake'", 'idseq_sf_state_snowflake', 22, 21),
    0, 'every id lies within the durable high-water mark');

$node->stop;
done_testing();
