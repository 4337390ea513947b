# Counters per key under load, through a crash and a failover. pgbench clients take numbers
# of a fast counter (single numbers and blocks), of a gap-free counter (called directly) and
# of a gap-free counter bound at commit (idseq_counter_fill with 'commit'), over 200 keys
# and one hot key that every transaction uses, and roll back one transaction in five. Every
# number a committed transaction took is a row of a table. Then:
#   1. the postmaster is killed with SIGKILL in the middle of the load; the server restarts
#      (crash recovery) and the load runs again;
#   2. under load, the primary stops (immediate) and its synchronous standby is promoted; the
#      load runs on the promoted standby.
# Checked after each step on the server that survives, from the rows the clients inserted:
# no number of a fast counter twice for a key (numbers and blocks alike); for each gap-free
# counter, the numbers of every key are exactly 1..n, no gap, no duplicate, and n is the
# key's current number.
use strict;
use warnings;
use Time::HiRes qw(usleep);
use FindBin;
use lib $FindBin::RealBin;
use IdseqTest qw(idseq_node standby_of promote_and_wait pgbench_ok pgbench_start);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $keys = 200;
my $primary = idseq_node('counters_primary', streaming => 1, conf => "max_connections = 40\n");
$primary->safe_psql('postgres', q{
    SELECT idseq_create_counter('cf');
    SELECT idseq_create_counter('cg', gapless => true);
    SELECT idseq_create_counter('cb', gapless => true);
    CREATE TABLE got_fast (k text NOT NULL, n bigint NOT NULL);
    CREATE TABLE got_gap (k text NOT NULL, n bigint NOT NULL);
    CREATE TABLE got_bound (id bigserial PRIMARY KEY, k text NOT NULL, n bigint);
    CREATE TRIGGER got_bound_n BEFORE INSERT ON got_bound
        FOR EACH ROW EXECUTE FUNCTION idseq_counter_fill('cb', 'k', 'n', 'commit');
});
my $standby = standby_of($primary, 'counters_standby');
$primary->append_conf('postgresql.conf', "synchronous_standby_names = 'counters_standby'\n");
$primary->reload;
ok($primary->poll_query_until('postgres',
    "SELECT count(*) = 1 FROM pg_stat_replication WHERE application_name = 'counters_standby' AND sync_state = 'sync'"),
    'the standby is synchronous');

# One transaction: a random key and the hot key of the fast counter and a block of the random
# key; the random key of each gap-free counter, and in one transaction of two the hot key
# after it (gap-free callers take keys in one order: the direct counter's before the commit,
# the bound counter's at the commit, the random key before the hot one, so that they never
# deadlock, and half of the transactions do not queue on the hot key); one in five rolls
# back.
my $script = $primary->basedir . '/counters.sql';
PostgreSQL::Test::Utils::append_to_file($script, qq{
\\set k random(1, $keys)
\\set r random(1, 5)
\\set b random(1, 20)
\\set h random(1, 2)
BEGIN;
INSERT INTO got_fast SELECT :k::text, idseq_counter_next('cf', :k::text);
INSERT INTO got_fast SELECT 'hot', idseq_counter_next('cf', 'hot');
INSERT INTO got_fast SELECT :k::text, generate_series(lower(r), upper(r) - 1) FROM idseq_counter_block('cf', :k::text, :b) r;
INSERT INTO got_gap SELECT :k::text, idseq_counter_next('cg', :k::text);
\\if :h = 1
INSERT INTO got_gap SELECT 'hot', idseq_counter_next('cg', 'hot');
INSERT INTO got_bound (k) VALUES (:k::text), ('hot');
\\else
INSERT INTO got_bound (k) VALUES (:k::text);
\\endif
\\if :r = 1
ROLLBACK;
\\else
COMMIT;
\\endif
});

# The checks, on $node, after step $what.
sub numbers_ok
{
    my ($node, $what) = @_;
    my ($rows, $dups) = split /\|/, $node->safe_psql('postgres',
        'SELECT count(*), count(*) - count(DISTINCT (k, n)) FROM got_fast');
    cmp_ok($rows, '>', 0, "$what: $rows numbers of the fast counter");
    is($dups, 0, "$what: no number of the fast counter twice for a key");
    for my $t ([ 'got_gap', 'cg' ], [ 'got_bound', 'cb' ]) {
        my ($table, $counter) = @$t;
        my ($keys_seen, $total, $bad, $current_bad, $nulls) = split /\|/, $node->safe_psql('postgres', qq{
            SELECT count(*), coalesce(sum(c), 0),
                   count(*) FILTER (WHERE c <> d OR lo <> 1 OR hi <> c),
                   count(*) FILTER (WHERE idseq_counter_current('$counter', k) IS DISTINCT FROM hi),
                   (SELECT count(*) FROM $table WHERE n IS NULL)
              FROM (SELECT k, count(n) c, count(DISTINCT n) d, min(n) lo, max(n) hi
                      FROM $table GROUP BY k) s});
        cmp_ok($total, '>', 0, "$what: $total numbers of $counter over $keys_seen keys");
        is($bad, 0, "$what: every key of $counter holds exactly 1..n, no gap, no duplicate");
        is($current_bad, 0, "$what: every key's current number of $counter is its highest committed");
        is($nulls, 0, "$what: no committed row of $table without its number");
    }
}

# 1. SIGKILL of the postmaster in the middle of the load.
my ($bench, $out, $err) = pgbench_start($primary, clients => 8, time => 60, file => $script);
ok($primary->poll_query_until('postgres', "SELECT count(*) >= 600 FROM got_gap WHERE k = 'hot'"),
    'step 1: the load runs');
my $postmaster = $primary->{_pid};
$primary->kill9;
$bench->kill_kill;
$bench->finish;
# The backends notice the postmaster's death and exit; the server starts once they are gone
# (a start that finds the old shared memory still attached fails and is tried again).
usleep(100_000) while kill 0, $postmaster;
my $started = 0;
for (1 .. 60) {
    last if ($started = $primary->start(fail_ok => 1));
    $primary->{_pid} = undef;
    sleep 1;
}
ok($started, 'step 1: the server restarts after the SIGKILL');
numbers_ok($primary, 'after the SIGKILL');
pgbench_ok($primary, 'after the SIGKILL: more load', clients => 8, transactions => 150, file => $script);
numbers_ok($primary, 'after the SIGKILL and more load');

# A hot standby reads counters and takes no number.
$primary->wait_for_catchup($standby);
for my $c ('cf', 'cg') {
    my ($ret, $o, $e) = $standby->psql('postgres', "\\set VERBOSITY verbose\nSELECT idseq_counter_next('$c', 'x')");
    like($e, qr/ERROR:  25006:/, "the standby takes no number of $c (25006)");
}
is($standby->safe_psql('postgres', q{SELECT idseq_counter_current('cf', 'hot') >= (SELECT max(n) FROM got_fast WHERE k = 'hot')}),
   't', 'the standby reads the state');

# 2. Failover to the synchronous standby in the middle of the load.
ok($primary->poll_query_until('postgres',
    "SELECT count(*) = 1 FROM pg_stat_replication WHERE application_name = 'counters_standby' AND sync_state = 'sync'"),
    'step 2: the standby is synchronous again');
my $before = $primary->safe_psql('postgres', "SELECT count(*) FROM got_gap WHERE k = 'hot'");
($bench, $out, $err) = pgbench_start($primary, clients => 8, time => 60, file => $script);
ok($primary->poll_query_until('postgres', "SELECT count(*) >= $before + 600 FROM got_gap WHERE k = 'hot'"),
    'step 2: the load runs');
$primary->stop('immediate');
$bench->kill_kill;
$bench->finish;
promote_and_wait($standby);
numbers_ok($standby, 'on the promoted standby');
pgbench_ok($standby, 'on the promoted standby: more load', clients => 8, transactions => 150, file => $script);
numbers_ok($standby, 'on the promoted standby after more load');

$standby->stop;
done_testing();
