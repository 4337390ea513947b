# Databases of one server issuing one layout's ids with one node id at the same time
# (docs/snowflake.md, "Databases of one server"): with idseq in shared_preload_libraries they
# share the server's stream of each (layout definition, node id), each under its own durable
# mark, and no superuser has to step in. Every id drawn is checked for repeats across the
# databases:
#  - two databases minting one layout at once, with pgbench;
#  - the README's examples run as printed in a scratch database beside a busy app database;
#  - a dump of app restored into a second database (staging), whose owner inserts rows at
#    once while app goes on, above the restored rows;
#  - a database's session with its clock set back to the other's first ids;
#  - a role with only CONNECT to another database draws every built-in layout: app goes on
#    at once, and the role cannot add a layout (so it cannot take the slots);
#  - a crash (kill -9 of a backend) while both mint, then both again with their clocks set
#    back to the first ids before the crash, the ids a client saw uncommitted included;
#  - the promotion of a synchronous standby while both mint, then the same;
#  - a server whose slots are all taken: a new layout is refused in the second database
#    (55000, a hint naming idseq.snowflake_max_layouts), never a duplicate;
#  - without preload: the second database is refused, with a hint naming
#    shared_preload_libraries.
use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;
use IdseqTest qw(idseq_node wait_for_server standby_of promote_and_wait pgbench_start psql_start markdown_blocks
  sample keep_sample sampled above_before sample_over no_repeated_ids time_of);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $root = "$FindBin::RealBin/..";

my $primary = idseq_node('streams', preload => 1, node_id => 5, streaming => 1, conf => "max_connections = 40\nrestart_after_crash = on\n");
for my $db ('app', 'b', 'lobby')
{
    $primary->safe_psql('postgres', "CREATE DATABASE $db");
    $primary->safe_psql($db, 'CREATE EXTENSION idseq');
}
for my $db ('app', 'b')
{
    $primary->safe_psql($db, 'CREATE TABLE orders (id bigint PRIMARY KEY DEFAULT snowflake_nextval(), note text)');
}
my $standby = standby_of($primary, 'streams_standby');
$primary->append_conf('postgresql.conf', "synchronous_standby_names = '*'\n");
$primary->reload;
$primary->poll_query_until('postgres', "SELECT count(*) = 1 FROM pg_stat_replication WHERE sync_state = 'sync'")
  or die 'the standby is not synchronous';

# pgbench inserting orders in database $db for $seconds (clients 2)
sub orders_bench
{
    my ($node, $db, $seconds) = @_;
    return pgbench_start($node, db => $db, clients => 2, time => $seconds,
        script => "INSERT INTO orders (note) SELECT 'bench' FROM generate_series(1, 5);\n");
}

sub bench_ok
{
    my ($h, $out, $err, $what) = @_;
    $h->finish;
    is($?, 0, "$what: pgbench succeeded") or diag($$err);
    unlike($$err, qr/ERROR/, "$what: without an error");
}

# The ids of orders in database $db of $node, as a sample labelled $label.
sub keep_orders
{
    my ($node, $db, $label, $where) = @_;
    my $ids = [ split /\n/, $node->safe_psql($db, 'SELECT id FROM orders' . ($where ? " WHERE $where" : '')) ];
    keep_sample($label, $ids);
    return $ids;
}

# ---- two databases mint one layout at once ----
my @a = orders_bench($primary, 'app', 6);
my @b = orders_bench($primary, 'b', 6);
bench_ok(@a, 'app beside b');
bench_ok(@b, 'b beside app');
my $app_n = scalar @{ keep_orders($primary, 'app', 'app_bench') };
my $b_n = scalar @{ keep_orders($primary, 'b', 'b_bench') };
cmp_ok($b_n, '>', 1000, "both databases issued ids at once ($app_n in app, $b_n in b)");
is($primary->safe_psql('b', q{SELECT count(*) FROM orders, snowflake_unpack(id) u WHERE u.node <> 5}), '0',
    'b issues with the server node id, as app does');
no_repeated_ids('two databases minting at once');

# ---- a session of b with its clock set back to app's first ids ----
sample($primary, 'app', 'app_1', spread_ms => 400);
sample_over($primary, 'b', 'b_back', 'app_1', 'b with its clock at app_1');
no_repeated_ids('a clock set back in one database');

# ---- the README's examples in a scratch database beside a busy app ----
$primary->safe_psql('postgres', 'CREATE DATABASE scratch');
@a = orders_bench($primary, 'app', 6);
my @readme = markdown_blocks("$root/README.md");
$primary->safe_psql('scratch', 'CREATE EXTENSION idseq')
  unless grep { $_->{tag} eq 'sql' && $_->{text} =~ /CREATE EXTENSION idseq/ } @readme;
my ($examples, $failed) = (0, 0);
for my $i (0 .. $#readme)
{
    next unless $readme[$i]{tag} eq 'sql';
    $examples++;
    # an error the example prints as its output is the example's point; any other fails
    my $shown = $i < $#readme && $readme[ $i + 1 ]{tag} eq '' && !$readme[$i]{followed} ? $readme[ $i + 1 ]{text} : '';
    my $merged = '';
    IPC::Run::run([ 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=0', '-d', $primary->connstr('scratch') ],
        '<', \$readme[$i]{text}, '>', \$merged, '2>&1');
    if ($merged =~ /^(?:psql:<stdin>:\d+: )?((?:ERROR|FATAL|PANIC):.*)$/m && index($shown, $1) < 0)
    {
        $failed++;
        diag("README.md:$readme[$i]{line}: $1");
    }
}
cmp_ok($examples, '>', 3, "the README has examples ($examples)");
is($failed, 0, "the README's examples run as printed in a scratch database beside a busy app");
bench_ok(@a, 'app beside the README');
keep_orders($primary, 'app', 'app_tour', "note = 'bench' AND id > " . (sort { $b <=> $a } @{ sampled('app_bench') })[0]);
no_repeated_ids('the README beside app');

# ---- a dump of app restored into staging, whose owner inserts at once ----
my $dump = $primary->basedir . '/app.dump';
$primary->command_ok([ 'pg_dump', '-Fc', '-f', $dump, '-d', $primary->connstr('app') ], 'app dumped');
$primary->safe_psql('postgres', 'CREATE ROLE stager LOGIN; CREATE DATABASE staging OWNER stager');
@a = orders_bench($primary, 'app', 6);
$primary->command_ok([ 'pg_restore', '--exit-on-error', '-d', $primary->connstr('staging'), $dump ],
    'restored into staging while app mints');
$primary->safe_psql('staging', 'ALTER TABLE orders OWNER TO stager');
my ($ret, $out, $err) = $primary->psql('staging',
    "SET ROLE stager; INSERT INTO orders (note) SELECT 'staging' FROM generate_series(1, 5000)");
is($ret, 0, 'the owner of staging inserts rows at once, while app mints') or diag($err);
bench_ok(@a, 'app beside the restore');
is($primary->safe_psql('staging', q{SELECT min(id) FILTER (WHERE note = 'staging') > max(id) FILTER (WHERE note <> 'staging') FROM orders}),
    't', "staging's new ids lie above every restored one");
keep_orders($primary, 'staging', 'staging_new', "note = 'staging'");
keep_orders($primary, 'app', 'app_restore', "note = 'bench' AND id > " . (sort { $b <=> $a } @{ sampled('app_tour') })[0]);
no_repeated_ids('a restored copy inserting beside app');

# ---- a role with only CONNECT to lobby ----
$primary->safe_psql('postgres', 'CREATE ROLE visitor LOGIN');
($ret, $out, $err) = $primary->psql('lobby',
    "SET ROLE visitor; SELECT count(snowflake_nextval(name)) FROM snowflake_layouts WHERE builtin");
is($ret, 0, 'a role with CONNECT only draws an id of every built-in layout') or diag($err);
($ret, $out, $err) = $primary->psql('app', "SELECT snowflake_nextval('display60') > 0, snowflake_nextval('tsid') > 0");
is($out, 't|t', 'app draws the same layouts at once, nothing held by the visitor') or diag($err);
($ret, $out, $err) = $primary->psql('lobby',
    "SET ROLE visitor; SELECT snowflake_create_layout('v1', '2024-01-01+00', 'time:41,node:10,seq:12')");
like($err, qr/permission denied|must be owner/, 'the visitor cannot add a layout, so cannot take slots');

# ---- a crash (kill -9) while both mint ----
@a = orders_bench($primary, 'app', 30);
@b = orders_bench($primary, 'b', 30);
my ($h, $seen) = psql_start($primary, 'SELECT snowflake_nextval() FROM (SELECT generate_series(1, 1000000000)) s',
    db => 'b', fetch_count => 100);
$h->pump until length($$seen) > 100000;
my $victim = $primary->safe_psql('app',
    "SELECT pid FROM pg_stat_activity WHERE datname = 'app' AND backend_type = 'client backend' "
      . "AND pid <> pg_backend_pid() LIMIT 1");
ok($victim > 0, "a backend of app's pgbench to kill ($victim)");
kill 'KILL', $victim;
$h->finish;
$_->[0]->finish for \@a, \@b;
wait_for_server($primary) or die 'the server did not come back';
my @seen = split /\n/, $$seen;
keep_sample('b_seen_before_crash', [@seen]);
keep_orders($primary, 'app', 'app_before_crash', "note = 'bench' AND id > " . (sort { $b <=> $a } @{ sampled('app_restore') })[0]);
keep_orders($primary, 'b', 'b_before_crash', "note = 'bench' AND id > " . (sort { $b <=> $a } @{ sampled('b_bench') })[0]);
my $first = (sort { $a <=> $b } @seen)[0];
for my $db ('app', 'b')
{
    sample($primary, $db, "${db}_after_crash", at => time_of($primary, $first));
}
no_repeated_ids('a crash while both mint, then both with their clocks set back');

# ---- a synchronous standby promoted while both mint ----
$primary->poll_query_until('postgres', "SELECT count(*) = 1 FROM pg_stat_replication WHERE sync_state = 'sync'")
  or die 'the standby is not back';
@a = orders_bench($primary, 'app', 30);
@b = orders_bench($primary, 'b', 30);
($h, $seen) = psql_start($primary, 'SELECT snowflake_nextval() FROM (SELECT generate_series(1, 1000000000)) s',
    db => 'app', fetch_count => 100);
$h->pump until length($$seen) > 100000;
$primary->stop('immediate');
$h->finish;
$_->[0]->finish for \@a, \@b;
promote_and_wait($standby);
@seen = split /\n/, $$seen;
keep_sample('app_seen_before_failover', [@seen]);
keep_orders($standby, 'app', 'app_before_failover',
    "note = 'bench' AND id > " . (sort { $b <=> $a } @{ sampled('app_before_crash') })[0]);
keep_orders($standby, 'b', 'b_before_failover',
    "note = 'bench' AND id > " . (sort { $b <=> $a } @{ sampled('b_before_crash') })[0]);
$first = (sort { $a <=> $b } @seen)[0];
for my $db ('b', 'app')
{
    sample($standby, $db, "${db}_after_failover", at => time_of($standby, $first));
}
no_repeated_ids('a synchronous standby promoted while both mint');
$standby->stop;

# ---- every slot taken: a clear refusal, never a duplicate ----
my $small = idseq_node('streams_small', preload => 1, node_id => 3, conf => "idseq.snowflake_max_layouts = 2\n",
    extension => 0);
for my $db ('app', 'b')
{
    $small->safe_psql('postgres', "CREATE DATABASE $db");
    $small->safe_psql($db, 'CREATE EXTENSION idseq');
}
$small->safe_psql('app', "SELECT snowflake_nextval('snowflake'), snowflake_nextval('tsid')");
is($small->safe_psql('b', "SELECT snowflake_nextval('snowflake') > 0"), 't', 'b shares the streams of the slots');
($ret, $out, $err) = $small->psql('app', "SELECT snowflake_nextval('instagram') > 0");
is($out, 't', 'a layout beyond the slots goes on without shared memory in app');
like($err, qr/all 2 shared-memory slots of the snowflake generator are in use/, 'with a warning');
($ret, $out, $err) = $small->psql('b', "\\set VERBOSITY verbose\nSELECT snowflake_nextval('instagram')");
like($err, qr/55000: snowflake layout "instagram" with node id 3 is already issuing ids in database "app".*HINT:  All 2 shared-memory slots .* raise idseq.snowflake_max_layouts/s,
    'the second database is refused with a hint naming idseq.snowflake_max_layouts');
$small->stop;

# ---- without preload: refused, and the hint says how to share ----
my $plain = idseq_node('streams_plain', node_id => 3, extension => 0);
for my $db ('app', 'b')
{
    $plain->safe_psql('postgres', "CREATE DATABASE $db");
    $plain->safe_psql($db, 'CREATE EXTENSION idseq');
}
$plain->safe_psql('app', 'SELECT snowflake_nextval()');
($ret, $out, $err) = $plain->psql('b', "\\set VERBOSITY verbose\nSELECT snowflake_nextval()");
like($err, qr/55000: .*HINT:  Add idseq to shared_preload_libraries and restart the server/s,
    'without preload the second database is refused, the hint naming shared_preload_libraries');
$plain->stop;

done_testing();
