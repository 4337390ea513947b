# A bounded random-query run with SQLsmith (Debian package sqlsmith) against a database that
# holds lexid columns (typed over several charsets, among them a custom multibyte one, and
# base36), code sequences, snowflake ids, counters per key (a fast one and a gap-free one, each
# filling a table's column) and a named key, on a preloaded cluster with a node id. SQLsmith
# generates queries from the catalog, so they call the extension's functions and operators
# with random arguments. Passes when the server log shows no backend crash and the server
# counted at least half the requested queries as transactions of the database (a run that
# executed nothing, because SQLsmith stopped early or never reached the server, proves
# nothing). Bounded by a query count (IDSEQ_SQLSMITH_QUERIES, default 3000) and a wall-clock
# limit; the seed is fixed (IDSEQ_SQLSMITH_SEED, default 1), so a failure can be replayed.
use strict;
use warnings;
use IPC::Run;
use FindBin;
use lib $FindBin::RealBin;
use IdseqTest qw(idseq_node);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $sqlsmith;
for my $dir (split /:/, $ENV{PATH})
{
    $sqlsmith = "$dir/sqlsmith" if !$sqlsmith && -x "$dir/sqlsmith";
}
plan skip_all => 'sqlsmith is not installed (Debian package sqlsmith)' unless $sqlsmith;

my $queries = $ENV{IDSEQ_SQLSMITH_QUERIES} // 3000;
my $seed = $ENV{IDSEQ_SQLSMITH_SEED} // 1;

my $node = idseq_node('sqlsmith', preload => 1, node_id => 3, extension => 0, conf => qq{
log_min_messages = warning
log_min_error_statement = panic
statement_timeout = '1s'
});

$node->safe_psql('postgres', q{
    CREATE ROLE smith LOGIN;
    CREATE DATABASE smith OWNER smith;
});
$node->safe_psql('smith', q{
    CREATE EXTENSION idseq;
    SELECT idseq_create_charset('stars', '★☆✦✧');
    SELECT idseq_create_charset('vowels', 'AEIOU');
    SELECT snowflake_create_layout('orders', '2024-01-01 00:00:00+00', 'time:40,node:6,seq:17');
    SELECT create_code_sequence('public.ticket_codes', 3, 'upper');
    GRANT USAGE ON SEQUENCE ticket_codes TO smith;
});
$node->safe_psql('smith', q{
    SET ROLE smith;
    CREATE SEQUENCE order_seq;
    CREATE SEQUENCE block_seq INCREMENT BY 100 MAXVALUE 100000;
    CREATE TABLE codes (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        b36 lexid(base36), b62 lexid(base62), star lexid(stars), vowel lexid(vowels), up lexid(upper),
        plain lexid(base36), ticket text, n bigint);
    INSERT INTO codes (b36, b62, star, vowel, up, plain, ticket, n)
    SELECT lexical_add('0', 'base36', g), lexical_add('0', 'base62', g * 7919),
           lexid_from_rank(g, 'stars'), lexid_from_rank(g * 3, 'vowels'), lexid_from_rank(g, 'upper'),
           lexical_add('A', 'base36', g), nextval_code('ticket_codes'), g
      FROM generate_series(1, 500) g;
    CREATE INDEX ON codes (b36); CREATE INDEX ON codes (star); CREATE INDEX ON codes USING hash (b62);
    CREATE TABLE orders (id bigint PRIMARY KEY DEFAULT snowflake_nextval('orders'),
                         code lexid(base36) DEFAULT nextval_lexid('order_seq', '00A000'),
                         shown text, at timestamptz);
    INSERT INTO orders (shown, at) SELECT idseq_encode(g), now() FROM generate_series(1, 300) g;
    UPDATE orders SET at = snowflake_timestamp(id, 'orders');
    CREATE TABLE events (id bigint PRIMARY KEY DEFAULT snowflake_nextval(), kind text);
    INSERT INTO events (kind) SELECT 'k' || g FROM generate_series(1, 300) g;
    SELECT idseq_create_counter('ticket_no', format => 'T-{n:6}');
    SELECT idseq_create_counter('invoice_no', gapless => true, period => 'year', time_zone => 'Europe/Paris');
    CREATE TABLE tickets (id int GENERATED ALWAYS AS IDENTITY PRIMARY KEY, tenant int NOT NULL, no text);
    CREATE TRIGGER tickets_no BEFORE INSERT ON tickets
        FOR EACH ROW EXECUTE FUNCTION idseq_counter_fill('ticket_no', 'tenant', 'no');
    INSERT INTO tickets (tenant) SELECT g % 7 FROM generate_series(1, 200) g;
    CREATE TABLE invoices (id int GENERATED ALWAYS AS IDENTITY PRIMARY KEY, company int NOT NULL, no bigint);
    CREATE TRIGGER invoices_no BEFORE INSERT ON invoices
        FOR EACH ROW EXECUTE FUNCTION idseq_counter_fill('invoice_no', 'company', 'no', 'commit');
    INSERT INTO invoices (company) SELECT g % 5 FROM generate_series(1, 100) g;
    SELECT idseq_create_key('orders');
    ANALYZE;
});

# Transactions of the database so far: each query SQLsmith runs is one (committed, or rolled
# back by its error or the statement timeout). Counted by the server, not by SQLsmith's output.
my $xacts_sql = q{SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = 'smith'};
my $xacts_before = $node->safe_psql('postgres', $xacts_sql);
my $min_queries = int($queries / 2);

my $log_start = -s $node->logfile;
my ($out, $err) = ('', '');
my $h = IPC::Run::start(
    [ $sqlsmith, '--target=' . $node->connstr('smith') . ' user=smith', "--seed=$seed",
      "--max-queries=$queries", '--exclude-catalog', '--verbose' ],
    '<', \undef, '>', \$out, '2>', \$err,
    IPC::Run::timeout(300));
eval { $h->finish; };
my $timed_out = $@;
$h->kill_kill if $timed_out;
note("sqlsmith (seed $seed, $queries queries): " . ($timed_out ? "stopped at the time limit: $timed_out" : 'done'));
note('sqlsmith stderr (tail): ' . substr($err, -2000));

my $log = slurp_file($node->logfile, $log_start);
my @crashes = $log =~ /^.*(?:terminated by signal|server process .* was terminated|was terminated by exception).*$/mg;
is(scalar(@crashes), 0, 'no backend crashed') or diag(join("\n", @crashes));
# The statements the crashed backends were running, to reproduce them.
if (@crashes)
{
    my @failing = $log =~ /^.*DETAIL:  Failed process was running: .*$/mg;
    diag(join("\n", @failing[0 .. ($#failing < 9 ? $#failing : 9)]));
}
is($node->safe_psql('smith', 'SELECT count(*) FROM codes'), '500', 'the server still answers');
unlike($err, qr/could not connect|connection to server .* failed/, 'sqlsmith ran against the database');
# SQLsmith's backend reports its counts when it exits, which may come just after the client
# has gone: read them again for a few seconds while they are short.
my $ran = 0;
for my $try (1 .. 20)
{
    $ran = $node->safe_psql('postgres', $xacts_sql) - $xacts_before;
    last if $ran >= $min_queries;
    sleep 1;
}
note("the server counted $ran transactions in the database during the run");
cmp_ok($ran, '>=', $min_queries, "sqlsmith ran at least $min_queries of its $queries queries");

$node->stop;
done_testing();
