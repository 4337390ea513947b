# Crash drift on layouts whose time unit is longer than the lease: a
# minute layout and a second layout, default lease (1 s), on both generator paths. Several
# immediate stops in a row, each after a few ids: before 1.3 the durable mark covered whole
# units, so every restart skipped the marked unit and the drift added up (a minute layout
# 60, 119, 178, ... s ahead after 1, 2, 3, ... crashes). The mark now ends inside a unit and
# a restart resumes inside it, so after any number of crashes:
#  - every id is at most one lease plus one unit ahead of the clock (the documented bound);
#  - the minute layout's ids stay in the clock's minute or the next (never 2 minutes ahead);
#  - every id is above every id issued before the crash (never repeated, never backwards).
use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;
use IdseqTest qw(idseq_node switch_path);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = idseq_node('sf_long_units', node_id => 3, conf => "max_connections = 10\n", start => 0);

my %unit_ms = (min2 => 60000, sec2 => 1000);
my $lease_ms = 1000;
my %last;

# A few ids of each layout, with how far each lies ahead of the clock read right after it (ms).
sub mint
{
    my ($label) = @_;
    for my $layout (sort keys %unit_ms) {
        my @rows = split /\n/, $node->safe_psql('postgres', qq{
            SELECT id, extract(epoch FROM snowflake_timestamp(id, '$layout') - clock_timestamp()) * 1000
              FROM (SELECT snowflake_nextval('$layout') AS id FROM generate_series(1, 5) OFFSET 0) s});
        my $bound = $lease_ms + $unit_ms{$layout};
        my ($ahead_max, $ok_order) = (-1e18, 1);
        for my $row (@rows) {
            my ($id, $ahead) = split /\|/, $row;
            $ok_order &&= !defined $last{$layout} || $id > $last{$layout};
            $last{$layout} = $id;
            $ahead_max = $ahead if $ahead > $ahead_max;
        }
        ok($ok_order, "$label, $layout: each id above every id before");
        cmp_ok($ahead_max, '<=', $bound,
            "$label, $layout: at most lease + 1 unit ahead of the clock ($ahead_max ms)");
        if ($layout eq 'min2') {
            # in the clock's minute, or (in the last second of a minute) the next one
            cmp_ok($ahead_max, '<=', $lease_ms, "$label, min2: not a minute ahead ($ahead_max ms)");
        }
    }
}

for my $path ('shared', 'plain') {
    switch_path($node, $path);
    if ($path eq 'shared') {
        $node->safe_psql('postgres', q{
            CREATE EXTENSION idseq;
            SELECT snowflake_create_layout('min2', '2024-01-01', 'time:36,node:4,seq:10', '1 minute');
            SELECT snowflake_create_layout('sec2', '2024-01-01', 'time:40,node:4,seq:10', '1 second');});
    }
    mint("$path start");
    for my $crash (1 .. 5) {
        $node->stop('immediate');
        $node->start;
        mint("$path crash $crash");
    }
}

# Every id ever issued is distinct (the table of this run's ids would be redundant: each was
# checked above every earlier one).
$node->stop;
done_testing();
