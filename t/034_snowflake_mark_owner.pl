# A database owner cannot lower a generator's durable high-water mark.
# The database owner (the predefined role pg_database_owner) may set the marks with setval,
# because a pg_restore --no-owner of its own database writes them that way
# (t/092_nonsuperuser.pl); lowering one must not let the generator go back under ids it issued
# before a crash. The attack, on both generator paths: ids are minted ahead of the clock (a
# custom layout with hour units, whose ids all share the clock's unit; the built-in layout with
# the clock shifted an hour ahead, then set back), the database owner sets both marks to 1, the
# server stops in immediate mode and comes back; every id after that must be above every id
# before. (Each path has a layout of its own: ids an hour ahead after one path's crash would
# make the other path's first ids wait for the clock.)
use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;
use IdseqTest qw(idseq_node switch_path psql_as);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = idseq_node('sf_mark_owner', node_id => 4, conf => "max_connections = 10\n", extension => 0);
$node->safe_psql('postgres', q{
    CREATE ROLE alice LOGIN;
    CREATE DATABASE app OWNER alice;
});
$node->safe_psql('app', q{
    CREATE EXTENSION idseq;
    SELECT snowflake_create_layout('hourly_shared', '2024-01-01 00:00:00+00', 'time:30,node:4,seq:20', '1 hour');
    SELECT snowflake_create_layout('hourly_plain', '2024-01-02 00:00:00+00', 'time:30,node:4,seq:20', '1 hour');
    CREATE TABLE ids (layout text, id bigint, round int, PRIMARY KEY (layout, id));
    GRANT ALL ON ids TO alice;
});

for my $path ('shared', 'plain') {
    $node->append_conf('postgresql.conf', "idseq.test_clock_offset_ms = 3600000\n");
    switch_path($node, $path);
    my $round = $path eq 'shared' ? 1 : 3;
    my $hourly = "hourly_$path";
    my $mint = qq{
        INSERT INTO ids SELECT '$hourly', snowflake_nextval('$hourly'), %d FROM generate_series(1, 1000);
        INSERT INTO ids SELECT 'snowflake', snowflake_nextval(), %d FROM generate_series(1, 1000);
    };
    $node->safe_psql('app', sprintf($mint, $round, $round));

    my ($ok, undef, $err) = psql_as($node, 'alice', 'app',
        qq{SELECT setval('idseq_sf_state_$hourly', 1), setval('idseq_sf_state_snowflake', 1)});
    note("$path: the database owner's setval: " . ($ok ? 'accepted' : "refused: $err"));

    # A crash, and the clock an hour back (where it really is).
    $node->append_conf('postgresql.conf', "idseq.test_clock_offset_ms = 0\n");
    $node->stop('immediate');
    $node->start;
    $round++;
    $node->safe_psql('app', sprintf($mint, $round, $round));
    for my $layout ($hourly, 'snowflake') {
        is($node->safe_psql('app', qq{
            SELECT count(*) FROM ids WHERE layout = '$layout' AND round = $round
               AND id <= (SELECT max(id) FROM ids WHERE layout = '$layout' AND round < $round)}),
            '0', "$path, $layout: after a lowered mark and a crash, every id is above every id before");
    }
}

# The last-id sequence of the path without shared memory holds the last id issued; the
# database owner may setval it (a restore writes it). A value set by anybody but idseq is
# read as unknown, and the generator restarts above the durable mark as read then, also in a
# session that read the mark before the reset: no id is issued again, without any crash.
$node->safe_psql('app', q{
    SELECT snowflake_create_layout('hourly_reset', '2024-01-03 00:00:00+00', 'time:30,node:4,seq:20', '1 hour')});
for my $reset ('1', '1, true', '1, false') {
    my $tag = "setval(last, $reset)";
    $node->safe_psql('app', qq{
        INSERT INTO ids SELECT 'hourly_reset', snowflake_nextval('hourly_reset'), 10 FROM generate_series(1, 500);
        SELECT setval('idseq_sf_last_hourly_reset', $reset);
        INSERT INTO ids SELECT 'hourly_reset', snowflake_nextval('hourly_reset'), 11 FROM generate_series(1, 500);
    });
    my ($ok, undef, $err) = psql_as($node, 'alice', 'app', qq{SELECT setval('idseq_sf_last_hourly_reset', $reset)});
    note("$tag by the database owner: " . ($ok ? 'accepted' : "refused: $err"));
    $node->safe_psql('app', q{
        INSERT INTO ids SELECT 'hourly_reset', snowflake_nextval('hourly_reset'), 12 FROM generate_series(1, 500);
        UPDATE ids SET round = 9 WHERE layout = 'hourly_reset';
    });
    is($node->safe_psql('app', q{SELECT count(*), count(DISTINCT id) FROM ids WHERE layout = 'hourly_reset'}) =~ /^(\d+)\|\1$/ ? 1 : 0,
       1, "plain path, $tag in the issuing session and by the database owner: no id issued twice");
}
is($node->safe_psql('app', q{SELECT count(*) FROM ids WHERE layout = 'hourly_reset'}), '4500',
   'every id of the resets is stored');

# A database owner can still set a mark (what pg_restore --no-owner does).
my ($ok, undef, $err) = psql_as($node, 'alice', 'app', q{SELECT setval('idseq_sf_state_hourly_plain', 1000000)});
ok($ok, 'the database owner can still set a mark, as a restore does') or diag($err);

done_testing();
