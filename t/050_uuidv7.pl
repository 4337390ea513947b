# idseq_uuidv7() under the snowflake generator's torture tests, on both of its paths (with
# idseq in shared_preload_libraries and without), with idseq.node_id unset: pgbench with many
# clients (every UUID distinct, each backend's increasing in the order of its transactions),
# two sessions taking turns (each UUID above the other backend's last: the order holds across
# backends, not only within one), the clock stepped back an hour under load
# (idseq.test_clock_offset_ms), an immediate-mode crash with a client streaming uncommitted
# UUIDs and a restart an hour behind, a dump restored into a cluster an hour behind, and the
# promotion of a standby an hour behind. After each, every new UUID is above every UUID seen
# before it, and its time did not follow the clock back.
use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;
use IdseqTest qw(idseq_node switch_path standby_of promote_and_wait dump_ok restore_ok pgbench_start
  crash_while_streaming alter_system not_increasing_sql);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = idseq_node('uuidv7', streaming => 1, preload => 1, conf => "max_connections = 30\nlog_statement = none\n");
is($node->safe_psql('postgres', 'SHOW idseq.node_id'), '-1', 'idseq.node_id is unset');
$node->safe_psql('postgres', q{
    CREATE TABLE u (u uuid PRIMARY KEY, round int, pid int, xid bigint, g int,
                    at timestamptz DEFAULT clock_timestamp());
});
my $script_file = $node->basedir . '/load.sql';
append_to_file($script_file, q{
INSERT INTO u (u, round, pid, xid, g)
SELECT idseq_uuidv7(), :round, pg_backend_pid(), pg_current_xact_id()::text::bigint, g
  FROM generate_series(1, 200) g;
});

# The millisecond in a version 7 UUID, as a timestamptz.
my $ms = q{to_timestamp(('x' || substr(replace(%s::text, '-', ''), 1, 12))::bit(48)::bigint / 1000.0)};
sub ms_of { return sprintf($ms, $_[0]); }

sub start_load
{
    my ($round, $seconds) = @_;
    my ($h, $out, $err) = pgbench_start($node, clients => 8, time => $seconds, define => { round => $round },
        file => $script_file);
    return ($h, $err);
}

# Every UUID of a round is a version 7 UUID, distinct (the primary key), and each backend's
# increase in the order of its transactions and rows.
sub check_round
{
    my ($round, $min) = @_;
    my ($n, $backends, $bad, $v7) = split /\|/, $node->safe_psql('postgres', qq{
        SELECT count(*), count(DISTINCT pid),
               @{[ not_increasing_sql('u', "round = $round", 'u') ]},
               bool_and(substr(u::text, 15, 1) = '7' AND substr(u::text, 20, 1) IN ('8', '9', 'a', 'b'))
          FROM u WHERE round = $round});
    cmp_ok($n, '>=', $min, "round $round: $n UUIDs, all distinct (primary key)");
    is($bad, 0, "round $round: each of $backends backends drew increasing UUIDs");
    is($v7, 't', "round $round: all are version 7, variant 10");
}

# Two backends take turns: each UUID is above the one the other backend drew just before.
sub alternate
{
    my ($label) = @_;
    my @s = map { $node->background_psql('postgres') } 1 .. 2;
    my ($prev, $bad) = ('', 0);
    for my $i (1 .. 300) {
        my $v = $s[$i % 2]->query_safe('SELECT idseq_uuidv7()');
        $bad++ if $prev ne '' && !($v gt $prev);   # lowercase hex: text order is uuid order
        $prev = $v;
    }
    $_->quit for @s;
    is($bad, 0, "$label: 300 UUIDs from two backends taking turns, each above the one before");
}

sub max_uuid
{
    my ($where) = @_;
    return $node->safe_psql('postgres', "SELECT u FROM u WHERE $where ORDER BY u DESC LIMIT 1");
}

# pgbench, the backends taking turns, and the clock stepping back an hour in the middle of the
# load and forward again.
sub load_round
{
    my ($round) = @_;
    my ($bench, $err) = start_load($round, 6);
    ok($node->poll_query_until('postgres', "SELECT count(*) >= 20000 FROM u WHERE round = $round"),
        "round $round: load is running");
    my $before_step = max_uuid("round = $round");
    alter_system($node, ['idseq.test_clock_offset_ms = -3600000']);
    sleep 2;
    alter_system($node, ['idseq.test_clock_offset_ms = 0']);
    $bench->finish;
    is($?, 0, "round $round: pgbench ran without an error");
    check_round($round, 20000);
    my ($after, $time_kept) = split /\|/, $node->safe_psql('postgres', qq{
        SELECT count(*) FILTER (WHERE u > '$before_step'),
               bool_and(@{[ ms_of('u') ]} > at - interval '10 minutes')
          FROM u WHERE round = $round});
    cmp_ok($after, '>', 5000, "round $round: $after UUIDs were issued after the clock stepped back");
    is($time_kept, 't', "round $round: no UUID took the clock's time an hour back");
    alternate("round $round");
}

# An immediate-mode crash under load, a client streaming UUIDs no transaction committed; the
# server comes back with its clock an hour behind.
sub crash_round
{
    my ($round) = @_;
    my ($bench) = start_load($round, 60);
    # ~2700 UUIDs seen by the client
    my @streamed = grep { /^[0-9a-f-]{36}$/ } crash_while_streaming($node, $bench, 'idseq_uuidv7()',
        "SELECT count(*) >= 10000 FROM u WHERE round = $round", "round $round: load is running");
    my $seen = '';
    for (@streamed) { $seen = $_ if $_ gt $seen; }
    cmp_ok(scalar(@streamed), '>', 2000, "round $round: the client saw " . scalar(@streamed) . ' uncommitted UUIDs');

    $node->append_conf('postgresql.conf', "idseq.test_clock_offset_ms = -3600000\n");
    $node->start;
    my $committed = max_uuid("round = $round");
    my $max_before = $seen gt $committed ? $seen : $committed;
    $node->safe_psql('postgres', "INSERT INTO u (u, round, g) SELECT idseq_uuidv7(), $round + 1, g FROM generate_series(1, 20000) g");
    my ($n, $above, $time_kept) = split /\|/, $node->safe_psql('postgres', qq{
        SELECT count(*), bool_and(u > '$max_before'), bool_and(@{[ ms_of('u') ]} >= @{[ ms_of("'$max_before'::uuid") ]})
          FROM u WHERE round = $round + 1});
    is($n, 20000, "round $round: 20000 UUIDs after the crash");
    is($above, 't', "round $round: every UUID after the crash is above every UUID issued before it");
    is($time_kept, 't', "round $round: their time did not follow the clock back an hour");
    $node->append_conf('postgresql.conf', "idseq.test_clock_offset_ms = 0\n");
    $node->restart;
}

# ---- with shared memory ----
load_round(1);
crash_round(2);

# ---- without shared memory ----
switch_path($node, 'plain');
is($node->safe_psql('postgres', 'SHOW shared_preload_libraries'), '', 'restarted without preload');
my $max_shared = max_uuid('true');
load_round(4);
is($node->safe_psql('postgres', "SELECT count(*) FROM u WHERE round = 4 AND u <= '$max_shared'"), '0',
    'round 4 (without preload) lies above the rounds before');
crash_round(5);

# ---- dump and restore into a cluster an hour behind ----
my $max_all = $node->safe_psql('postgres', 'SELECT max(x::text)::uuid FROM (SELECT idseq_uuidv7() AS x FROM generate_series(1, 1000)) s');
my $dump = $node->basedir . '/dump.custom';
dump_ok($node, 'postgres', $dump, 'pg_dump');
my $dst = idseq_node('uuidv7_restored', preload => 1, conf => "idseq.test_clock_offset_ms = -3600000\n", extension => 0);
restore_ok($dst, 'restored', $dump, 'pg_restore');
is($dst->safe_psql('restored', qq{
    SELECT bool_and(x > '$max_all') FROM (SELECT idseq_uuidv7() AS x FROM generate_series(1, 1000)) s}),
    't', 'restored an hour behind: every new UUID is above every UUID of the source');
$dst->stop;

# ---- promotion of a standby an hour behind ----
switch_path($node, 'shared');
my $standby = standby_of($node, 'uuidv7_standby', conf => "idseq.test_clock_offset_ms = -3600000\n");
$node->safe_psql('postgres', "INSERT INTO u (u, round, g) SELECT idseq_uuidv7(), 7, g FROM generate_series(1, 20000) g");
my $last = $node->safe_psql('postgres', 'SELECT max(x::text)::uuid FROM (SELECT idseq_uuidv7() AS x FROM generate_series(1, 5000)) s');
$node->wait_for_catchup($standby);
my ($rc, $out, $err) = $standby->psql('postgres', 'SELECT idseq_uuidv7()');
like($err, qr/cannot execute idseq_uuidv7\(\) in a read-only transaction/, 'a standby refuses to issue UUIDs');
$node->stop;
promote_and_wait($standby);
my ($n, $above, $time_kept) = split /\|/, $standby->safe_psql('postgres', qq{
    INSERT INTO u (u, round, g) SELECT idseq_uuidv7(), 8, g FROM generate_series(1, 20000) g;
    SELECT count(*), bool_and(u > '$last'), bool_and(@{[ ms_of('u') ]} >= @{[ ms_of("'$last'::uuid") ]})
      FROM u WHERE round = 8});
is($n, 20000, 'promoted standby: 20000 new UUIDs');
is($above, 't', 'promoted standby: every new UUID is above every UUID of the old primary');
is($time_kept, 't', 'promoted standby: its UUIDs did not follow its clock an hour back');
$standby->stop;

done_testing();
