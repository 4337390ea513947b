# The server's snowflake fence (docs/snowflake.md, "Databases of one server"): a database that
# takes a claim another database may have issued ids under continues above every id issued on
# the server before, whatever its clock says, on both generator paths:
#  - a standby made before the first id has no claim files; after a promotion with its clock
#    behind (set back to the old primary's first id), another database takes the claim and its
#    ids stay above the old primary's;
#  - a damaged claim file stops every database (XX001) instead of freeing the claim; once it
#    is removed, the database that takes the claim goes on above the fence;
#  - a claim file deleted while its database issues ids is taken over above the fence, and the
#    old holder is refused at its next reservation;
#  - a claim file of a database carried by a base backup to a standby, while another database
#    took the pair over on the primary, is not trusted after the promotion (another timeline);
#  - a database owner who sets a layout's mark to 2150 is refused, and the server's fence,
#    which every database's take-overs read, stays where it was;
#  - a claim whose holder issued none of its ids for a while (a role with CONNECT only that
#    issued one id) moves to the database that issues them, above the holder's ids;
#  - without the fence (a cluster made by pg_upgrade has none) no database takes a claim
#    (55000), until idseq_snowflake_fence_init() as the runbook says.
use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;
use IdseqTest qw(idseq_node standby_of promote_and_wait psql_start);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $ids = 20000;

# $ids ids into a new table; with $at (a table of another sample, in this database), the
# clock is set back to that sample's first id first (idseq.test_clock_offset_ms, taken and
# used in one block), so that the new ids fall in the same time units as the old ones would
# without the fence: the attack is real whatever the machine's speed.
sub sample
{
    my ($node, $db, $table, $at) = @_;
    my $offset = defined $at
      ? "PERFORM set_config('idseq.test_clock_offset_ms', (-extract(epoch FROM clock_timestamp() - "
      . "(SELECT snowflake_timestamp(min(id)) FROM $at)) * 1000)::bigint::text, false);"
      : '';
    $node->safe_psql($db, qq{
        DO \$\$ BEGIN $offset
            CREATE TABLE $table AS SELECT snowflake_nextval() AS id FROM generate_series(1, $ids);
        END \$\$});
}

sub disjoint_above
{
    my ($node, $db, $old, $new, $what) = @_;
    my ($shared, $below) = split /\|/, $node->safe_psql($db, qq{
        SELECT (SELECT count(*) FROM $new WHERE id IN (SELECT id FROM $old)),
               (SELECT count(*) FROM $new WHERE id <= (SELECT max(id) FROM $old))});
    is($shared, 0, "$what: no id issued twice");
    is($below, 0, "$what: every new id is above every earlier one");
}

sub claim_files
{
    my ($node) = @_;
    my $dir = $node->data_dir . '/idseq_snowflake_claims';
    return () unless -d $dir;
    opendir(my $dh, $dir) or die;
    my @f = map { "$dir/$_" } grep { /-node/ } readdir $dh;
    closedir $dh;
    return @f;
}

for my $path ('shared', 'plain') {
    my $preload = $path eq 'shared' ? 1 : 0;

    # ---- failover to a standby made before the first id, its clock 15 s behind ----
    my $primary = idseq_node("fence_primary_$path", preload => $preload, node_id => 5, streaming => 1);
    for my $db ('app', 'reporting') {
        $primary->safe_psql('postgres', "CREATE DATABASE $db");
        $primary->safe_psql($db, 'CREATE EXTENSION idseq');
    }
    my $standby = standby_of($primary, "fence_standby_$path");
    sample($primary, 'app', 'before');
    $primary->wait_for_catchup($standby);
    $primary->stop;
    promote_and_wait($standby);
    my @on_standby = claim_files($standby);
    is(scalar(@on_standby), 0, "$path: the promoted standby has no claim files");
    my $app_ids = $standby->safe_psql('app', 'SELECT string_agg(id::text, \',\') FROM before');
    $standby->safe_psql('reporting', "CREATE TABLE before AS SELECT unnest('{$app_ids}'::bigint[]) AS id");
    sample($standby, 'reporting', 'after', 'before');
    disjoint_above($standby, 'reporting', 'before', 'after', "$path: a database taking the claim after a failover");
    my ($ret, $out, $err) = $standby->psql('app', 'SELECT snowflake_nextval() > (SELECT max(id) FROM before)');
    if ($path eq 'plain') {
        like($err, qr/already issuing ids in database "reporting"/, "$path: the first database is refused, not let on");
    } else {
        is($out, 't', "$path: the first database shares the stream, above its ids") or diag($err);
    }
    $standby->stop;

    # ---- a claim file of this database carried to a standby, while another database took
    # the pair over on the primary: the promoted copy is not trusted ----
    my $p2 = idseq_node("fence_stale_$path", preload => $preload, node_id => 6, streaming => 1);
    for my $db ('app', 'reporting') {
        $p2->safe_psql('postgres', "CREATE DATABASE $db");
        $p2->safe_psql($db, 'CREATE EXTENSION idseq');
    }
    $p2->safe_psql('reporting', 'SELECT snowflake_nextval()');
    my $s2 = standby_of($p2, "fence_stale_standby_$path");    # carries reporting's claim file
    unlink((claim_files($p2))[0]) or die;
    sample($p2, 'app', 'before');                             # app takes the pair over
    $p2->wait_for_catchup($s2);
    $p2->stop;
    promote_and_wait($s2);
    is(scalar(grep { 1 } claim_files($s2)), 1, "$path: the promoted standby holds reporting's old claim file");
    $app_ids = $s2->safe_psql('app', 'SELECT string_agg(id::text, \',\') FROM before');
    $s2->safe_psql('reporting', "CREATE TABLE before AS SELECT unnest('{$app_ids}'::bigint[]) AS id");
    sample($s2, 'reporting', 'after', 'before');
    disjoint_above($s2, 'reporting', 'before', 'after', "$path: a database whose claim was copied from the old timeline");
    $s2->stop;

    # ---- a database owner who sets a mark far ahead stops only that layout of that database ----
    my $p3 = idseq_node("fence_owner_$path", preload => $preload, node_id => 4);
    $p3->safe_psql('postgres', 'CREATE ROLE evilowner LOGIN');
    $p3->safe_psql('postgres', 'CREATE DATABASE evil OWNER evilowner');
    $p3->safe_psql('evil', 'CREATE EXTENSION idseq');
    ($ret, $out, $err) = $p3->psql('evil', q{SET ROLE evilowner;
        SELECT setval('idseq_sf_state_sonyflake', ((extract(epoch FROM timestamptz '2150-01-01') - 1409529600) * 100)::bigint);
        SELECT snowflake_nextval('sonyflake');});
    like($err, qr/the durable mark of snowflake layout "sonyflake" is too far ahead of this server's clock/,
        "$path: a mark set to 2150 by a database owner is refused");
    my $fence_year = $p3->safe_psql('postgres', q{
        SELECT max(extract(year FROM to_timestamp((remote_lsn - '0/0'::pg_lsn) / 1e6)))
          FROM pg_replication_origin_status WHERE external_id LIKE 'idseq_snowflake_fence%'});
    cmp_ok($fence_year, '<', 2100, "$path: and the server's fence stays where it was ($fence_year)");
    is($p3->safe_psql('postgres', "SELECT snowflake_timestamp(snowflake_nextval('instagram'), 'instagram') <= clock_timestamp() + interval '2 s'"),
        't', "$path: another database's first ids go on at the clock");
    $p3->stop;

    # ---- a damaged claim file, then a deleted one ----
    my $node = idseq_node("fence_files_$path", preload => $preload, node_id => 7);
    for my $db ('app', 'reporting') {
        $node->safe_psql('postgres', "CREATE DATABASE $db");
        $node->safe_psql($db, 'CREATE EXTENSION idseq');
    }
    sample($node, 'app', 'before');
    my @files = claim_files($node);
    is(scalar(@files), 1, "$path: one claim file");
    # a layout's first id on a server whose claims are all on record goes at the clock, not
    # above the fence the first layout's reservations moved up to a lease ahead
    $node->safe_psql('app', "SELECT snowflake_create_layout('fresh_l', '2024-01-01+00', 'time:41,node:10,seq:12')");
    is($node->safe_psql('app', "SELECT snowflake_timestamp(snowflake_nextval('fresh_l'), 'fresh_l') <= clock_timestamp()"),
        't', "$path: a new layout's first id carries the clock's time");
    @files = claim_files($node);
    is(scalar(@files), 2, "$path: two claim files");
    if ($path eq 'plain') {
        # (claim files decide which database issues only without preload: with it, they are
        # read when a stream is set up after a start, and a damaged one stops that)
        unlink grep { /e1704067200000000/ } @files or die 'no claim file of fresh_l';
        @files = claim_files($node);
        open(my $fh, '>', $files[0]) or die;
        close $fh;    # cut to 0 bytes
        for my $db ('reporting', 'app') {
            ($ret, $out, $err) = $node->psql($db, "\\set VERBOSITY verbose\nSELECT snowflake_nextval()");
            like($err, qr/XX001: snowflake claim file .* is damaged/, "$path: a damaged claim stops database $db");
        }
        unlink $files[0] or die;
        $app_ids = $node->safe_psql('app', 'SELECT string_agg(id::text, \',\') FROM before');
        $node->safe_psql('reporting', "CREATE TABLE before AS SELECT unnest('{$app_ids}'::bigint[]) AS id");
        sample($node, 'reporting', 'after', 'before');
        disjoint_above($node, 'reporting', 'before', 'after', "$path: the claim taken after the damaged file's removal");

        # a session of reporting that holds the claim goes on; the file goes; app takes the claim
        # above the fence; reporting's session is refused at its next reservation
        my ($h, $bg_out, $bg_err) = psql_start($node,
            "SELECT snowflake_nextval(); SELECT pg_sleep(4); SELECT count(snowflake_nextval()) FROM generate_series(1, 3000000)",
            db => 'reporting');
        $node->poll_query_until('reporting',
            "SELECT count(*) > 0 FROM pg_stat_activity WHERE wait_event = 'PgSleep' AND datname = 'reporting'")
          or die 'the session of reporting did not start';
        unlink((claim_files($node))[0]) or die;
        my $rep_ids = $node->safe_psql('reporting', 'SELECT string_agg(id::text, \',\') FROM after');
        $node->safe_psql('app', "CREATE TABLE rep AS SELECT unnest('{$rep_ids}'::bigint[]) AS id");
        sample($node, 'app', 'after2', 'rep');
        disjoint_above($node, 'app', 'rep', 'after2', "$path: a claim file deleted while its database issues ids");
        $h->finish;
        like($$bg_err, qr/already issuing ids in database "app"/,
            "$path: the old holder is refused at its next reservation");

        # ---- a claim its holder no longer uses moves on: a visitor cannot keep one ----
        # (first the clock catches up with the ids the take-overs above moved ahead, and so with
        # the fence, but for a lease)
        $node->poll_query_until('app', 'SELECT snowflake_timestamp(snowflake_nextval()) <= clock_timestamp()')
          or die 'the ids stay ahead of the clock';
        $node->safe_psql('postgres', 'CREATE ROLE visitor LOGIN');
        $node->safe_psql('postgres', 'CREATE DATABASE lobby');
        $node->safe_psql('lobby', 'CREATE EXTENSION idseq');
        my $visitor_id = $node->safe_psql('lobby', "SET ROLE visitor; SELECT snowflake_nextval('display60')");
        ($ret, $out, $err) = $node->psql('app', "SELECT snowflake_nextval('display60')");
        like($err, qr/already issuing ids in database "lobby".*moves to another database once its holder has issued none/s,
            "$path: a role with CONNECT only takes a claim, and the error says when it moves");
        # the visitor issues nothing more: its claim's last confirmation ages (set a minute back)
        my ($claim) = grep { /nonode/ } map { my $d = $node->data_dir . '/idseq_snowflake_claims';
            opendir(my $dh, $d) or die; my @f = map { "$d/$_" } readdir $dh; closedir $dh; @f } (1);
        utime(time - 60, time - 60, $claim) or die "cannot age $claim";
        ($ret, $out, $err) = $node->psql('app', "SELECT id > $visitor_id, snowflake_timestamp(id, 'display60') <= clock_timestamp()
            FROM (SELECT snowflake_nextval('display60') AS id) s");
        is($out, 't|t', "$path: an idle claim moves to the database that issues, above the holder's ids, at the clock's time");
        like($err, qr/NOTICE:  snowflake layout "display60" \(no node field\) now issues its ids in this database/,
            "$path: with a notice naming the move");
        ($ret, $out, $err) = $node->psql('lobby', "SET ROLE visitor; SELECT snowflake_nextval('display60')");
        like($err, qr/already issuing ids in database "app"/, "$path: the visitor, back, is refused");

    } else {
        # with preload the databases share the stream: reporting issues beside app at once,
        # above app's ids, its clock set back to them
        $app_ids = $node->safe_psql('app', 'SELECT string_agg(id::text, \',\') FROM before');
        $node->safe_psql('reporting', "CREATE TABLE before AS SELECT unnest('{$app_ids}'::bigint[]) AS id");
        sample($node, 'reporting', 'after', 'before');
        disjoint_above($node, 'reporting', 'before', 'after', "$path: reporting beside app, its clock set back");
        # a role with CONNECT only holds nothing
        $node->safe_psql('postgres', 'CREATE ROLE visitor LOGIN');
        $node->safe_psql('postgres', 'CREATE DATABASE lobby');
        $node->safe_psql('lobby', 'CREATE EXTENSION idseq');
        my $visitor_id = $node->safe_psql('lobby', "SET ROLE visitor; SELECT snowflake_nextval('display60')");
        ($ret, $out, $err) = $node->psql('app', "SELECT snowflake_nextval('display60') > $visitor_id");
        is($out, 't', "$path: beside a role with CONNECT only, app draws the same layout at once") or diag($err);
    }

    # ---- no fence: nothing takes a claim until the runbook's step ----
    $node->safe_psql('postgres', "SELECT pg_replication_origin_drop('idseq_snowflake_fence')");
    unlink $_ for claim_files($node);
    ($ret, $out, $err) = $node->psql('reporting', "\\set VERBOSITY verbose\nSELECT snowflake_nextval()");
    like($err, qr/55000: the snowflake fence of this server is missing/, "$path: without the fence no claim is taken");
    like($err, qr/idseq_snowflake_fence_init/, "$path: the hint names the runbook's step");
    ($ret, $out, $err) = $node->psql('reporting', "SET ROLE pg_monitor; SELECT idseq_snowflake_fence_init()");
    like($err, qr/permission denied/, "$path: the fence is the superuser's");
    $node->safe_psql('reporting', 'SELECT idseq_snowflake_fence_init()');
    is($node->safe_psql('reporting', 'SELECT snowflake_nextval() > (SELECT max(id) FROM after)'),
        't', "$path: ids again after idseq_snowflake_fence_init(), above the earlier ones");
    $node->stop;
}

done_testing();
