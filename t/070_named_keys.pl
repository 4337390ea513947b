# Named keys never leave the database except by export, by pg_dump, or to their owner:
# - with every statement, error, duration, plan and nested statement logged (log_statement,
#   log_min_messages, log_min_error_statement, auto_explain of nested statements) and
#   pg_stat_statements tracking nested statements, a session that creates, grants, uses,
#   exports and drops keys, decodes bad codes from URLs (also as bind parameters), and moves
#   a key to another server (\copy out, \copy in, import) leaves no trace of the key's bytes
#   in either server's log, in pg_stat_statements or in EXPLAIN VERBOSE; the view other
#   roles read shows none either;
# - pg_dump carries the keys (custom and plain format, as a superuser and as the database's
#   owner), and a restore into a new cluster decodes the public ids made before it, with the
#   key's owner and grants; the restore's log shows no key either.
use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;
use IdseqTest qw(idseq_node dump_ok restore_ok psql_as);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;

my $noisy = <<'EOC';
shared_preload_libraries = 'idseq, pg_stat_statements, auto_explain'
pg_stat_statements.track = all
pg_stat_statements.track_utility = on
log_statement = all
log_min_messages = debug1
log_min_error_statement = debug1
log_error_verbosity = verbose
log_min_duration_statement = 0
log_parameter_max_length = -1
log_parameter_max_length_on_error = -1
auto_explain.log_min_duration = 0
auto_explain.log_nested_statements = on
auto_explain.log_verbose = on
auto_explain.log_analyze = on
EOC

my $src = idseq_node('keys_src', conf => $noisy);
my $dst = idseq_node('keys_dst', conf => $noisy, extension => 0);
my $dir = PostgreSQL::Test::Utils::tempdir;

for my $node ($src, $dst) {
    $node->safe_psql('postgres', q{
        CREATE ROLE app LOGIN;   -- owns the key (and a table)
        CREATE ROLE web LOGIN;   -- granted USAGE
        CREATE ROLE nosy LOGIN;  -- nothing
        GRANT CREATE ON DATABASE postgres TO app;
        GRANT CREATE ON SCHEMA public TO app;
    });
}
$src->safe_psql('postgres', 'CREATE EXTENSION pg_stat_statements');

sub as_ok {
    my ($node, $role, $sql, $name) = @_;
    my ($ok, $out, $err) = psql_as($node, $role, 'postgres', $sql);
    ok($ok, $name) or diag($err);
    return $out;
}
sub as_fails {
    my ($node, $role, $sql, $re, $name) = @_;
    my ($ok, $out, $err) = psql_as($node, $role, 'postgres', $sql);
    ok(!$ok && $err =~ $re, $name) or diag("ok=$ok err=$err");
    return $err;
}

# ---- a session's life with a key ----
as_ok($src, 'app', q{
    SELECT idseq_create_key('orders');
    SELECT idseq_grant_key('orders', 'web');
    CREATE TABLE orders (id bigint PRIMARY KEY, total numeric);
    INSERT INTO orders SELECT g, g FROM generate_series(1, 1000) g;
    GRANT SELECT ON orders TO web;
}, 'app creates a key and grants USAGE to web');
my $codes = as_ok($src, 'app', q{SELECT string_agg(id || '=' || idseq_public_id(id, 'orders'), ' ' ORDER BY id)
                                   FROM orders WHERE id IN (1, 2, 999)}, 'app makes public ids');
my %code = map { split /=/ } split / /, $codes;
is(as_ok($src, 'web', "SELECT id FROM orders WHERE id = idseq_from_public_id('$code{999}', 'orders')", 'web decodes'),
   '999', 'web looks a row up by its public id');
my $plan = as_ok($src, 'web', "EXPLAIN (VERBOSE, ANALYZE, COSTS OFF) SELECT idseq_public_id(id, 'orders') FROM orders "
                 . "WHERE id = idseq_from_public_id('$code{2}', 'orders')", 'EXPLAIN VERBOSE ANALYZE');
my $code2 = $code{2};
like($plan, qr/Index Cond: \(orders\.id = idseq_from_public_id\('\Q$code2\E'::text, 'orders'::text/,
     'the plan names the key, and uses the index');
# bad codes, as a visitor's URL brings them: a literal, and a bind parameter of a prepared statement
as_fails($src, 'web', "SELECT idseq_from_public_id('$code{1}x', 'orders')", qr/22003|out of range|non-canonical/,
         'a bad code is an error');
as_fails($src, 'web', q{SELECT idseq_from_public_id('0OIl<script>', 'orders')}, qr/invalid symbol/,
         'a code with foreign symbols is an error');
as_fails($src, 'web', q{PREPARE lookup(text) AS SELECT idseq_from_public_id($1, 'orders'); EXECUTE lookup('zzzzzzzzzzz')},
         qr/out of range for a public id/, 'a bad code through a prepared statement is an error');
# a bind parameter of the extended protocol, as a driver sends a code from a URL: the error,
# the statement and the parameter's value are logged
my $lookup = "$dir/lookup.sql";
append_to_file($lookup, "SELECT idseq_from_public_id(:code, 'orders');\n");
my ($pb_out, $pb_err) = ('', '');
IPC::Run::run([ 'pgbench', '--no-vacuum', '--client=1', '--transactions=1', '--protocol=extended',
                '--define=code=zzzzzzzzzzy', "--file=$lookup", '--host=' . $src->host, '--port=' . $src->port,
                '--username=web', 'postgres' ], '>', \$pb_out, '2>', \$pb_err);
like($pb_err, qr/out of range for a public id/, 'a bad code as a bind parameter is an error');
is(as_ok($src, 'web', q{SELECT count(idseq_try_from_public_id(c, 'orders'))
                          FROM unnest(ARRAY['', 'zzzzzzzzzzz', '0OIl', '11111111111x']) c}, 'try_'),
   '0', 'the try_ variant gives NULL for each bad code');
as_fails($src, 'nosy', "SELECT idseq_public_id(1, 'orders')", qr/permission denied for key "orders"/,
         'a role without USAGE cannot use the key');
as_fails($src, 'web', "SELECT idseq_export_key('orders')", qr/must be owner of key "orders"/,
         'a role with USAGE cannot read the key');
as_fails($src, 'nosy', 'SELECT * FROM idseq_key_registry', qr/permission denied for table idseq_key_registry/,
         'nor read the registry');
my $view = as_ok($src, 'nosy', 'SELECT * FROM idseq_keys', 'every role reads the view');
is($view, 'orders|app|{web}', 'the view shows name, owner and grants');
$src->safe_psql('postgres', 'ANALYZE idseq_key_registry');
is(as_ok($src, 'nosy', q{SELECT count(*) FROM pg_stats WHERE tablename = 'idseq_key_registry'}, 'pg_stats'), '0',
   'no statistics of the registry for other roles');

# the key's bytes, as its owner exports them (never in any SQL text: only in results)
my $hex = as_ok($src, 'app', q{SELECT encode(idseq_export_key('orders'), 'hex')}, 'the owner exports');
like($hex, qr/^[0-9a-f]{64}$/, 'a 256-bit key');
# a throwaway key, created, used and dropped
as_ok($src, 'app', q{SELECT idseq_create_key('scratch')}, 'a second key');
my $hex2 = as_ok($src, 'app', q{SELECT encode(idseq_export_key('scratch'), 'hex')}, 'exported');
as_ok($src, 'app', q{SELECT idseq_public_id(5, 'scratch'); SELECT idseq_drop_key('scratch')}, 'used and dropped');

# ---- moving the key to another server without putting it in SQL text ----
$dst->safe_psql('postgres', 'CREATE EXTENSION idseq');
my $keyfile = "$dir/orders.key";
as_ok($src, 'app', "\\copy (SELECT idseq_export_key('orders')) TO '$keyfile'", '\copy the export to a file');
as_ok($dst, 'app', "CREATE TEMP TABLE k (key bytea);\n\\copy k FROM '$keyfile'\n"
      . "SELECT idseq_import_key('orders', key) FROM k;", '\copy it in and import it');
is(as_ok($dst, 'app', "SELECT idseq_from_public_id('$code{999}', 'orders')", 'decode on the other server'), '999',
   'the other server decodes the public ids');
unlink $keyfile;

# ---- where the key must not be ----
# Every 8-byte window of each key, in hex (either case), base64 and PostgreSQL's escape form,
# and the raw bytes.
sub leaks {
    my ($text, $h) = @_;
    my @found;
    my $raw = pack('H*', $h);
    for (my $i = 0; $i + 16 <= length $h; $i += 2) {
        my $w = substr($h, $i, 16);
        next unless $text =~ /^(.*\Q$w\E.*)$/mi;
        push @found, "hex $w in: $1";
        last;
    }
    push @found, 'raw bytes' if index($text, substr($raw, 0, 8)) >= 0 || index($text, substr($raw, 24, 8)) >= 0;
    require MIME::Base64;
    for my $off (0, 3, 6) {
        my $b64 = substr(MIME::Base64::encode_base64(substr($raw, $off), ''), 0, 12);
        push @found, "base64 $b64" if index($text, $b64) >= 0;
    }
    my $esc = join '', map { sprintf('\\%03o', ord) } split //, substr($raw, 0, 6);
    push @found, 'escape form' if index($text, $esc) >= 0;
    return join(', ', @found);
}

my $src_log = slurp_file($src->logfile);
my $dst_log = slurp_file($dst->logfile);
like($src_log, qr/idseq_export_key\('orders'\)/, 'the source log has the statements');
like($src_log, qr/Query Text: INSERT INTO public\.idseq_key_registry/, '... and the plans of the nested statements');
like($src_log, qr/out of range for a public id/, '... and the bad codes\' errors');
like($src_log, qr/parameters: \$1 = 'zzzzzzzzzzy'/, '... with their parameters');
like($dst_log, qr/idseq_import_key\('orders', key\)/, 'the other server\'s log has the import');
for my $k ([ 'orders', $hex ], [ 'scratch', $hex2 ]) {
    is(leaks($src_log, $k->[1]), '', "key $k->[0]: not in the source's log");
    is(leaks($dst_log, $k->[1]), '', "key $k->[0]: not in the other server's log");
    is(leaks($plan, $k->[1]), '', "key $k->[0]: not in EXPLAIN VERBOSE");
    is(leaks($view, $k->[1]), '', "key $k->[0]: not in the view");
}
my $statements = $src->safe_psql('postgres', q{SELECT string_agg(query, E'\n') FROM pg_stat_statements});
like($statements, qr/idseq_public_id/, 'pg_stat_statements has the statements');
like($statements, qr/INSERT INTO public\.idseq_key_registry \(name, owner, key\) VALUES \(\$1, \$2, public\.idseq_key_registry_pending\(\)\)/,
     '... and the nested ones, whose key is no parameter');
is(leaks($statements, $hex), '', 'key orders: not in pg_stat_statements');
is(leaks($statements, $hex2), '', 'key scratch: not in pg_stat_statements');
# the check is not vacuous: the same search finds a key where it is
isnt(leaks("x \\x$hex y", $hex), '', 'the search finds a key in hex');
isnt(leaks(pack('H*', $hex), $hex), '', '... and in bytes');

# ---- pg_dump carries the keys; a restore decodes old public ids ----
dump_ok($src, 'postgres', "$dir/src.dump", 'pg_dump -Fc as a superuser');
dump_ok($src, 'postgres', "$dir/src.sql", 'pg_dump plain as a superuser', plain => 1);
like(slurp_file("$dir/src.sql"), qr/^orders\tapp\t\{web\}\t\\\\x$hex$/m,
     'the dump holds the key (whoever reads a dump reads the keys)');
restore_ok($dst, 'restored', "$dir/src.dump", 'pg_restore into another cluster');
restore_ok($dst, 'restored_plain', "$dir/src.sql", 'psql < plain dump into another cluster', plain => 1);
for my $db (qw(restored restored_plain)) {
    my ($ok, $out, $err) = psql_as($dst, 'web', $db,
        "SELECT string_agg(idseq_from_public_id(c, 'orders')::text, ' ') FROM unnest(ARRAY['$code{1}', '$code{2}', '$code{999}']) c");
    is($out, '1 2 999', "$db: web decodes the public ids made before the dump") or diag($err);
    is($dst->safe_psql($db, q{SELECT name || ' ' || owner || ' ' || usage::text FROM idseq_keys}), 'orders app {web}',
       "$db: owner and grants restored");
    ($ok, $out, $err) = psql_as($dst, 'nosy', $db, "SELECT idseq_public_id(1, 'orders')");
    ok(!$ok && $err =~ /permission denied for key/, "$db: still no USAGE for others");
}

# As the database's owner, an ordinary role: it dumps its database with the keys in it and
# restores it with --no-owner into a database of its own where an administrator created the
# extension.
$src->safe_psql('postgres', q{CREATE ROLE shopowner LOGIN; CREATE DATABASE shop OWNER shopowner;});
$src->safe_psql('shop', 'CREATE EXTENSION idseq');
my ($ok, $out, $err) = psql_as($src, 'shopowner', 'shop', q{SELECT idseq_create_key('carts');
    SELECT idseq_public_id(77, 'carts');});
ok($ok, 'the database owner creates a key in its database') or diag($err);
my $cart77 = (split /\n/, $out)[-1];
dump_ok($src, 'shop', "$dir/shop.dump", 'pg_dump as the database owner', user => 'shopowner');
$dst->safe_psql('postgres', q{CREATE ROLE shopowner LOGIN; CREATE DATABASE shop2 OWNER shopowner;});
$dst->safe_psql('shop2', 'CREATE EXTENSION idseq');
my ($r_out, $r_err) = ('', '');
IPC::Run::run([ 'pg_restore', '--no-owner', '-d', $dst->connstr('shop2') . ' user=shopowner', "$dir/shop.dump" ],
              '>', \$r_out, '2>', \$r_err);
my @r_errors = $r_err =~ /^pg_restore: error: (.*)$/mg;
ok(@r_errors == 1 && $r_err =~ /must be owner of extension idseq\s+Command was: COMMENT ON EXTENSION idseq/,
   'pg_restore --no-owner as the database owner: only the extension\'s comment is refused (as for every extension)')
    or diag($r_err);
($ok, $out, $err) = psql_as($dst, 'shopowner', 'shop2', "SELECT idseq_from_public_id('$cart77', 'carts')");
is($out, '77', 'the restored database decodes the owner\'s public ids') or diag($err);

$dst_log = slurp_file($dst->logfile);
like($dst_log, qr/COPY public\.idseq_key_registry/, 'the restores\' COPY is in the log');
is(leaks($dst_log, $hex), '', 'key orders: not in the log of the restores');

$src->stop;
$dst->stop;
done_testing();
