# Logical replication of a table whose id defaults to snowflake_nextval(), as
# docs/snowflake.md describes it ("Logical replication of tables with snowflake ids"):
#  - without idseq in the subscriber's database, the publisher's table definition does not
#    restore (its default names snowflake_nextval()), and a subscription to a publication FOR
#    ALL TABLES is refused (it carries idseq's registries, which the subscriber lacks);
#  - a table made without the default replicates (the apply worker writes the ids the
#    publisher sent), but no row can be inserted on the subscriber;
#  - with idseq but no node id, a row inserted on the subscriber is refused;
#  - the recipe: idseq in the subscriber's database, a node id of its own, the definition
#    restored with its default, then the subscription: replicated rows keep the publisher's
#    ids (node 1), rows inserted on the subscriber get ids of node 2, and the apply worker
#    meets no conflict.
use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;
use IdseqTest qw(idseq_node subscribe alter_system);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $pub = idseq_node('sf_pub', streaming => 'logical', node_id => 1, conf => "max_wal_senders = 10\n");
$pub->safe_psql('postgres', q{
    CREATE TABLE events (id bigint PRIMARY KEY DEFAULT snowflake_nextval(), what text);
    INSERT INTO events (what) VALUES ('published before the subscription');
    CREATE PUBLICATION events_pub FOR TABLE events;
    CREATE PUBLICATION everything_pub FOR ALL TABLES;
});
my $sub = idseq_node('sf_sub', extension => 0,
    conf => "max_logical_replication_workers = 8\nmax_worker_processes = 16\n");
my @dump = ('pg_dump', '--schema-only', '--table=events', '--no-publications', $pub->connstr('postgres'));
my $schema = '';
IPC::Run::run(\@dump, '>', \$schema) or die 'pg_dump failed';

# Without idseq in the subscriber's database.
$sub->safe_psql('postgres', 'CREATE DATABASE without_idseq');
my ($ret, $out, $err) = $sub->psql('without_idseq', $schema);
like($err, qr/ERROR:  function public\.snowflake_nextval\(\) does not exist/,
    'without idseq: the table definition does not restore');
$sub->safe_psql('without_idseq', 'CREATE TABLE events (id bigint PRIMARY KEY, what text)');
($ret, $out, $err) = $sub->psql('without_idseq',
    "CREATE SUBSCRIPTION everything CONNECTION '" . $pub->connstr . " dbname=postgres' PUBLICATION everything_pub");
like($err, qr/ERROR:  relation "public\.idseq_\w+" does not exist/,
    'without idseq: a subscription to a publication FOR ALL TABLES is refused');
note($err);
subscribe($sub, 'without_idseq', 'plain_sub', $pub, 'postgres', 'events_pub');
is($sub->safe_psql('without_idseq', 'SELECT what FROM events'), 'published before the subscription',
    'without idseq, a table without the default replicates');
($ret, $out, $err) = $sub->psql('without_idseq', "INSERT INTO events (what) VALUES ('local')");
like($err, qr/ERROR:  null value in column "id" of relation "events" violates not-null constraint/,
    'but no row can be inserted on the subscriber');

# With idseq but no node id: a row inserted on the subscriber is refused.
$sub->safe_psql('postgres', 'CREATE DATABASE app');
$sub->safe_psql('app', 'CREATE EXTENSION idseq');
($ret, $out, $err) = $sub->psql('app', $schema);
is($ret, 0, 'with idseq, the table definition restores') or diag($err);
($ret, $out, $err) = $sub->psql('app', "INSERT INTO events (what) VALUES ('local')");
like($err, qr/ERROR:  idseq\.node_id is not set/, 'with idseq and no node id, a local row is refused');

# The recipe: a node id of the subscriber's own, then the subscription.
alter_system($sub, [ 'idseq.node_id = 2' ], wait => 1);
subscribe($sub, 'app', 'events_sub', $pub, 'postgres', 'events_pub');
$pub->safe_psql('postgres', "INSERT INTO events (what) SELECT 'published ' || g FROM generate_series(1, 500) g");
$sub->safe_psql('app', "INSERT INTO events (what) SELECT 'local ' || g FROM generate_series(1, 500) g");
$pub->safe_psql('postgres', "INSERT INTO events (what) SELECT 'published later ' || g FROM generate_series(1, 500) g");
$pub->wait_for_catchup('events_sub');
is($sub->safe_psql('app', q{
    SELECT u.node, count(*), count(*) FILTER (WHERE what LIKE 'local%')
      FROM events, snowflake_unpack(id) u GROUP BY u.node ORDER BY u.node}),
    "1|1001|0\n2|500|500", 'replicated rows keep the publisher\'s ids (node 1), local rows get node 2');
is($sub->safe_psql('app', q{SELECT count(*) = count(DISTINCT id) FROM events}), 't', 'every id is distinct');
is($sub->safe_psql('app',
        q{SELECT coalesce(sum(apply_error_count + sync_error_count), 0) FROM pg_stat_subscription_stats}),
    '0', 'no apply worker met an error');

$sub->stop;
$pub->stop;
done_testing();
