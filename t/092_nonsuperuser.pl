# The non-superuser paths. An administrator creates the extension, a
# charset and a layout; the database's owner, an ordinary role, uses them, dumps the
# database with pg_dump and restores it with pg_restore --no-owner into a new database of
# its own where the administrator only ran CREATE EXTENSION. Everything arrives: the tables
# with custom-charset columns, the registries' rows, the generators' high-water marks. Other
# roles read every catalog view and use the charsets and layouts, and nobody but the
# extension's owner can change or redefine a registered row or borrow another role's
# sequence for a layout. Last, an update from 1.1 gives the same descriptions and grants as a
# fresh install.
use strict;
use warnings;
use IPC::Run;
use FindBin;
use lib $FindBin::RealBin;
use IdseqTest qw(idseq_node dump_ok psql_as);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

# app is restored into app2 on the same server and both issue snowflake ids: app2 gets a node
# id of its own (two databases of one server may not issue one layout's ids with one node id).
my $node = idseq_node('nonsuperuser', preload => 1, node_id => 3, conf => "idseq.node_id_by_database = 'app2=4'\n",
    extension => 0);

sub as { return psql_as($node, @_); }    # runs SQL as a role; returns (ok, stdout, stderr)
sub as_ok {
    my ($role, $db, $sql, $name) = @_;
    my ($ok, $out, $err) = as($role, $db, $sql);
    ok($ok, $name) or diag($err);
    return $out;
}
sub as_fails {
    my ($role, $db, $sql, $re, $name) = @_;
    my ($ok, $out, $err) = as($role, $db, $sql);
    ok(!$ok && $err =~ $re, $name) or diag("ok=$ok err=$err");
}

$node->safe_psql('postgres', q{
    CREATE ROLE alice LOGIN;          -- owns the databases, nothing more
    CREATE ROLE bob LOGIN;            -- an ordinary user of them
    CREATE DATABASE app OWNER alice;
});
$node->safe_psql('app', q{
    CREATE EXTENSION idseq;
    SELECT idseq_create_charset('vowels', 'aeiou');
    SELECT snowflake_create_layout('orders', '2024-01-01 00:00:00+00', 'time:40,node:6,seq:17');
});

# The database owner uses what the administrator created, and may add charsets of its own.
as_ok('alice', 'app', q{
    SELECT idseq_create_charset('alices', 'pqrs');
    CREATE TABLE orders (id bigint PRIMARY KEY DEFAULT snowflake_nextval('orders'), code lexid(vowels), tag lexid(alices));
    INSERT INTO orders (code, tag) SELECT lexid_from_rank(g, 'vowels'), lexid_from_rank(g, 'alices')
      FROM generate_series(1, 500) g;
    CREATE TABLE events (id bigint PRIMARY KEY DEFAULT snowflake_nextval(), at_display bigint DEFAULT snowflake_nextval('display60'));
    INSERT INTO events SELECT FROM generate_series(1, 500);
    -- a charset with a format character, which idseq_create_charset refuses now and which a
    -- type modifier naming its symbols still takes (as a restore must: it is how pg_dump
    -- writes the column), standing for a charset made before the rule
    CREATE TABLE legacy_codes (v lexid(legacy_shy, E'a\u00ADb'));
    INSERT INTO legacy_codes VALUES (E'b\u00ADa');
}, 'the database owner uses charsets and layouts and creates a charset');
as_fails('alice', 'app', q{SELECT snowflake_create_layout('alices', '2024-01-01 00:00:00+00', 'time:41,seq:22')},
    qr/permission denied to create snowflake layout "alices".*DETAIL:  .*locks table idseq_layout_registry/s,
    'the database owner cannot create a layout, and is told why');
is((as('alice', 'app', 'SELECT count(*) FROM snowflake_layouts'))[1], '7', 'the database owner reads snowflake_layouts');

my $marks = q{SELECT string_agg(format('%s=%s', c.relname, coalesce(pg_sequence_last_value(c.oid)::text, 'unset')),
                                ' ' ORDER BY c.relname)
                FROM pg_class c WHERE c.relkind = 'S' AND c.relname LIKE 'idseq\_sf\_state\_%'};
my %before = map { $_ => $node->safe_psql('app', $_) } (
    'SELECT * FROM idseq_charsets ORDER BY name',
    'SELECT * FROM snowflake_layouts ORDER BY name',
    'SELECT * FROM orders ORDER BY id',
    'SELECT * FROM events ORDER BY id',
    $marks);
like($before{$marks}, qr/idseq_sf_state_orders=\d+ /, 'the source has a high-water mark for the custom layout');

# pg_dump and pg_restore, both as the database owner.
my $dump = $node->basedir . '/app.dump';
dump_ok($node, 'app', $dump, 'pg_dump as the database owner', user => 'alice');
$node->safe_psql('postgres', 'CREATE DATABASE app2 OWNER alice');
$node->safe_psql('app2', 'CREATE EXTENSION idseq');
my ($stdout, $stderr) = ('', '');
IPC::Run::run([ 'pg_restore', '--no-owner', '-d', $node->connstr('app2') . ' user=alice', $dump ],
    '>', \$stdout, '2>', \$stderr);
my @errors = $stderr =~ /^pg_restore: error: (.*)$/mg;
note("pg_restore said:\n$stderr");
is(scalar(@errors), 1, 'pg_restore --no-owner as the database owner: one error');
like($stderr, qr/must be owner of extension idseq\s+Command was: COMMENT ON EXTENSION idseq/,
    '... the COMMENT ON EXTENSION that only the extension owner may run (as for every extension)');

for my $q (sort keys %before) {
    is($node->safe_psql('app2', $q), $before{$q}, "restored as in the source: $q");
}
is($node->safe_psql('app2', q{
    SELECT string_agg(format('%s %s %s', c.relname, pg_get_userbyid(c.relowner), d.refobjid::regclass), ', ' ORDER BY c.relname)
      FROM pg_class c LEFT JOIN pg_depend d ON d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype = 'a'
     WHERE c.relname LIKE 'idseq\_sf\_%orders'}),
    'idseq_sf_guard_orders postgres , idseq_sf_last_orders postgres idseq_layout_registry, idseq_sf_state_orders postgres idseq_layout_registry',
    'the restored layout sequences belong to the registry, as snowflake_create_layout leaves them, with a guard of the extension');
is($node->safe_psql('app2', q{SELECT v::text = E'b\u00ADa' AND lexid_rank(v) = 34 FROM legacy_codes}), 't',
   'a charset with a format character, made before the rule, restores with its column (b, soft hyphen, a: 13 + 2*9 + 1*3 + 0)');
my $max = $node->safe_psql('app2', 'SELECT max(id) FROM orders');
as_ok('alice', 'app2', 'INSERT INTO orders (code) VALUES (NULL)', 'the restored layout generates');
is($node->safe_psql('app2', "SELECT count(*) FROM orders WHERE id > $max"), '1', '... above every restored id');

# Another role reads every view and uses what is registered.
$node->safe_psql('app2', 'CREATE SCHEMA bobs AUTHORIZATION bob');
for my $view (qw(idseq_charsets snowflake_layouts)) {
    as_ok('bob', 'app2', "SELECT * FROM $view", "an ordinary role reads $view");
}
as_ok('bob', 'app2', q{
    CREATE TABLE bobs.t (id bigint DEFAULT snowflake_nextval('orders'), code lexid(vowels), tag lexid(alices, 'pqrs'));
    INSERT INTO bobs.t (code, tag) VALUES ('aei', 'pq');
    SELECT lexical_add('ppp', 'alices', 1), snowflake_unpack(snowflake_nextval('orders'), 'orders');
}, 'an ordinary role uses the restored charsets and layouts');

# Nobody else writes the registries or the high-water marks.
as_fails('bob', 'app2', q{INSERT INTO idseq_charset_registry VALUES (1, 'bobs', 'xy', false)},
    qr/permission denied for table idseq_charset_registry/, 'an ordinary role cannot add a charset row');
as_fails('bob', 'app2', q{SELECT idseq_create_charset('bobs', 'xy')},
    qr/permission denied to create charset "bobs".*HINT:  .*GRANT INSERT ON public\.idseq_charset_registry TO bob\./s,
    '... nor through idseq_create_charset, and the hint says how to let it');
as_fails('bob', 'app2', q{CREATE TABLE bobs.u (c lexid(bobs2, 'xy'))},
    qr/permission denied to create charset "bobs2"/, '... nor through a self-describing type modifier');
as_fails('bob', 'app2', q{SELECT snowflake_create_layout('bobs', now(), 'time:41,seq:22')},
    qr/permission denied to create snowflake layout "bobs"/, '... nor a layout through snowflake_create_layout');
as_fails('bob', 'app2', q{INSERT INTO idseq_layout_registry SELECT 'b', now(), 'time:41', '1 ms', state_seq, last_id_seq FROM idseq_layout_registry},
    qr/permission denied for table idseq_layout_registry/, 'an ordinary role cannot add a layout row');
as_fails('bob', 'app2', q{SELECT setval('idseq_sf_state_snowflake', 1)},
    qr/permission denied for sequence idseq_sf_state_snowflake/, 'an ordinary role cannot set a high-water mark');
as_fails('bob', 'app2', q{CREATE TABLE bobs.f (name text, state_seq regclass, last_id_seq regclass);
    CREATE TRIGGER f AFTER INSERT ON bobs.f FOR EACH ROW EXECUTE FUNCTION idseq_layout_registry_adopt()},
    qr/permission denied for function idseq_layout_registry_adopt/, 'nobody can attach the SECURITY DEFINER trigger function');

# The database owner adds rows, but cannot redefine or remove them ...
as_fails('alice', 'app2', q{UPDATE idseq_charset_registry SET symbols = 'aeio' WHERE name = 'vowels'},
    qr/permission denied for table idseq_charset_registry/, 'the database owner cannot update a charset');
as_fails('alice', 'app2', q{INSERT INTO idseq_charset_registry SELECT id, name, 'aeio', false FROM idseq_charset_registry WHERE name = 'vowels'},
    qr/charset "vowels" already exists/, '... nor insert a second definition of it');
as_fails('alice', 'app2', q{DELETE FROM idseq_layout_registry},
    qr/permission denied for table idseq_layout_registry/, '... nor delete a layout');
# ... nor point a layout at sequences that are not its own.
as_fails('alice', 'app2', q{INSERT INTO idseq_layout_registry VALUES ('x', '2024-01-01', 'time:41', '1 ms', 'idseq_sf_state_snowflake', 'idseq_sf_last_snowflake')},
    qr/sequence public.idseq_sf_state_snowflake cannot hold the high-water mark of snowflake layout "x"/,
    'a layout row cannot name a built-in layout\'s state');
as_fails('alice', 'app2', q{INSERT INTO idseq_layout_registry VALUES ('x', '2024-01-01', 'time:41', '1 ms', 'idseq_sf_state_orders', 'idseq_sf_last_orders')},
    qr/cannot hold the high-water mark/, '... nor another layout\'s');
$node->safe_psql('app2', q{
    CREATE SEQUENCE public.idseq_sf_state_victim; CREATE UNLOGGED SEQUENCE public.idseq_sf_last_victim;
    ALTER SEQUENCE public.idseq_sf_state_victim OWNER TO bob; ALTER SEQUENCE public.idseq_sf_last_victim OWNER TO bob;
});
as_fails('alice', 'app2', q{INSERT INTO idseq_layout_registry VALUES ('victim', '2024-01-01', 'time:41', '1 ms', 'idseq_sf_state_victim', 'idseq_sf_last_victim')},
    qr/must be owner of sequence public.idseq_sf_state_victim/, '... nor another role\'s sequences');
is($node->safe_psql('app2', q{SELECT string_agg(name || ':' || symbols, ' ' ORDER BY name) FROM idseq_charset_registry}),
    "alices:pqrs legacy_shy:a\xC2\xADb vowels:aeiou", 'the charset registry is unchanged');

# An update from 1.1 gives what a fresh install has: every description, and the grants on the
# sequences of layouts created before it.
my $descriptions = q{
SELECT pg_describe_object(d.classid, d.objid, d.objsubid) || ': ' || coalesce(obj_description(d.objid, d.classid::regclass::name), '-')
  FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'idseq'
 WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e' ORDER BY 1};
my $legacy_grants = q{SELECT string_agg(c.relname || ' ' || array_to_string(ARRAY(SELECT a.privilege_type FROM aclexplode(c.relacl) a
                        WHERE a.grantee = 'pg_database_owner'::regrole ORDER BY 1), ','), ' ' ORDER BY c.relname)
                        FROM pg_class c WHERE c.relname LIKE 'idseq\_sf\_%legacy'};
$node->safe_psql('postgres', 'CREATE DATABASE old; CREATE DATABASE fresh');
$node->safe_psql('old', q{CREATE EXTENSION idseq VERSION '1.1';
    SELECT snowflake_create_layout('legacy', '2024-01-01', 'time:41,seq:22'); ALTER EXTENSION idseq UPDATE});
$node->safe_psql('fresh', q{CREATE EXTENSION idseq; SELECT snowflake_create_layout('legacy', '2024-01-01', 'time:41,seq:22')});
is($node->safe_psql('old', $descriptions), $node->safe_psql('fresh', $descriptions),
    'updated from 1.1: the same descriptions as a fresh install');
is($node->safe_psql('old', $legacy_grants), 'idseq_sf_guard_legacy  idseq_sf_last_legacy SELECT,UPDATE idseq_sf_state_legacy SELECT,UPDATE',
    'updated from 1.1: the database owner may dump and restore an older layout\'s marks, and cannot write its guard');
is($node->safe_psql('fresh', $legacy_grants), $node->safe_psql('old', $legacy_grants), '... as in a fresh install');

$node->stop;
done_testing();
