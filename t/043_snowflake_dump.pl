# Custom snowflake layouts survive pg_dump/pg_restore into a fresh cluster, and so do the
# generators' durable high-water marks: the restored database packs and unpacks exactly as
# the source did, and -- on the same node id, with the new server's clock an hour behind --
# its new ids lie above every id the source issued.
use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;
use IdseqTest qw(idseq_node dump_ok restore_ok);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $src = idseq_node('sf_dump_source', preload => 1, node_id => 5);
$src->safe_psql('postgres', q{
    SELECT snowflake_create_layout('orders', '2024-01-01 00:00:00+00', 'time:40,node:6,seq:17');
    SELECT snowflake_create_layout('per_second', '2020-01-01 00:00:00+00', 'time:32,rand:20,node:11', '1 second');
    SELECT snowflake_create_layout('a_very_long_layout_name_that_takes_all_of_sixty_three_character',
                                   '2024-01-01 00:00:00+00', 'time:50,seq:13', '10 microseconds');
    CREATE TABLE orders (id bigint PRIMARY KEY DEFAULT snowflake_nextval('orders'), n int);
    INSERT INTO orders (n) SELECT g FROM generate_series(1, 5000) g;
    CREATE TABLE events (id bigint PRIMARY KEY DEFAULT snowflake_nextval(), n int);
    INSERT INTO events (n) SELECT g FROM generate_series(1, 5000) g;
});
my $layouts = $src->safe_psql('postgres', 'SELECT * FROM snowflake_layouts ORDER BY name');
my $packed = q{SELECT name, snowflake_pack(name, '2025-01-02 03:04:05.678901+00'),
                      (snowflake_unpack(snowflake_pack(name, '2025-01-02 03:04:05.678901+00'), name)).ts
                 FROM snowflake_layouts ORDER BY name};
my $packed_before = $src->safe_psql('postgres', $packed);
my $max_orders = $src->safe_psql('postgres', q{SELECT max(snowflake_nextval('orders')) FROM generate_series(1, 100)});
my $max_events = $src->safe_psql('postgres', q{SELECT max(snowflake_nextval()) FROM generate_series(1, 100)});

my $dump = $src->basedir . '/dump.custom';
dump_ok($src, 'postgres', $dump, 'pg_dump');
$src->stop;

# The same node id on a new server whose clock is an hour behind.
my $dst = idseq_node('sf_dump_destination', preload => 1, node_id => 5,
    conf => "idseq.test_clock_offset_ms = -3600000\n", extension => 0);
restore_ok($dst, 'restored', $dump, 'pg_restore into a fresh cluster');
is($dst->safe_psql('restored', 'SELECT * FROM snowflake_layouts ORDER BY name'), $layouts, 'every layout restored');
is($dst->safe_psql('restored', $packed), $packed_before, 'pack and unpack agree with the source');
is($dst->safe_psql('restored', q{SELECT count(*) FROM orders o, LATERAL snowflake_unpack(o.id, 'orders') u
                                  WHERE u.node = 5}), '5000', 'stored ids unpack in their custom layout');

$dst->safe_psql('restored', q{
    INSERT INTO orders (n) SELECT g FROM generate_series(5001, 10000) g;
    INSERT INTO events (n) SELECT g FROM generate_series(5001, 10000) g;
});
is($dst->safe_psql('restored', "SELECT count(*) FROM orders WHERE n > 5000 AND id <= $max_orders"), '0',
    'new ids of a custom layout lie above every id of the source');
is($dst->safe_psql('restored', "SELECT count(*) FROM events WHERE n > 5000 AND id <= $max_events"), '0',
    'new ids of a built-in layout lie above every id of the source');
is($dst->safe_psql('restored', q{SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                                  WHERE c.relkind = 'S' AND c.relname LIKE 'idseq_sf_%'}),
    '30', 'the state sequences and guards of 6 built-in layouts, idseq_uuidv7()\'s and 3 custom layouts, once each');
my ($ret, $out, $err) = $dst->psql('restored',
    q{SELECT snowflake_create_layout('orders', '2024-01-01', 'time:40,node:6,seq:17')});
like($err, qr/snowflake layout "orders" already exists/, 'a restored layout cannot be created again');

$dst->stop;
done_testing();
