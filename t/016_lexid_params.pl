# Driver parameters in a fresh session: a new connection whose first
# statement is PREPARE, with a text or varchar parameter (Npgsql, JDBC) or an untyped one,
# gets an index scan on a lexid(charset) column, custom and generic plans alike. Nothing has
# loaded the library when the statement is prepared (no idseq.* setting is defined yet, and
# the server does not preload it), so the planner hook is not there: the planner finds the
# support function of the lexid = text operators in the catalog and calls it. Before the
# fix these plans were sequential scans.
use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;
use IdseqTest qw(idseq_node);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = idseq_node('params');
$node->safe_psql('postgres', q{
    CREATE TABLE t (id int, code lexid(base62) PRIMARY KEY);
    INSERT INTO t SELECT g, lexid_from_rank(g * 7919, 'base62') FROM generate_series(1, 50000) g;
    ANALYZE t;
});
is($node->safe_psql('postgres', q{SELECT code FROM t WHERE id = 500}), 'Fb1t', 'the row looked up');

my $loaded = q{SELECT 'library loaded: ' || (count(*) > 0) FROM pg_settings WHERE name LIKE 'idseq.%';};
my %decl = (text => '(text)', varchar => '(varchar)', unknown => '');
my %decl2 = (text => '(text, text)', varchar => '(varchar, varchar)', unknown => '');
for my $mode ('force_custom_plan', 'force_generic_plan') {
    local $ENV{PGOPTIONS} = "-c plan_cache_mode=$mode";
    for my $type ('text', 'varchar', 'unknown') {
        # a new connection; its first statement is the PREPARE
        my $out = $node->safe_psql('postgres', qq{
            PREPARE eq$decl{$type} AS SELECT id FROM t WHERE code = \$1;
            PREPARE range$decl2{$type} AS SELECT id FROM t WHERE \$1 <= code AND code < \$2 ORDER BY code;
            $loaded
            EXPLAIN (COSTS OFF) EXECUTE eq('Fb1t');
            EXECUTE eq('Fb1t');
            EXPLAIN (COSTS OFF) EXECUTE range('Fb1t', 'Fb1u');
            EXECUTE range('Fb1t', 'Fb1u');
        });
        note "$mode, $type:\n$out";
        my $custom = $mode eq 'force_custom_plan';
        my $param = $custom ? q{'Fb1t'::lexid\(base62\)} : q{\(\$1\)::lexid\(base62\)};
        my $param2 = $custom ? q{'Fb1u'::lexid\(base62\)} : q{\(\$2\)::lexid\(base62\)};
        # (EXECUTE then reads an unknown parameter with lexid's input function, which loads
        # the library before planning; text and varchar are read by the core)
        like($out, qr/^library loaded: false$/m, "$mode, $type: nothing loaded the library at PREPARE");
        like($out, qr/Index Scan using t_pkey on t\n\s*Index Cond: \(code = $param\)/,
             "$mode, $type: = is an index condition");
        like($out, qr/Index Cond: \(\(code >= $param\) AND \(code < $param2\)\)/,
             "$mode, $type: >= in the other argument order is an index condition");
        unlike($out, qr/Seq Scan/, "$mode, $type: no sequential scan");
        is(() = $out =~ /^500$/mg, 2, "$mode, $type: the row, by = and by the range");
    }
}

# Invalid text: 22P02 in a fresh session too (custom and generic).
for my $mode ('force_custom_plan', 'force_generic_plan') {
    local $ENV{PGOPTIONS} = "-c plan_cache_mode=$mode";
    my ($ret, $stdout, $stderr) = $node->psql('postgres', q{
        \set VERBOSITY verbose
        PREPARE eq(varchar) AS SELECT id FROM t WHERE code = $1;
        EXECUTE eq('Fb-t');
    });
    like($stderr, qr/ERROR:  22P02: invalid character "-" at position 3 in "Fb-t"/, "$mode: text outside the charset is 22P02");
}

$node->stop;
done_testing();
