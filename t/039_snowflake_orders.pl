# Field orders under concurrency: snowflake_create_layout refuses
# every field order whose ids cannot increase, and accepts 16 orders of the fields time,
# node, seq and rand (time before seq and rand, seq before rand, node anywhere). Each
# accepted order, with narrow seq and rand fields so that units run out and counters
# restart all the time, issues ids that are unique and increase in every session, while
# four pgbench clients draw ids from all of them at once; on both generator paths.
use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;
use IdseqTest qw(idseq_node switch_path pgbench_ok);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = idseq_node('sf_orders', preload => 1, node_id => 5, conf => "max_connections = 20\n");
$node->safe_psql('postgres', q{
    CREATE TABLE ids (n bigserial, client int, layout text, id bigint, PRIMARY KEY (layout, id));
});

# Every order of every field set with time, created: which are accepted?
my $orders = $node->safe_psql('postgres', q{
    WITH RECURSIVE f(name, width) AS (VALUES ('time', 41), ('node', 3), ('seq', 2), ('rand', 2)),
    perm(spec, used) AS (
        SELECT f.name || ':' || f.width, ARRAY[f.name] FROM f
        UNION ALL
        SELECT p.spec || ',' || f.name || ':' || f.width, p.used || f.name
          FROM perm p JOIN f ON f.name <> ALL (p.used))
    SELECT spec FROM perm WHERE 'time' = ANY (used) ORDER BY spec});
my (@accepted, @refused);
my $k = 0;
for my $spec (split /\n/, $orders) {
    $k++;
    my ($rc, $out, $err) = $node->psql('postgres',
        "SELECT snowflake_create_layout('ord_$k', '2020-01-01', '$spec')");
    if ($rc == 0) {
        push @accepted, "ord_$k";
    } else {
        like($err, qr/cannot issue increasing ids/, "$spec is refused because its ids cannot increase");
        push @refused, $spec;
    }
}
is(scalar(@accepted) + scalar(@refused), 49, '49 field orders tried');
is(scalar(@accepted), 16, '16 field orders accepted');
for my $spec ('seq:12,time:41,node:10', 'time:41,node:10,rand:4,seq:8') {
    my ($rc, $out, $err) = $node->psql('postgres', "SELECT snowflake_create_layout('bad', '2020-01-01', '$spec')");
    like($err, qr/cannot issue increasing ids.*\n.*\n.*HINT:  Use the fields in the order "time:41,node:10,seq:/s,
        "the issue's $spec is refused with a hint");
}

my $script = join '', map { "INSERT INTO ids (client, layout, id) SELECT :client_id, '$_', snowflake_nextval('$_') FROM generate_series(1, 25);\n" } @accepted;
for my $path ('shared', 'plain') {
    if ($path eq 'plain') {
        switch_path($node, 'plain');
        $node->safe_psql('postgres', 'TRUNCATE ids');
    }
    pgbench_ok($node, "$path: 4 clients draw ids from the 16 layouts, none repeats", clients => 4, transactions => 10,
        protocol => '', script => $script);
    my $res = $node->safe_psql('postgres', q{
        SELECT count(*), count(DISTINCT layout), count(*) FILTER (WHERE id <= prev)
          FROM (SELECT layout, id, lag(id) OVER (PARTITION BY client, layout ORDER BY n) AS prev FROM ids) s});
    is($res, '16000|16|0', "$path: 16000 ids, and in every session each layout's ids increase");
}

$node->stop;
done_testing();
