# Partitions made by a superuser for another role's table do not hand that role the
# superuser's rights. An ordinary role, alice, indexes her table on an IMMUTABLE function that
# calls code which runs ALTER ROLE alice SUPERUSER whenever current_user is a superuser (and
# first tries RESET ROLE, to get back to the session's user). A superuser runs
# snowflake_create_partitions for her table, as a scheduled job would; then ANALYZE, VACUUM
# ANALYZE, REINDEX and autovacuum's ANALYZE process the new partitions, each running the
# index expression as the partition's owner. The partitions must be alice's, and alice must
# still not be a superuser after every step. A second table is indexed on an expression that
# PostgreSQL folds while it makes each new partition's index, so that alice's code runs during
# snowflake_create_partitions itself. Every call of alice's code is recorded, so each step
# shows that her code did run, and as whom.
use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;
use IdseqTest qw(idseq_node psql_as alter_system);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

# autovacuum off until its own step, so that each step's effect is its own
my $node = idseq_node('sf_partition_owner', conf => q{
autovacuum = off
autovacuum_naptime = 1
autovacuum_analyze_threshold = 10
autovacuum_analyze_scale_factor = 0
autovacuum_vacuum_threshold = 10
autovacuum_vacuum_scale_factor = 0
log_autovacuum_min_duration = 0
});

$node->safe_psql('postgres', q{
    CREATE ROLE alice LOGIN;
    CREATE SCHEMA alice AUTHORIZATION alice;
});
my ($ok, $out, $err) = psql_as($node, 'alice', 'postgres', q{
    CREATE TABLE alice.calls (who name, super boolean, at timestamptz DEFAULT clock_timestamp());
    CREATE FUNCTION alice.escalate() RETURNS void LANGUAGE plpgsql AS $$
    DECLARE
        super boolean;
    BEGIN
        BEGIN
            RESET ROLE;  -- refused in a security-restricted operation
        EXCEPTION WHEN OTHERS THEN NULL;
        END;
        SELECT r.rolsuper INTO super FROM pg_catalog.pg_roles r WHERE r.rolname = current_user;
        BEGIN
            INSERT INTO alice.calls (who, super) VALUES (current_user, super);
        EXCEPTION WHEN OTHERS THEN NULL;
        END;
        IF super THEN
            ALTER ROLE alice SUPERUSER;
        END IF;
    END $$;
    CREATE FUNCTION alice.f(bigint) RETURNS bigint LANGUAGE plpgsql IMMUTABLE AS
        $$BEGIN PERFORM alice.escalate(); RETURN $1; END$$;
    CREATE FUNCTION alice.k() RETURNS bigint LANGUAGE plpgsql IMMUTABLE AS
        $$BEGIN PERFORM alice.escalate(); RETURN 0; END$$;
    CREATE TABLE alice.orders (id bigint NOT NULL, what text) PARTITION BY RANGE (id);
    CREATE INDEX orders_f ON alice.orders (alice.f(id));
    CREATE TABLE alice.events (id bigint NOT NULL) PARTITION BY RANGE (id);
    CREATE INDEX events_k ON alice.events ((id + alice.k()));
});
ok($ok, 'alice sets up her tables, her functions and her indexes') or diag($err);

sub alice_is_superuser
{
    return $node->safe_psql('postgres', q{SELECT rolsuper FROM pg_roles WHERE rolname = 'alice'}) eq 't';
}
sub calls
{
    return $node->safe_psql('postgres', q{SELECT count(*) || '/' || count(*) FILTER (WHERE super) FROM alice.calls});
}
# After a step: alice's code ran (more calls than before), never as a superuser, and alice is
# no superuser. An escalation is undone, so that the next step shows its own.
sub no_escalation
{
    my ($what, $before) = @_;
    my ($n0) = split m{/}, $before;
    my ($n, $super) = split m{/}, calls();
    cmp_ok($n, '>', $n0, "$what: alice's index expression ran");
    is($super, 0, "$what: never as a superuser");
    ok(!alice_is_superuser(), "$what: alice is not a superuser")
      or $node->safe_psql('postgres', 'ALTER ROLE alice NOSUPERUSER; TRUNCATE alice.calls');
}

# ---- the superuser creates alice's partitions ----
my $before = calls();
$out = $node->safe_psql('postgres', q{
    SELECT count(*) FROM snowflake_create_partitions('alice.events', now() - interval '1 day', now() + interval '2 days')});
is($out, '4', 'the superuser creates the four partitions of alice.events (its days from yesterday to the day after tomorrow)');
no_escalation('snowflake_create_partitions (an index expression folded for each new partition)', $before);
$out = $node->safe_psql('postgres', q{
    SELECT count(*) FROM snowflake_create_partitions('alice.orders', now() - interval '1 day', now() + interval '2 days')});
is($out, '4', 'the superuser creates the four partitions of alice.orders');
ok(!alice_is_superuser(), 'alice is not a superuser after the partitions of alice.orders are made');
is($node->safe_psql('postgres', q{
    WITH parts AS (SELECT inhrelid FROM pg_inherits WHERE inhparent IN ('alice.orders'::regclass, 'alice.events'::regclass))
    SELECT count(*) || ' owned by ' || string_agg(DISTINCT pg_get_userbyid(c.relowner), ',')
      FROM pg_class c
     WHERE c.oid IN (SELECT inhrelid FROM parts UNION ALL SELECT indexrelid FROM pg_index WHERE indrelid IN (SELECT inhrelid FROM parts))}),
    '16 owned by alice', 'the eight partitions and their indexes belong to alice');

# ---- rows, then the maintenance a superuser runs ----
($ok, $out, $err) = psql_as($node, 'alice', 'postgres', q{
    INSERT INTO alice.orders
    SELECT snowflake_pack('snowflake', now() - (g % 2) * interval '1 day', node => 1, seq => g), 'order ' || g
      FROM generate_series(1, 200) g});
ok($ok, 'alice inserts 200 rows into two of the partitions') or diag($err);

for my $maintenance ('ANALYZE alice.orders', 'VACUUM ANALYZE alice.orders', 'REINDEX TABLE alice.orders')
{
    $before = calls();
    $node->safe_psql('postgres', $maintenance);
    no_escalation($maintenance, $before);
}

# ---- autovacuum's ANALYZE ----
($ok, $out, $err) = psql_as($node, 'alice', 'postgres', q{
    INSERT INTO alice.orders
    SELECT snowflake_pack('snowflake', now() - (g % 2) * interval '1 day', node => 1, seq => g), 'order ' || g
      FROM generate_series(201, 400) g});
ok($ok, 'alice inserts 200 more rows') or diag($err);
$before = calls();
my $analyzed = q{
    SELECT count(*) = 2 FROM pg_stat_all_tables s JOIN pg_inherits i ON i.inhrelid = s.relid
     WHERE i.inhparent = 'alice.orders'::regclass AND s.autoanalyze_count > 0};
alter_system($node, ['autovacuum = on'], wait => 1);
ok($node->poll_query_until('postgres', $analyzed), "autovacuum analyzes alice's two partitions with new rows");
no_escalation("autovacuum's ANALYZE", $before);
alter_system($node, ['autovacuum = off'], wait => 1);

# ---- retiring them, as the superuser ----
$out = $node->safe_psql('postgres', q{
    SELECT count(*) FROM snowflake_retire_partitions('alice.orders', now() + interval '3 days', drop => true)});
is($out, '4', "the superuser drops alice's partitions");
ok(!alice_is_superuser(), 'alice is not a superuser at the end');

$node->stop;
done_testing();
