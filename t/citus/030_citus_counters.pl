# Counters per key on a Citus cluster (docs/counters.md, "Citus"): a counter created on the
# coordinator numbers rows of a distributed table when the numbers are taken there -- an
# INSERT ... VALUES sent to the coordinator, a multi-row VALUES, an INSERT ... SELECT from a
# local source, a gap-free counter in a transaction that rolls back -- and every tenant's
# numbers are then exactly 1..n in the distributed table. A worker has no counter of that
# name (42704): nothing there can take one of the coordinator's numbers.
use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;
use CitusCluster;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my ($c, $w1, $w2) = CitusCluster::start(names => [qw(cc cw1 cw2)]);
CitusCluster::join_workers($c, $w1, $w2);

$c->safe_psql('postgres', q{
    SELECT idseq_create_counter('order_no');
    SELECT idseq_create_counter('invoice_no', gapless => true);
    CREATE TABLE orders (tenant int NOT NULL, no bigint NOT NULL, via text NOT NULL);
    SELECT create_distributed_table('orders', 'tenant');
    CREATE TABLE invoices (company int NOT NULL, no bigint NOT NULL);
    SELECT create_distributed_table('invoices', 'company');});

# one row at a time, through the coordinator
for my $i (1 .. 60) {
    my $t = $i % 6;
    $c->safe_psql('postgres', "INSERT INTO orders VALUES ($t, idseq_counter_next('order_no', '$t'), 'single')");
}
# many rows in one VALUES, and INSERT ... SELECT from a local source
$c->safe_psql('postgres', q{
    INSERT INTO orders VALUES (1, idseq_counter_next('order_no', '1'), 'values'),
                              (2, idseq_counter_next('order_no', '2'), 'values'),
                              (1, idseq_counter_next('order_no', '1'), 'values');
    INSERT INTO orders SELECT g % 6, idseq_counter_next('order_no', (g % 6)::text), 'select'
      FROM generate_series(1, 600) g;});
is($c->safe_psql('postgres', q{
    SELECT count(*) FROM (SELECT tenant, count(*) AS n, count(DISTINCT no) AS d, min(no) AS lo, max(no) AS hi
                            FROM orders GROUP BY tenant) s
     WHERE n <> d OR lo <> 1 OR hi <> n}), '0',
    'fast counter: every tenant of the distributed table holds exactly 1..n');
is($c->safe_psql('postgres', 'SELECT count(*) FROM orders'), '663', 'all 663 rows arrived');
my %max = map { split /\|/ } split /\n/, $c->safe_psql('postgres', 'SELECT tenant, max(no) FROM orders GROUP BY tenant');
my @off = grep { $c->safe_psql('postgres', "SELECT idseq_counter_current('order_no', '$_')") ne $max{$_} } sort keys %max;
is("@off", '', "the coordinator's current number of each of the " . scalar(keys %max) . ' tenants is its largest in the table');

# gap-free: a rolled-back transaction returns its number
$c->safe_psql('postgres', q{
    BEGIN; INSERT INTO invoices VALUES (7, idseq_counter_next('invoice_no', '7')); COMMIT;
    BEGIN; INSERT INTO invoices VALUES (7, idseq_counter_next('invoice_no', '7')); ROLLBACK;
    BEGIN; INSERT INTO invoices VALUES (7, idseq_counter_next('invoice_no', '7')); COMMIT;
    INSERT INTO invoices SELECT 8, idseq_counter_next('invoice_no', '8') FROM generate_series(1, 5);});
is($c->safe_psql('postgres', q{SELECT string_agg(company || ':' || no, ',' ORDER BY company, no) FROM invoices}),
    '7:1,7:2,8:1,8:2,8:3,8:4,8:5', 'gap-free counter: a rollback returned its number, no gap in the table');

# a worker has no counter of that name
for my $w ($w1, $w2) {
    my ($ret, $out, $err) = $w->psql('postgres', "\\set VERBOSITY verbose\nSELECT idseq_counter_next('order_no', '1')");
    like($err, qr/42704/, $w->name . ': the coordinator\'s counter does not exist on a worker (42704)');
}

done_testing();
