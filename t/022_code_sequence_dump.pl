# What a table's ids are made of survives pg_dump and a restore into a fresh cluster: the
# charset a code sequence was made for (create_code_sequence records it, nextval_code without
# a charset reads it), and a column default whose nextval_lexid seed was written without a
# charset (typed in the column's charset when the default was created, so the dump holds the
# typed seed). Before, nextval_code('seq') read upper and failed on a sequence made for
# another charset, and every INSERT through such a default drew a value and failed.
use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;
use IdseqTest qw(idseq_node dump_ok restore_ok);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $src = idseq_node('src');
$src->safe_psql('postgres', q{
    SELECT idseq_create_charset('noambig', '23456789ABCDEFGHJKMNPQRSTUVWXYZ');
    SELECT create_code_sequence('desk_seq', 2, 'noambig');
    CREATE TABLE desks (code text PRIMARY KEY DEFAULT nextval_code('desk_seq'), n int);
    INSERT INTO desks (n) SELECT g FROM generate_series(1, 3) g;
    CREATE SEQUENCE order_no_seq;
    CREATE TABLE orders (code lexid(noambig) PRIMARY KEY DEFAULT nextval_lexid('order_no_seq', '222222'), n int);
    INSERT INTO orders (n) SELECT g FROM generate_series(1, 3) g;
});
is($src->safe_psql('postgres', q{SELECT string_agg(code, ' ' ORDER BY n) FROM desks}), '22 23 24',
    'nextval_code without a charset reads the charset the sequence was made for');
is($src->safe_psql('postgres', q{SELECT string_agg(code::text, ' ' ORDER BY n) FROM orders}),
    '222222 222223 222224', 'an untyped seed in a default is read in the column charset');
is($src->safe_psql('postgres', q{SELECT last_value FROM order_no_seq}), '3', 'no sequence value burnt');

# Rows that name no sequence of the database must not reach a dump: one such row failed the
# restore's whole COPY of the table, and every code sequence lost its charset. A temporary
# code sequence (gone at session end, DISCARD TEMP or ON COMMIT DROP, which fire no sql_drop
# event) is not recorded; a row left behind by an older version (a bare OID, made here with
# the check trigger off) is left out of dumps by the table's dump filter.
$src->safe_psql('postgres', q{SELECT create_code_sequence('pg_temp.scratch', 3, 'hex')});
$src->safe_psql('postgres', q{BEGIN; CREATE TEMP TABLE tt (c int) ON COMMIT DROP;
    SELECT create_code_sequence('pg_temp.scratch2', 3, 'hex');
    ALTER SEQUENCE pg_temp.scratch2 OWNED BY pg_temp.tt.c; COMMIT;
    SELECT create_code_sequence('pg_temp.scratch3', 3, 'hex'); DISCARD TEMP;});
is($src->safe_psql('postgres', q{SELECT string_agg(seq::text, ' ') FROM idseq_code_sequences}), 'desk_seq',
    'temporary code sequences leave no record behind');
$src->safe_psql('postgres', q{
    ALTER TABLE idseq_code_sequences DISABLE TRIGGER idseq_code_sequences_check;
    INSERT INTO idseq_code_sequences VALUES (4000000000::oid::regclass, 'hex');
    ALTER TABLE idseq_code_sequences ENABLE TRIGGER idseq_code_sequences_check;
});

my $dst = idseq_node('dst', extension => 0);
my $dir = PostgreSQL::Test::Utils::tempdir;

# custom format, pg_restore; and plain, psql
dump_ok($src, 'postgres', "$dir/dump.fc", 'pg_dump -Fc');
restore_ok($dst, 'custom', "$dir/dump.fc", 'pg_restore');
dump_ok($src, 'postgres', "$dir/dump.sql", 'pg_dump plain', plain => 1);
restore_ok($dst, 'plain', "$dir/dump.sql", 'psql < plain dump', plain => 1);
unlike(slurp_file("$dir/dump.sql"), qr/^4000000000\t/m, 'the row of a missing sequence is left out of the dump');
like(slurp_file("$dir/dump.sql"), qr/nextval_lexid\('public\.order_no_seq'::regclass, '222222'::public\.lexid\(noambig/,
    'the dump holds the typed seed');

for my $db (qw(custom plain)) {
    is($dst->safe_psql($db, q{SELECT seq::text || ' ' || charset FROM idseq_code_sequences}), 'desk_seq noambig',
        "$db: the record names the restored sequence");
    $dst->safe_psql($db, q{INSERT INTO desks (n) VALUES (4); INSERT INTO orders (n) VALUES (4)});
    is($dst->safe_psql($db, q{SELECT code FROM desks WHERE n = 4}), '25',
        "$db: nextval_code without a charset continues in the sequence's charset");
    is($dst->safe_psql($db, q{SELECT code FROM orders WHERE n = 4}), '222225',
        "$db: the default's seed is still read in the column's charset");
    # a dropped sequence is forgotten, so that a new sequence reusing the OID reads upper
    $dst->safe_psql($db, q{DROP TABLE desks; DROP SEQUENCE desk_seq});
    is($dst->safe_psql($db, q{SELECT count(*) FROM idseq_code_sequences}), '0', "$db: dropping forgets the charset");
}

$src->stop;
$dst->stop;
done_testing();
