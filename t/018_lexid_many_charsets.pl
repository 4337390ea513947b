# Many charsets must not exhaust a backend. With 60,000 registered charsets:
# - every lookup is one index probe: a transaction that resolves hundreds of charsets shows
#   index scans of the registry and no sequential scan, and a lookup costs about the same as
#   with a handful of charsets;
# - a backend's private memory stays bounded: past the cache's cap on committed definitions
#   the extra ones live only as long as the memory context they were looked up in (a row),
#   so statements, even one statement, touching tens of thousands of charsets do not grow the
#   backend, and an untyped literal never loads the whole registry;
# - work over the whole registry (the untyped-literal check, an unknown name's candidates)
#   stops at statement_timeout;
# - the hint of an unknown charset names at most five close names, never the registry.
# Memory is the backend's RssAnon (palloc'd and C++ heap alike), read from /proc/self/status
# by the backend itself.
use strict;
use warnings;
use Time::HiRes qw(time);
use FindBin;
use lib $FindBin::RealBin;
use IdseqTest qw(idseq_node);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

if (!-r "/proc/self/status") {
    plan skip_all => 'needs /proc/<pid>/status (Linux)';
}

my $n = 60_000;
my $node = idseq_node('many_charsets');
my $t0 = time;
$node->safe_psql('postgres', qq{
    DO \$\$ BEGIN PERFORM idseq_create_charset('cs_' || g, 'abcdefgh') FROM generate_series(1, $n) g; END \$\$;
    CREATE FUNCTION rss_anon_kb() RETURNS int LANGUAGE sql
        AS \$\$ SELECT substring(pg_read_file('/proc/self/status') from 'RssAnon:\\s+(\\d+)')::int \$\$;
});
note(sprintf('%d charsets registered in %.1f s', $n, time - $t0));

# ===== lookups are index probes =====
my $scans = $node->safe_psql('postgres', q{
    BEGIN;
    SELECT count(code_format(1, 3, 'cs_' || g)) FROM generate_series(1, 500) g;
    SELECT count(lexid_from_rank(5, 'cs_' || g)) FROM generate_series(501, 700) g;
    SELECT seq_scan, idx_scan >= 700 FROM pg_stat_xact_user_tables WHERE relname = 'idseq_charset_registry';
    COMMIT;
});
is($scans, "500\n200\n0|t", '700 lookups of uncached charsets: index scans only, no sequential scan');

# ===== reading an untyped literal costs nothing per registered charset =====
# Untyped input is purely lexical: a literal that no charset may read is kept as written
# (it is checked where it meets a charset), so neither its time nor its memory depends on
# the registry, and there is no long work for statement_timeout to stop.
my ($ret, $out, $err) = $node->psql('postgres', q{
    SELECT clock_timestamp() AS t0 \gset
    SET statement_timeout = '100ms';
    SELECT '"'::lexid \g /dev/null
    RESET statement_timeout;
    SELECT round(extract(epoch FROM clock_timestamp() - :'t0'::timestamptz)::numeric, 3);
}, on_error_stop => 0);
# statement_timeout is the bound: a read of the registry longer than 100 ms would cancel the
# statement with an error (the wall time of the three round trips is only noted, since a
# loaded machine can pause a client for that long)
note("an untyped literal among $n charsets took $out s");
is($err, '', 'an untyped literal no charset reads is kept as written, within statement_timeout (100 ms), with no error');

# A lookup costs about the same whatever the registry holds: 5,000 lookups of distinct
# charsets in a fresh backend (each one a cache miss).
my $per_lookup_us = $node->safe_psql('postgres', q{
    SELECT clock_timestamp() AS t0 \gset
    SELECT count(code_format(1, 3, 'cs_' || g)) FROM generate_series(5001, 10000) g \g /dev/null
    SELECT round(extract(epoch FROM clock_timestamp() - :'t0'::timestamptz) * 1e6 / 5000);
});
note("a cache miss costs $per_lookup_us us");
cmp_ok($per_lookup_us, '<', 1000, 'a lookup among 60,000 charsets costs less than 1 ms');

# ===== memory per backend =====
($ret, $out, $err) = $node->psql('postgres', q{
    SELECT count(code_format(1, 3, 'cs_' || g)) FROM generate_series(1, 2000) g \g /dev/null
    SELECT rss_anon_kb();
    SELECT count(code_format(1, 3, 'cs_' || g)) FROM generate_series(2001, 5000) g \g /dev/null
    SELECT count(code_format(1, 3, 'cs_' || g)) FROM generate_series(5001, 8000) g \g /dev/null
    SELECT count(code_format(1, 3, 'cs_' || g)) FROM generate_series(8001, 11000) g \g /dev/null
    SELECT count(code_format(1, 3, 'cs_' || g)) FROM generate_series(11001, 14000) g \g /dev/null
    SELECT count(code_format(1, 3, 'cs_' || g)) FROM generate_series(14001, 20000) g \g /dev/null
    SELECT rss_anon_kb();
    SELECT '"'::lexid \g /dev/null
    SELECT '"'::lexid \g /dev/null
    SELECT rss_anon_kb();
    BEGIN;
    SELECT count(code_format(1, 3, 'cs_' || g)) FROM generate_series(20001, 60000) g \g /dev/null
    SELECT rss_anon_kb();
    COMMIT;
}, on_error_stop => 0);
my ($warm, $touched, $untyped, $one_statement) = split /\n/, $out;
note("RssAnon: $warm kB warm, $touched kB after every charset, $untyped kB after untyped literals, "
     . "$one_statement kB after one statement over 40,000 charsets");
cmp_ok($touched - $warm, '<', 8 * 1024,
       'statements that touch 18,000 more charsets grow the backend by less than 8 MB');
cmp_ok($untyped - $touched, '<', 8 * 1024, 'an untyped literal grows the backend by less than 8 MB');
cmp_ok($one_statement - $untyped, '<', 8 * 1024,
       'one statement that touches 40,000 charsets (one per row) grows the backend by less than 8 MB');

# ===== the hint of an unknown charset =====
# The known charsets it lists: the built-in ones, the first 20 custom names in byte order
# (computed here, apart from the server) and how many more there are.
my @first = (sort map { "cs_$_" } 1 .. $n)[0 .. 19];
my $known = 'Known charsets: digits, upper, lower, alpha, base36, base62, crockford32, base58, base64url, hex, '
  . join(', ', @first) . ' and ' . ($n - 20) . ' more. '
  . 'The view idseq_charsets lists every charset; create one with idseq_create_charset().';
($ret, $out, $err) = $node->psql('postgres', q{SELECT idseq_encode(1, 'cs_1234x')});
my ($hint) = $err =~ /HINT:  (.*)/;
is($hint, 'Perhaps you meant one of the charsets cs_1234, cs_12340, cs_12341, cs_12342, cs_12343. ' . $known,
   'a misspelled name: the hint names five close names, then the known charsets');
($ret, $out, $err) = $node->psql('postgres', q{SELECT idseq_encode(1, 'nosuch')});
($hint) = $err =~ /HINT:  (.*)/;
is($hint, $known, 'a name close to none: the hint names none of them, and lists the known charsets');

$node->stop;
done_testing();
