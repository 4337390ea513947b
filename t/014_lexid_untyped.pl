# Stored queries planned before the library is loaded. Without
# shared_preload_libraries or session_preload_libraries, a fresh session plans a view's
# query before anything has loaded idseq, so the planner hook does not type the view's
# untyped literals: btree then compares them with each other (de-duplicating an IN list,
# keeping the tighter of two bounds) without the column's charset. Before the fix that gave
# wrong rows (1 row instead of 2; 25 instead of 0); now it is the right rows or the error
# "cannot compare lexid values ... without a charset", by index scan and by sequential scan,
# and the right rows once idseq is preloaded, also for a column of a domain over lexid(cs).
use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;
use IdseqTest qw(idseq_node);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = idseq_node('untyped');
$node->safe_psql('postgres', q{
    CREATE TABLE tb (code lexid(base62));
    INSERT INTO tb SELECT lexid_from_rank(g, 'base62') FROM generate_series(1, 4000) g;
    CREATE INDEX tb_code ON tb (code);
    ANALYZE tb;
    CREATE VIEW vb1 AS SELECT code FROM tb WHERE code IN ('a', 'A');
    CREATE VIEW vb2 AS SELECT code FROM tb WHERE code > 'a' AND code > 'B' AND code < 'b';
    CREATE VIEW vb3 AS SELECT code FROM tb WHERE code IN ('Ab', 'aB', 'Ac', 'aC', 'Ad', 'aD', 'Ae', 'aE', 'Af');
    -- a column of a domain over lexid(base62): the charset is the domain's
    CREATE DOMAIN code62 AS lexid(base62);
    CREATE TABLE td (code code62);
    INSERT INTO td SELECT code FROM tb;
    CREATE INDEX td_code ON td (code);
    ANALYZE td;
    CREATE VIEW vd1 AS SELECT code FROM td WHERE code IN ('a', 'A');
    CREATE VIEW vd2 AS SELECT code FROM td WHERE code > 'a' AND code > 'B' AND code < 'b';
});

my %right = (vb1 => 'A,a', vb2 => '', vb3 => 'Ab,Ac,Ad,Ae,Af,aB,aC,aD,aE', vd1 => 'A,a', vd2 => '');
my %scans = (
    index => 'SET enable_seqscan = off;',
    seq   => 'SET enable_indexscan = off; SET enable_bitmapscan = off;');

# Each query in a fresh session, so that the view is planned before idseq is loaded.
sub fresh
{
    my ($view, $scan) = @_;
    my ($ret, $out, $err) = $node->psql('postgres',
        "$scans{$scan} SELECT coalesce(string_agg(code::text, ',' ORDER BY lexid_rank(code)), '') FROM $view");
    return ($ret, $out, $err);
}

my $errors = 0;
for my $view (sort keys %right) {
    for my $scan (sort keys %scans) {
        my ($ret, $out, $err) = fresh($view, $scan);
        if ($ret == 0) {
            is($out, $right{$view}, "$view by $scan scan in a fresh session: the right rows");
        } else {
            like($err, qr/cannot compare lexid values .* without a charset/,
                "$view by $scan scan in a fresh session: the clean error");
            $errors++;
        }
    }
}
# The index scans are where the untyped literals meet each other: there it is the error.
ok($errors >= 2, "the unplanned view errs rather than guesses ($errors errors)");

# Preloaded, the hook types the view's literals when it is planned: the right rows always.
$node->append_conf('postgresql.conf', "session_preload_libraries = 'idseq'");
$node->reload;
for my $view (sort keys %right) {
    for my $scan (sort keys %scans) {
        my ($ret, $out, $err) = fresh($view, $scan);
        is($ret, 0, "$view by $scan scan with idseq preloaded: no error") or diag($err);
        is($out, $right{$view}, "$view by $scan scan with idseq preloaded: the right rows");
    }
}

$node->stop;
done_testing();
