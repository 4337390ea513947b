# The upgrade chain: install the oldest supported version (1.0), fill it with data, then
# ALTER EXTENSION idseq UPDATE, and compare the result with a fresh install of the newest:
# the same objects with the same labels, privileges and definitions, the same behaviour,
# and the old data intact.
use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;
use IdseqTest qw(idseq_node);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = idseq_node('upgrade', preload => 1, node_id => 1, extension => 0);

my @versions = split /\n/, $node->safe_psql('postgres',
    q{SELECT version FROM pg_available_extension_versions WHERE name = 'idseq' ORDER BY string_to_array(version, '.')::int[]});
my $newest = $node->safe_psql('postgres', q{SELECT default_version FROM pg_available_extensions WHERE name = 'idseq'});
is($versions[-1], $newest, "the default version $newest is the newest");
ok(@versions >= 2, 'there is at least one upgrade path: ' . join(', ', @versions));
# Each from_* database below issues snowflake ids: two databases of one server may not issue
# one layout's ids with one node id, so each gets a node id of its own.
my $n = 10;
$node->append_conf('postgresql.conf', "idseq.node_id_by_database = '"
    . join(', ', map { 'from_' . (s/\./_/gr) . '=' . $n++ } @versions) . "'\n");
$node->restart;

# Everything the extension owns, described so that two databases can be compared.
my $describe = q{
WITH ext AS (SELECT oid FROM pg_extension WHERE extname = 'idseq'),
members AS (SELECT d.classid, d.objid, d.objsubid FROM pg_depend d, ext
             WHERE d.refclassid = 'pg_extension'::regclass AND d.refobjid = ext.oid AND d.deptype = 'e')
SELECT 'member ' || pg_describe_object(classid, objid, objsubid) FROM members
UNION ALL
SELECT format('function %s(%s) returns %s vol=%s par=%s strict=%s leak=%s secdef=%s cost=%s rows=%s cfg=%s src=%s acl=%s',
              p.proname, pg_get_function_identity_arguments(p.oid), pg_get_function_result(p.oid), p.provolatile,
              p.proparallel, p.proisstrict, p.proleakproof, p.prosecdef, p.procost, p.prorows, p.proconfig,
              CASE WHEN p.prolang = (SELECT oid FROM pg_language WHERE lanname = 'c') THEN p.prosrc ELSE md5(p.prosrc) END,
              p.proacl)
  FROM members m JOIN pg_proc p ON m.classid = 'pg_proc'::regclass AND p.oid = m.objid
UNION ALL
SELECT format('operator %s(%s,%s) fn=%s com=%s neg=%s rest=%s join=%s hash=%s merge=%s', o.oprname,
              o.oprleft::regtype, o.oprright::regtype, o.oprcode, o.oprcom::regoperator, o.oprnegate::regoperator,
              o.oprrest, o.oprjoin, o.oprcanhash, o.oprcanmerge)
  FROM members m JOIN pg_operator o ON m.classid = 'pg_operator'::regclass AND o.oid = m.objid
UNION ALL
SELECT format('opclass %s %s default=%s ops=%s procs=%s', am.amname, c.opcname, c.opcdefault,
              (SELECT string_agg(a.amopstrategy || ':' || a.amopopr::regoperator, ' ' ORDER BY a.amopstrategy)
                 FROM pg_amop a WHERE a.amopfamily = c.opcfamily),
              (SELECT string_agg(a.amprocnum || ':' || a.amproc::regprocedure, ' ' ORDER BY a.amprocnum)
                 FROM pg_amproc a WHERE a.amprocfamily = c.opcfamily))
  FROM members m JOIN pg_opclass c ON m.classid = 'pg_opclass'::regclass AND c.oid = m.objid
  JOIN pg_am am ON am.oid = c.opcmethod
UNION ALL
SELECT format('cast %s -> %s fn=%s context=%s', c.castsource::regtype, c.casttarget::regtype,
              c.castfunc::regprocedure, c.castcontext)
  FROM members m JOIN pg_cast c ON m.classid = 'pg_cast'::regclass AND c.oid = m.objid
UNION ALL
SELECT format('type %s in=%s out=%s recv=%s send=%s tmin=%s tmout=%s len=%s align=%s storage=%s cat=%s',
              t.typname, t.typinput, t.typoutput, t.typreceive, t.typsend, t.typmodin, t.typmodout, t.typlen,
              t.typalign, t.typstorage, t.typcategory)
  FROM members m JOIN pg_type t ON m.classid = 'pg_type'::regclass AND t.oid = m.objid
UNION ALL
SELECT format('relation %s kind=%s persistence=%s acl=%s options=%s', c.relname, c.relkind, c.relpersistence, c.relacl,
              c.reloptions)
  FROM members m JOIN pg_class c ON m.classid = 'pg_class'::regclass AND c.oid = m.objid
UNION ALL
SELECT format('column %s.%s %s notnull=%s default=%s', c.relname, a.attname, format_type(a.atttypid, a.atttypmod),
              a.attnotnull, pg_get_expr(ad.adbin, ad.adrelid))
  FROM members m JOIN pg_class c ON m.classid = 'pg_class'::regclass AND c.oid = m.objid
  JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
  LEFT JOIN pg_attrdef ad ON ad.adrelid = c.oid AND ad.adnum = a.attnum
UNION ALL
SELECT format('constraint %s.%s %s', c.relname, k.conname, pg_get_constraintdef(k.oid))
  FROM members m JOIN pg_class c ON m.classid = 'pg_class'::regclass AND c.oid = m.objid
  JOIN pg_constraint k ON k.conrelid = c.oid
UNION ALL
SELECT format('trigger %s enabled=%s', pg_get_triggerdef(t.oid), t.tgenabled)
  FROM members m JOIN pg_trigger t ON m.classid = 'pg_class'::regclass AND t.tgrelid = m.objid
UNION ALL
SELECT format('index %s', pg_get_indexdef(i.indexrelid))
  FROM members m JOIN pg_index i ON m.classid = 'pg_class'::regclass AND i.indrelid = m.objid
UNION ALL
SELECT format('view %s %s', c.relname, pg_get_viewdef(c.oid))
  FROM members m JOIN pg_class c ON m.classid = 'pg_class'::regclass AND c.oid = m.objid AND c.relkind = 'v'
UNION ALL
SELECT format('sequence %s start=%s inc=%s min=%s max=%s cycle=%s', c.relname, s.seqstart, s.seqincrement,
              s.seqmin, s.seqmax, s.seqcycle)
  FROM members m JOIN pg_class c ON m.classid = 'pg_class'::regclass AND c.oid = m.objid
  JOIN pg_sequence s ON s.seqrelid = c.oid
UNION ALL
SELECT format('config %s %s', cfg::regclass, cond)
  FROM pg_extension e, unnest(e.extconfig, e.extcondition) AS u(cfg, cond) WHERE e.extname = 'idseq'
UNION ALL
SELECT 'version ' || extversion FROM pg_extension WHERE extname = 'idseq'
ORDER BY 1};

# What the extension does, asked the same way of both databases.
my $behaviour = q{
SELECT 'ZZ'::lexid + 1, '9'::lexid(digits) + 1, lexical_add('aB1', 'base62', 1), lexid_rank('zz'::lexid(base62)),
       nextval_code('codes'), code_format(17575, 3), idseq_encode(11093174944930914, 'base64url', 2),
       idseq_scramble(42, 'k'), snowflake_pack('snowflake', '2026-01-01 00:00:00+00', 7, 42),
       (SELECT string_agg(name, ',' ORDER BY name) FROM idseq_charsets),
       (SELECT string_agg(name || fields, ',' ORDER BY name) FROM snowflake_layouts),
       (SELECT first_id || '..' || last_id FROM lexid_block('blocks', '00A000'))};

for my $from (@versions[0 .. $#versions - 1]) {
    my $db = "from_" . ($from =~ s/\./_/gr);
    $node->safe_psql('postgres', "CREATE DATABASE $db");
    $node->safe_psql($db, qq{
        CREATE EXTENSION idseq VERSION '$from';
        SELECT idseq_create_charset('stars', '★☆✦✧');
        CREATE TABLE old_data (id int PRIMARY KEY, s lexid(stars), b lexid(base62));
        CREATE INDEX old_data_s ON old_data (s);
        INSERT INTO old_data SELECT g, lexid_from_rank(g, 'stars'), lexid_from_rank(g * 7919, 'base62')
          FROM generate_series(1, 1000) g;
    });
    my $data_before = $node->safe_psql($db, 'SELECT * FROM old_data ORDER BY s');
    $node->safe_psql($db, 'ALTER EXTENSION idseq UPDATE');
    is($node->safe_psql($db, q{SELECT extversion FROM pg_extension WHERE extname = 'idseq'}), $newest,
       "$from updates to $newest");
    is($node->safe_psql($db, 'SELECT * FROM old_data ORDER BY s'), $data_before, "$from: data intact after the update");
    $node->safe_psql($db, q{CREATE EXTENSION amcheck; SELECT bt_index_check('old_data_s', true); DROP EXTENSION amcheck});
    pass("$from: index on lexid data still consistent");

    $node->safe_psql('postgres', "DROP DATABASE IF EXISTS fresh");
    $node->safe_psql('postgres', 'CREATE DATABASE fresh');
    $node->safe_psql('fresh', q{CREATE EXTENSION idseq; SELECT idseq_create_charset('stars', '★☆✦✧')});

    my $updated = $node->safe_psql($db, $describe);
    my $fresh = $node->safe_psql('fresh', $describe);
    is($updated, $fresh, "$from updated to $newest has exactly the objects of a fresh $newest install");
    if ($updated ne $fresh) {
        my %f = map { $_ => 1 } split /\n/, $fresh;
        my %u = map { $_ => 1 } split /\n/, $updated;
        diag("only after the update: $_") for grep { !$f{$_} } split /\n/, $updated;
        diag("only in a fresh install: $_") for grep { !$u{$_} } split /\n/, $fresh;
    }
    for my $d ($db, 'fresh') {
        $node->safe_psql($d, q{SELECT create_code_sequence('codes'); CREATE SEQUENCE blocks INCREMENT BY 100});
    }
    is($node->safe_psql($db, $behaviour), $node->safe_psql('fresh', $behaviour), "$from updated behaves as a fresh $newest");
    my ($ret, $out, $err) = $node->psql($db, q{DELETE FROM idseq_charset_registry});
    like($err, qr/cannot be changed or removed/, "$from updated: the registry's rows are final");
    ok($node->safe_psql($db, 'SELECT snowflake_nextval() < snowflake_nextval()'), "$from updated: snowflake ids");
}

done_testing();
