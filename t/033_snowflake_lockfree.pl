# The shared-memory generator's lock-free step (one compare-and-swap per id) against its
# locked steps (reservations, waits for the clock, runs ahead of the clock, clock step-backs, node changes),
# all at once: 8 pgbench clients on 2 cores, each transaction with its own clock up to 40 ms
# behind (idseq.test_clock_offset_ms, set per transaction, so backends disagree about the time
# and see it step back and forth), while reloads change idseq.node_id,
# idseq.snowflake_max_ahead_ms and idseq.snowflake_lease_ms under them. Layouts: the
# built-in one (at its cap), and one with 4 ids per millisecond (a spent unit every few ids).
# No id may repeat (primary key), each backend's ids increase in the order it drew them,
# every id lies within the durable mark, and its node field holds a node id the server had.
use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;
use IdseqTest qw(idseq_node switch_path pgbench_ok pgbench_start alter_system not_increasing_sql count_above_mark);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = idseq_node('sf_lockfree', preload => 1, node_id => 7, conf => "max_connections = 30\n");
$node->safe_psql('postgres', q{
    SELECT snowflake_create_layout('quad', '2010-11-04 01:42:54.657+00', 'time:41,node:10,seq:2');
    SELECT snowflake_create_layout('duo', '2010-11-04 01:42:54.657+00', 'time:41,node:10,seq:1');
    CREATE TABLE ids (layout text, id bigint, pid int, xid bigint, g int, PRIMARY KEY (layout, id));
});

my $script_file = $node->basedir . '/lockfree.sql';
PostgreSQL::Test::Utils::append_to_file($script_file, q{
\set off random(-40, 0)
SELECT set_config('idseq.test_clock_offset_ms', :off::text, false);
INSERT INTO ids SELECT :layout, snowflake_nextval(:layout), pg_backend_pid(), pg_current_xact_id()::text::bigint, g
  FROM generate_series(1, :per_txn) g;
});

sub attack
{
    my ($layout, $per_txn, $seconds) = @_;
    my ($bench, $out, $err) = pgbench_start($node, clients => 8, time => $seconds,
        define => { layout => $layout, per_txn => $per_txn }, file => $script_file);
    my @rounds = (
        [ 'idseq.node_id = 9' ],
        [ 'idseq.snowflake_max_ahead_ms = 5', 'idseq.snowflake_lease_ms = 0' ],
        [ 'idseq.node_id = 7', 'idseq.snowflake_max_ahead_ms = 0' ],
        [ 'idseq.snowflake_lease_ms = 1000', 'idseq.snowflake_max_ahead_ms = 50' ],
        [ 'idseq.node_id = 9', 'idseq.snowflake_max_ahead_ms = 0' ],
        [ 'idseq.node_id = 7' ]);
    for my $r (@rounds) {
        select(undef, undef, undef, $seconds / (@rounds + 1));
        alter_system($node, $r);
    }
    $bench->finish;
    is($?, 0, "$layout: pgbench ran without an error") or diag($$err);

    my $res = $node->safe_psql('postgres', qq{
        SELECT count(*), count(DISTINCT pid),
               @{[ not_increasing_sql('ids', "layout = '$layout'") ]},
               bool_and(u.node IN (7, 9)), count(DISTINCT u.node)
          FROM ids, LATERAL snowflake_unpack(id, '$layout') u WHERE layout = '$layout'});
    my ($n, $backends, $bad, $nodes_ok, $nodes) = split /\|/, $res;
    cmp_ok($n, '>=', 1000, "$layout: $n ids from $backends backends, all distinct (primary key)");
    is($bad, 0, "$layout: each backend drew increasing ids through the clock jitter and the reloads");
    is($nodes_ok, 't', "$layout: every id holds node 7 or 9");
    is($nodes, 2, "$layout: both node ids issued ids (the reloads reached the backends)");
}

attack('snowflake', 1000, 12);
attack('quad', 20, 8);

# Every id lies within its layout's durable mark: its unit (a mark inside a unit is 2^41 plus
# the packed unit, node and counter, the counter's low bit dropped for snowflake's 63 bits).
for my $l ([ 'snowflake', 'idseq_sf_state_snowflake', 22, 21 ], [ 'quad', undef, 12, 12 ]) {
    my ($layout, $seq, $shift, $mark_shift) = @$l;
    $seq //= $node->safe_psql('postgres', qq{
        SELECT c.relname FROM pg_class c WHERE c.relname LIKE 'idseq_sf_state%' AND c.relname LIKE '%quad%'});
    is(count_above_mark($node, 'postgres', 'ids', "layout = '$layout'", $seq, $shift, $mark_shift),
        0, "$layout: every id lies within the durable high-water mark ($seq)");
}

# Two sessions whose clocks disagree by 1 ms (and by 40 ms), drawing flat out above the
# capacity of instagram (1024 ids per ms) and of a 2-ids-per-ms layout, on both paths: no id
# is more than one unit (1 ms) ahead of the later clock. (1.2 before this test let them run
# 1 s ahead in 5 s: each disagreement counted as a step back of the clock and pushed the
# frontier one unit further.) Counted in whole units: an id's unit against the unit of the
# real clock read right after it was drawn (clock_timestamp(), the clock the generator reads,
# after snowflake_nextval() in the row). One unit ahead is the bound, exactly, and shows as
# anything up to 1 ms in time (an id of the next unit drawn a few microseconds before it
# starts), so a comparison of times in milliseconds would sit microseconds from its bound;
# the bug it targets puts ids hundreds of units ahead.
my $pair_script = q{
SELECT set_config('idseq.test_clock_offset_ms', (-(:client_id % 2) * :spread)::text, false);
INSERT INTO pair SELECT :spread, :path, :lay, snowflake_nextval(CASE :lay::int WHEN 1 THEN 'instagram' ELSE 'duo' END), clock_timestamp()
  FROM generate_series(1, 2000 / :lay::int);
};
$node->safe_psql('postgres', 'CREATE TABLE pair (spread int, path int, lay int, id bigint, at timestamptz)');
# No lease: the restart that switches to the path without shared memory goes on above the
# durable mark, which a lease would have put up to a lease ahead of the clock (a documented
# drift of a restart, not what these pairs measure).
alter_system($node, ['idseq.snowflake_lease_ms = 0'], wait => 1);
for my $path ('shared', 'plain') {
    if ($path eq 'plain') {
        switch_path($node, 'plain');
    }
    for my $lay (1, 1000) { # instagram (1024 ids per ms), duo (2 ids per ms)
        my $name = $lay == 1 ? 'instagram' : 'duo';
        for my $spread (1, 40) {
            my $code = $path eq 'shared' ? 1 : 2;
            pgbench_ok($node, "$path $name, clocks $spread ms apart: pgbench ran (a step back of the clock is a warning)",
                clients => 2, time => 3, define => { spread => $spread, path => $code, lay => $lay },
                script => $pair_script, out => [qr{processed: \d+}], err => [qr{^(?:(?:WARNING|DETAIL):  .*\n)*$}]);
            # both layouts have 1 ms units and epochs on a millisecond
            my ($n, $distinct, $units_ahead, $ahead) = split /\|/, $node->safe_psql('postgres', qq{
                SELECT count(*), count(DISTINCT id),
                       max(floor(extract(epoch FROM snowflake_timestamp(id, '$name')) * 1000)
                           - floor(extract(epoch FROM at) * 1000))::bigint,
                       round(extract(epoch FROM max(snowflake_timestamp(id, '$name') - at)) * 1000, 3)
                  FROM pair WHERE spread = $spread AND path = $code AND lay = $lay});
            is($distinct, $n, "$path $name, clocks $spread ms apart: $n ids, all distinct");
            cmp_ok($units_ahead, '<=', 1,
                "$path $name, clocks $spread ms apart: no id more than one unit ahead of the later clock ($ahead ms)");
        }
    }
}
switch_path($node, 'shared');

# The same table after a crash: the generator goes on above every id.
$node->stop('immediate');
$node->start;
for my $layout ('snowflake', 'quad') {
    is($node->safe_psql('postgres', qq{SELECT snowflake_nextval('$layout') > max(id) FROM ids WHERE layout = '$layout'}),
        't', "$layout: after a crash the next id is above every id issued");
}
$node->stop;
done_testing();
