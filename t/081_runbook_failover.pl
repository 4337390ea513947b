# The runbook's failover and point-in-time recovery (docs/operations.md), run with the commands
# the page prints: each block marked "<!-- runbook: name -->" there is read from the page and
# run as printed, only its placeholders filled in (runbook_ok). Then every snowflake id issued
# before and after, on every server and in every database involved (app with the server's node
# id, reporting with its own from idseq.node_id_by_database), is checked for duplicates and,
# where the page promises it, for order; node ids with the runbook's own check in each
# database. The promoted or recovered server's clock is set to the old ids' time, so that ids
# of one node id would meet:
#  - failover to a synchronous standby, under pgbench load and a client reading ids of a
#    transaction that never commits: the fence (an immediate stop), the promotion with the
#    same node ids, every new id above every id the old primary issued; the old primary
#    rewound and back as a standby;
#  - then failover back to it, now an asynchronous standby that misses the ids of more than a
#    lease (they left the server): new node ids for both databases before the promotion, the
#    new ids above every id it received and none of the lost ones; the other rewound;
#  - point-in-time recovery to a restore point before ids issued 6-7 s ahead of the clock:
#    paused at the target, one recovered server waits as the runbook says and issues above all
#    of them, another takes new node ids and issues over their time units.
use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;
use IdseqTest qw(idseq_node standby_of pgbench_start psql_start runbook_ok node_ids_are sample
  keep_sample sampled above_before sample_over time_of past_lease_of no_repeated_ids);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

# The ids of minted under $label in database $db of $node.
sub ids_of
{
    my ($node, $db, $label) = @_;
    return [ split /\n/, $node->safe_psql($db, "SELECT id FROM minted WHERE label = '$label'") ];
}

# A test that the runbook's fence stopped $node (the block stops it behind the back of
# PostgreSQL::Test::Cluster, which is told so).
sub fenced
{
    my ($node, $what) = @_;
    runbook_ok('failover-fence', $what, env => { PGDATA => $node->data_dir });
    $node->_update_pid(0);
    ok(!-f $node->data_dir . '/postmaster.pid', "$what: the old primary is stopped");
}

# The runbook's rejoin of $old as a standby of $new: pg_rewind, then started (with its own
# port again: pg_rewind copies the new primary's postgresql.conf, which the test keeps in the
# data directory); it replays the new primary's ids, with its node ids, and issues none.
sub rejoined
{
    my ($old, $new, $what, %node_ids) = @_;
    my (undef, $err) = runbook_ok('failover-rejoin', $what, env => { PGDATA => $old->data_dir,
        NEW_PRIMARY => $new->connstr('postgres') . ' application_name=' . $old->name });
    # (without it the old primary cannot follow the new one, and nothing after can run)
    like($err, qr/servers diverged at WAL location/, "$what: pg_rewind found where the timelines parted")
      or die "$what: pg_rewind did not rewind";
    $old->append_conf('postgresql.conf', 'port = ' . $old->port . "\n");
    $old->start;
    $new->wait_for_catchup($old);
    is($old->safe_psql('postgres', 'SELECT pg_is_in_recovery()'), 't', "$what: the old primary is a standby");
    is($old->safe_psql('app', 'SELECT count(*) FROM minted'), $new->safe_psql('app', 'SELECT count(*) FROM minted'),
        "$what: the old primary has the new primary's rows and no other");
    (undef, undef, $err) = $old->psql('app', 'SELECT snowflake_nextval()');
    like($err, qr/read-only transaction/, "$what: the old primary issues no id");
    node_ids_are($old, \%node_ids, "$what, the old primary");
}

my $ids = 20000;
my $conf = "max_connections = 30\nwal_keep_size = '64MB'\n";

# ---- failover to a synchronous standby ----
my $primary = idseq_node('primary', preload => 1, streaming => 1, conf => $conf);
for my $db ('app', 'reporting') {
    $primary->safe_psql('postgres', "CREATE DATABASE $db");
    $primary->safe_psql($db, 'CREATE EXTENSION idseq; CREATE TABLE minted (label text, g bigint, id bigint)');
}
runbook_ok('node-ids', 'primary', node => $primary, vars => { node_id => 1, node_ids_by_database => 'reporting=11' });
node_ids_are($primary, { app => 1, reporting => 11 }, 'primary');
my $standby = standby_of($primary, 'standby');
$primary->append_conf('postgresql.conf', "synchronous_standby_names = 'standby'\n");
$primary->reload;
$primary->poll_query_until('postgres', "SELECT count(*) = 1 FROM pg_stat_replication WHERE sync_state = 'sync'")
  or die 'the standby did not become synchronous';
sample($primary, 'app', 'p_app_1');
sample($primary, 'reporting', 'p_rep_1');

my @bench = map {
    my ($db, $label) = @$_;
    (pgbench_start($primary, clients => 2, time => 30, db => $db,
        script => "INSERT INTO minted SELECT '$label', g, snowflake_nextval() FROM generate_series(1, 100) g;\n"))[0]
} ['app', 'p_app_load'], ['reporting', 'p_rep_load'];
my ($reader, $read) = psql_start($primary, 'SELECT snowflake_nextval() FROM (SELECT generate_series(1, 1000000000)) s',
    db => 'app', fetch_count => 100);
$primary->poll_query_until('reporting', "SELECT count(*) >= 4000 FROM minted WHERE label = 'p_rep_load'")
  or die 'the load did not start';
$reader->pump until length($$read) > 100000;
fenced($primary, 'synchronous failover');
$_->finish for @bench, $reader;
keep_sample('p_app_read', [ grep { /^\d+$/ } split /\n/, $$read ]);
cmp_ok(scalar(@{ sampled('p_app_read') }), '>', 5000, 'synchronous failover: a client read ids of a transaction that never committed');

my %first = map { $_ => time_of($standby, sampled($_)->[0]) } 'p_app_1', 'p_rep_1';
runbook_ok('failover-promote', 'synchronous failover', node => $standby);
node_ids_are($standby, { app => 1, reporting => 11 }, 'synchronous failover, the promoted standby');
keep_sample('p_app_load', ids_of($standby, 'app', 'p_app_load'));
keep_sample('p_rep_load', ids_of($standby, 'reporting', 'p_rep_load'));
# its clock set back to the old primary's first id
sample($standby, 'app', 's_app_1', at => $first{p_app_1});
sample($standby, 'reporting', 's_rep_1', at => $first{p_rep_1});
above_before($standby, 'app', 's_app_1', 'synchronous failover');
above_before($standby, 'reporting', 's_rep_1', 'synchronous failover');
my ($read_max) = sort { $b <=> $a } @{ sampled('p_app_read') };
cmp_ok(sampled('s_app_1')->[0], '>', $read_max, 'synchronous failover: and above every id the client read, never committed');
no_repeated_ids('synchronous failover');
rejoined($primary, $standby, 'synchronous failover', app => 1, reporting => 11);

# ---- failover back, to an asynchronous standby that misses ids that left ----
is($standby->safe_psql('postgres', "SELECT sync_state FROM pg_stat_replication WHERE application_name = 'primary'"),
    'async', 'asynchronous failover: the standby is asynchronous');
sample($standby, 'app', 's_app_2');
sample($standby, 'reporting', 's_rep_2');
$standby->wait_for_catchup($primary);
# the standby is cut off; the primary goes on past the marks it received, and the rows it
# issues reach others (an export, a subscriber) but never the standby
$primary->stop;
past_lease_of($standby, @{ sampled('s_app_2') }, @{ sampled('s_rep_2') });
sample($standby, 'app', 's_app_lost', spread_ms => 400);
# (the promoted standby's fence, server-wide, goes with app's first reservation: reporting's
# claim is taken above it, so reporting's lost ids come past it)
past_lease_of($standby, @{ sampled('s_app_lost') });
# and by a second more: on the promoted server, app's sample over its lost ids moves the fence
# again, with the clock set back, by as long as that sample takes, which a loaded machine
# stretches past the 50 ms past_lease_of leaves
$standby->safe_psql('postgres', 'SELECT pg_sleep(1)');
sample($standby, 'reporting', 's_rep_lost', spread_ms => 400);
fenced($standby, 'asynchronous failover');
$primary->start;
runbook_ok('failover-node-ids', 'asynchronous failover', node => $primary,
    vars => { node_id => 2, node_ids_by_database => 'reporting=12' });
node_ids_are($primary, { app => 2, reporting => 12 }, 'asynchronous failover, the standby before its promotion');
runbook_ok('failover-promote', 'asynchronous failover', node => $primary);
is($primary->safe_psql('app', "SELECT count(*) FROM minted WHERE label = 's_app_lost'"), '0',
    'asynchronous failover: the promoted standby never received the lost ids');
sample_over($primary, 'app', 'p_app_2', 's_app_lost', 'asynchronous failover');
sample_over($primary, 'reporting', 'p_rep_2', 's_rep_lost', 'asynchronous failover');
no_repeated_ids('asynchronous failover');
rejoined($standby, $primary, 'asynchronous failover', app => 2, reporting => 12);
$standby->stop;
$primary->stop;

# ---- point-in-time recovery to an earlier point ----
my $old = idseq_node('pitr', preload => 1, streaming => 1, archiving => 1, conf => $conf);
for my $db ('app', 'reporting') {
    $old->safe_psql('postgres', "CREATE DATABASE $db");
    $old->safe_psql($db, 'CREATE EXTENSION idseq');
}
runbook_ok('node-ids', 'point-in-time recovery', node => $old, vars => { node_id => 5, node_ids_by_database => 'reporting=15' });
node_ids_are($old, { app => 5, reporting => 15 }, 'point-in-time recovery, the server');
$old->backup('base');
sample($old, 'app', 'q_app_1');
sample($old, 'reporting', 'q_rep_1');
$old->safe_psql('postgres', "SELECT pg_create_restore_point('before_ahead')");
# ids of a clock 6 s fast (set back later: the ids stay ahead), after the restore point
# (reporting's 1.2 s after app's: the new node ids' first reservation in app moves their
# server's fence, and reporting's claim is taken above it)
my ($ahead, $ahead_rep) = split /\|/, $old->safe_psql('postgres',
    "SELECT clock_timestamp() + interval '6 s', clock_timestamp() + interval '7.2 s'");
sample($old, 'app', 'q_app_2', at => $ahead, spread_ms => 400);
sample($old, 'reporting', 'q_rep_2', at => $ahead_rep, spread_ms => 400);
my $segment = $old->safe_psql('postgres', 'SELECT pg_walfile_name(pg_current_wal_lsn())');
$old->safe_psql('postgres', 'SELECT pg_switch_wal()');
$old->poll_query_until('postgres', "SELECT '$segment' <= last_archived_wal FROM pg_stat_archiver")
  or die 'the WAL was not archived';
$old->stop('immediate');

my %recovered;
for my $name ('pitr_wait', 'pitr_new_node') {
    my $node = PostgreSQL::Test::Cluster->new($name);
    $node->init_from_backup($old, 'base', has_restoring => 1, standby => 0);
    $node->append_conf('postgresql.conf',
        "recovery_target_name = 'before_ahead'\nrecovery_target_action = 'pause'\narchive_mode = off\n");
    $node->start;
    $node->poll_query_until('postgres', "SELECT pg_get_wal_replay_pause_state() = 'paused'")
      or die "$name did not pause at the recovery target";
    $recovered{$name} = $node;
}
my ($wait, $renamed) = @recovered{ 'pitr_wait', 'pitr_new_node' };
is($wait->safe_psql('app', "SELECT count(*) FROM minted WHERE label = 'q_app_2'"), '0',
    'point-in-time recovery: paused before the ids ahead of the clock');
my ($latest) = sort { $b <=> $a } map { @{ sampled($_) } } 'q_app_2', 'q_rep_2';
is($wait->safe_psql('app', "SELECT clock_timestamp() < snowflake_timestamp($latest)"), 't',
    "point-in-time recovery: the recovered server's clock is behind the newest id issued before");

# new node ids: no wait, its clock set to the ids it must not meet
runbook_ok('copy-node-ids', 'point-in-time recovery, new node ids', node => $renamed,
    vars => { node_id => 6, node_ids_by_database => 'reporting=16' });
node_ids_are($renamed, { app => 6, reporting => 16 }, 'point-in-time recovery, new node ids');
runbook_ok('pitr-resume', 'point-in-time recovery, new node ids', node => $renamed);
$renamed->poll_query_until('postgres', 'SELECT NOT pg_is_in_recovery()') or die 'recovery did not end';
sample_over($renamed, 'app', 'r_app', 'q_app_2', 'point-in-time recovery, new node ids');
sample_over($renamed, 'reporting', 'r_rep', 'q_rep_2', 'point-in-time recovery, new node ids');

# the same node ids: the runbook's wait
runbook_ok('pitr-wait', 'point-in-time recovery, the wait', node => $wait, vars => { latest_id => $latest });
runbook_ok('pitr-resume', 'point-in-time recovery, the wait', node => $wait);
$wait->poll_query_until('postgres', 'SELECT NOT pg_is_in_recovery()') or die 'recovery did not end';
node_ids_are($wait, { app => 5, reporting => 15 }, 'point-in-time recovery, the wait');
sample($wait, 'app', 'w_app');
sample($wait, 'reporting', 'w_rep');
cmp_ok(sampled('w_app')->[0], '>', $latest, 'point-in-time recovery, the wait: app issues above every id issued before');
cmp_ok(sampled('w_rep')->[0], '>', $latest, 'point-in-time recovery, the wait: reporting issues above every id issued before');
no_repeated_ids('point-in-time recovery');
$_->stop for $wait, $renamed;

done_testing();
