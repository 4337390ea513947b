# Two databases of one server issue one layout's ids with the same node id, one after the
# other, across a clean restart (pg_ctl stop -m fast and -m smart, with preload): whatever the
# generator keeps across the restart, a database that issues ids after another one never
# repeats the other's ids. Three shapes:
#  - a minute layout, no clock change: scratch issues a few ids, clean restart, app issues
#    20,000 in the same minute, then scratch again;
#  - the built-in layout with the clock set back into app's ids before scratch goes on;
#  - a third database's owner raising her own mark a few seconds ahead first.
# Every id of both databases is checked for repeats.
use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;
use IdseqTest qw(idseq_node repeated_ids);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $minute = "'min_ids', '2024-01-01 00:00:00+00', 'time:30,node:10,seq:18', '1 minute'";

sub ids_of
{
    my ($node, $db) = @_;
    return [ split /\n/, $node->safe_psql($db, 'SELECT id FROM ids ORDER BY id') ];
}

sub mint_into
{
    my ($node, $db, $layout, $n, $offset_ms) = @_;
    my $set = defined $offset_ms ? "SET idseq.test_clock_offset_ms = $offset_ms;" : '';
    $node->safe_psql($db, "$set INSERT INTO ids SELECT snowflake_nextval('$layout') FROM generate_series(1, $n)");
}

for my $mode ('fast', 'smart') {
    # minute layout, no clock change
    my $node = idseq_node("minute_$mode", preload => 1, node_id => 1);
    for my $db ('app', 'scratch') {
        $node->safe_psql('postgres', "CREATE DATABASE $db");
        $node->safe_psql($db, "CREATE EXTENSION idseq; CREATE TABLE ids (id bigint);
            SELECT snowflake_create_layout($minute)");
    }
    # all of it within one minute unit: start right after a minute begins
    $node->poll_query_until('postgres', "SELECT extract(second FROM clock_timestamp()) < 5")
      or die 'no minute start';
    mint_into($node, 'scratch', 'min_ids', 10);
    $node->stop($mode);
    $node->start;
    mint_into($node, 'app', 'min_ids', 20000);
    mint_into($node, 'scratch', 'min_ids', 20000);
    is(repeated_ids(ids_of($node, 'app'), ids_of($node, 'scratch')), 0,
        "minute layout, clean restart ($mode): app and scratch never issue the same id");
    $node->stop('fast');

    # built-in layout, the clock set back into app's ids before scratch goes on
    $node = idseq_node("clock_$mode", preload => 1, node_id => 1);
    for my $db ('app', 'scratch', 'own') {
        $node->safe_psql('postgres', "CREATE DATABASE $db");
        $node->safe_psql($db, 'CREATE EXTENSION idseq; CREATE TABLE ids (id bigint)');
    }
    mint_into($node, 'scratch', 'snowflake', 10);
    # a third database's own mark a few seconds ahead (what its owner may do with setval)
    $node->safe_psql('own', "SELECT setval('idseq_sf_state_snowflake',
        (extract(epoch FROM clock_timestamp() - '2010-11-04 01:42:54.657+00') * 1000)::bigint + 5000);
        INSERT INTO ids SELECT snowflake_nextval() FROM generate_series(1, 10)");
    $node->stop($mode);
    $node->start;
    mint_into($node, 'app', 'snowflake', 100000);
    mint_into($node, 'scratch', 'snowflake', 100000, -3000);
    is(repeated_ids(ids_of($node, 'app'), ids_of($node, 'scratch'), ids_of($node, 'own')), 0,
        "built-in layout, clean restart ($mode), clock set back 3 s: no id issued twice");
    $node->stop('fast');
}

done_testing();
