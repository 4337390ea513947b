# Several nodes, one table: three clusters with idseq.node_id 1, 2 and 3 (two with shared
# memory, one without) draw snowflake ids concurrently into their own table, and an
# aggregator subscribes to all three by logical replication into one table whose primary key
# is the id. No apply worker ever meets a conflict, every row arrives, and every id carries
# the node it came from.
use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;
use IdseqTest qw(idseq_node subscribe pgbench_start);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my @pubs;
for my $n (1 .. 3) {
    my $pub = idseq_node("sf_node$n", streaming => 'logical', preload => $n != 3, node_id => $n,
        conf => "max_connections = 20\nlog_statement = none\n");
    $pub->safe_psql('postgres', qq{
        CREATE TABLE ids (id bigint PRIMARY KEY, node int NOT NULL);
        CREATE PUBLICATION ids_pub FOR TABLE ids;
    });
    push @pubs, $pub;
}

my $agg = idseq_node('sf_aggregator', conf => "max_logical_replication_workers = 8\nmax_worker_processes = 16\n",
    extension => 0);
$agg->safe_psql('postgres', 'CREATE TABLE ids (id bigint PRIMARY KEY, node int NOT NULL)');
subscribe($agg, 'postgres', "sub$_", $pubs[ $_ - 1 ], 'postgres', 'ids_pub') for 1 .. 3;

# All three nodes generate at once.
my @runs;
for my $n (1 .. 3) {
    my $pub = $pubs[ $n - 1 ];
    my $file = $pub->basedir . '/load.sql';
    append_to_file($file, "INSERT INTO ids SELECT snowflake_nextval(), $n FROM generate_series(1, 1000);\n");
    push @runs, [ pgbench_start($pub, clients => 2, jobs => 1, transactions => 30, file => $file) ];
}
for my $n (1 .. 3) {
    my ($h, $out, $err) = @{ $runs[ $n - 1 ] };
    $h->finish;
    is($?, 0, "node $n: pgbench ran without an error");
    like($$out, qr{processed: 60/60}, "node $n: 60000 ids drawn");
}

$pubs[ $_ - 1 ]->wait_for_catchup("sub$_") for 1 .. 3;

my $res = $agg->safe_psql('postgres', q{
    SELECT count(*), count(*) FILTER (WHERE f.node = ids.node)
      FROM ids, LATERAL (SELECT ((id >> 12) & 1023)::int AS node) f});   # the aggregator has no idseq
is($res, '180000|180000', 'the aggregator holds all 180000 ids, each with its own node in its node field');
is($agg->safe_psql('postgres', 'SELECT count(*), count(DISTINCT node) FROM ids'), '180000|3',
    'rows from all three nodes');
is($agg->safe_psql('postgres',
        q{SELECT coalesce(sum(apply_error_count + sync_error_count), 0) FROM pg_stat_subscription_stats}),
    '0', 'no apply worker met a conflict');
ok(!$agg->log_contains(qr/duplicate key value violates unique constraint/), 'no duplicate key in the aggregator log');

# The ids of different nodes interleave in time: each node's ids are its own, not a range.
my $overlap = $agg->safe_psql('postgres', q{
    SELECT count(*) FROM (SELECT node, min(id) AS lo, max(id) AS hi FROM ids GROUP BY node) a
      JOIN (SELECT node, min(id) AS lo, max(id) AS hi FROM ids GROUP BY node) b
        ON a.node < b.node AND a.lo < b.hi AND b.lo < a.hi});
cmp_ok($overlap, '>=', 1, 'the nodes generated concurrently (their id ranges overlap)');

$agg->stop;
$_->stop for @pubs;
done_testing();
