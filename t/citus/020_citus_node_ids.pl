# On a Citus cluster whose nodes have no idseq.node_id, each node issues snowflake ids with
# its Citus group as node id (docs/citus.md): the coordinator 0, each worker the group the
# coordinator gave it. A worker that no coordinator has added yet (group 0, like the
# coordinator's) has no node id and issues nothing; once added it takes its group's. Ids
# inserted through every node into one distributed table are unique and carry the group of
# the node the INSERT arrived at; an explicit idseq.node_id wins over the group.
use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;
use CitusCluster;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my ($c, $w1, $w2) = CitusCluster::start(node_ids => 0, names => [qw(gc gw1 gw2)]);

# before it is added, a worker's group is 0 as the coordinator's: no node id
$w1->safe_psql('postgres', 'CREATE EXTENSION idseq');
my ($ret, $out, $err) = $w1->psql('postgres', "\\set VERBOSITY verbose\nSELECT snowflake_nextval()");
like($err, qr/55000: idseq.node_id is not set.*A Citus node without one takes its group's/s,
    'a worker not yet added issues nothing (its group 0 is the coordinator\'s)');
is($w1->safe_psql('postgres', 'SELECT idseq_node_id() IS NULL'), 't', 'and idseq_node_id() is NULL there');
$w1->safe_psql('postgres', 'DROP EXTENSION idseq');    # the coordinator's metadata sync creates it again

CitusCluster::join_workers($c, $w1, $w2);
my @nodes = ($c, $w1, $w2);
for my $n (@nodes)
{
    my $group = $n->safe_psql('postgres', 'SELECT groupid FROM pg_dist_local_group');
    is($n->safe_psql('postgres', 'SELECT idseq_node_id()'), $group, $n->name . ": the node id is the group, $group");
    is($n->safe_psql('postgres', 'SELECT (snowflake_unpack(snowflake_nextval())).node'), $group,
        $n->name . ': its ids carry it');
    is($n->safe_psql('postgres', 'SHOW idseq.node_id'), '-1', $n->name . ': idseq.node_id itself stays unset');
}
isnt($w1->safe_psql('postgres', 'SELECT idseq_node_id()'), $w2->safe_psql('postgres', 'SELECT idseq_node_id()'),
    'the two workers have node ids of their own');

# one distributed table, rows inserted through every node
$c->safe_psql('postgres', q{
    CREATE TABLE events (id bigint PRIMARY KEY DEFAULT snowflake_nextval(), via text NOT NULL);
    SELECT create_distributed_table('events', 'id');});
for my $n (@nodes)
{
    my $via = $n->name;
    $n->safe_psql('postgres', "INSERT INTO events (via) SELECT '$via' FROM generate_series(1, 3000)");
}
is($c->safe_psql('postgres', 'SELECT count(*), count(DISTINCT id) FROM events'), '9000|9000',
    '9000 rows inserted through three nodes, 9000 distinct ids');
my %group = map { $_->name => $_->safe_psql('postgres', 'SELECT groupid FROM pg_dist_local_group') } @nodes;
is($c->safe_psql('postgres', qq{
    SELECT count(*) FROM events e, LATERAL snowflake_unpack(e.id) u
     WHERE u.node <> CASE e.via WHEN 'gc' THEN $group{gc} WHEN 'gw1' THEN $group{gw1} ELSE $group{gw2} END}), '0',
    'each id carries the group of the node its INSERT arrived at');

# an explicit idseq.node_id wins over the group
$w2->append_conf('postgresql.conf', "idseq.node_id = 77\n");
$w2->reload;
$w2->poll_query_until('postgres', "SELECT current_setting('idseq.node_id') = '77'") or die 'no reload';
is($w2->safe_psql('postgres', 'SELECT (snowflake_unpack(snowflake_nextval())).node'), '77',
    'an explicit idseq.node_id wins over the group');

$_->stop for @nodes;
done_testing();
