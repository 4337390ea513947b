# Crash drift on layouts whose time unit is longer than the lease, on both generator paths.
#
# 1. A minute layout and a second layout, default lease (1 s), several immediate stops in a
# row, each after a few ids: before 1.3 the durable mark covered whole units, so every restart
# skipped the marked unit and the drift added up (a minute layout 60, 119, 178, ... s ahead
# after 1, 2, 3, ... crashes). The mark now ends inside a unit and a restart resumes inside
# it, so after any number of crashes:
#  - every id is at most one lease plus one unit ahead of the clock (the documented bound);
#  - the minute layout's ids stay in the clock's minute or the next (never 2 minutes ahead);
#  - every id is above every id issued before the crash (never repeated, never backwards).
#
# 2. A crash under load in the middle of a minute, an hour and a day (custom layouts of 2^18,
# 2^20 and 2^20 counters per unit, the clock placed a quarter into a fresh unit with
# idseq.test_clock_offset_ms): pgbench with 6 clients, each transaction one id committed into
# a table, then an immediate stop; after the restart one id, then in one statement the ids
# that must still fit the unit. A crash costs at most a lease's worth of the layout's
# capacity, W = ceil(counters per unit * lease / unit) counters (4,370, 292 and 13 here):
#  (a) every id after the crash is above every id before, and no id repeats;
#  (b) the first id after the crash is in the unit of the last committed one, and at most
#      W + 6 counters lie between them (the 6: ids of the transactions the crash cut short,
#      unseen; the generator itself skips at most W);
#  (c) the rest of the unit, all but W + 6 of the counters after the last committed id, is
#      issued at once in that unit, without waiting for the next one.
# Before, the mark sat at the lease point, the clock's share of the unit plus the lease, so
# the crash skipped everything between the ids and that share (63,292 to 258,585 counters),
# and the ids that fit the rest of the unit waited 44 s for the next minute, or were still
# waiting for the next hour or day at the 60 s statement_timeout. (And the fills, a
# reservation per W ids, stopped at times with "xlog flush request ... is not satisfied"
# while the fence's flush asked for WAL past its record.)
use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;
use IdseqTest qw(idseq_node switch_path pgbench_start alter_system);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes ();
use POSIX qw(ceil floor);

my $node = idseq_node('sf_long_units', node_id => 3, conf => "max_connections = 20\n", start => 0);

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

# ---- 2. A crash under load in the middle of a minute, an hour, a day ----

my $clients = 6;
my %attack = (
    minute => { unit_ms => 60000, fields => 'time:36,node:4,seq:18', seq_bits => 18 },
    hour => { unit_ms => 3600000, fields => 'time:30,node:4,seq:20', seq_bits => 20 },
    day => { unit_ms => 86400000, fields => 'time:24,node:4,seq:20', seq_bits => 20 },
);
my $offset_ms = 0; # idseq.test_clock_offset_ms in force

# Moves the generator's clock forward to a quarter into a unit that starts after every
# reservation made so far (each is at most a lease past the clock): the layout's first ids
# start at its first counter, and the crash comes mid-unit. Returns the unit's start (Unix ms).
sub place_clock
{
    my ($unit_ms) = @_;
    my $now_ms = floor(Time::HiRes::time() * 1000);
    my $start = (floor(($now_ms + $offset_ms + 5000 + $lease_ms) / $unit_ms) + 1) * $unit_ms;
    $offset_ms = $start + floor($unit_ms / 4) - $now_ms;
    alter_system($node, ["idseq.test_clock_offset_ms = $offset_ms"], wait => 1);
    return $start;
}

# The time (Unix ms), node and seq of an id.
sub unpack_id
{
    my ($id, $layout) = @_;
    return split /\|/, $node->safe_psql('postgres',
        "SELECT floor(extract(epoch FROM ts) * 1000)::bigint, node, seq FROM snowflake_unpack($id, '$layout')");
}

my @units = sort { $attack{$a}{unit_ms} <=> $attack{$b}{unit_ms} } keys %attack;
# A layout per unit and path, each a definition of its own (the epoch a day apart per path),
# and its first id now: the first id of a definition in a database continues above the
# server's snowflake fence, which the fills below raise to the end of their units, and which
# all layouts of units above a second share (one day's fill would put a later minute's first
# ids at the end of that day).
$node->safe_psql('postgres', 'CREATE TABLE attack (layout text, round text, id bigint)');
for my $path ('shared', 'plain') {
    for my $unit (@units) {
        my $layout = "attack_${unit}_$path";
        $node->safe_psql('postgres', qq{
            SELECT snowflake_create_layout('$layout', '2024-01-0} . ($path eq 'shared' ? 1 : 2)
              . qq{ 00:00:00+00', '$attack{$unit}{fields}', '1 $unit');
            SELECT snowflake_nextval('$layout');});
    }
}

for my $path ('shared', 'plain') {
    switch_path($node, $path);
    for my $unit (@units) {
        my $u = $attack{$unit};
        my $layout = "attack_${unit}_$path";
        my $space = 2**$u->{seq_bits};
        my $worth = ceil($space * $lease_ms / $u->{unit_ms});
        my $start = place_clock($u->{unit_ms});

        my ($bench) = pgbench_start($node, clients => $clients, time => 120, protocol => '',
            script => "INSERT INTO attack VALUES ('$layout', 'before', snowflake_nextval('$layout'));\n");
        $node->poll_query_until('postgres',
            "SELECT count(*) >= 3000 FROM attack WHERE layout = '$layout' AND round = 'before'")
          or die "$path, $unit: the load did not start";
        $node->stop('immediate');
        $bench->finish;
        $node->start;

        my ($before_n, $last) = split /\|/, $node->safe_psql('postgres',
            "SELECT count(*), max(id) FROM attack WHERE layout = '$layout' AND round = 'before'");
        my ($last_ts, undef, $last_seq) = unpack_id($last, $layout);
        is($last_ts, $start, "$path, $unit: $before_n ids committed before the crash, in the placed unit");
        my $first = $node->safe_psql('postgres',
            "INSERT INTO attack VALUES ('$layout', 'first', snowflake_nextval('$layout')) RETURNING id");
        my ($first_ts, undef, $first_seq) = unpack_id($first, $layout);
        is($first_ts, $start, "$path, $unit: the first id after the crash is in the same unit");
        my $skipped = $first_seq - $last_seq - 1;
        cmp_ok($skipped, '<=', $worth + $clients,
            "$path, $unit: the crash skipped $skipped counters of $space (W = $worth, + $clients unseen)");

        # the rest of the unit: every counter past the last committed id but W + clients
        my $rest = $space - 1 - $last_seq - $worth - $clients;
        my $t0 = Time::HiRes::time();
        my ($ret, undef, $err) = $node->psql('postgres', qq{
            SET statement_timeout = '60s';
            INSERT INTO attack SELECT '$layout', 'rest', snowflake_nextval('$layout') FROM generate_series(2, $rest)});
        my $took = sprintf('%.1f', Time::HiRes::time() - $t0);
        is($ret, 0, "$path, $unit: the $rest ids that fit the rest of the unit were issued ($took s)")
          or diag($err);
        is($node->safe_psql('postgres', qq{
            SELECT count(*) FROM attack, snowflake_unpack(id, '$layout') u
             WHERE layout = '$layout' AND round = 'rest' AND floor(extract(epoch FROM u.ts) * 1000)::bigint <> $start}),
            '0', "$path, $unit: ... all in the unit of the crash, none waiting for the next");
        is($node->safe_psql('postgres', qq{
            SELECT count(*) - count(DISTINCT id) + count(*) FILTER (WHERE round <> 'before' AND id <= $last)
              FROM attack WHERE layout = '$layout'}),
            '0', "$path, $unit: no id repeats, every id after the crash is above every id before");
        note("$path, $unit: $before_n ids committed before the crash, the restart skipped $skipped counters "
              . "(W = $worth), $rest ids after it took $took s");
    }
}

$node->stop;
done_testing();
