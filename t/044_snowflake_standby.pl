# Failover: a primary (shared memory) issues snowflake ids under load; two streaming standbys
# replay its WAL, one with idseq in shared_preload_libraries and one without, both with their
# clock set back an hour. On a standby snowflake_nextval is refused (read-only, like
# nextval). Once promoted, each continues above every id the old primary issued, because the
# primary's durable high-water mark reached them through the WAL before those ids existed.
use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;
use IdseqTest qw(idseq_node standby_of promote_and_wait pgbench_ok);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $primary = idseq_node('sf_primary', streaming => 1, preload => 1, node_id => 4,
    conf => "max_connections = 20\nlog_statement = none\n");
$primary->safe_psql('postgres', q{
    CREATE TABLE ids (id bigint PRIMARY KEY, phase text);
});

my %standby;
for my $kind ('shared', 'plain') {
    my $preload = $kind eq 'shared' ? 'idseq' : '';
    $standby{$kind} = standby_of($primary, "sf_standby_$kind", backup => 'base', conf => qq{
shared_preload_libraries = '$preload'
idseq.test_clock_offset_ms = -3600000
});
}

pgbench_ok($primary, 'the primary issues 200000 ids under load', clients => 4, transactions => 50, script => q{
INSERT INTO ids SELECT snowflake_nextval(), 'primary' FROM generate_series(1, 1000);
});
# Ids a client saw but that no table holds count too.
my $last = $primary->safe_psql('postgres', 'SELECT max(snowflake_nextval()) FROM generate_series(1, 5000)');
my $max_primary = $primary->safe_psql('postgres', 'SELECT max(id) FROM ids');
$max_primary = $last if $last > $max_primary;
$primary->wait_for_catchup($standby{$_}) for keys %standby;

my ($rc, $out, $err) = $standby{shared}->psql('postgres', 'SELECT snowflake_nextval()');
like($err, qr/cannot execute snowflake_nextval\(\) in a read-only transaction/, 'a standby refuses to issue ids');
is($standby{plain}->safe_psql('postgres', 'SELECT count(*) FROM ids'), '200000', 'the standby has the rows');

$primary->stop;

for my $kind ('shared', 'plain') {
    my $s = $standby{$kind};
    promote_and_wait($s);
    my $res = $s->safe_psql('postgres', qq{
        INSERT INTO ids SELECT snowflake_nextval(), '$kind' FROM generate_series(1, 20000);
        SELECT count(*), min(id) > $max_primary, min(snowflake_timestamp(id)) >= snowflake_timestamp($max_primary)
          FROM ids WHERE phase = '$kind'});
    my ($n, $above, $time) = split /\|/, $res;
    is($n, 20000, "promoted standby ($kind): 20000 new ids");
    is($above, 't', "promoted standby ($kind): every new id is above every id of the old primary");
    is($time, 't', "promoted standby ($kind): its ids did not follow its clock an hour back");
    $s->stop;
}

done_testing();
