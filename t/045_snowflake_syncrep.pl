# Synchronous failover: with synchronous_standby_names set, no id may
# be issued under a high-water mark the synchronous standby has not confirmed, so a promoted
# standby never re-issues an id the old primary handed out. Three ways the old primary could
# issue ids under an unconfirmed mark, each on its own layout, on both generator paths:
#   a) a reservation waits for the (stopped) standby; another session, new to the layout,
#      reads the mark it has written (the path without shared memory read it unlocked);
#   b) a session with synchronous_commit = local (any user may set it) skips the wait;
#   c) statement_timeout cancels the wait ("canceling wait for synchronous replication"),
#      which used to leave the reservation in force.
# The layouts have one id per time unit and the lease is 0, so every id needs a reservation;
# the clock is set an hour back after the first ids, so that every id goes into the unit
# after the last one: the old primary's unconfirmed ids and the promoted standby's first ids
# would be the very same ids.
use strict;
use warnings;
use Time::HiRes qw(usleep);
use FindBin;
use lib $FindBin::RealBin;
use IdseqTest qw(idseq_node standby_of promote_and_wait psql_start alter_system);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my @holes = ('hole_a', 'hole_b', 'hole_c');

sub ids_in { return grep { /^\d+$/ } split /\n/, ($_[0] // ''); }

# Runs statements in a transaction that is never committed (the client disconnects): the ids
# reach the client as soon as the statement ends, whatever a commit would wait for. A time
# limit, so that a session that would hang fails the test instead.
sub in_open_transaction
{
    my ($node, $sql) = @_;
    my ($out, $err) = ('', '');
    $node->psql('postgres', "BEGIN; $sql", stdout => \$out, stderr => \$err, timeout => 60);
    return ($out, $err);
}

# A primary that streams, with idseq on the given path ('shared': preloaded) and lease, started
# with the extension created.
sub new_primary
{
    my ($name, $path, $lease_ms) = @_;
    return idseq_node($name, streaming => 1, preload => $path eq 'shared', node_id => 1,
        conf => "idseq.snowflake_lease_ms = $lease_ms\nmax_connections = 20\n");
}

for my $path ('shared', 'plain') {
    my $primary = new_primary("sync_primary_$path", $path, 0);
    # (each with an epoch of its own: a layout identical to another is refused)
    my $day = 0;
    $primary->safe_psql('postgres', "SELECT snowflake_create_layout('$_', '2020-01-0" . ++$day . "', 'time:41,node:10')")
      for @holes;
    my $standby = standby_of($primary, "sync_standby_$path", conf => qq{
synchronous_standby_names = ''
idseq.test_clock_offset_ms = -3600000
});
    $primary->append_conf('postgresql.conf', "synchronous_standby_names = '*'\n");
    $primary->reload;
    $primary->poll_query_until('postgres', "SELECT count(*) = 1 FROM pg_stat_replication WHERE sync_state = 'sync'");

    my %seen; # every id the old primary handed out, per layout
    my $mint = sub {
        my ($layout, $n) = @_;
        push @{ $seen{$layout} }, ids_in($primary->safe_psql('postgres',
            "SELECT snowflake_nextval('$layout') FROM generate_series(1, $n)"));
    };
    # Confirmed ids, first following the clock, then an hour ahead of it (one unit each).
    $mint->($_, 3) for @holes;
    alter_system($primary, ['idseq.test_clock_offset_ms = -3600000'], wait => 1);
    $mint->($_, 3) for @holes;
    $primary->wait_for_catchup($standby);
    is(scalar(@{ $seen{$_} }), 6, "$path: 6 confirmed ids of $_") for @holes;
    $standby->stop;

    # a) A reservation waits for the standby ...
    my ($waiter, $a_out) = psql_start($primary, "SELECT snowflake_nextval('hole_a')");
    ok($primary->poll_query_until('postgres',
        "SELECT count(*) > 0 FROM pg_stat_activity WHERE wait_event = 'SyncRep'"),
        "$path: a reservation waits for the standby");
    # ... and a session new to the layout asks for ids meanwhile.
    my ($out, $err) = in_open_transaction($primary, "SET statement_timeout = '2s'; SELECT snowflake_nextval('hole_a')");
    push @{ $seen{hole_a} }, ids_in($out);
    is(scalar(ids_in($out)), 0, "$path a): no id while the reservation is not confirmed");

    # b) synchronous_commit = local does not skip the wait.
    ($out, $err) = in_open_transaction($primary, "SET synchronous_commit = local; SET statement_timeout = '2s';
         SELECT snowflake_nextval('hole_b') FROM generate_series(1, 5)");
    push @{ $seen{hole_b} }, ids_in($out);
    is(scalar(ids_in($out)), 0, "$path b): synchronous_commit = local issues no unconfirmed id");
    like($err, qr/canceling the wait for synchronous replication of snowflake layout "hole_b"/,
        "$path b): the wait ends in an error at the timeout");

    # c) A cancelled wait issues nothing and leaves no usable reservation behind.
    for my $attempt (1, 2) {
        ($out, $err) = in_open_transaction($primary, "SET statement_timeout = '1s'; SELECT snowflake_nextval('hole_c')");
        push @{ $seen{hole_c} }, ids_in($out);
        is(scalar(ids_in($out)), 0, "$path c): attempt $attempt: a cancelled wait issues no id");
        like($err, qr/ERROR:  canceling the wait for synchronous replication of snowflake layout "hole_c"/,
            "$path c): attempt $attempt: the cancelled wait is an error");
    }

    # The old primary dies; the standby, its clock an hour back too, takes over.
    $primary->stop('immediate');
    $waiter->finish;
    push @{ $seen{hole_a} }, ids_in($$a_out);
    $standby->start;
    promote_and_wait($standby);
    for my $layout (@holes) {
        my ($max_old) = sort { $b <=> $a } @{ $seen{$layout} };
        my $res = $standby->safe_psql('postgres', qq{
            SELECT count(*), min(id) > $max_old
              FROM (SELECT snowflake_nextval('$layout') AS id FROM generate_series(1, 20)) s});
        is($res, '20|t', "$path: the promoted standby's ids of $layout are above every id the old primary issued");
    }
    $standby->stop;
}

# d) A reservation confirmed while no synchronous standby was required (two outside attacks:
# with a 10 s lease, 112,880 ids re-issued after a failover; then a statement already running
# when the setting came, 742 re-issued): once the server requires synchronous standbys, no id
# goes under it before they have confirmed it, also in a statement that was running when the
# setting was reloaded. Here no standby ever connects, so every id asks for that confirmation
# and waits; the lease is long, so without the check every id came at once from the old mark.
# The server requires them once the checkpointer has read the setting (as for commits):
# sync_in_force waits for that, by a commit that waits.
my $probes = 0;
sub sync_in_force
{
    my $node = shift;
    for (1 .. 100) {
        my $name = 'sync_probe_' . ++$probes;
        my ($h) = psql_start($node, "CREATE TABLE $name ()");
        usleep(200_000);
        my $waiting = $node->safe_psql('postgres',
            "SELECT count(*) FROM pg_stat_activity WHERE wait_event = 'SyncRep' AND query = 'CREATE TABLE $name ()'");
        $node->safe_psql('postgres',
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = 'CREATE TABLE $name ()'") if $waiting;
        $h->finish;
        return 1 if $waiting;
    }
    return 0;
}
# Ids come again, without a wait, once the server no longer requires the standbys.
sub ids_flow
{
    my $node = shift;
    for (1 .. 100) {
        my ($ret, $out, $err) = $node->psql('postgres',
            "SET statement_timeout = '500ms'; SELECT count(snowflake_nextval()) FROM generate_series(1, 10)");
        return 1 if $ret == 0 && $out eq '10';
        usleep(100_000);
    }
    return 0;
}
sub set_sync_names
{
    my ($node, $names) = @_;
    $node->append_conf('postgresql.conf', "synchronous_standby_names = '$names'\n");
    $node->reload;
    $node->poll_query_until('postgres', "SELECT current_setting('synchronous_standby_names') = '$names'");
}

for my $path ('shared', 'plain') {
    my $node = new_primary("sync_late_$path", $path, 600000);
    my $first = $node->safe_psql('postgres', 'SELECT max(snowflake_nextval()) FROM generate_series(1, 1000)');
    set_sync_names($node, 'nostandby');
    ok(sync_in_force($node), "$path d): the server requires the synchronous standby");
    for my $attempt (1, 2) { # a new session, twice
        my ($out, $err) = in_open_transaction($node,
            "SET statement_timeout = '1s'; SELECT snowflake_nextval() FROM generate_series(1, 1000)");
        is(scalar(ids_in($out)), 0, "$path d): no id under a reservation made before synchronous standbys were required");
        like($err, qr/canceling the wait for synchronous replication of snowflake layout "snowflake"/,
            "$path d): the wait for their confirmation ends in the timeout's error");
    }

    # A statement running when the setting is reloaded: ids at first, then a wait for the
    # standbys' confirmation in the middle of the statement.
    set_sync_names($node, '');
    ok(ids_flow($node), "$path d): without synchronous standbys, ids again");
    my $long = 'SELECT snowflake_nextval(), pg_sleep(0.002) FROM generate_series(1, 20000) g';
    my ($session, $s_out, $s_err) = psql_start($node, $long);
    $node->poll_query_until('postgres', "SELECT count(*) = 1 FROM pg_stat_activity WHERE query = '$long' AND wait_event = 'PgSleep'");
    set_sync_names($node, 'nostandby2');
    ok($node->poll_query_until('postgres', "SELECT count(*) = 1 FROM pg_stat_activity WHERE query = '$long' AND wait_event = 'SyncRep'"),
        "$path d): a statement already running waits for the standbys' confirmation once they are required");
    $node->safe_psql('postgres', "SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE query = '$long'");
    $session->finish;
    is(scalar(ids_in($$s_out)), 0, "$path d): ... and, cancelled there, returns no id");
    like($$s_err, qr/ERROR:  canceling the wait for synchronous replication of snowflake layout "snowflake"/,
        "$path d): ... the cancelled wait is the error");

    set_sync_names($node, '');
    ok(ids_flow($node), "$path d): without synchronous standbys, ids again");
    is($node->safe_psql('postgres', "SELECT min(snowflake_nextval()) > $first FROM generate_series(1, 1000)"), 't',
        "$path d): without synchronous standbys the ids come again, above the earlier ones");
    $node->stop;
}

done_testing();
