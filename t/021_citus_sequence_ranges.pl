# nextval_lexid, lexid_block and nextval_code on the sequence copies Citus makes, without
# Citus: the two catalog tables idseq reads (pg_catalog.pg_dist_local_group, the node's
# group; pg_catalog.pg_dist_object, the distributed objects) are planted with the columns
# Citus 13 gives them, and sequences get the shape Citus gives a worker's copy of a bigint
# sequence (START = MINVALUE = (group << 48) + 1, MAXVALUE = START + 2^48). The real thing is
# t/citus/010_citus.pl (make test-citus); this one runs everywhere.
use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;
use IdseqTest qw(idseq_node);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = idseq_node('citus_ranges', conf => "allow_system_table_mods = on\n");
my $sql = sub { $node->safe_psql('postgres', $_[0]) };
my $err = sub {
    my ($rc, $out, $e) = $node->psql('postgres', $_[0]);
    return $rc == 0 ? "no error: $out" : $e;
};
my $seed = q{'00A000'::lexid(base36)};
my $offset = sub { $sql->(qq{SELECT lexid_rank(nextval_lexid('$_[0]', $seed)) - lexid_rank($seed)}) };

$sql->(q{
    CREATE SEQUENCE w1 START 281474976710657 MINVALUE 281474976710657 MAXVALUE 562949953421313;
    CREATE SEQUENCE w1_codes START 281474976710657 MINVALUE 281474976710657 MAXVALUE 562949953421313 CYCLE;
    CREATE SEQUENCE w1_int AS integer CYCLE;
    CREATE SEQUENCE w1_local START 281474976710657 MINVALUE 281474976710657 MAXVALUE 562949953421313;
    CREATE SEQUENCE coord;
});
is($offset->('w1'), 0, 'without Citus catalogs a Citus-shaped sequence keeps the plain contract');

# This node becomes worker group 1, and every sequence but w1_local a distributed object.
$sql->(q{
    CREATE TABLE pg_catalog.pg_dist_local_group (groupid integer NOT NULL);
    CREATE TABLE pg_catalog.pg_dist_object (classid oid NOT NULL, objid oid NOT NULL, objsubid integer NOT NULL);
    INSERT INTO pg_catalog.pg_dist_local_group VALUES (1);
    INSERT INTO pg_catalog.pg_dist_object
        SELECT 'pg_class'::regclass, s::regclass, 0 FROM unnest('{w1,w1_codes,w1_int,coord}'::text[]) s;
});
is($offset->('w1'), (1 << 48) + 1, "worker group 1's copy: seed + (value - 1)");
is($sql->(q{SELECT lexid_rank(first_id) - lexid_rank('A'::lexid(upper)) FROM lexid_block('w1', 'A'::lexid(upper))}),
    (1 << 48) + 2, 'lexid_block: the same mapping');
is($offset->('w1_local'), 0, 'a sequence Citus does not distribute keeps the plain contract');
$sql->(q{SELECT setval('w1', 562949953421311)});
is($offset->('w1'), (2 << 48) - 1, "the copy's last usable value gives the id just below group 2's first");
like($err->(qq{SELECT nextval_lexid('w1', $seed)}),
    qr/ERROR:  sequence "w1" has reached the end of this Citus worker's range/, 'then the copy refuses (2200H)');
like($err->(q{SELECT nextval_code('w1_codes')}),
    qr/ERROR:  cannot draw codes from sequence "w1_codes" on a Citus worker.*HINT:  Insert rows whose default calls nextval_code\(\) through the coordinator/s,
    'nextval_code refuses a worker copy, saying why and what to do');
like($err->(qq{SELECT nextval_lexid('w1_int', $seed)}),
    qr/ERROR:  sequence "w1_int" is a Citus worker's copy without a range of its own/,
    'a worker copy without a range (integer) is refused');
is($sql->(q{SELECT last_value IS NULL FROM pg_sequences WHERE sequencename = 'w1_int'}), 't',
    'before a value is drawn');

# The coordinator (group 0): ids of a distributed bigint sequence stay below offset 2^48.
$sql->(q{UPDATE pg_catalog.pg_dist_local_group SET groupid = 0});
is($offset->('coord'), 0, 'the coordinator keeps the plain contract');
$sql->(q{SELECT setval('coord', 281474976710655)});
is($offset->('coord'), (1 << 48) - 1, "the coordinator's last id is the one before group 1's first");
like($err->(q{SELECT * FROM lexid_block('coord', 'A')}),
    qr/ERROR:  sequence "coord" has handed out every id the Citus coordinator may use/,
    'then the coordinator refuses');

# A session that cached a shape sees the catalogs change: Citus's triggers on them send a
# relcache invalidation for the catalog; here an ALTER TABLE sends it.
$sql->(q{SELECT setval('w1_local', 281474976710657, false)});
is($sql->(qq{
    SELECT lexid_rank(nextval_lexid('w1_local', $seed)) - lexid_rank($seed);
    UPDATE pg_catalog.pg_dist_local_group SET groupid = 1;
    INSERT INTO pg_catalog.pg_dist_object VALUES ('pg_class'::regclass, 'w1_local'::regclass, 0);
    ALTER TABLE pg_catalog.pg_dist_object ALTER COLUMN objsubid SET STATISTICS 100;
    SELECT lexid_rank(nextval_lexid('w1_local', $seed)) - lexid_rank($seed);}),
    "0\n" . ((1 << 48) + 1), 'a session that drew from a local sequence sees it become a worker copy');

$node->stop;
done_testing();
