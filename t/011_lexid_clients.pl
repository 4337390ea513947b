# lexid through real clients: every kind of value the type accepts survives
# pg_dump | psql byte for byte (keyword-named and multibyte custom charsets, arrays, domains,
# composites, ranges, views of untyped literals); postgres_fdw ships what the user wrote;
# abbreviated sorts give up when their keys stop telling values apart; a 1.1 database with
# a plain lexid column is upgraded with a warning and keeps working.
use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;
use IdseqTest qw(idseq_node dump_ok restore_ok);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = idseq_node('clients', extension => 0);

# ---- dump/restore of every kind of value ----
$node->safe_psql('postgres', 'CREATE DATABASE src');
$node->safe_psql('src', q{
    CREATE EXTENSION idseq;
    SELECT idseq_create_charset('select', 'xy');
    SELECT idseq_create_charset('table', 'αβγ★😀', false);
    SELECT idseq_create_charset('ci_q', 'a''b"c\\d', true);
    CREATE TABLE every (id int PRIMARY KEY, v_digits lexid(digits), v_upper lexid(upper), v_lower lexid(lower),
                        v_alpha lexid(alpha), v_base36 lexid(base36), v_base62 lexid(base62),
                        v_crock lexid(crockford32), v_base58 lexid(base58), v_b64 lexid(base64url), v_hex lexid(hex),
                        v_kw lexid("select", 'xy'), v_mb lexid("table", 'αβγ★😀'), v_ci lexid(ci_q, 'a''b"c\\d', ci),
                        v_arr lexid(base62)[]);
    CREATE DOMAIN code62 AS lexid(base62);
    CREATE TYPE pair AS (a lexid(hex), b lexid("select"));
    CREATE TYPE code_range AS RANGE (subtype = code62);
    CREATE TABLE kinds (id int PRIMARY KEY, d code62, p pair, r code_range);
    INSERT INTO every
        SELECT g, lexid_from_rank(g * 7919, 'digits'), lexid_from_rank(g * 7919, 'upper'), lexid_from_rank(g * 7919, 'lower'),
               lexid_from_rank(g * 7919, 'alpha'), lexid_from_rank(g * 7919, 'base36'), lexid_from_rank(g * 7919, 'base62'),
               lexid_from_rank(g * 7919, 'crockford32'), lexid_from_rank(g * 7919, 'base58'),
               lexid_from_rank(g * 7919, 'base64url'), lexid_from_rank(g * 7919, 'hex'), lexid_from_rank(g, 'select'),
               lexid_from_rank(g * 31, 'table'), lexid_from_rank(g * 13, 'ci_q'),
               ARRAY[lexid_from_rank(g, 'base62'), lexid_from_rank(g * 3, 'base62')]
          FROM generate_series(1, 300) g;
    -- spellings that only the right charset reads, and the longest values
    INSERT INTO every (id, v_b64, v_base62, v_kw, v_mb, v_ci, v_crock)
        VALUES (1001, '-_', 'aB', 'yx', '😀★', 'D"', 'O1IL'),
               (1002, repeat('_', 1024), repeat('z', 1024), repeat('y', 1024), repeat('😀', 1024), repeat('\', 1024), repeat('Z', 1024));
    INSERT INTO kinds VALUES (1, 'aB', ROW('ff', 'yx'), '[Ab,aB)'), (2, 'z', NULL, 'empty');
    CREATE INDEX every_kw ON every (v_kw);
    CREATE INDEX every_mb ON every (v_mb);
    -- views keep untyped literals as written; a materialized view stores typed values
    CREATE VIEW literals AS SELECT '-_'::lexid AS b64, 'Ab'::lexid AS mixed, '★'::lexid AS star,
                                   'yx'::lexid("select") AS kw;
    CREATE VIEW filtered AS SELECT id FROM every WHERE v_base62 IN ('aB', 'Ab') OR v_b64 = '-_';
    CREATE MATERIALIZED VIEW mv AS SELECT id, v_mb, v_kw FROM every WHERE id < 10;
});
my $show = q{
    SELECT (SELECT string_agg(t::text, E'\n' ORDER BY id) FROM every t)
        || (SELECT string_agg(t::text, E'\n' ORDER BY id) FROM kinds t)
        || (SELECT string_agg(t::text, E'\n') FROM literals t)
        || (SELECT string_agg(id::text, ',' ORDER BY id) FROM filtered)
        || (SELECT string_agg(t::text, E'\n' ORDER BY id) FROM mv t)
        || (SELECT string_agg(format_type(atttypid, atttypmod), ',' ORDER BY attnum) FROM pg_attribute
             WHERE attrelid = 'every'::regclass AND attnum > 0)
        || pg_get_viewdef('literals'::regclass) || pg_get_viewdef('filtered'::regclass)};
my $before = $node->safe_psql('src', $show);
like($before, qr/lexid\("select",'xy'\)/, 'a keyword charset name is quoted in the type modifier');
like($before, qr/\(1001,.*aB.*-_.*\)/, 'values only their charset reads are there');

my $dump = $node->basedir . '/every.sql';
dump_ok($node, 'src', $dump, 'pg_dump of every kind of value', plain => 1);
restore_ok($node, 'dst', $dump, 'the plain dump restores into a fresh database', plain => 1);
is($node->safe_psql('dst', $show), $before, 'every value, type and view reads back byte for byte');
$node->safe_psql('dst', 'CREATE EXTENSION amcheck');
is($node->safe_psql('dst', q{SELECT bt_index_parent_check('every_kw', true), bt_index_parent_check('every_mb', true)}),
   '|', 'restored indexes on keyword and multibyte charsets are consistent');

# ---- postgres_fdw: a loopback foreign table ships what the user wrote ----
my $port = $node->port;
my $host = $node->host;
$node->safe_psql('src', qq{
    CREATE EXTENSION postgres_fdw;
    CREATE SERVER loopback FOREIGN DATA WRAPPER postgres_fdw
        OPTIONS (host '$host', port '$port', dbname 'src', extensions 'idseq');
    CREATE USER MAPPING FOR CURRENT_USER SERVER loopback;
    CREATE TABLE codes (code lexid(base62) PRIMARY KEY, n int);
    INSERT INTO codes VALUES ('Ab', 1), ('AB', 2), ('ab', 3), ('aB', 4), ('b', 5), ('Z', 6), ('zz', 7), ('ZZ', 8);
    CREATE FOREIGN TABLE ft (code lexid(base62), n int) SERVER loopback OPTIONS (table_name 'codes');
});
is($node->safe_psql('src', q{SELECT code, n FROM ft WHERE code = 'Ab'}), 'Ab|1',
   "WHERE code = 'Ab' on the foreign table returns only the Ab row");
my $explain = $node->safe_psql('src', q{EXPLAIN (VERBOSE, COSTS OFF) SELECT code, n FROM ft WHERE code = 'Ab'});
like($explain, qr/Remote SQL:.*'Ab'/, 'the remote SQL carries the spelling as written');
unlike($explain, qr/'AB'/, 'and never a base36 spelling of it');
for my $where (q{code IN ('Ab', 'aB', 'x')}, q{code IN ('a','A','b','B','c','C','d','D','e','E','zz','Ab')},
               q{code < 'b'}, q{code > 'Z' AND code <= 'aB'}, q{code > 'a' AND code > 'B'}, q{code = ANY ('{zz,ZZ}')}) {
    is($node->safe_psql('src', "SELECT string_agg(n::text, ',' ORDER BY n) FROM ft WHERE $where"),
       $node->safe_psql('src', "SELECT string_agg(n::text, ',' ORDER BY n) FROM codes WHERE $where"),
       "foreign and local tables agree on $where");
}
is($node->safe_psql('src', q{PREPARE q(lexid) AS SELECT n FROM ft WHERE code = $1; EXECUTE q('aB')}), '4',
   'a lexid parameter on the foreign table means what was written');

# ---- abbreviated keys give up when they do not discriminate ----
$node->safe_psql('src', q{
    CREATE TABLE same_prefix (v lexid(base36));
    INSERT INTO same_prefix SELECT (repeat('A', 40) || lpad(g::text, 6, '0'))::lexid(base36) FROM generate_series(1, 30000) g;
});
my $offset = -s $node->logfile;
is($node->safe_psql('src', q{SET trace_sort = on;
    SELECT count(*) FROM (SELECT v, lag(v) OVER (ORDER BY v) p FROM same_prefix) s WHERE p >= v}), '0',
   'values sharing a long prefix sort correctly');
ok($node->log_contains(qr/lexid_abbrev: aborting abbreviation/, $offset),
   'and the sort aborted abbreviation, as the keys were all alike');

# ---- a 1.1 database with a plain lexid column: upgraded with a warning, keeps working ----
$node->safe_psql('postgres', 'CREATE DATABASE old');
$node->safe_psql('old', q{
    CREATE EXTENSION idseq VERSION '1.1';
    CREATE TABLE legacy (id int, plain lexid, plain_arr lexid[], typed lexid(base62));
    INSERT INTO legacy VALUES (1, 'ab', '{ab}', 'ab'), (2, 'ZZ', '{ZZ}', 'ZZ'), (3, 'zz'::lexid(base62), NULL, 'zz');
    CREATE INDEX legacy_typed ON legacy (typed);
});
my $legacy_before = $node->safe_psql('old', 'SELECT id, plain::text, lexid_charset(plain), typed FROM legacy ORDER BY id');
my ($ret, $out, $err) = $node->psql('old', 'ALTER EXTENSION idseq UPDATE');
is($ret, 0, 'the update from 1.1 succeeds with a plain lexid column present');
like($err, qr/WARNING:  column "plain" of "legacy" has type lexid without a charset/, 'the update warns about the plain column');
like($err, qr/HINT:  ALTER TABLE legacy ALTER COLUMN plain TYPE lexid\(base36\)/, 'with the statement that fixes it');
like($err, qr/column "plain_arr" of "legacy".*\n.*\n.*TYPE lexid\(base36\)\[\]/, 'arrays too');
like($err, qr/btree index "legacy_typed" on lexid values may be out of order.*\n.*\n.*REINDEX INDEX legacy_typed/,
     'and about btree indexes on lexid that the old sort may have built out of order');
is($node->safe_psql('old', 'SELECT id, plain::text, lexid_charset(plain), typed FROM legacy ORDER BY id'),
   $legacy_before, 'the legacy rows still read as before');
($ret, $out, $err) = $node->psql('old', 'ALTER TABLE legacy ADD COLUMN more lexid');
like($err, qr/column "more" of table "legacy" has type lexid without a charset/, 'a new plain column is refused');
$node->safe_psql('old', 'ALTER TABLE legacy ADD COLUMN n int');
pass('other changes to the legacy table still work');
($ret, $out, $err) = $node->psql('old', 'ALTER TABLE legacy ALTER COLUMN plain TYPE lexid(base36)');
like($err, qr/lexid value "zz" of charset "base62" cannot be cast to lexid\(base36\)/,
     'converting a column that holds another charset names the value');
$node->safe_psql('old', q{DELETE FROM legacy WHERE id = 3;
    ALTER TABLE legacy ALTER COLUMN plain TYPE lexid(base36), ALTER COLUMN plain_arr TYPE lexid(base36)[]});
is($node->safe_psql('old', q{SELECT string_agg(plain::text || '/' || lexid_charset(plain), ',' ORDER BY id) FROM legacy}),
   'AB/base36,ZZ/base36', 'the converted column holds canonical base36 values');

done_testing();
