# A real Citus cluster for idseq's tests and benchmark: a coordinator and two workers, each a
# PostgreSQL::Test::Cluster with citus and idseq preloaded (citus first, as Citus requires)
# and a distinct idseq.node_id (coordinator 1, workers 2 and 3). Metadata is synced to the
# workers (Citus's default since 11), so every node accepts reads and writes on
# distributed tables. wal_level is logical for shard moves. Every server listens on a Unix
# socket only, so citus.local_hostname (how a node connects to itself, e.g. during shard
# moves) names the socket directory.
package CitusCluster;
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

# Starts the three servers with citus created on each and idseq on the coordinator; the
# workers are not yet in the cluster (call join_workers). Returns the three nodes. Options:
#   node_ids => 0    no idseq.node_id on any node (they take their Citus groups')
#   names => [...]   the servers' names (default coordinator, worker1, worker2)
sub start
{
    my (%o) = @_;
    my @nodes;
    my @names = @{ $o{names} // [qw(coordinator worker1 worker2)] };
    for my $i (0 .. 2)
    {
        my $n = PostgreSQL::Test::Cluster->new($names[$i]);
        $n->init(allows_streaming => 'logical');
        my $node_id = (defined $o{node_ids} && !$o{node_ids}) ? '' : 'idseq.node_id = ' . ($i + 1);
        $n->append_conf('postgresql.conf', qq{
shared_preload_libraries = 'citus,idseq'
$node_id
max_connections = 60
shared_buffers = 32MB
max_worker_processes = 16
fsync = off
citus.shard_count = 8
citus.node_conninfo = 'sslmode=disable'
citus.log_remote_commands = off
citus.local_hostname = '@{[$n->host]}'
});
        $n->start;
        $n->safe_psql('postgres', 'CREATE EXTENSION citus');
        push @nodes, $n;
    }
    my $c = $nodes[0];
    $c->safe_psql('postgres', 'CREATE EXTENSION idseq');
    $c->safe_psql('postgres', sprintf(q{SELECT citus_set_coordinator_host('%s', %d)}, $c->host, $c->port));
    return @nodes;
}

# Adds the workers (metadata is synced to them: CREATE EXTENSION idseq, types, tables).
sub join_workers
{
    my ($c, @workers) = @_;
    for my $w (@workers)
    {
        $c->safe_psql('postgres', sprintf(q{SELECT citus_add_node('%s', %d)}, $w->host, $w->port));
    }
}

1;
