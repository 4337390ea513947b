# Partitions by date, end to end: a table of events partitioned by range
# on snowflake ids, kept in daily partitions without the user computing an id.
#  1. Plain PostgreSQL with snowflake_create_partitions / snowflake_retire_partitions: rows
#     first land in the default partition, creating their day's partition is refused until they
#     are moved out, then every row sits in the partition named by its UTC day; queries written
#     with snowflake_min_id prune (at plan time for constants, at executor start for now());
#     two sessions creating the same partitions do not fail; old days are retired by date.
#  2. pg_partman (skipped when it is not installed): id partitions one day of ids wide, 4.x
#     (p_type 'native') or 5.x (p_type 'range') told apart by the extension's version; partman's
#     maintenance premakes from the newest id, which snowflake ids keep at the clock, and idseq
#     retires its partitions by date.
# The server runs in a time zone far from UTC: days and names are UTC days all the same.
use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;
use IdseqTest qw(idseq_node);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = idseq_node('sf_partitions', preload => 1, node_id => 3, conf => "timezone = 'America/Los_Angeles'\n");
$node->safe_psql('postgres', q{
    CREATE TABLE ev (id bigint NOT NULL DEFAULT snowflake_nextval(), what text) PARTITION BY RANGE (id);
    CREATE TABLE ev_default PARTITION OF ev DEFAULT;
    CREATE INDEX ON ev (id);
});

# ---- 1. plain PostgreSQL ----
# Events of the last four days (packed at their times) and of now, before any partition exists.
$node->safe_psql('postgres', q{
    INSERT INTO ev (id, what)
    SELECT snowflake_pack('snowflake', now() - k * interval '1 day', node => 3, seq => k), 'day -' || k
      FROM generate_series(1, 4) k;
    INSERT INTO ev (what) VALUES ('now'), ('now');
});
is($node->safe_psql('postgres', 'SELECT count(*) FROM ev_default'), '6', 'rows wait in the default partition');

my ($ret, $out, $err) = $node->psql('postgres', q{
    SELECT snowflake_create_partitions('ev', now() - interval '5 days', now() + interval '3 days')},
    extra_params => [ '-v', 'VERBOSITY=verbose' ]);
isnt($ret, 0, 'creating the partitions of rows in the default partition fails');
like($err, qr/ERROR:  23514: default partition (public\.)?ev_default holds rows of partition "ev_p\d{8}"/, '... with 23514 naming it');
like($err, qr/HINT:  Move them out of the default partition first/, '... and the way out');

# Move them out, create the partitions and put the rows back, in one transaction.
$out = $node->safe_psql('postgres', q{
    BEGIN;
    CREATE TEMP TABLE held ON COMMIT DROP AS
    WITH moved AS (DELETE FROM ev_default
                    WHERE id >= snowflake_min_id(date_trunc('day', now() - interval '5 days', 'UTC'))
                      AND id < snowflake_min_id(date_trunc('day', now() + interval '4 days', 'UTC'))
                   RETURNING *)
    SELECT * FROM moved;
    SELECT count(*) FROM snowflake_create_partitions('ev', now() - interval '5 days', now() + interval '3 days');
    INSERT INTO ev SELECT * FROM held;
    COMMIT;
});
like($out, qr/^(8|9)$/m, 'one partition per UTC day from 5 days ago to 3 days ahead');
is($node->safe_psql('postgres', 'SELECT count(*) FROM ev_default'), '0', 'the default partition is empty');
is($node->safe_psql('postgres', q{
    SELECT count(*) FILTER (WHERE tableoid::regclass::text
                                  = 'ev_p' || to_char(snowflake_timestamp(id) AT TIME ZONE 'UTC', 'YYYYMMDD'))
           || '/' || count(*)
      FROM ev}), '6/6', "every row is in the partition named by its UTC day");
is($node->safe_psql('postgres', q{
    SELECT count(*) FROM ev, LATERAL (SELECT snowflake_timestamp(id) AS t) x
     WHERE id >= snowflake_min_id(date_trunc('day', t, 'UTC'))
       AND id < snowflake_min_id(date_trunc('day', t, 'UTC') + interval '1 day')}), '6',
    'the partition bounds are snowflake_min_id of UTC midnights');
is($node->safe_psql('postgres', q{
    SELECT count(*) FROM snowflake_create_partitions('ev', now() - interval '5 days', now() + interval '3 days')}),
    '0', 'idempotent');

# Queries by time prune.
my $parts = $node->safe_psql('postgres',
    q{SELECT count(*) FROM pg_inherits WHERE inhparent = 'ev'::regclass AND inhrelid <> 'ev_default'::regclass});
$out = $node->safe_psql('postgres', q{
    SELECT format('EXPLAIN (COSTS OFF) SELECT count(*) FROM ev WHERE id >= %s AND id < %s',
                  snowflake_min_id(date_trunc('day', now(), 'UTC')),
                  snowflake_min_id(date_trunc('day', now(), 'UTC') + interval '1 day')) \gexec});
my %scanned = map { $_ => 1 } $out =~ /on (ev_p\d{8})\b/g;
is(scalar(keys %scanned), 1, 'a constant id range of one day scans one partition (plan time)')
  or diag($out);
$out = $node->safe_psql('postgres', q{
    EXPLAIN (COSTS OFF) SELECT count(*) FROM ev
     WHERE id >= snowflake_min_id(now() - interval '1 hour') AND id < snowflake_min_id(now())});
my ($removed) = $out =~ /Subplans Removed: (\d+)/;
ok(defined $removed && $removed >= $parts - 2, "now()-relative bounds prune at executor start ($parts partitions)")
  or diag($out);

# Two sessions create the same new partitions: the second waits for the first, then skips them.
my $s1 = $node->background_psql('postgres');
my $s2 = $node->background_psql('postgres');
$s1->query_safe(q{BEGIN; SELECT count(*) FROM snowflake_create_partitions('ev', now() + interval '4 days', now() + interval '6 days')});
$s2->query_until(qr/started/, qq{\\echo started\nSELECT 'second:' || count(*) FROM snowflake_create_partitions('ev', now() + interval '4 days', now() + interval '6 days');\n});
ok($node->poll_query_until('postgres',
    q{SELECT count(*) = 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%second:%'}),
    'the second session waits for the first');
$s1->query_safe('COMMIT');
$out = $s2->query_safe(q{SELECT 'after'});
like($out, qr/second:0/, 'the second session creates nothing and raises no error');
$s1->quit;
$s2->quit;
# Under REPEATABLE READ the second cannot see the first's partitions: 40001, to retry.
$s1 = $node->background_psql('postgres');
$s2 = $node->background_psql('postgres', on_error_stop => 0);
$s1->query_safe(q{BEGIN; SELECT count(*) FROM snowflake_create_partitions('ev', now() + interval '7 days', now() + interval '8 days')});
$s2->query_safe(q{\set VERBOSITY verbose
BEGIN ISOLATION LEVEL REPEATABLE READ; SELECT 1});
$s2->query_until(qr/started/, qq{\\echo started\nSELECT 'rr:' || count(*) FROM snowflake_create_partitions('ev', now() + interval '7 days', now() + interval '8 days');\n});
ok($node->poll_query_until('postgres',
    q{SELECT count(*) = 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%rr:%'}),
    'a repeatable read session waits for the first');
$s1->query_safe('COMMIT');
$s2->query(q{ROLLBACK});
like($s2->{stderr}, qr/ERROR:  40001: could not serialize access due to a concurrent change of the partitions of (public\.)?ev/,
     '... then fails with 40001');
$s1->quit;
$s2->quit;

# Retire by date: the partitions of days that ended before two days ago, dropped.
my $before = $node->safe_psql('postgres', q{SELECT count(*) FROM ev WHERE id < snowflake_min_id(now() - interval '2 days')});
$out = $node->safe_psql('postgres', q{SELECT string_agg(r, ',') FROM snowflake_retire_partitions('ev', now() - interval '2 days', drop => true) r});
like($out, qr/^public\.ev_p\d{8}(,public\.ev_p\d{8})*$/, "retired: $out");
is($node->safe_psql('postgres', q{
    SELECT count(*) FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent = 'ev'::regclass AND c.relname <> 'ev_default'
       AND c.relname < 'ev_p' || to_char((now() - interval '2 days') AT TIME ZONE 'UTC', 'YYYYMMDD')}),
    '0', 'no partition of a day before the cut is left');
ok($before >= 2, "rows before the cut existed ($before)");
is($node->safe_psql('postgres', q{SELECT count(*) FROM ev WHERE id < snowflake_min_id(date_trunc('day', now() - interval '2 days', 'UTC'))}),
    '0', 'their rows are gone with them');
is($node->safe_psql('postgres', q{SELECT count(*) FROM ev WHERE what = 'now'}), '2', 'recent rows stay');

# ---- 2. pg_partman ----
SKIP:
{
    my $have = $node->safe_psql('postgres', q{SELECT count(*) FROM pg_available_extensions WHERE name = 'pg_partman'});
    skip 'pg_partman is not installed', 9 unless $have;
    $node->safe_psql('postgres', q{CREATE SCHEMA partman; CREATE EXTENSION pg_partman SCHEMA partman;});
    my $major = $node->safe_psql('postgres',
        q{SELECT split_part(extversion, '.', 1) FROM pg_extension WHERE extname = 'pg_partman'});
    # 4.x: native partitioning is p_type 'native'; 5.x has only declarative partitioning, 'range'
    my $type = $major >= 5 ? 'range' : 'native';
    note("pg_partman $major.x, p_type '$type'");
    $node->safe_psql('postgres', qq{
        CREATE TABLE evp (id bigint NOT NULL DEFAULT snowflake_nextval(), what text) PARTITION BY RANGE (id);
        -- one day of ids: every partition holds the ids of one day of the layout
        SELECT snowflake_min_id(epoch + interval '1 day') AS day_ids FROM snowflake_layouts WHERE name = 'snowflake' \\gset
        SELECT partman.create_parent(p_parent_table => 'public.evp', p_control => 'id', p_type => '$type',
                                     p_interval => :'day_ids', p_premake => 4,
                                     p_start_partition => snowflake_min_id(now() - interval '3 days')::text);
        INSERT INTO evp (what) VALUES ('now');
        SELECT partman.run_maintenance('public.evp');
    });
    my $info = $node->safe_psql('postgres', q{
        SELECT snowflake_min_id(epoch + interval '1 day') AS day FROM snowflake_layouts WHERE name = 'snowflake' \gset
        SELECT count(*),
               count(*) FILTER (WHERE lo::bigint % :day = 0 AND hi::bigint - lo::bigint = :day),
               count(*) FILTER (WHERE snowflake_timestamp(lo::bigint) > now()),
               count(*) FILTER (WHERE snowflake_timestamp(lo::bigint) <= now() - interval '3 days')
          FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid,
               LATERAL regexp_match(pg_get_expr(c.relpartbound, c.oid), 'FROM \(''(\d+)''\) TO \(''(\d+)''\)') m,
               LATERAL (SELECT m[1] AS lo, m[2] AS hi) b
         WHERE i.inhparent = 'evp'::regclass AND c.relname <> 'evp_default'});
    my ($n, $day_wide, $ahead, $old) = split /\|/, $info;
    cmp_ok($n, '>=', 8, "partman made partitions from 3 days ago to 4 ahead ($n)");
    is($day_wide, $n, 'each holds exactly one day of ids, on multiples of one day of ids (days from the layout epoch)');
    cmp_ok($ahead, '>=', 4, 'maintenance premakes 4 days ahead of the newest id, which is now');
    cmp_ok($old, '>=', 1, 'and partitions of days past exist');
    is($node->safe_psql('postgres', q{SELECT tableoid::regclass::text ~ '^evp_p\d+$' FROM evp WHERE what = 'now'}),
        't', 'a new row lands in its day partition, not the default');
    # the days of ids start at the layout's epoch time of day
    is($node->safe_psql('postgres', q{
        SELECT bool_and(to_char(snowflake_timestamp(substring(c.relname FROM 'evp_p(\d+)')::bigint) AT TIME ZONE 'UTC', 'HH24:MI:SS.MS')
                        = to_char(l.epoch AT TIME ZONE 'UTC', 'HH24:MI:SS.MS'))
          FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid, snowflake_layouts l
         WHERE i.inhparent = 'evp'::regclass AND l.name = 'snowflake' AND c.relname <> 'evp_default'}),
        't', "partman's partition names are their first id, at the epoch's time of day");
    # queries by time prune partman's partitions too
    $out = $node->safe_psql('postgres', q{
        EXPLAIN (COSTS OFF) SELECT * FROM evp WHERE id >= snowflake_min_id(now() - interval '1 hour')});
    like($out, qr/Subplans Removed: [1-9]/, 'a time bound prunes partman partitions') or diag($out);
    # retention by date through idseq on partman's table; partman's maintenance still runs after
    $out = $node->safe_psql('postgres', q{
        SELECT count(*) FROM snowflake_retire_partitions('evp', now() - interval '1 day', drop => true);
    });
    cmp_ok($out, '>=', 2, "idseq retired partman's partitions older than a day ($out)");
    $node->safe_psql('postgres', q{INSERT INTO evp (what) VALUES ('later'); SELECT partman.run_maintenance('public.evp')});
    is($node->safe_psql('postgres', q{SELECT count(*) FROM evp_default}), '0', 'maintenance after retiring: nothing in the default');
}

$node->stop;
done_testing();
