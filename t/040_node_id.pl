# idseq.node_id: the cases that need particular server settings, on clusters of their own
# (so that `make installcheck` never touches the user's server):
#  - unset: snowflake_nextval on a layout with a node field is a 55000 error with a hint;
#  - set with ALTER SYSTEM and a reload: too wide for a layout's node field is 55000, the id
#    carries the node, a smaller node id keeps ids increasing, every layout is unique and
#    increasing; no session can change it, ALTER SYSTEM is for superusers only;
#  - ALTER DATABASE / ALTER ROLE ... SET idseq.node_id never takes effect: refused (55P02)
#    wherever idseq is loaded; without preload, in a session that has not loaded idseq,
#    PostgreSQL accepts it, and then every session of that database ignores it with a
#    warning and keeps the server configuration's node id. Done with and without preload.
use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;
use IdseqTest qw(idseq_node alter_system);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

for my $preload (1, 0)
{
    my $what = $preload ? 'preload' : 'no preload';
    my $node = idseq_node($preload ? 'node_id_pre' : 'node_id_plain', preload => $preload);
    $node->safe_psql('postgres', 'CREATE ROLE regress_plain LOGIN;');
    $node->safe_psql('postgres', q{
        SELECT snowflake_create_layout('orders', '2024-01-01 00:00:00+00', 'time:40,node:6,seq:17');
        SELECT snowflake_create_layout('per_second', '2020-01-01 00:00:00+00', 'time:32,rand:20,node:11', '1 second');
    });

    # ---- unset ----
    my ($ret, $out, $err) = $node->psql('postgres', "\\set VERBOSITY verbose\nSELECT snowflake_nextval('orders')");
    like($err, qr/ERROR:  55000: idseq.node_id is not set/, "$what: unset node id is 55000");
    like($err, qr/HINT:  Give this server a node id no other server uses/, "$what: with a hint");
    is($node->safe_psql('postgres', "SELECT snowflake_nextval('display60') > 0"), 't',
        "$what: a layout without a node field needs no node id");

    # ---- no session changes it ----
    for my $sql ('SET idseq.node_id = 1', "SELECT set_config('idseq.node_id', '1', false)")
    {
        ($ret, $out, $err) = $node->psql('postgres', "LOAD 'idseq'; \\set VERBOSITY verbose\n$sql");
        like($err, qr/55P02/, "$what: superuser $sql is refused");
    }
    ($ret, $out, $err) = $node->psql('postgres', 'ALTER SYSTEM SET idseq.node_id = 5',
        extra_params => [ '-U', 'regress_plain' ]);
    like($err, qr/permission denied to set parameter "idseq.node_id"/, "$what: ALTER SYSTEM is for superusers");
    # with idseq loaded in the session, ALTER DATABASE / ROLE ... SET are refused
    for my $sql ('ALTER DATABASE postgres SET idseq.node_id = 7', 'ALTER ROLE regress_plain SET idseq.node_id = 7')
    {
        ($ret, $out, $err) = $node->psql('postgres', "LOAD 'idseq'; \\set VERBOSITY verbose\n$sql");
        like($err, qr/55P02: parameter "idseq.node_id" cannot be changed now/, "$what: loaded: $sql is refused");
    }

    # ---- set in the server configuration ----
    # (without preload, ALTER SYSTEM knows the setting only in a session that loaded idseq)
    alter_system($node, ['idseq.node_id = 5000'], wait => 1);
    ($ret, $out, $err) = $node->psql('postgres', "\\set VERBOSITY verbose\nSELECT snowflake_nextval('snowflake')");
    like($err, qr/55000: idseq.node_id value 5000 is too large for snowflake layout "snowflake"/,
        "$what: too wide for snowflake's 10 node bits");
    is($node->safe_psql('postgres', q{
        SELECT (snowflake_unpack(snowflake_nextval('instagram'), 'instagram')).node || ',' ||
               (snowflake_unpack(snowflake_nextval('sonyflake'), 'sonyflake')).node}),
        '5000,5000', "$what: the node id is in the ids");
    my $before = $node->safe_psql('postgres', "SELECT snowflake_nextval('instagram')");
    alter_system($node, ['idseq.node_id = 1'], wait => 1);
    is($node->safe_psql('postgres', qq{
        SELECT snowflake_nextval('instagram') > $before AND
               (SELECT node FROM snowflake_unpack(snowflake_nextval('instagram'), 'instagram')) = 1}),
        't', "$what: a smaller node id keeps ids increasing");
    is($node->safe_psql('postgres', q{
        SELECT string_agg(l.name || ':' || ok, ',' ORDER BY l.name) FROM (
          SELECT l.name, count(DISTINCT t.id) = count(*) AND bool_and(t.id > t.prev)
                 AND bool_and(u.node = CASE WHEN l.node_bits > 0 THEN 1 ELSE 0 END)
                 AND bool_and(u.ts BETWEEN now() - interval '1 minute' AND clock_timestamp() + interval '2 seconds') AS ok
            FROM snowflake_layouts l,
                 LATERAL (SELECT id, lag(id, 1, -1::bigint) OVER (ORDER BY g) AS prev
                            FROM (SELECT g, snowflake_nextval(l.name) AS id
                                    FROM generate_series(1, CASE l.name WHEN 'sonyflake' THEN 600
                                                                        WHEN 'per_second' THEN 3000 ELSE 20000 END) g) s) t,
                 LATERAL snowflake_unpack(t.id, l.name) u
           GROUP BY l.name) l}),
        'display60:true,instagram:true,nonsequential:true,orders:true,per_second:true,snowflake:true,sonyflake:true,tsid:true',
        "$what: every layout unique, increasing, node 1 inside, clock time");
    is($node->safe_psql('postgres', q{
        SELECT max(u.seq) <= 4095 AND count(DISTINCT u.ts) >= 3
          FROM (SELECT snowflake_nextval() AS id FROM generate_series(1, 12289)) s, LATERAL snowflake_unpack(s.id) u}),
        't', "$what: a spent unit moves on to the next");

    # ---- a node id changed away and back, by reload and by clean restart ----
    # On an hourly layout all of it falls in one unit, where node 1's ids sort below node 2's.
    $node->safe_psql('postgres', q{
        SELECT snowflake_create_layout('hourly', '2024-01-01 00:00:00+00', 'time:24,node:10,seq:20', '1 hour');
        CREATE TABLE spells (n serial, node int, id bigint);});
    my $spell = sub {
        $node->safe_psql('postgres', q{
            SET statement_timeout = '20s';
            INSERT INTO spells (node, id) SELECT idseq_node_id(), snowflake_nextval('hourly') FROM generate_series(1, 3)});
    };
    $spell->();
    for my $change (['2', 'reload'], ['1', 'reload'], ['2', 'restart'], ['1', 'restart'], ['2', 'reload'])
    {
        my ($to, $how) = @$change;
        alter_system($node, ["idseq.node_id = $to"], wait => $how eq 'reload');
        $node->restart(fast => 1) if $how eq 'restart';
        $spell->();
    }
    # Without preload every id lies above every id before it. With preload each node id's ids
    # come from the server's stream of that node id, so a node id changed back continues its
    # own stream: unique, and increasing among that node id's ids (docs/snowflake.md says so).
    my $order = q{
        SELECT count(DISTINCT id) = count(*) AND count(DISTINCT node) = 2 AND
               count(*) FILTER (WHERE id <= prev_max) = 0 AND count(*) = 18
          FROM (SELECT node, id, max(id) OVER (PARTITION BY %s ORDER BY n
                                               ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS prev_max
                  FROM spells) s};
    is($node->safe_psql('postgres', sprintf($order, $preload ? 'node' : 'true')), 't',
        "$what: node ids 1, 2, 1, 2, 1, 2 by reload and restart: unique, none waiting for the clock, "
        . ($preload ? "each node id's ids increasing" : 'every id above every id before'));
    alter_system($node, ['idseq.node_id = 1'], wait => 1);

    # ---- ALTER DATABASE / ROLE ... SET in a session that has not loaded idseq ----
    ($ret, $out, $err) = $node->psql('postgres', 'ALTER DATABASE postgres SET idseq.node_id = 7');
    if ($preload)
    {
        like($err, qr/cannot be changed now/, "$what: ALTER DATABASE is refused in any session");
        next;
    }
    is($ret, 0, "$what: PostgreSQL accepts ALTER DATABASE for a library it has not loaded");
    ($ret, $out, $err) = $node->psql('postgres',
        q{SELECT (snowflake_unpack(snowflake_nextval('instagram'), 'instagram')).node, current_setting('idseq.node_id')});
    is($out, '1|1', "$what: the database setting is ignored, the server's node id is kept");
    like($err, qr/WARNING:  idseq.node_id set for a database, a role or a session is ignored/,
        "$what: with a warning");
    $node->safe_psql('postgres', 'ALTER DATABASE postgres RESET idseq.node_id');
    ($ret, $out, $err) = $node->psql('postgres', 'ALTER ROLE regress_plain SET idseq.node_id = 7');
    is($ret, 0, "$what: ALTER ROLE accepted too");
    ($ret, $out, $err) = $node->psql('postgres',
        q{SELECT (snowflake_unpack(snowflake_nextval('instagram'), 'instagram')).node},
        extra_params => [ '-U', 'regress_plain' ]);
    is($out, '1', "$what: the role setting is ignored too");
    like($err, qr/is ignored/, "$what: with a warning");
    $node->stop;
}

done_testing();
