# The generators on native sequences never hand out a value twice: 8 pgbench clients draw
# nextval_lexid ids, nextval_code codes and lexid_block blocks into tables with unique
# constraints; the server is crashed (immediate stop) in the middle of the load and
# restarted; more load follows; then pg_dump and pg_restore into a fresh cluster, and more
# load there; then a streaming standby is promoted and takes load too. Every value after a
# crash, a restore or a failover lies beyond every value before it.
use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;
use IdseqTest qw(idseq_node standby_of dump_ok restore_ok pgbench_ok pgbench_start);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = idseq_node('seq_main', streaming => 1, preload => 1, conf => "max_connections = 30\n");

$node->safe_psql('postgres', q{
    CREATE SEQUENCE order_code_seq;
    SELECT create_code_sequence('match_code_seq', 6);   -- 26^6 codes: no cycling in this test
    CREATE SEQUENCE node_block_seq INCREMENT BY 50;
    CREATE TABLE orders (code lexid(base36) PRIMARY KEY DEFAULT nextval_lexid('order_code_seq', '00A000'),
                         phase int NOT NULL);
    CREATE TABLE matches (code text PRIMARY KEY DEFAULT nextval_code('match_code_seq'), phase int NOT NULL);
    CREATE TABLE blocks (first_id lexid(base36) PRIMARY KEY, last_id lexid(base36) NOT NULL UNIQUE, phase int NOT NULL);
});

my $script = q{
INSERT INTO orders (phase) VALUES (:phase);
INSERT INTO matches (phase) VALUES (:phase);
INSERT INTO blocks SELECT first_id, last_id, :phase FROM lexid_block('node_block_seq', '00A000'::lexid(base36));
};

# Phase 1: load, crashed in the middle.
my $script_file = $node->basedir . '/load.sql';
PostgreSQL::Test::Utils::append_to_file($script_file, $script);
my ($bg, $out, $err) = pgbench_start($node, clients => 8, time => 60, define => { phase => 1 }, file => $script_file);
ok($node->poll_query_until('postgres', 'SELECT count(*) >= 1500 FROM orders'), 'phase 1 load is running');
$node->stop('immediate');
$bg->finish;    # pgbench loses its connections: expected
note("pgbench after the crash: $$err");
$node->start;

my $before = $node->safe_psql('postgres', 'SELECT count(*) FROM orders');
cmp_ok($before, '>=', 1500, "$before ids committed before the crash survived it");

# 8 clients, $tx transactions each, tagged with $phase; any reused value would violate a
# unique constraint and fail the run.
sub load_ok
{
    my ($db_node, $db, $phase, $tx, $what) = @_;
    pgbench_ok($db_node, "phase $phase: $what, no errors", clients => 8, transactions => $tx,
        define => { phase => $phase }, file => $script_file, db => $db);
}

# Phase 2: more load after the restart.
load_ok($node, 'postgres', 2, 150, '8 clients after crash recovery');

sub check_phases
{
    my ($db_node, $db, $older, $newer, $what) = @_;
    is($db_node->safe_psql($db, qq{
        SELECT (SELECT max(code) FROM orders WHERE phase <= $older) < (SELECT min(code) FROM orders WHERE phase = $newer),
               (SELECT max(code COLLATE "C") FROM matches WHERE phase <= $older)
                 < (SELECT min(code COLLATE "C") FROM matches WHERE phase = $newer),
               (SELECT max(last_id) FROM blocks WHERE phase <= $older) < (SELECT min(first_id) FROM blocks WHERE phase = $newer)
    }), 't|t|t', "$what: every id, code and block comes after every earlier one");
    is($db_node->safe_psql($db, q{
        SELECT count(*) FROM blocks a JOIN blocks b ON a.first_id < b.first_id AND b.first_id <= a.last_id
    }), '0', "$what: no two blocks overlap");
    is($db_node->safe_psql($db, q{
        SELECT bool_and(last_id - first_id = 49) AND bool_and(code_parse(m.code) >= 0)
          FROM blocks, (SELECT code FROM matches LIMIT 1000) m
    }), 't', "$what: blocks of 50 ids, well-formed codes");
}
check_phases($node, 'postgres', 1, 2, 'after crash recovery');
is($node->safe_psql('postgres', q{
    SELECT count(*) = count(DISTINCT code) AND bool_and(length(code) = 6) FROM matches}), 't',
   'codes are distinct and six letters wide');

# pg_dump and pg_restore into a fresh cluster: the sequences (with their shape and position),
# the column defaults and the data come across; drawing continues without reuse.
my $dump = $node->basedir . '/seq.dump';
dump_ok($node, 'postgres', $dump, 'pg_dump');
my $fresh = idseq_node('seq_restored', conf => "max_connections = 30\n", extension => 0);
restore_ok($fresh, 'restored', $dump, 'pg_restore into a fresh cluster');
is($fresh->safe_psql('restored', q{
    SELECT seqmin, seqmax, seqcycle, seqincrement FROM pg_sequence WHERE seqrelid = 'match_code_seq'::regclass}),
   '0|308915775|t|1', 'the code sequence keeps its shape');
is($fresh->safe_psql('restored', 'SELECT count(*) FROM orders'),
   $node->safe_psql('postgres', 'SELECT count(*) FROM orders'), 'every row restored');
load_ok($fresh, 'restored', 3, 100, '8 clients on the restored cluster');
check_phases($fresh, 'restored', 2, 3, 'after pg_restore');
$fresh->stop;

# A streaming standby has the sequences; after the primary is gone and the standby is
# promoted, drawing continues beyond everything the primary handed out.
my $standby = standby_of($node, 'seq_standby');
load_ok($node, 'postgres', 4, 50, '8 clients on the primary while the standby streams');
$node->wait_for_catchup($standby);
my ($ret) = $standby->psql('postgres', q{SELECT nextval_code('match_code_seq')});
isnt($ret, 0, 'a standby cannot draw (read-only)');
$node->stop('immediate');
$standby->promote;
load_ok($standby, 'postgres', 5, 50, '8 clients on the promoted standby');
check_phases($standby, 'postgres', 4, 5, 'after failover');
$standby->stop;
done_testing();
