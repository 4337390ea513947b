# idseq.snowflake_max_ahead_ms, on both generator paths:
#  - 0 (the default): a burst never puts an id ahead of the clock (a spent millisecond waits
#    for the next one);
#  - 40 ms: a burst of a million ids (a quarter of a second of the layout's capacity) runs
#    ahead of the clock by at most 40 ms, in one session and in two at once;
#  - ids stay unique and increasing;
#  - with no lease (idseq.snowflake_lease_ms = 0), so that only the run-ahead's own
#    reservations cover the ids: a crash right after a burst restarts above every id issued;
#  - a reload changes the setting for sessions already running.
use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;
use IdseqTest qw(idseq_node switch_path alter_system);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = idseq_node('sf_ahead', node_id => 3, conf => "idseq.snowflake_lease_ms = 0\nmax_connections = 10\n",
    start => 0);

sub set_ahead
{
    my ($ms) = @_;
    alter_system($node, ["idseq.snowflake_max_ahead_ms = $ms"], wait => 1);
}

# One burst of n ids in one statement: whether they are unique and increasing in the order
# made, the greatest id, and how far the time of an id is ahead of the clock read right
# after it was made (the greatest over the burst, in ms; the clock when an id is made lies
# between the two, so this can only overstate how far ahead it was).
sub burst
{
    my ($n) = @_;
    return split /\|/, $node->safe_psql('postgres', qq{
        WITH b AS (SELECT array_agg(c ORDER BY g) AS cs, array_agg(id ORDER BY g) AS ids
                     FROM (SELECT g, snowflake_nextval() AS id, clock_timestamp() AS c
                             FROM generate_series(1, $n) g OFFSET 0) s),
             u AS (SELECT x, c, lag(x) OVER (ORDER BY o) AS p FROM b, unnest(b.ids, b.cs) WITH ORDINALITY AS t(x, c, o))
        SELECT bool_and(p IS NULL OR x > p), max(x),
               round(extract(epoch FROM max(snowflake_timestamp(x) - c)) * 1000, 3)
          FROM u});
}

for my $path ('shared', 'plain') {
    switch_path($node, $path);
    $node->safe_psql('postgres', 'CREATE EXTENSION idseq') if $path eq 'shared';
    is($node->safe_psql('postgres', "LOAD 'idseq'; SHOW idseq.snowflake_max_ahead_ms"), '0', "$path: the default is 0");

    my ($inc, $max, $ahead) = burst(300000);
    is($inc, 't', "$path, max_ahead 0: 300,000 ids increase");
    cmp_ok($ahead, '<=', 0, "$path, max_ahead 0: no id ahead of the clock read after it (at most $ahead ms)");

    set_ahead(40);
    my $before = $max;
    ($inc, $max, $ahead) = burst(1000000);
    is($inc, 't', "$path, max_ahead 40 ms: 10^6 ids increase");
    cmp_ok($max, '>', $before, "$path, max_ahead 40 ms: above the ids before");
    cmp_ok($ahead, '<=', 40, "$path, max_ahead 40 ms: no id more than 40 ms ahead of the clock read after it ($ahead ms)");

    # Flat out (no per-row work besides the id): 2*10^6 ids are 488 ms of the layout's
    # capacity, made in about 100-200 ms on the shared-memory path, so the last ones are ahead
    # of the clock -- by at most the setting.
    my ($n_ids, $top_ahead) = split /\|/, $node->safe_psql('postgres', q{
        SELECT count(*), round(extract(epoch FROM snowflake_timestamp(max(id)) - clock_timestamp()) * 1000, 3)
          FROM (SELECT snowflake_nextval() AS id FROM generate_series(1, 2000000)) s});
    cmp_ok($top_ahead, '<=', 40, "$path, max_ahead 40 ms, flat out: at most 40 ms ahead ($top_ahead ms)");
    # That the burst runs ahead at all is forced, not hoped for from a fast machine: a layout
    # of 2 ids per ms makes 2,000 ids a second of its capacity, so whatever the machine's
    # speed the later ones reach the frontier, 40 ms ahead of the clock. Each id is held to
    # the clock read right after it (the greatest over the burst), so a pause of the machine
    # after the burst cannot hide how far ahead it ran.
    $node->safe_psql('postgres', q{
        SELECT snowflake_create_layout('ahead_tiny', '2024-01-01 00:00:00.003+00', 'time:41,seq:1')
         WHERE NOT EXISTS (SELECT FROM snowflake_layouts WHERE name = 'ahead_tiny')});
    my $tiny_ahead = $node->safe_psql('postgres', q{
        SELECT round(extract(epoch FROM max(snowflake_timestamp(id, 'ahead_tiny') - c)) * 1000, 3)
          FROM (SELECT snowflake_nextval('ahead_tiny') AS id, clock_timestamp() AS c
                  FROM generate_series(1, 2000) OFFSET 0) s});
    cmp_ok($tiny_ahead, '>', 0, "$path, max_ahead 40 ms, 2 ids per ms: the burst ran ahead of the clock ($tiny_ahead ms)");
    cmp_ok($tiny_ahead, '<=', 40, "$path, max_ahead 40 ms, 2 ids per ms: at most 40 ms ahead ($tiny_ahead ms)");

    # two sessions at once, every id kept
    $node->safe_psql('postgres', 'DROP TABLE IF EXISTS ids; CREATE TABLE ids (c timestamptz, id bigint)');
    my $script = $node->basedir . '/burst.sql';
    PostgreSQL::Test::Utils::append_to_file($script,
        "INSERT INTO ids (id, c) SELECT snowflake_nextval(), clock_timestamp() FROM generate_series(1, 50000);\n")
      unless -e $script;
    $node->command_ok([ 'pgbench', '-n', '-c', '2', '-j', '2', '-t', '8', '-f', $script, '-p', $node->port,
                        '-h', $node->host, 'postgres' ], "$path: two sessions at once");
    my ($n, $distinct, $ahead2, $above) = split /\|/, $node->safe_psql('postgres', qq{
        SELECT count(*), count(DISTINCT id),
               round(extract(epoch FROM max(snowflake_timestamp(id) - c)) * 1000, 3),
               bool_and(id > $max) FROM ids});
    is($n, 800000, "$path: 800,000 ids from two sessions");
    is($distinct, $n, "$path: no id twice across the sessions");
    is($above, 't', "$path: every concurrent id above the single session's");
    cmp_ok($ahead2, '<=', 40, "$path: two sessions: no id more than 40 ms ahead of the clock read after it ($ahead2 ms)");

    # a crash right after a burst ahead of the clock, no lease: the run-ahead reserved its ids
    ($inc, $max, $ahead) = burst(1000000);
    my $top = $node->safe_psql('postgres', "SELECT greatest($max, max(id)) FROM ids");
    $node->stop('immediate');
    $node->start;
    my $after = $node->safe_psql('postgres', 'SELECT min(snowflake_nextval()) FROM generate_series(1, 1000)');
    cmp_ok($after, '>', $top, "$path: after a crash right after running $ahead ms ahead, ids go on above every id");

    # back to 0 by reload; a session already running follows it
    set_ahead(0);
    ($inc, $max, $ahead) = burst(300000);
    is($inc, 't', "$path, back to 0: ids increase");
    ok($max > $after, "$path, back to 0: above the ids before");

    # Ids ahead of the clock for any reason must still wait at the frontier, or sustained
    # load would widen the gap without limit. A layout of 2 ids
    # per ms, whose unit fills at once: every burst below is above its capacity.
    # (each with an epoch of its own: a layout identical to another is refused)
    my $day = $path eq 'shared' ? 1 : 3;
    $node->safe_psql('postgres', "SELECT snowflake_create_layout('tiny_$path', '2024-01-0$day+00', 'time:41,node:10,seq:1')");
    $day++;
    $node->safe_psql('postgres', "SELECT snowflake_create_layout('tinyc_$path', '2024-01-0$day+00', 'time:41,node:10,seq:1')");
    my $tiny = sub {
        my ($n, $layout) = @_;
        $layout //= "tiny_$path";
        return $node->safe_psql('postgres', qq{
            SELECT round(extract(epoch FROM max(snowflake_timestamp(id, '$layout') - c)) * 1000, 3)
              FROM (SELECT snowflake_nextval('$layout') AS id, clock_timestamp() AS c
                      FROM generate_series(1, $n) OFFSET 0) s});
    };
    # the setting lowered by reload after a burst: the ids keep the gap they had, no more
    set_ahead(3000);
    my $a3000 = $tiny->(8000);
    cmp_ok($a3000, '<=', 3000, "$path, tiny layout at 3 s: at most 3 s ahead ($a3000 ms)");
    set_ahead(3);
    my $a3 = $tiny->(2000);
    cmp_ok($a3, '<=', $a3000 + 1,
        "$path, lowered to 3 ms under load: no further ahead than the gap it had + 1 unit ($a3 ms, had $a3000 ms)");
    set_ahead(0);
    # a crash with a lease of 1 s, then load above the capacity, then a crash: drift stays
    # within one lease (+ 1 unit) and does not add up (a layout of its own, whose ids reach
    # the clock: tiny_$path's are still ahead from the burst above)
    alter_system($node, ['idseq.snowflake_lease_ms = 1000']);
    $tiny->(10, "tinyc_$path");
    # a first claim may start above the server's fence (when the claims directory cannot tell
    # that the pair was never issued), which the burst above moved ahead: wait until the clock
    # has caught up with it, so that the drift measured below is the crashes' alone
    $node->poll_query_until('postgres', qq{
        SELECT snowflake_timestamp(snowflake_nextval('tinyc_$path'), 'tinyc_$path') <= clock_timestamp()})
      or die "tinyc_$path stays ahead of the clock";
    my $worst = 0;
    for my $crash (1 .. 2) {
        $node->stop('immediate');
        $node->start;
        my $after_crash = $tiny->(1, "tinyc_$path");
        my $under_load = $tiny->(1200, "tinyc_$path");
        $worst = $after_crash if $after_crash > $worst;
        $worst = $under_load if $under_load > $worst;
    }
    cmp_ok($worst, '<=', 1001, "$path: after crashes with a 1 s lease, under load above the capacity, ids at most one lease + 1 unit ahead ($worst ms)");
    alter_system($node, ['idseq.snowflake_max_ahead_ms TO DEFAULT', 'idseq.snowflake_lease_ms = 0']);
    $node->stop;
}

done_testing();
