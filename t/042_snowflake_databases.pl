# Two databases of one server issuing one layout's ids (docs/snowflake.md, "Databases of one
# server"), with and without preload:
#  - with preload they share the server's stream of each (layout definition, node id): with
#    the same node id the second database issues at once (and a twin layout under another
#    name, and a layout without a node field), and a large sample of each, over the same time
#    units, is disjoint;
#  - without preload the second database is refused (55000, a hint naming
#    shared_preload_libraries and idseq.node_id_by_database); a layout without a node field
#    likewise; a twin layout in the claiming database too;
#  - idseq.node_id_by_database gives a database its own node id: both databases then issue
#    ids over the same time units, and a large sample of both is disjoint (the old generators shared
#    more than half of them); a reload that changes a database's node id goes on increasing;
#  - the setting is validated (syntax, node range, a database or a node id listed twice), and
#    an invalid value in the configuration files at start stops every database with a node
#    field instead of being dropped; idseq_node_id() shows each database's node id;
#  - without preload: a dropped database's claim is taken over by another database; claims
#    survive a crash (immediate stop) and reach a standby made from a base backup, which
#    refuses the second database after its promotion too.
use strict;
use warnings;
use IPC::Run;
use FindBin;
use lib $FindBin::RealBin;
use IdseqTest qw(idseq_node standby_of promote_and_wait);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $ids = 150000;

# Sets idseq.node_id_by_database and waits for the reload (a test, not a die: the old code
# has no such setting, and the tests after it show what that leads to).
sub set_by_database
{
    my ($node, $what, $want) = @_;
    my ($ret, $out, $err) = $node->psql('postgres',
        "LOAD 'idseq'; ALTER SYSTEM SET idseq.node_id_by_database = '$want'; SELECT pg_reload_conf()");
    is($ret, 0, "$what: idseq.node_id_by_database = '$want' is accepted") or diag($err);
    return if $ret;
    (my $shown = $want) =~ s/'/''/g;
    $node->poll_query_until('postgres', "SELECT current_setting('idseq.node_id_by_database', true) = '$shown'")
      or die "idseq.node_id_by_database did not become $want";
}

# A registry row with the built-in snowflake layout's definition under another name, added the
# way a restore adds one (with sequences of its own).
sub twin_row
{
    my ($name) = @_;
    return qq{
        CREATE SEQUENCE public.idseq_sf_state_$name MINVALUE -1 START -1;
        CREATE UNLOGGED SEQUENCE public.idseq_sf_last_$name MINVALUE -1 START -1;
        INSERT INTO idseq_layout_registry VALUES ('$name', '2010-11-04 01:42:54.657+00', 'time:41,node:10,seq:12',
            '1 millisecond', 'public.idseq_sf_state_$name', 'public.idseq_sf_last_$name');};
}

sub refused_like
{
    my ($node, $db, $sql, $re, $name) = @_;
    my ($ret, $out, $err) = $node->psql($db, "\\set VERBOSITY verbose\n$sql");
    like($err, $re, $name);
}

# The first database issues $ids ids, then the second issues $ids over the same time units
# (its clock set back to the first one's first id, idseq.test_clock_offset_ms), so that ids of
# one node id would meet whatever the machine's scheduling; returns the ids found in both.
sub shared_ids
{
    my ($node, $db1, $db2) = @_;
    my $first = $node->safe_psql($db1, qq{
        CREATE TABLE sample AS SELECT snowflake_nextval('snowflake') AS id FROM generate_series(1, $ids);
        SELECT snowflake_timestamp(min(id)) FROM sample});
    # the offset is taken and the ids drawn in one block, so that no round trip or scheduling
    # delay of a loaded machine lies between them and the second sample starts where the
    # first did
    $node->safe_psql($db2, qq{
        DO \$\$ BEGIN
            PERFORM set_config('idseq.test_clock_offset_ms',
                (-extract(epoch FROM clock_timestamp() - '$first'::timestamptz) * 1000)::bigint::text, false);
            CREATE TABLE sample AS SELECT snowflake_nextval('snowflake') AS id FROM generate_series(1, $ids);
        END \$\$});
    # the attack is real: the second sample starts inside the first one's time units
    my $last = $node->safe_psql($db1, 'SELECT extract(epoch FROM snowflake_timestamp(max(id))) FROM sample');
    my $second = $node->safe_psql($db2, 'SELECT extract(epoch FROM snowflake_timestamp(min(id))) FROM sample');
    ok($second <= $last, "the second database's ids start within the first one's time ($second <= $last)");
    my %seen = map { $_ => 1 } split /\n/, $node->safe_psql($db1, 'SELECT id FROM sample');
    my $shared = grep { $seen{$_} } split /\n/, $node->safe_psql($db2, 'SELECT id FROM sample');
    $node->safe_psql($_, 'DROP TABLE sample') for ($db1, $db2);
    return $shared;
}

for my $preload (1, 0)
{
    my $what = $preload ? 'preload' : 'no preload';
    # A first id restarts above the durable mark, up to a lease ahead of the clock: without
    # a lease the second database's ids follow its (set back) clock in shared_ids.
    my $node = idseq_node($preload ? 'dbs_pre' : 'dbs_plain', streaming => 1, preload => $preload, node_id => 5,
        conf => "idseq.snowflake_lease_ms = 0\n", extension => 0);
    for my $db ('a', 'b')
    {
        $node->safe_psql('postgres', "CREATE DATABASE $db");
        $node->safe_psql($db, 'CREATE EXTENSION idseq');
    }
    my $first = $node->safe_psql('a', "SELECT snowflake_nextval('snowflake')");
    ok($first > 0, "$what: database a issues ids");

    $node->safe_psql('b', twin_row('twin'));
    $node->safe_psql('a', "SELECT snowflake_nextval('display60')");
    $node->safe_psql('a', twin_row('twin_a'));
    if ($preload)
    {
        # ---- the same node id: both databases share the stream ----
        ok($node->safe_psql('b', "SELECT snowflake_nextval('snowflake')") > $first,
            "$what: b with a's node id issues at once, above a's ids");
        # a custom layout with snowflake's definition is the same ids (registered the way a
        # restore does: snowflake_create_layout refuses a twin): the same stream
        ok($node->safe_psql('b', "SELECT snowflake_nextval('twin')") > $first, "$what: so does b's twin layout");
        ok($node->safe_psql('b', "SELECT snowflake_nextval('display60')") > 0,
            "$what: and a layout without a node field");
        ok($node->safe_psql('a', "SELECT snowflake_nextval('twin_a')") > $first,
            "$what: a twin in one database shares the stream too");
        is(shared_ids($node, 'a', 'b'), 0,
            "$what: $ids ids of one node id issued in each database over the same time units are disjoint");
    }
    else
    {
        # ---- the same node id: the second database is refused ----
        refused_like($node, 'b', "SELECT snowflake_nextval('snowflake')",
            qr/ERROR:  55000: snowflake layout "snowflake" with node id 5 is already issuing ids in database "a" of this server.*HINT:  Add idseq to shared_preload_libraries and restart the server.*Or give database "b" a node id of its own.*idseq\.node_id_by_database = 'b=N'/s,
            "$what: b with a's node id is refused, with the remedies");
        refused_like($node, 'b', "SELECT snowflake_nextval('twin')", qr/55000: snowflake layout "twin" with node id 5 is already issuing ids in database "a"/,
            "$what: so is a layout of b with the same definition under another name");
        refused_like($node, 'b', "SELECT snowflake_nextval('display60')",
            qr/55000: snowflake layout "display60" is already issuing ids in database "a" of this server.*no node field.*HINT:  Add idseq to shared_preload_libraries/s,
            "$what: a layout without a node field is issued in one database only");
        is($node->safe_psql('a', "SELECT snowflake_nextval('snowflake') > $first"), 't', "$what: a goes on");
        # ... and within one database, a second name of a definition that issues ids there is
        # refused whichever path registered it, while the first name goes on
        refused_like($node, 'a', "SELECT snowflake_nextval('twin_a')",
            qr/55000: snowflake layout "twin_a" has the definition of layout "snowflake", which issues these ids in this database.*HINT:  Issue these ids with snowflake_nextval\('snowflake'\)/s,
            "$what: a twin in the claiming database is refused");
        is($node->safe_psql('a', "SELECT snowflake_nextval('snowflake') > $first"), 't', "$what: and snowflake goes on");
    }

    # ---- the setting is validated ----
    for my $bad ("'b=1, c=1'", "'b=1, b=2'", "'b=x'", "'b=-1'", "'b 1'", "'b=99999999999'", "'=3'")
    {
        refused_like($node, 'postgres', "LOAD 'idseq'; ALTER SYSTEM SET idseq.node_id_by_database = $bad",
            qr/22023: invalid value for parameter "idseq.node_id_by_database"/, "$what: $bad is refused");
    }

    # ---- an invalid value in the configuration files at start stops every listed database ----
    # (refused, PostgreSQL would run with no per-database node ids: b would issue a's ids)
    $node->append_conf('postgresql.conf', "idseq.node_id_by_database = 'b=6, b=7'\n");
    $node->restart;
    for my $db ('a', 'b')
    {
        refused_like($node, $db, "SELECT snowflake_nextval('snowflake')",
            qr/22023: idseq.node_id_by_database is invalid: "b=6, b=7".*Database "b" is listed twice/s,
            "$what: a typo at start stops database $db rather than give it idseq.node_id");
        refused_like($node, $db, 'SELECT idseq_node_id()', qr/22023: idseq.node_id_by_database is invalid/,
            "$what: idseq_node_id() in $db says so too");
    }
    is($node->safe_psql('a', "SELECT snowflake_nextval('display60') > 0"), 't',
        "$what: a layout without a node field goes on");
    $node->append_conf('postgresql.conf', "idseq.node_id_by_database = ''\n");
    $node->reload;

    # ---- per-database node ids: both issue, and their ids never meet ----
    set_by_database($node, $what, '"b"=6, other = 7');
    is($node->safe_psql('b', 'SELECT idseq_node_id()'), '6', "$what: idseq_node_id() shows b's own node id");
    is($node->safe_psql('a', 'SELECT idseq_node_id()'), '5', "$what: and a's, idseq.node_id");
    is($node->safe_psql('b', q{SELECT node FROM snowflake_unpack(snowflake_nextval('snowflake'))}), '6',
        "$what: b issues with its own node id");
    is($node->safe_psql('a', q{SELECT node FROM snowflake_unpack(snowflake_nextval('snowflake'))}), '5',
        "$what: a, not listed, keeps idseq.node_id");
    is(shared_ids($node, 'a', 'b'), 0, "$what: $ids ids issued in each database over the same time units are disjoint");

    # a reload that changes a database's node id: the ids of one session go on increasing
    my ($ret, $out, $err) = (0, '', '');
    my $sess = IPC::Run::start([ 'psql', '-XAtq', '-v', 'ON_ERROR_STOP=1', '-d', $node->connstr('b') ],
        '<', \my $in, '>', \$out, '2>', \$err, IPC::Run::timeout($PostgreSQL::Test::Utils::timeout_default));
    $in = "SELECT snowflake_nextval('snowflake');\n";
    $sess->pump until $out =~ /\n/;
    my $before = $out;
    chomp $before;
    set_by_database($node, $what, 'b=8');
    $out = '';
    $in = "SELECT (snowflake_unpack(id)).node, id > $before FROM (SELECT snowflake_nextval('snowflake') AS id) s;\n\\q\n";
    $sess->finish;
    is($out, "8|t\n", "$what: after a reload b issues with its new node id, above its last id");

    # ---- no database owner gives a database its own node id ----
    # (with preload ALTER DATABASE is refused; without, PostgreSQL stores it as a placeholder
    # in a session that has not loaded idseq, and the server's value must still count)
    ($ret, $out, $err) = $node->psql('postgres', q{ALTER DATABASE b SET idseq.node_id_by_database = 'b=9'});
    if ($preload)
    {
        like($err, qr/cannot be changed now/, "$what: ALTER DATABASE ... SET idseq.node_id_by_database is refused");
    }
    else
    {
        ($ret, $out, $err) = $node->psql('b', q{SELECT node FROM snowflake_unpack(snowflake_nextval('snowflake'))});
        is($out, '8', "$what: a database's own idseq.node_id_by_database is ignored, the server's counts");
        like($err, qr/WARNING:  idseq.node_id_by_database set for a database, a role or a session is ignored/,
            "$what: with a warning");
        $node->safe_psql('postgres', 'ALTER DATABASE b RESET idseq.node_id_by_database');
    }

    if ($preload)
    {
        # ---- a third database with a's node id shares the stream too ----
        $node->safe_psql('postgres', 'CREATE DATABASE c');
        $node->safe_psql('c', 'CREATE EXTENSION idseq');
        is(shared_ids($node, 'a', 'c'), 0, "$what: a and c, one node id, issue disjoint ids over the same time units");
        $node->stop;
        next;
    }

    # ---- a dropped database's claim is taken over ----
    $node->safe_psql('postgres', 'CREATE DATABASE c');
    $node->safe_psql('c', 'CREATE EXTENSION idseq');
    refused_like($node, 'c', "SELECT snowflake_nextval('snowflake')", qr/55000: .* in database "a" of this server/,
        "$what: c with a's node id is refused while a exists");
    $node->safe_psql('postgres', 'DROP DATABASE a');
    ok($node->safe_psql('c', "SELECT snowflake_nextval('snowflake')") > 0, "$what: once a is dropped, c takes over");
    $node->safe_psql('postgres', 'CREATE DATABASE a');
    $node->safe_psql('a', 'CREATE EXTENSION idseq');
    refused_like($node, 'a', "SELECT snowflake_nextval('snowflake')", qr/55000: .* in database "c" of this server/,
        "$what: a new database a is now refused");

    # ---- DROP/CREATE EXTENSION in the claiming database keeps its claim ----
    $node->safe_psql('c', 'DROP EXTENSION idseq; CREATE EXTENSION idseq');
    ok($node->safe_psql('c', "SELECT snowflake_nextval('snowflake')") > 0, "$what: c re-creating idseq keeps its claim");

    # ---- a crash keeps the claims ----
    $node->stop('immediate');
    $node->start;
    refused_like($node, 'a', "SELECT snowflake_nextval('snowflake')", qr/55000: .* in database "c" of this server/,
        "$what: after a crash a is still refused");
    ok($node->safe_psql('c', "SELECT snowflake_nextval('snowflake')") > 0, "$what: and c goes on");

    # ---- a standby made from a base backup, promoted, keeps refusing ----
    if (!$preload)
    {
        my $standby = standby_of($node, 'dbs_standby', backup => 'claims');
        $node->wait_for_catchup($standby);
        promote_and_wait($standby);
        refused_like($standby, 'a', "SELECT snowflake_nextval('snowflake')",
            qr/55000: .* in database "c" of this server/, "$what: the promoted standby refuses a too");
        ok($standby->safe_psql('c', "SELECT snowflake_nextval('snowflake')") > 0, "$what: and c issues there");
        $standby->stop;
    }
    $node->stop;
}

done_testing();
