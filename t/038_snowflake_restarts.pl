# Restarts and drift, with a long lease (idseq.snowflake_lease_ms =
# 10 s) on both generator paths:
#  - a clean restart costs no drift: the first id after it lies in the clock's unit, or right
#    after the last id before it when that is later (shared memory: the postmaster saves the
#    generators' state at the clean shutdown; without it: the unlogged last-id sequence
#    survives a clean restart);
#  - crashes in quick succession (immediate stops) never put ids more than one lease ahead of
#    the clock, however many come in a row (the lease counts from the clock, not from an id
#    already ahead of it);
#  - a clean restart that switches from the path without shared memory to it costs no drift;
#  - and every id stays above every id issued before.
use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;
use IdseqTest qw(idseq_node switch_path);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $lease_ms = 10000;
my $node = idseq_node('sf_restarts', node_id => 2, conf => "idseq.snowflake_lease_ms = $lease_ms\nmax_connections = 10\n",
    start => 0);

# One id: the id, how far its time lies ahead of the clock read right after it (ms), and how
# far ahead of the time of the previous id (ms; 0 when it is in the same unit).
sub first_id
{
    my ($prev) = @_;
    my $res = $node->safe_psql('postgres', qq{
        SELECT id, extract(epoch FROM snowflake_timestamp(id) - clock_timestamp()) * 1000,
               extract(epoch FROM snowflake_timestamp(id) - snowflake_timestamp($prev)) * 1000
          FROM (SELECT snowflake_nextval() AS id OFFSET 0) s});
    return split /\|/, $res;
}

for my $path ('shared', 'plain') {
    switch_path($node, $path);
    $node->safe_psql('postgres', 'CREATE EXTENSION idseq') if $path eq 'shared';
    my $last = $node->safe_psql('postgres', 'SELECT max(snowflake_nextval()) FROM generate_series(1, 1000)');

    # Clean restarts in quick succession: each first id follows the last one or the clock.
    my @ahead;
    for my $round (1 .. 6) {
        $node->restart;
        my ($id, $ahead_ms, $after_last_ms) = first_id($last);
        cmp_ok($id, '>', $last, "$path clean restart $round: the first id is above the last one");
        ok($ahead_ms <= 1 || $after_last_ms <= 1,
            "$path clean restart $round: no drift (ahead of the clock by $ahead_ms ms, "
              . "$after_last_ms ms after the last id)");
        push @ahead, $ahead_ms;
        $last = $node->safe_psql('postgres', 'SELECT max(snowflake_nextval()) FROM generate_series(1, 1000)');
    }
    note("$path: ms ahead of the clock after each clean restart: @ahead");

    # Crashes in quick succession: never more than the lease ahead of the clock.
    @ahead = ();
    for my $round (1 .. 6) {
        $node->stop('immediate');
        $node->start;
        my ($id, $ahead_ms) = first_id($last);
        cmp_ok($id, '>', $last, "$path crash $round: the first id is above every id before");
        cmp_ok($ahead_ms, '<=', $lease_ms, "$path crash $round: at most the lease ahead of the clock ($ahead_ms ms)");
        push @ahead, $ahead_ms;
        $last = $node->safe_psql('postgres', 'SELECT max(snowflake_nextval()) FROM generate_series(1, 1000)');
    }
    note("$path: ms ahead of the clock after each immediate stop: @ahead");
    # A clean restart after the crashes: the drift they left stays, it does not grow.
    $node->restart;
    my ($id, $ahead_ms, $after_last_ms) = first_id($last);
    cmp_ok($id, '>', $last, "$path: clean restart after the crashes: above every id before");
    ok($ahead_ms <= 1 || $after_last_ms <= 1, "$path: clean restart after the crashes adds no drift");
}

# A clean restart that adds idseq to shared_preload_libraries: the shared-memory path resumes
# right after the last id of the path without it (kept in its unlogged sequence), so the
# switch costs no drift either. (Removing it costs up to one lease: the path without shared
# memory starts above the durable mark.)
my $last = $node->safe_psql('postgres', 'SELECT max(snowflake_nextval()) FROM generate_series(1, 1000)');
switch_path($node, 'shared');
is($node->safe_psql('postgres', 'SHOW shared_preload_libraries'), 'idseq', 'restarted with preload');
my ($id, $ahead_ms, $after_last_ms) = first_id($last);
cmp_ok($id, '>', $last, 'switch to shared memory by a clean restart: above every id before');
ok($ahead_ms <= 1 || $after_last_ms <= 1,
    "switch to shared memory by a clean restart: no drift (ahead of the clock by $ahead_ms ms, "
      . "$after_last_ms ms after the last id)");
$node->stop;
done_testing();
