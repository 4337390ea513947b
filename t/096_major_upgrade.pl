# Users who move to a newer PostgreSQL major keep their idseq data. A database filled on an
# older major (IDSEQ_OLD_PGBIN: the bin directory of an older PostgreSQL with idseq
# installed; `make test-versions` sets it to PostgreSQL 15 inside the 17 and 18 roots) goes
# to this major two ways: pg_dump (this major's) + pg_restore, and pg_upgrade. Each time
# every value, charset and layout is intact, every btree index passes amcheck, the hash
# index finds every row, and every generator (lexid and code sequences, lexid blocks,
# snowflake layouts built-in and custom) continues above the ids the old server issued, on
# a new server whose clock is an hour behind.
use strict;
use warnings;
use File::Basename qw(dirname);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use IPC::Run;
use Test::More;

my $oldbin = $ENV{IDSEQ_OLD_PGBIN} // '';
plan skip_all => 'no older PostgreSQL major with idseq to upgrade from (IDSEQ_OLD_PGBIN, set by make test-versions)'
  unless $oldbin ne '' && -x "$oldbin/postgres";

# Both sides with data checksums: 18's initdb turns them on by default, earlier ones off, and
# pg_upgrade needs the two to agree.
my $conf = "shared_preload_libraries = 'idseq'\nidseq.node_id = 5\n";
my $old = PostgreSQL::Test::Cluster->new('old_major', install_path => dirname($oldbin));
$old->init(extra => ['--data-checksums']);
$old->append_conf('postgresql.conf', $conf);
$old->start;
my $restored = PostgreSQL::Test::Cluster->new('restored');
my $new_version = $restored->pg_version;
note "upgrading from PostgreSQL " . $old->pg_version . " to $new_version";
ok($old->pg_version <= $new_version, 'the old server is this major or an older one');

$old->safe_psql('postgres', q{
    CREATE EXTENSION idseq;
    SELECT idseq_create_charset('stars', '★☆✦✧');
    SELECT idseq_create_charset('quotes', 'a''b"c\\d', true);
    SELECT idseq_create_charset('unused', 'XYZ');
    SELECT snowflake_create_layout('orders', '2024-01-01 00:00:00+00', 'time:40,node:6,seq:17');
    SELECT snowflake_create_layout('per_second', '2020-01-01 00:00:00+00', 'time:32,rand:20,node:11', '1 second');
    SELECT create_code_sequence('ticket_seq', 3, 'upper');
    CREATE SEQUENCE order_code_seq;
    CREATE SEQUENCE block_seq INCREMENT BY 100;
    -- lexid columns of built-in and custom charsets, btree (plain, unique) and hash indexes
    CREATE TABLE a_items (id int PRIMARY KEY, s lexid(stars), q lexid(quotes), b lexid(base62), plain lexid(base36));
    CREATE INDEX a_items_s ON a_items (s);
    CREATE UNIQUE INDEX a_items_q ON a_items (q);
    CREATE INDEX a_items_b ON a_items USING hash (b);
    INSERT INTO a_items
        SELECT g, lexid_from_rank(g, 'stars'), lexid_from_rank(g, 'quotes'), lexid_from_rank(g * 7919, 'base62'),
               lexid_from_rank(g, 'base36')
          FROM generate_series(1, 2000) g;
    -- every generator as a column default
    CREATE TABLE orders (code lexid(base36) PRIMARY KEY DEFAULT nextval_lexid('order_code_seq', '00A000'),
                         ticket text NOT NULL DEFAULT nextval_code('ticket_seq'),
                         sf bigint UNIQUE NOT NULL DEFAULT snowflake_nextval('orders'),
                         ev bigint UNIQUE NOT NULL DEFAULT snowflake_nextval('per_second'),
                         tw bigint UNIQUE NOT NULL DEFAULT snowflake_nextval(),
                         n int);
    INSERT INTO orders (n) SELECT g FROM generate_series(1, 1000) g;
    CREATE TABLE blocks (first_id lexid(crockford32), last_id lexid(crockford32));
    INSERT INTO blocks SELECT * FROM lexid_block('block_seq', '0A0'::lexid(crockford32));
    INSERT INTO blocks SELECT * FROM lexid_block('block_seq', '0A0'::lexid(crockford32));
});

my %queries = (
    items    => 'SELECT * FROM a_items ORDER BY id',
    orders   => 'SELECT * FROM orders ORDER BY n',
    blocks   => 'SELECT * FROM blocks ORDER BY first_id',
    charsets => 'SELECT * FROM idseq_charsets ORDER BY name',
    layouts  => 'SELECT * FROM snowflake_layouts ORDER BY name',
    sorted   => 'SELECT string_agg(s::text, \',\' ORDER BY s) || string_agg(q::text, \',\' ORDER BY q) FROM a_items',
);
my %before = map { $_ => $old->safe_psql('postgres', $queries{$_}) } keys %queries;
# the highest id each generator issued on the old server, before the move
my $marks = q{SELECT (SELECT max(code) FROM orders), (SELECT max(sf) FROM orders), (SELECT max(ev) FROM orders),
                     (SELECT max(tw) FROM orders), (SELECT max(last_id) FROM blocks),
                     (SELECT ticket FROM orders ORDER BY n DESC LIMIT 1)};
my ($max_code, $max_sf, $max_ev, $max_tw, $max_block, $last_ticket) = split /\|/, $old->safe_psql('postgres', $marks);

my $dump = $old->basedir . '/old.dump';
my $pg_dump_version = `pg_dump --version`;
like($pg_dump_version, qr/\b\Q$new_version\E\b/, "pg_dump is this major's ($new_version)");
command_ok([ 'pg_dump', '-Fc', '-f', $dump, '-d', $old->connstr('postgres') ], 'pg_dump of the old server');
$old->stop;

sub check_moved {
    my ($node, $db, $how) = @_;
    for my $k (sort keys %queries) {
        is($node->safe_psql($db, $queries{$k}), $before{$k}, "$how: $k unchanged");
    }
    $node->safe_psql($db, 'CREATE EXTENSION IF NOT EXISTS amcheck');
    is($node->safe_psql($db, q{
        SELECT count(*) FROM (
            SELECT bt_index_check(c.oid, true)
              FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am am ON am.oid = c.relam
             WHERE am.amname = 'btree' AND i.indrelid IN ('a_items'::regclass, 'orders'::regclass)) checked}),
       '7', "$how: amcheck passes all 7 btree indexes (heapallindexed)");
    my $plain = q{SET enable_seqscan = off; SET enable_bitmapscan = off; SET enable_hashjoin = off;
                  SET enable_mergejoin = off;};
    my $lookup = q{SELECT count(*) FROM a_items x WHERE EXISTS (SELECT 1 FROM a_items y WHERE y.b = x.b)};
    like($node->safe_psql($db, "$plain EXPLAIN (COSTS OFF) $lookup"), qr/Index Scan using a_items_b/,
         "$how: the lookup below uses the hash index");
    is($node->safe_psql($db, "$plain $lookup"), '2000', "$how: the hash index finds every row");

    $node->safe_psql($db, 'INSERT INTO orders (n) SELECT g FROM generate_series(1001, 2000) g;
                           INSERT INTO blocks SELECT * FROM lexid_block(\'block_seq\', \'0A0\'::lexid(crockford32))');
    is($node->safe_psql($db, qq{
        SELECT count(*) FILTER (WHERE code <= '$max_code'), count(*) FILTER (WHERE sf <= $max_sf),
               count(*) FILTER (WHERE ev <= $max_ev), count(*) FILTER (WHERE tw <= $max_tw)
          FROM orders WHERE n > 1000}), '0|0|0|0',
       "$how: lexid sequence and snowflake layouts (custom, rand, built-in) continue above the old ids");
    is($node->safe_psql($db, q{SELECT ticket FROM orders WHERE n = 1001}),
       $node->safe_psql($db, qq{SELECT code_format(code_parse('$last_ticket') + 1, 3)}),
       "$how: the code sequence continues after its last code ($last_ticket)");
    is($node->safe_psql($db, qq{SELECT count(*) FROM blocks WHERE first_id <= '$max_block'}), '2',
       "$how: the new lexid block lies above the old ones");
    is($node->safe_psql($db, q{SELECT count(*) FROM orders o, LATERAL snowflake_unpack(o.sf, 'orders') u
                                WHERE u.node = 5}), '2000', "$how: old and new ids unpack in their custom layout");
}

# ---- pg_dump of the old major, pg_restore into this one ----
$restored->init;
$restored->append_conf('postgresql.conf', $conf . "idseq.test_clock_offset_ms = -3600000\n");
$restored->start;
$restored->safe_psql('postgres', 'CREATE DATABASE moved');
# Debian's PostgreSQL 15.20 and 17.12 keep a per-column "pg_attver" option that the 18.6 of
# Debian unstable does not know; pg_dump copies it into every table's dump, idseq or not.
# Where this server rejects it, those lines are left out of the (plain) restore script.
my ($r, $o, $e) = $restored->psql('postgres', 'CREATE TEMP TABLE attver (x int); ALTER TABLE attver ALTER COLUMN x SET (pg_attver = 1)');
my $sql = $old->basedir . '/old.sql';
command_ok([ 'pg_restore', '-f', $sql, $dump ], 'the dump as SQL');
if ($e =~ /unrecognized parameter "pg_attver"/) {
    note 'this server does not know pg_attver: leaving it out of the restore';
    my $text = slurp_file($sql);
    $text =~ s/^ALTER TABLE ONLY \S+ ALTER COLUMN \S+ SET \(pg_attver=\d+\);\n//mg;
    open my $fh, '>', $sql or die $!;
    print $fh $text;
    close $fh;
}
$restored->command_ok([ 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-f', $sql, '-d', $restored->connstr('moved') ],
    'restore into this major');
check_moved($restored, 'moved', 'dump/restore');
$restored->stop;

# ---- pg_upgrade from the old major ----
my $upgraded = PostgreSQL::Test::Cluster->new('upgraded');
$upgraded->init(extra => ['--data-checksums']);
$upgraded->append_conf('postgresql.conf', $conf . "idseq.test_clock_offset_ms = -3600000\n");
my $workdir = PostgreSQL::Test::Utils::tempdir;
chdir $workdir or die "chdir $workdir: $!";
# In binary-upgrade mode pg_dump creates the extension's member tables one by one in name
# order, so a user table with a lexid column of a custom charset can be created before
# idseq_charset_registry exists: the self-describing type modifier then needs no registry row
# (1.1 failed here with 'relation "public.idseq_charset_registry" does not exist').
my ($stdout, $stderr);
my $upgrade_ok = IPC::Run::run(
    [ 'pg_upgrade', '--no-sync', '-d', $old->data_dir, '-D', $upgraded->data_dir,
      '-b', $oldbin, '-B', $upgraded->config_data('--bindir'), '-s', $upgraded->host,
      '-p', $old->port, '-P', $upgraded->port ], '>', \$stdout, '2>', \$stderr);
my @logs = glob($upgraded->data_dir . '/pg_upgrade_output.d/*/log/*.log');
my @why = map { grep { /ERROR|error/ } split /\n/, slurp_file($_) } @logs;
note "pg_upgrade: $_" for @why;
# The Debian packaging quirk described above (a pg_attver column option written by the host's
# 15 that unstable's 18 rejects) also stops pg_upgrade, before any idseq object: then this
# major's pg_upgrade cannot be tried here, and the test says so instead of passing.
my @other = grep { !/pg_attver/ && /\bERROR:/ } @why;
if (!$upgrade_ok && @why && grep({ /unrecognized parameter "pg_attver"/ } @why) && !@other) {
    note 'pg_upgrade from the old major: not tried here, this server rejects the packaging\'s pg_attver column option';
} else {
    ok($upgrade_ok, 'pg_upgrade from the old major') or diag(join("\n", @why, $stdout // '', $stderr // ''));
}
if ($upgrade_ok) {
    $upgraded->start;
    # pg_upgrade carries no replication origin, so the snowflake fence is missing: no id until
    # the runbook's step (docs/operations.md, Upgrades)
    my ($ret, $out, $err) = $upgraded->psql('postgres', "\\set VERBOSITY verbose\nSELECT snowflake_nextval()");
    like($err, qr/55000: the snowflake fence of this server is missing/, 'pg_upgrade: no snowflake id before the fence');
    $upgraded->safe_psql('postgres', 'SELECT idseq_snowflake_fence_init()');
    check_moved($upgraded, 'postgres', 'pg_upgrade');
    $upgraded->stop;
}

done_testing();
