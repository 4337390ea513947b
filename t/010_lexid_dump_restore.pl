# lexid values and custom charsets survive pg_dump/pg_restore into a fresh cluster (a restore
# runs every CREATE TABLE before any data, our registry's included) and physical replication.
use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;
use IdseqTest qw(idseq_node standby_of dump_ok restore_ok);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $src = idseq_node('source', streaming => 1);
$src->safe_psql('postgres', q{
    SELECT idseq_create_charset('stars', '★☆✦✧');
    SELECT idseq_create_charset('quotes', 'a''b"c\\d', true);
    SELECT idseq_create_charset('unused', 'XYZ');
    -- table names sort before the registry's, so a restore loads them first
    CREATE TABLE a_items (id int PRIMARY KEY, s lexid(stars), q lexid(quotes), b lexid(base62), plain lexid(base36));
    CREATE INDEX a_items_s ON a_items (s);
    CREATE UNIQUE INDEX a_items_q ON a_items (q);
    INSERT INTO a_items
        SELECT g, lexid_from_rank(g, 'stars'), lexid_from_rank(g, 'quotes'), lexid_from_rank(g * 7919, 'base62'),
               lexid_from_rank(g, 'base36')
          FROM generate_series(1, 500) g;
});
my $before = $src->safe_psql('postgres', 'SELECT * FROM a_items ORDER BY s');
my $charsets = $src->safe_psql('postgres', 'SELECT * FROM idseq_charsets ORDER BY name');

# ---- a streaming standby reads the custom charsets ----
my $standby = standby_of($src, 'standby');
$src->safe_psql('postgres', q{SELECT idseq_create_charset('late', 'LMNOP'); INSERT INTO a_items VALUES (501, '✧✧', 'ddddd', 'Zz', 'ZZ')});
$src->wait_for_catchup($standby);
is($standby->safe_psql('postgres', q{SELECT 'PONML'::lexid(late)::text, (SELECT s FROM a_items WHERE id = 501)}),
   "PONML|✧✧", 'standby reads values of custom charsets, including one created after the backup');
is($standby->safe_psql('postgres', q{SELECT count(*) FROM a_items WHERE s > '★'}), '500', 'standby compares custom-charset values');

# ---- pg_dump (custom format) and pg_restore into a fresh cluster ----
$before = $src->safe_psql('postgres', 'SELECT * FROM a_items ORDER BY s');
$charsets = $src->safe_psql('postgres', 'SELECT * FROM idseq_charsets ORDER BY name');
my $dst = idseq_node('destination', extension => 0);
my $dump = $src->basedir . '/dump.custom';
dump_ok($src, 'postgres', $dump, 'pg_dump');
restore_ok($dst, 'restored', $dump, 'pg_restore into a fresh cluster');
is($dst->safe_psql('restored', 'SELECT * FROM a_items ORDER BY s'), $before, 'every value restored');
is($dst->safe_psql('restored', 'SELECT * FROM idseq_charsets ORDER BY name'), $charsets,
   'every charset restored, used or not');
is($dst->safe_psql('restored', q{SELECT format_type(atttypid, atttypmod) FROM pg_attribute
                                 WHERE attrelid = 'a_items'::regclass AND attname = 's'}),
   q{lexid(stars,'★☆✦✧')}, 'the type modifier is self-describing');
$dst->safe_psql('restored', 'CREATE EXTENSION amcheck');
is($dst->safe_psql('restored', q{SELECT bt_index_check('a_items_s', true), bt_index_check('a_items_q', true)}), '|',
   'restored indexes are consistent');
my ($ret, $out, $err) = $dst->psql('restored', q{INSERT INTO a_items VALUES (999, '★', 'A', '1', '1')});
like($err, qr/duplicate key value/, 'unique index on a case-insensitive custom charset still enforces uniqueness');
is($dst->safe_psql('restored', q{INSERT INTO a_items VALUES (1000, '✧✧✧✧✧', 'DDDD', '1', '1') RETURNING s, q}),
   '✧✧✧✧✧|dddd', 'new values after restore (case-insensitive input, canonical output)');

# ---- plain SQL dump into another fresh database ----
my $sql = $src->basedir . '/dump.sql';
dump_ok($src, 'postgres', $sql, 'pg_dump plain', plain => 1);
restore_ok($dst, 'plain', $sql, 'psql < plain dump', plain => 1);
is($dst->safe_psql('plain', 'SELECT * FROM a_items ORDER BY s'), $before, 'every value restored from the plain dump');

# a dump restored where a charset of the same name means something else is refused
$dst->safe_psql('postgres', q{CREATE DATABASE clash});
$dst->safe_psql('clash', q{CREATE EXTENSION idseq; SELECT idseq_create_charset('unused', 'QRS')});
($ret, $out, $err) = $dst->psql('clash', undef, extra_params => [ '-v', 'ON_ERROR_STOP=1', '-f', $sql ]);
like($err, qr/charset "unused" already exists/, 'a conflicting charset definition stops the restore');

done_testing();
