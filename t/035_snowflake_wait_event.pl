# A snowflake_nextval that waits for the clock shows it in pg_stat_activity:
# wait_event_type Timeout, wait_event PgSleep, as pg_sleep() shows its own. A layout with
# hour units and a 1-bit seq field holds two ids per hour, so the third call of a session
# waits for the next hour, on both generator paths; a cancel ends the wait. And a change of
# node id does not wait: on a layout with hour units, the first id after the reload comes at
# once (it waited up to an hour before), above the old node's ids, with the new node id.
use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;
use IdseqTest qw(idseq_node switch_path psql_start alter_system);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = idseq_node('sf_wait_event', node_id => 1, conf => "max_connections = 10\n");
$node->safe_psql('postgres', q{
    SELECT snowflake_create_layout('two_an_hour_shared', '2024-01-01 00:00:00+00', 'time:30,seq:1', '1 hour');
    SELECT snowflake_create_layout('two_an_hour_plain', '2024-01-02 00:00:00+00', 'time:30,seq:1', '1 hour');
    SELECT snowflake_create_layout('hourly_shared', '2024-01-03 00:00:00+00', 'time:30,node:4,seq:20', '1 hour');
    SELECT snowflake_create_layout('hourly_plain', '2024-01-04 00:00:00+00', 'time:30,node:4,seq:20', '1 hour');
});

for my $path ('shared', 'plain') {
    switch_path($node, $path);
    my $layout = "two_an_hour_$path";
    my ($waiter, $out, $err) = psql_start($node, "SELECT count(snowflake_nextval('$layout')) FROM generate_series(1, 3)");
    ok($node->poll_query_until('postgres', qq{
        SELECT count(*) > 0 FROM pg_stat_activity
         WHERE query LIKE '%snowflake_nextval(''$layout'')%' AND wait_event_type = 'Timeout' AND wait_event = 'PgSleep'}),
        "$path: a wait for the clock shows wait_event PgSleep");
    $node->safe_psql('postgres', qq{
        SELECT pg_cancel_backend(pid) FROM pg_stat_activity
         WHERE query LIKE '%snowflake_nextval(''$layout'')%' AND pid <> pg_backend_pid()});
    $waiter->finish;
    like($$err, qr/canceling statement due to user request/, "$path: a cancel ends the wait");

    # A node id change on an hourly layout: no wait for the next hour.
    alter_system($node, ['idseq.node_id = 1']);
    my $before = $node->safe_psql('postgres', "SELECT max(snowflake_nextval('hourly_$path')) FROM generate_series(1, 10)");
    alter_system($node, ['idseq.node_id = 2'], wait => 1);
    my ($ret, $id, $stderr) = $node->psql('postgres',
        "SET statement_timeout = '5s'; SELECT snowflake_nextval('hourly_$path')");
    is($ret, 0, "$path: after a node id change the next id comes at once") or diag($stderr);
    ok($id > $before, "$path: ... above the old node's ids");
    is($node->safe_psql('postgres', "SELECT node FROM snowflake_unpack($id, 'hourly_$path')"), '2',
        "$path: ... with the new node id");
}

done_testing();
