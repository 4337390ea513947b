# nextval_block across crashes: a block, once returned, is never handed out again after an
# immediate stop, whether its transaction committed or never did, with synchronous_commit off
# (so no commit flushes the WAL for it). Every block and every nextval value goes into a
# table whose exclusion constraint refuses two overlapping ranges, so a value handed out
# twice fails the run that draws it.
#   1. 4 pgbench clients draw blocks of 100 and single values with nextval, committed one
#      per transaction; the server is stopped immediately in the middle.
#   2. A client alone reads blocks of 10 as they are made, in a transaction that never
#      commits, with the WAL writer asleep (wal_writer_delay = 10s): only nextval_block's own
#      flush makes them durable. The server is stopped immediately once the client has read
#      thousands of them; the blocks it read go into the table.
# After each restart pgbench draws again: nothing overlaps, and everything lies after every
# block and value from before.
use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;
use IdseqTest qw(idseq_node pgbench_ok pgbench_start psql_start);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = idseq_node('block_crash',
    conf => "max_connections = 20\nsynchronous_commit = off\nwal_writer_delay = 10s\n");
$node->safe_psql('postgres', q{
    CREATE SEQUENCE blk;
    CREATE TABLE drawn (r int8range NOT NULL, phase text NOT NULL, EXCLUDE USING gist (r WITH &&));
});
my $script = q{
INSERT INTO drawn SELECT nextval_block('blk', 100), :phase;
INSERT INTO drawn SELECT int8range(v, v, '[]'), :phase FROM nextval('blk') v;
};
my $script_file = $node->basedir . '/load.sql';
PostgreSQL::Test::Utils::append_to_file($script_file, $script);

# After a restart: more load, then the checks. $phase names the draws after the restart.
sub after_restart_ok
{
    my ($phase, $what) = @_;
    pgbench_ok($node, "$what: 4 clients draw again, no value twice", clients => 4, transactions => 200,
        define => { phase => $phase }, file => $script_file);
    is($node->safe_psql('postgres', qq{
        SELECT (SELECT max(upper(r)) FROM drawn WHERE phase <> '$phase') <= (SELECT min(lower(r)) FROM drawn WHERE phase = '$phase'),
               (SELECT count(*) FROM drawn WHERE phase = '$phase')
    }), 't|1600', "$what: every value drawn after the restart lies after every one before");
}

# 1. Committed blocks, crashed under load.
my ($bg, $out, $err) = pgbench_start($node, clients => 4, time => 60, define => { phase => 'committed' },
    file => $script_file);
ok($node->poll_query_until('postgres', 'SELECT count(*) >= 2000 FROM drawn'), 'phase 1: the load is running');
$node->stop('immediate');
$bg->finish;
note("pgbench after the crash: $$err");
$node->start;
my $committed = $node->safe_psql('postgres',
    "SELECT count(*) FILTER (WHERE upper(r) - lower(r) = 100) FROM drawn WHERE phase = 'committed'");
cmp_ok($committed, '>=', 500, "phase 1: $committed committed blocks survived the crash");
after_restart_ok('after_crash_1', 'after the crash under load');

# 2. Blocks read by a client whose transaction never commits.
# (with FETCH_COUNT psql reads through a cursor, in a transaction of its own that never ends)
my ($psql, $stream) = psql_start($node,
    "SELECT nextval_block('blk', 10) FROM (SELECT generate_series(1, 1000000000)) s", fetch_count => 50);
$psql->pump until length($$stream) > 40000;
$node->stop('immediate');
$psql->finish;
my @read = grep { /^\[\d+,\d+\)$/ } split /\n/, $$stream;
cmp_ok(scalar(@read), '>=', 2000, scalar(@read) . ' uncommitted blocks were read before the crash');
$node->start;
$node->safe_psql('postgres',
    'INSERT INTO drawn SELECT r::int8range, \'uncommitted\' FROM unnest(ARRAY['
      . join(',', map { "'$_'" } @read) . ']) r');
pass('the blocks read before the crash overlap no committed draw');
after_restart_ok('after_crash_2', 'after the crash with uncommitted blocks');
is($node->safe_psql('postgres', q{SELECT count(*) FROM drawn a JOIN drawn b ON a.ctid < b.ctid AND a.r && b.r}),
    '0', 'no two draws overlap');

$node->stop;
done_testing();
