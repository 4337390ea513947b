# The runbook's procedures for new servers and copies of a server (docs/operations.md), run
# with the commands the page prints: each block marked "<!-- runbook: name -->" there is read
# from the page and run as printed, only its placeholders filled in (runbook_ok). Then every
# snowflake id issued before and after, on every server and in every database involved, is
# checked for duplicates and, where the page promises it, for order; the node id of every
# database with the runbook's own check (idseq_node_id(), not SHOW). Servers preloaded, but the
# new server (so the node-id steps run where the idseq.* settings are unknown until loaded):
#  - a new node: refused before its node ids, then app with node id 1 and reporting with 11
#    (idseq.node_id_by_database);
#  - a clone by pg_basebackup under pgbench load, given node ids of its own (3, reporting=13)
#    and issuing ids over the same time units as the original (its clock set to them);
#  - a dump restored onto a new server (node id 2) beside the running original: above the
#    dump's ids with its clock an hour back, then over the original's time units;
#  - the dump restored into a second database of the original: it issues at once beside the
#    original (one stream with preload), above the dump's ids; then with a node id of its own
#    in idseq.node_id_by_database, above them too;
#  - pg_upgrade 15 -> 15 into a fresh initdb, the settings carried by the runbook's command,
#    idseq_snowflake_fence_init(), the new cluster's clock an hour back: every database above
#    its ids of before, with the node ids it had.
use strict;
use warnings;
use Cwd qw(getcwd);
use File::Spec;
use FindBin;
use lib $FindBin::RealBin;
use IdseqTest qw(idseq_node pgbench_start runbook_ok node_ids_are sample keep_sample sampled above_before
  sample_over past_lease_of no_repeated_ids);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

# ---- a new node: the original ----
my $original = idseq_node('original', preload => 1, streaming => 1, conf => "max_connections = 20\n");
for my $db ('app', 'reporting') {
    $original->safe_psql('postgres', "CREATE DATABASE $db");
    $original->safe_psql($db, 'CREATE EXTENSION idseq');
}
my ($ret, $out, $err) = $original->psql('app', 'SELECT snowflake_nextval()');
like($err, qr/idseq\.node_id is not set/, 'new node: no id before a node id is set');
runbook_ok('node-ids', 'new node', node => $original,
    vars => { node_id => 1, node_ids_by_database => 'reporting=11' });
node_ids_are($original, { app => 1, reporting => 11 }, 'new node');
is($original->safe_psql('reporting', 'SHOW idseq.node_id'), '1', "new node: SHOW idseq.node_id in reporting shows the server's, as the runbook warns");
sample($original, 'app', 'o_app_1');
sample($original, 'reporting', 'o_rep_1');

# ---- a clone by pg_basebackup, under load, that becomes a second writer ----
my ($bench) = pgbench_start($original, clients => 2, transactions => 100, db => 'app',
    script => "INSERT INTO minted SELECT 'o_app_load', g, snowflake_nextval() FROM generate_series(1, 200) g;\n");
$original->poll_query_until('app', "SELECT count(*) > 0 FROM minted WHERE label = 'o_app_load'")
  or die 'pgbench did not start';
my $clone = PostgreSQL::Test::Cluster->new('clone');
runbook_ok('clone', 'clone', env => { SOURCE => $original->connstr('postgres'), PGDATA => $clone->data_dir });
$bench->finish;
is($?, 0, 'clone: pgbench on the original ran through the base backup');
keep_sample('o_app_load', [ split /\n/, $original->safe_psql('app', "SELECT id FROM minted WHERE label = 'o_app_load'") ]);
is(scalar(@{ sampled('o_app_load') }), 40000, 'clone: the load issued 40000 ids');
# (on another machine the copy's port would be the original's; here it is its own)
$clone->append_conf('postgresql.conf', 'port = ' . $clone->port . "\n");
$clone->start;
runbook_ok('copy-node-ids', 'clone', node => $clone,
    vars => { node_id => 3, node_ids_by_database => 'reporting=13' });
node_ids_are($clone, { app => 3, reporting => 13 }, 'clone');
node_ids_are($original, { app => 1, reporting => 11 }, 'original beside the clone');
# the original goes on past every mark the clone copied; the clone then issues ids over the
# same time units
past_lease_of($original, map { $clone->safe_psql($_, 'SELECT max(id) FROM minted') } 'app', 'reporting');
sample($original, 'app', 'o_app_2', spread_ms => 400);
sample_over($clone, 'app', 'c_app', 'o_app_2', 'clone');
# the clone's server-wide fence went with c_app's reservation: a database that takes a claim
# starts above it, so reporting's turn comes past it
past_lease_of($original, @{ sampled('c_app') });
sample($original, 'reporting', 'o_rep_2', spread_ms => 400);
sample_over($clone, 'reporting', 'c_rep', 'o_rep_2', 'clone');
no_repeated_ids('clone and original');
$clone->stop;

# ---- a dump restored onto a new server, beside the running original ----
my $new = idseq_node('new_server');
($ret, $out, $err) = $new->psql('postgres', 'SELECT snowflake_nextval()');
like($err, qr/idseq\.node_id is not set/, 'new server: no id before a node id is set');
runbook_ok('node-ids', 'new server', node => $new, vars => { node_id => 2, node_ids_by_database => '' });
node_ids_are($new, { postgres => 2 }, 'new server');
my $dump = $original->basedir . '/app.dump';
runbook_ok('dump', 'new server', node => $original, env => { DB => 'app', DUMP => $dump });
runbook_ok('restore', 'new server', node => $new, env => { COPY_DB => 'app', DUMP => $dump });
node_ids_are($new, { app => 2 }, 'new server');
my $clock_back = $new->safe_psql('postgres', "SELECT now() - interval '1 hour'");
sample($new, 'app', 'n_app_1', at => $clock_back);
above_before($new, 'app', 'n_app_1', 'new server, its clock an hour back');
past_lease_of($original, @{ sampled('n_app_1') });
sample($original, 'app', 'o_app_3', spread_ms => 400);
sample_over($new, 'app', 'n_app_2', 'o_app_3', 'new server');
no_repeated_ids('new server and original');
$new->stop;

# ---- the dump restored into a second database of the original ----
runbook_ok('restore', 'second database', node => $original, env => { COPY_DB => 'app_copy', DUMP => $dump });
sample($original, 'app', 'o_app_4', n => 1000);
# preloaded, the copy shares the server's stream with app: it issues at once, above the dump's ids
sample($original, 'app_copy', 'oc_0', n => 1000);
above_before($original, 'app_copy', 'oc_0', 'second database, at once');
runbook_ok('second-database-node-id', 'second database', node => $original,
    vars => { node_ids_by_database => 'reporting=11, app_copy=14' });
node_ids_are($original, { app => 1, reporting => 11, app_copy => 14 }, 'second database');
sample($original, 'app_copy', 'oc_1');
above_before($original, 'app_copy', 'oc_1', 'second database');
sample($original, 'app', 'o_app_5');
sample($original, 'reporting', 'o_rep_5');
no_repeated_ids('second database');

# ---- pg_upgrade into a fresh initdb ----
$original->stop;
my $upgraded = PostgreSQL::Test::Cluster->new('upgraded');
$upgraded->init;
my $bindir = $upgraded->config_data('--bindir');
my $cwd = getcwd();
my %upgrade_env = (OLD_BINDIR => $bindir, NEW_BINDIR => $bindir,
    OLD_PGDATA => File::Spec->rel2abs($original->data_dir), NEW_PGDATA => File::Spec->rel2abs($upgraded->data_dir));
# pg_upgrade writes its scripts into the current directory and uses it for its sockets;
# its own variables PGPORTOLD and PGPORTNEW keep it off ports other tests use
chdir PostgreSQL::Test::Utils::tempdir or die;
runbook_ok('upgrade', 'pg_upgrade',
    env => { %upgrade_env, PGPORTOLD => $original->port, PGPORTNEW => $upgraded->port });
chdir $cwd or die;
runbook_ok('upgrade-settings', 'pg_upgrade', env => \%upgrade_env);
$upgraded->append_conf('postgresql.conf', "idseq.test_clock_offset_ms = -3600000\n");
$upgraded->start;
is($upgraded->safe_psql('app', "SELECT current_setting('idseq.snowflake_max_layouts', true) IS NOT NULL"), 't',
    'pg_upgrade: the preload line was carried');
($ret, $out, $err) = $upgraded->psql('app', 'SELECT snowflake_nextval()');
like($err, qr/the snowflake fence of this server is missing/, 'pg_upgrade: no id before the fence');
runbook_ok('upgrade-fence', 'pg_upgrade', node => $upgraded, db => 'app');
node_ids_are($upgraded, { app => 1, reporting => 11, app_copy => 14 }, 'pg_upgrade');
sample($upgraded, 'app', 'u_app');
sample($upgraded, 'reporting', 'u_rep');
sample($upgraded, 'app_copy', 'u_copy');
above_before($upgraded, $_->[0], $_->[1], 'pg_upgrade, its clock an hour back')
  for ['app', 'u_app'], ['reporting', 'u_rep'], ['app_copy', 'u_copy'];
no_repeated_ids('every server');
$upgraded->stop;

done_testing();
