# Counters per key on every path out of a server, and against hostile callers:
# - pg_dump/pg_restore of the database: every counter, key and grant comes back, and the
#   counters continue after the numbers issued before the dump (a fast one above them, a
#   gap-free one at exactly the next number, also bound at commit); idseq_counter_gaps finds
#   no missing number in the restored tables (bigint and formatted text columns);
# - pg_dump -n of one schema: the tables, their numbers and the counters' anchors come back,
#   the counters' definitions and state do not (they live in the extension's tables): no
#   number is issued from a counter that is missing (42704), and the documented way back
#   (create the counter again, idseq_counter_set from the table's highest number) continues
#   after the restored numbers;
# - logical replication of tables filled by counters, one of them bound at commit: the
#   subscriber's rows hold the numbers the publisher's rows hold, none NULL;
# - pg_upgrade (to the same major, as cheap as a restart): the counters continue;
# - hostile callers: a key of 1 MB (22023) and the largest accepted key, a NULL key (22004),
#   10^6 new keys of a fast counter in one statement with the backend's private memory flat,
#   10^4 new keys of a gap-free counter in one statement (a first-of-the-year batch), a
#   statement_timeout during a gap-free wait (57014, then the next number as if it had never
#   waited), and roles without USAGE, UPDATE or SELECT on the counter, a non-owner dropping it,
#   and any role writing the extension's state tables (42501 each).
# - maintenance under load: REINDEX CONCURRENTLY of the state table's index (amcheck finds
#   every row in it once; a new fast key refused with 55000 while the new index is not yet
#   valid) and VACUUM FULL (every key continues at its own next number).
use strict;
use warnings;
use IPC::Run;
use Time::HiRes qw(time usleep);
use FindBin;
use lib $FindBin::RealBin;
use IdseqTest qw(idseq_node dump_ok restore_ok subscribe psql_as psql_start pgbench_start);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = idseq_node('counters_paths', streaming => 'logical',
    conf => "max_connections = 100\nmax_wal_senders = 10\nmax_replication_slots = 10\n");
my $dir = PostgreSQL::Test::Utils::tempdir;

# The SQLSTATE of $sql in database $db ('00000' when it succeeds), as role => $role if given.
sub sqlstate
{
    my ($n, $db, $sql, %o) = @_;
    my ($ret, $out, $err) = $n->psql($db, "\\set VERBOSITY verbose\n\\set ON_ERROR_STOP 1\n$sql",
        (defined $o{role} ? (extra_params => [ '-U', $o{role} ]) : ()));
    return $err =~ /^(?:psql:\S+ )?ERROR:  ([0-9A-Z]{5}):/m ? $1 : ($ret == 0 ? '00000' : "psql $ret: $err");
}

$node->safe_psql('postgres', q{
    CREATE ROLE clerk LOGIN;    -- takes order numbers
    CREATE ROLE auditor LOGIN;  -- reads state
    CREATE ROLE nobody LOGIN;   -- nothing
    CREATE SCHEMA shop;
    SET search_path = shop, public;
    SELECT idseq_create_counter('orders', format => 'ORD-{n:6}');
    SELECT idseq_create_counter('invoices', gapless => true, period => 'year', time_zone => 'Europe/Paris',
                                format => 'INV-{period}-{n:4}');
    CREATE TABLE shop.orders (id bigserial PRIMARY KEY, tenant int NOT NULL, no text);
    CREATE TRIGGER orders_no BEFORE INSERT ON shop.orders
        FOR EACH ROW EXECUTE FUNCTION idseq_counter_fill('orders', 'tenant', 'no');
    CREATE TABLE shop.invoices (id bigserial PRIMARY KEY, company int NOT NULL, no bigint);
    CREATE TRIGGER invoices_no BEFORE INSERT ON shop.invoices
        FOR EACH ROW EXECUTE FUNCTION idseq_counter_fill('invoices', 'company', 'no', 'commit');
    INSERT INTO shop.orders (tenant) SELECT g % 5 FROM generate_series(1, 100) g;
    INSERT INTO shop.invoices (company) SELECT g % 3 FROM generate_series(1, 30) g;
    SELECT idseq_counter_next('orders', 'spare') FROM generate_series(1, 7);
    GRANT USAGE ON SEQUENCE shop.orders_counter TO clerk;
    GRANT SELECT ON SEQUENCE shop.orders_counter TO auditor;
    GRANT USAGE ON SCHEMA shop TO clerk, auditor;
});
is($node->safe_psql('postgres', q{SELECT string_agg(DISTINCT no, ',') FROM shop.orders WHERE tenant = 1 AND id <= 5}),
   'ORD-000001', 'tenant 1 got its first order number, formatted');
is($node->safe_psql('postgres', q{SELECT count(*), count(DISTINCT (company, no)), min(no), max(no) FROM shop.invoices}),
   '30|30|1|10', 'each company got its invoice numbers 1..10, bound at commit');

my $state_sql = 'SELECT * FROM idseq_counter_keys ORDER BY 1, 2, 3';
my $counters_sql = 'SELECT * FROM idseq_counters ORDER BY 1';
my $state = $node->safe_psql('postgres', $state_sql);
my $counters = $node->safe_psql('postgres', $counters_sql);
like($state, qr/spare/, 'the state lists the key spare');

# The numbers a restored copy must continue after: more rows, no repeated number, the
# gap-free counter at exactly the next number of each company, no number missing from the
# tables.
sub continues_ok
{
    my ($n, $db, $what) = @_;
    my ($t1, $c0, $c1, $last_id) = split /\|/, $n->safe_psql($db, q{
        SELECT (SELECT count(*) FROM shop.orders WHERE tenant = 1),
               (SELECT max(no) FROM shop.invoices WHERE company = 0),
               (SELECT max(no) FROM shop.invoices WHERE company = 1),
               (SELECT max(id) FROM shop.invoices)});
    $n->safe_psql($db, q{INSERT INTO shop.orders (tenant) SELECT g % 5 FROM generate_series(1, 50) g});
    my ($ret, $o, $e) = $n->psql($db, q{INSERT INTO shop.invoices (company) VALUES (0), (1), (1)});
    is($ret, 0, "$what: invoices numbered at commit are inserted") or diag($e);
    is($n->safe_psql($db, 'SELECT count(*) - count(DISTINCT (tenant, no)), count(*) FILTER (WHERE no IS NULL) FROM shop.orders'),
       '0|0', "$what: no order number issued twice for a tenant");
    is($n->safe_psql($db, q{SELECT no FROM shop.orders WHERE tenant = 1 ORDER BY id DESC LIMIT 1}), sprintf('ORD-%06d', $t1 + 10),
       "$what: tenant 1's orders continue after its $t1 orders");
    my $spare = $n->safe_psql($db, q{SELECT idseq_counter_next('orders', 'spare')});
    cmp_ok($spare, '>', 7, "$what: the fast counter continues above the numbers issued before ($spare)");
    is($n->safe_psql($db, "SELECT string_agg(no::text, ',' ORDER BY id) FROM shop.invoices WHERE id > $last_id"),
       join(',', $c0 + 1, $c1 + 1, $c1 + 2),
       "$what: the gap-free counter, bound at commit, continues at exactly the next number of each company");
    is($n->safe_psql($db, q{
        SELECT (SELECT count(*) FROM generate_series(0, 2) c, idseq_counter_gaps('invoices', c::text, 'shop.invoices', 'no'))
             + (SELECT count(*) FROM generate_series(0, 4) t, idseq_counter_gaps('orders', t::text, 'shop.orders', 'no'))}),
       '0', "$what: idseq_counter_gaps finds no number missing (bigint and formatted text)");
    is($n->safe_psql($db, q{SELECT string_agg(g::text, ',') FROM idseq_counter_gaps('orders', 'spare', 'shop.orders', 'no') g}),
       join(',', 1 .. $spare), "$what: idseq_counter_gaps lists the numbers no row holds");
}

# ---- pg_dump / pg_restore of the database ----
my $dump = "$dir/all.dump";
dump_ok($node, 'postgres', $dump, 'pg_dump of the database');
restore_ok($node, 'restored', $dump, 'pg_restore into a new database');
is($node->safe_psql('restored', $state_sql), $state, 'restore: every key of every counter, with its last number');
is($node->safe_psql('restored', $counters_sql), $counters, 'restore: every counter, its owner and definition');
continues_ok($node, 'restored', 'restore');
my ($ok, $out, $err) = psql_as($node, 'clerk', 'restored', q{SELECT idseq_counter_next('orders', '1')});
ok($ok, 'restore: the grant of USAGE came back with the counter') or diag($err);
is(sqlstate($node, 'restored', q{SELECT idseq_counter_next('invoices', '1')}, role => 'clerk'), '42501',
   'restore: and no more than it');

# ---- pg_dump -n of the schema ----
my $schema_dump = "$dir/shop.dump";
command_ok([ 'pg_dump', '-Fc', '-n', 'shop', '-f', $schema_dump, '-d', $node->connstr('postgres') ],
    'pg_dump -n shop');
$node->safe_psql('postgres', 'CREATE DATABASE shop_only');
$node->safe_psql('shop_only', 'CREATE EXTENSION idseq');
command_ok([ 'pg_restore', '--exit-on-error', '-d', $node->connstr('shop_only'), $schema_dump ],
    'pg_restore of the schema into a database with idseq');
is($node->safe_psql('shop_only', 'SELECT count(*) FROM shop.orders'), '100', 'schema: the rows came back');
is($node->safe_psql('shop_only', 'SELECT count(*) FROM idseq_counters'), '0',
   'schema: the counters did not (their definitions are the extension\'s)');
is(sqlstate($node, 'shop_only', q{SELECT idseq_counter_next('orders', '1')}), '42704',
   'schema: a missing counter issues no number');
is(sqlstate($node, 'shop_only', q{INSERT INTO shop.orders (tenant) VALUES (1)}), '42704',
   'schema: nor does its trigger');
# The way back that docs/counters.md gives: the anchor came back as a plain sequence; drop it,
# create the counters again, raise each key to the highest number of the table.
$node->safe_psql('shop_only', q{
    DROP SEQUENCE shop.orders_counter, shop.invoices_counter;
    SET search_path = shop, public;
    SELECT idseq_create_counter('orders', format => 'ORD-{n:6}');
    SELECT idseq_create_counter('invoices', gapless => true, period => 'year', time_zone => 'Europe/Paris',
                                format => 'INV-{period}-{n:4}');
    SELECT idseq_counter_set('orders', tenant::text, max(substr(no, 5)::bigint)) FROM shop.orders GROUP BY tenant;
    SELECT idseq_counter_set('invoices', company::text, max(no)) FROM shop.invoices GROUP BY company;
    SELECT idseq_counter_set('orders', 'spare', 7);
});
continues_ok($node, 'shop_only', 'schema, counters set again');

# ---- logical replication ----
my $sub = idseq_node('counters_sub');
$sub->safe_psql('postgres', q{
    CREATE SCHEMA shop;
    CREATE TABLE shop.orders (id bigint PRIMARY KEY, tenant int NOT NULL, no text);
    CREATE TABLE shop.invoices (id bigint PRIMARY KEY, company int NOT NULL, no bigint);
});
$node->safe_psql('postgres', 'CREATE PUBLICATION shop_pub FOR TABLE shop.orders, shop.invoices');
subscribe($sub, 'postgres', 'shop_sub', $node, 'postgres', 'shop_pub');
$node->safe_psql('postgres', q{
    INSERT INTO shop.orders (tenant) SELECT g % 5 FROM generate_series(1, 50) g;
    BEGIN;
    INSERT INTO shop.invoices (company) SELECT g % 3 FROM generate_series(1, 9) g;
    UPDATE shop.invoices SET company = company WHERE no IS NULL;
    COMMIT;
});
$node->wait_for_catchup('shop_sub');
for my $t ('shop.orders', 'shop.invoices') {
    is($sub->safe_psql('postgres', "SELECT * FROM $t ORDER BY id"), $node->safe_psql('postgres', "SELECT * FROM $t ORDER BY id"),
       "logical replication: the subscriber's $t holds the publisher's numbers");
}
is($sub->safe_psql('postgres', 'SELECT count(*) FROM shop.invoices WHERE no IS NULL'), '0',
   'logical replication: no invoice without its number (bound at commit, then replicated)');
$sub->safe_psql('postgres', 'DROP SUBSCRIPTION shop_sub');
$sub->stop;
$node->safe_psql('postgres', 'DROP PUBLICATION shop_pub');

# A database that publishes all its tables (FOR ALL TABLES takes in the extension's tables
# too): counters work there, and dropping a sequence or a counter still works.
$node->safe_psql('postgres', 'CREATE DATABASE pub_all');
$node->safe_psql('pub_all', q{
    CREATE EXTENSION idseq;
    CREATE PUBLICATION everything FOR ALL TABLES;
    CREATE SEQUENCE plain_seq;
    SELECT idseq_create_counter('pa_fast');
    SELECT idseq_create_counter('pa_gap', gapless => true);
});
is(sqlstate($node, 'pub_all', q{SELECT idseq_counter_next('pa_fast', 'k'), idseq_counter_next('pa_gap', 'k')}), '00000',
   'FOR ALL TABLES: fast and gap-free counters take numbers');
is(sqlstate($node, 'pub_all', q{SELECT idseq_counter_set('pa_gap', 'k', 10)}), '00000', 'FOR ALL TABLES: a key is raised');
is(sqlstate($node, 'pub_all', q{DROP SEQUENCE plain_seq}), '00000', 'FOR ALL TABLES: a sequence is dropped');
is(sqlstate($node, 'pub_all', q{SELECT idseq_drop_counter('pa_gap')}), '00000', 'FOR ALL TABLES: a counter is dropped');

# ---- a partitioned table numbered at commit ----
# The trigger on the partitioned table is cloned to its partitions, also to one created
# after it; every row is numbered at commit in whichever partition it lands.
$node->safe_psql('postgres', q{
    SELECT idseq_create_counter('parted', gapless => true);
    CREATE TABLE shop.parted (region text NOT NULL, id int NOT NULL, no bigint) PARTITION BY LIST (region);
    CREATE TABLE shop.parted_eu PARTITION OF shop.parted FOR VALUES IN ('eu');
    CREATE TRIGGER parted_no BEFORE INSERT ON shop.parted
        FOR EACH ROW EXECUTE FUNCTION idseq_counter_fill('parted', 'region', 'no', 'commit');
    CREATE TABLE shop.parted_us PARTITION OF shop.parted FOR VALUES IN ('us');
    INSERT INTO shop.parted VALUES ('eu', 1), ('us', 2), ('eu', 3);
    INSERT INTO shop.parted_us VALUES ('us', 4);
});
is($node->safe_psql('postgres', q{SELECT string_agg(format('%s:%s:%s', region, id, no), ' ' ORDER BY id) FROM shop.parted}),
   'eu:1:1 us:2:1 eu:3:2 us:4:2', 'a partitioned table: every row numbered at commit, per key, in every partition');

# ---- hostile callers ----
$node->safe_psql('postgres', q{
    SELECT idseq_create_counter('big');
    SELECT idseq_create_counter('gbig', gapless => true);
    SELECT idseq_create_counter('held', gapless => true);
    CREATE TABLE shop.secret (n bigint);
});
is(sqlstate($node, 'postgres', q{SELECT idseq_counter_next('big', repeat('x', 1000000))}), '22023', 'a key of 1 MB: 22023');
is(sqlstate($node, 'postgres', q{SELECT idseq_counter_next('big', repeat('x', 1001))}), '22023', 'a key of 1001 bytes: 22023');
is($node->safe_psql('postgres', q{SELECT idseq_counter_next('big', repeat('é', 500))}), '1', 'a key of 1000 bytes works');
is(sqlstate($node, 'postgres', q{SELECT idseq_counter_next('big', NULL)}), '22004', 'a NULL key: 22004');
is(sqlstate($node, 'postgres', q{SELECT idseq_counter_next('gbig', NULL)}), '22004', 'a NULL key of a gap-free counter: 22004');
is(sqlstate($node, 'postgres', q{SELECT idseq_counter_next('no_such_counter', 'a')}), '42704', 'an unknown counter: 42704');
$node->safe_psql('postgres', q{
    CREATE TABLE shop.loose (k text, no bigint);
    CREATE TRIGGER loose_no BEFORE INSERT ON shop.loose FOR EACH ROW EXECUTE FUNCTION idseq_counter_fill('big', 'k', 'no');
});
is(sqlstate($node, 'postgres', q{INSERT INTO shop.loose VALUES (NULL)}), '22004', 'a NULL key column under the fill trigger: 22004');
is($node->safe_psql('postgres', q{SELECT count(*) FROM shop.loose}), '0', 'and no row');

# 10^6 new keys of a fast counter in one statement, the backend's private memory sampled as
# t/090 does: no growth between 20% and 90% of the run beyond 16 MB.
my $many = $ENV{IDSEQ_COUNTER_KEYS} || 1_000_000;
SKIP: {
    skip 'needs /proc/<pid>/status (Linux)', 2 unless -r '/proc/self/status';
    my $stmt = "SELECT count(*) FILTER (WHERE idseq_counter_next('big', g::text) = 1) FROM generate_series(1, $many) g";
    my ($h, $res) = psql_start($node, $stmt);
    my $pid;
    for (1 .. 600) {
        $pid = $node->safe_psql('postgres',
            "SELECT pid FROM pg_stat_activity WHERE query = \$q\$$stmt\$q\$ AND pid <> pg_backend_pid()");
        last if $pid ne '';
        usleep(50_000);
    }
    my @samples;
    my $t0 = time;
    while ($h->pumpable) {
        open my $fh, '<', "/proc/$pid/status" or last;
        my ($kb) = join('', <$fh>) =~ /RssAnon:\s+(\d+) kB/;
        close $fh;
        push @samples, [ time - $t0, $kb ] if defined $kb;
        usleep(20_000);
        $h->pump_nb;
    }
    $h->finish;
    chomp(my $counted = $$res);
    is($counted, $many, "$many new keys in one statement, each numbered 1");
    my $run = @samples ? $samples[-1][0] : 0;
    my ($at20) = grep { $_->[0] >= 0.2 * $run } @samples;
    my ($at90) = grep { $_->[0] >= 0.9 * $run } @samples;
    my $growth = $at20 && $at90 ? $at90->[1] - $at20->[1] : -1;
    note(sprintf('%d keys in %.1f s, %d samples, RssAnon %s kB at 20%%, %s kB at 90%%', $many, $run, scalar(@samples),
        $at20 ? $at20->[1] : '?', $at90 ? $at90->[1] : '?'));
    ok($growth >= 0 && $growth < 16 * 1024, "the backend's private memory stays flat over $many keys (grew $growth kB)");
}
is($node->safe_psql('postgres', q{SELECT idseq_counter_next('big', '1')}), '2', 'a key of the big statement continues');

# A first-of-the-year batch: 10^4 companies' first gap-free number in one statement, on a
# server with default lock settings.
is(sqlstate($node, 'postgres', q{SELECT count(*) FROM (SELECT idseq_counter_next('gbig', g::text) FROM generate_series(1, 10000) g) s}),
   '00000', '10^4 new keys of a gap-free counter in one statement');
is($node->safe_psql('postgres', q{SELECT count(*) FILTER (WHERE idseq_counter_current('gbig', g::text) = 1) FROM generate_series(1, 10000) g}),
   '10000', 'and each key holds its number 1');

# statement_timeout during a gap-free wait.
my ($holder) = psql_start($node, q{BEGIN; SELECT idseq_counter_next('held', 'k'); SELECT pg_sleep(3); COMMIT;});
ok($node->poll_query_until('postgres', q{SELECT count(*) = 1 FROM pg_stat_activity WHERE wait_event = 'PgSleep'}),
   'a session holds the next number of a gap-free key');
my $t0 = time;
is(sqlstate($node, 'postgres', q{SET statement_timeout = '300ms'; SELECT idseq_counter_next('held', 'k')}), '57014',
   'statement_timeout cancels the wait: 57014');
cmp_ok(time - $t0, '<', 2.5, 'the wait ended with the timeout, not with the holder');
$holder->finish;
is($node->safe_psql('postgres', q{SELECT idseq_counter_next('held', 'k')}), '2', 'after the holder commits, the next number is 2');

# bound at commit: PostgreSQL runs the companion after the statement's timeout is stopped, so
# the session's statement_timeout bounds the wait for the key's holder as lock_timeout (55P03)
$node->safe_psql('postgres', q{
    CREATE TABLE held_rows (k int, no bigint);
    CREATE TRIGGER held_no BEFORE INSERT ON held_rows
        FOR EACH ROW EXECUTE FUNCTION idseq_counter_fill('held', 'k', 'no', 'commit');});
($holder) = psql_start($node, q{BEGIN; SELECT idseq_counter_next('held', '5'); SELECT pg_sleep(4); COMMIT;});
ok($node->poll_query_until('postgres', q{SELECT count(*) = 1 FROM pg_stat_activity WHERE wait_event = 'PgSleep'}),
   'a session holds the next number of key 5');
$t0 = time;
is(sqlstate($node, 'postgres', q{SET statement_timeout = '300ms'; INSERT INTO held_rows (k) VALUES (5)}), '55P03',
   'an insert bound at commit gives up waiting for the holder after statement_timeout (55P03)');
cmp_ok(time - $t0, '<', 3, 'the wait ended with the timeout, not with the holder');
$holder->finish;
$node->safe_psql('postgres', q{INSERT INTO held_rows (k) VALUES (5)});
is($node->safe_psql('postgres', q{SELECT string_agg(no::text, ',') FROM held_rows}), '2',
   'the rolled-back insert took no number: the next row of key 5 is 2');

# a key column whose text depends on the session (a date under DateStyle) keys no counter
$node->safe_psql('postgres', q{
    CREATE TABLE dated_rows (d date, no bigint);
    CREATE TRIGGER dated_no BEFORE INSERT ON dated_rows
        FOR EACH ROW EXECUTE FUNCTION idseq_counter_fill('held', 'd', 'no');});
is(sqlstate($node, 'postgres', q{INSERT INTO dated_rows (d) VALUES (current_date)}), '42804',
   'a date key column is refused (42804): one date would be two keys under two DateStyles');

# privileges
is(sqlstate($node, 'postgres', q{SELECT idseq_counter_next('orders', '1')}, role => 'nobody'), '42501', 'no USAGE: no number');
is(sqlstate($node, 'postgres', q{SELECT idseq_counter_next_text('orders', '1')}, role => 'nobody'), '42501', 'no USAGE: no text number');
is(sqlstate($node, 'postgres', q{SELECT idseq_counter_block('orders', '1', 10)}, role => 'nobody'), '42501', 'no USAGE: no block');
is(sqlstate($node, 'postgres', q{SELECT idseq_counter_set('orders', '1', 1000)}, role => 'clerk'), '42501', 'USAGE alone: no raising a key');
is(sqlstate($node, 'postgres', q{SELECT idseq_counter_current('orders', '1')}, role => 'nobody'), '42501', 'no privilege: no reading the state');
is(sqlstate($node, 'postgres', q{SELECT idseq_counter_current('orders', '1')}, role => 'clerk'), '42501', 'USAGE alone: no reading the state');
is(sqlstate($node, 'postgres', q{SELECT count(*) FROM idseq_counter_gaps('orders', '1', 'shop.orders', 'no')}, role => 'clerk'),
   '42501', 'USAGE alone: no auditing');
is(sqlstate($node, 'postgres', q{SELECT idseq_counter_current('orders', '1')}, role => 'auditor'), '00000', 'SELECT: reads the state');
is($node->safe_psql('postgres', q{SET ROLE clerk; SELECT count(*) FROM idseq_counter_keys}), '0',
   'idseq_counter_keys shows no key of a counter the caller may not SELECT');
is(sqlstate($node, 'postgres', q{SELECT idseq_drop_counter('orders')}, role => 'clerk'), '42501', 'a non-owner cannot drop the counter');
is(sqlstate($node, 'postgres', q{SELECT count(*) FROM idseq_counter_gaps('orders', '1', 'shop.secret', 'n')}, role => 'auditor'),
   '42501', 'idseq_counter_gaps reads no table the caller may not read');
is(sqlstate($node, 'postgres', q{SELECT idseq_create_counter('mine')}, role => 'nobody'), '42501',
   'a role without CREATE on the schema creates no counter');
for my $sql (q{UPDATE idseq_counter_state SET last = 0},
             q{DELETE FROM idseq_counter_state},
             q{INSERT INTO idseq_counter_state VALUES (0, 'shop.orders_counter', NULL, 'x')},
             q{UPDATE idseq_counter_def SET start = 1000},
             q{SELECT * FROM idseq_counter_state}) {
    is(sqlstate($node, 'postgres', $sql, role => 'clerk'), '42501', "a counter's user cannot: $sql");
}
# The owner of a counter (not a superuser) does not own the state tables either.
$node->safe_psql('postgres', q{GRANT CREATE ON SCHEMA shop TO clerk});
is(sqlstate($node, 'postgres', q{SET search_path = shop, public; SELECT idseq_create_counter('clerks')}, role => 'clerk'),
   '00000', 'a role with CREATE on the schema creates a counter');
is(sqlstate($node, 'postgres', q{UPDATE idseq_counter_state SET last = 0 WHERE counter = 'shop.clerks_counter'::regclass}, role => 'clerk'),
   '42501', "a counter's owner cannot write the state table");
is(sqlstate($node, 'postgres', q{SELECT idseq_counter_set('clerks', 'a', 5)}, role => 'clerk'), '00000', 'the owner raises a key');
is($node->safe_psql('postgres', q{SELECT idseq_counter_set('clerks', 'a', 3)}), '5', 'idseq_counter_set never lowers a key');

# The database's owner (not a superuser) may insert rows into the state table, for
# pg_restore --no-owner; a second row of an existing key, set back to 0, must not make the
# counter issue its numbers again.
$node->safe_psql('postgres', q{
    CREATE ROLE dbo LOGIN;
    CREATE DATABASE dbo_db OWNER dbo;
});
$node->safe_psql('dbo_db', q{
    CREATE EXTENSION idseq;
    SELECT idseq_create_counter('victim');
    SELECT idseq_create_counter('victim_gap', gapless => true);
    SELECT idseq_counter_next('victim', 'k'), idseq_counter_next('victim_gap', 'k') FROM generate_series(1, 5);
});
my $planted = 0;
for my $c ('victim', 'victim_gap') {
    $planted++ if sqlstate($node, 'dbo_db', qq{INSERT INTO idseq_counter_state VALUES (0, '${c}_counter', NULL, 'k')},
        role => 'dbo') eq '00000';
}
note("the database's owner planted $planted rows");
for my $c ('victim', 'victim_gap') {
    my ($ret, $got, $err) = $node->psql('dbo_db', "SELECT idseq_counter_next('$c', 'k')");
    note("$c after the planted row: " . ($ret == 0 ? $got : $err));
    ok(($ret == 0 && $got eq '6') || ($ret != 0 && $err =~ /ERROR/),
       "$c: a row the database's owner planted for an existing key makes no number repeat (the next is 6, or an error)");
}

# Dropping a counter's anchor sequence drops the counter and its state.
$node->safe_psql('dbo_db', q{DROP SEQUENCE victim_counter});
is(sqlstate($node, 'dbo_db', q{SELECT idseq_counter_next('victim', 'k')}), '42704', 'DROP SEQUENCE of the anchor: the counter is gone');
is($node->safe_psql('dbo_db', q{SELECT count(*) FROM idseq_counter_state s WHERE s.counter::oid NOT IN (SELECT oid FROM pg_class)}),
   '0', 'and no state row is left behind');
$node->safe_psql('dbo_db', q{
    CREATE SCHEMA gone;
    SET search_path = gone, public;
    SELECT idseq_create_counter('gone_too');
    SELECT idseq_counter_next('gone_too', 'k');
    RESET search_path;
    DROP SCHEMA gone CASCADE;
});
is(sqlstate($node, 'dbo_db', q{SELECT idseq_counter_next('gone_too', 'k')}), '42704', 'DROP SCHEMA ... CASCADE: the counter is gone');
is($node->safe_psql('dbo_db', q{SELECT count(*) FROM idseq_counter_state s WHERE s.counter::oid NOT IN (SELECT oid FROM pg_class)}),
   '0', 'and no state row of it is left behind');

# ---- maintenance of the state table while numbers are taken ----
# REINDEX CONCURRENTLY builds a second index while new versions of gap-free rows and new
# gap-free keys' rows are written outside SQL: each must get its entry there too (amcheck's
# heapallindexed finds a row the index lacks, and a row entered twice), no key gets a second
# row, and VACUUM FULL after it moves every row without a key losing its number. A new key of
# a fast counter (a frozen row) is refused while the new index takes inserts but is not
# valid yet (held open here by an older snapshot the build waits for).
$node->safe_psql('postgres', q{
    CREATE EXTENSION IF NOT EXISTS amcheck;
    SELECT idseq_create_counter('maint_fast');
    SELECT idseq_create_counter('maint_gapfree', gapless => true);
    SELECT count(idseq_counter_next('maint_fast', g::text)) FROM generate_series(1, 20000) g;});
my ($maint) = pgbench_start($node, clients => 4, time => 8, script => q{
\set k random(1, 20000)
\set g random(1, 3000)
SELECT idseq_counter_next('maint_fast', :k::text);
SELECT idseq_counter_next('maint_gapfree', :g::text);
});
ok($node->poll_query_until('postgres', q{SELECT count(*) > 200 FROM idseq_counter_keys WHERE counter = 'maint_gapfree'}),
   'clients take numbers of fast keys and of new and existing gap-free keys');
for my $round (1 .. 3) {
    $node->safe_psql('postgres', q{REINDEX INDEX CONCURRENTLY idseq_counter_state_key});
    is($node->safe_psql('postgres', q{SELECT bt_index_check('idseq_counter_state_key', true)}), '',
       "REINDEX CONCURRENTLY $round under load: every row of the state table is in its index, once");
}
$maint->finish;
is($?, 0, 'the clients ran without an error');
my ($rows, $distinct) = split / /, $node->safe_psql('postgres', q{
    SELECT count(*) || ' ' || count(DISTINCT (counter, key, period)) FROM idseq_counter_state
     WHERE counter IN ('maint_fast_counter'::regclass, 'maint_gapfree_counter'::regclass)});
is($rows, $distinct, "one row per key ($rows keys)");
$node->safe_psql('postgres', q{VACUUM FULL idseq_counter_state});
for my $c (qw(maint_fast maint_gapfree)) {
    is($node->safe_psql('postgres', qq{
        WITH k AS MATERIALIZED (SELECT key, last FROM idseq_counter_keys WHERE counter = '$c')
        SELECT count(*) FILTER (WHERE idseq_counter_next('$c', key) <> last + 1) FROM k}), '0',
       "after VACUUM FULL every key of $c continues at its own next number");
}
is($node->safe_psql('postgres', q{SELECT bt_index_check('idseq_counter_state_key', true)}), '', 'the index holds every row after it');

my ($old_snapshot) = psql_start($node, q{BEGIN ISOLATION LEVEL REPEATABLE READ; SELECT count(*) FROM pg_class; SELECT pg_sleep(4); COMMIT;});
ok($node->poll_query_until('postgres', q{SELECT count(*) = 1 FROM pg_stat_activity WHERE wait_event = 'PgSleep'}),
   'a transaction holds an old snapshot');
my ($reindex, $reindex_out, $reindex_err) = psql_start($node, q{REINDEX INDEX CONCURRENTLY idseq_counter_state_key});
ok($node->poll_query_until('postgres', q{SELECT count(*) = 1 FROM pg_index WHERE indrelid = 'idseq_counter_state'::regclass
                                           AND indisready AND NOT indisvalid}),
   'the new index takes inserts and waits for the old snapshot before it is valid');
is(sqlstate($node, 'postgres', q{SELECT idseq_counter_next('maint_fast', 'a new key')}), '55000',
   'meanwhile a new key of a fast counter is refused (55000)');
is($node->safe_psql('postgres', q{SELECT idseq_counter_next('maint_fast', '1') > 1, idseq_counter_next('maint_gapfree', 'new')}),
   't|1', 'an existing fast key and a new gap-free key take numbers');
$old_snapshot->finish;
$reindex->finish;
is($$reindex_err, '', 'the REINDEX finished');
is($node->safe_psql('postgres', q{SELECT idseq_counter_next('maint_fast', 'a new key'), bt_index_check('idseq_counter_state_key', true)}),
   '1|', 'then the new key takes its first number, and the index holds every row once');

# ---- pg_upgrade to the same major ----
my %before = map { $_ => $node->safe_psql($_, $state_sql) } qw(postgres restored);
$node->stop;
my $upgraded = PostgreSQL::Test::Cluster->new('counters_upgraded');
$upgraded->init;
$upgraded->append_conf('postgresql.conf', "max_connections = 100\n");
my $workdir = PostgreSQL::Test::Utils::tempdir;
chdir $workdir or die "chdir $workdir: $!";
my $bindir = $node->config_data('--bindir');
my ($stdout, $stderr);
my $upgrade_ok = IPC::Run::run(
    [ 'pg_upgrade', '--no-sync', '-d', $node->data_dir, '-D', $upgraded->data_dir, '-b', $bindir, '-B', $bindir,
      '-s', $upgraded->host, '-p', $node->port, '-P', $upgraded->port ], '>', \$stdout, '2>', \$stderr);
ok($upgrade_ok, 'pg_upgrade') or diag(join("\n", $stdout, $stderr,
    map { slurp_file($_) } glob($upgraded->data_dir . '/pg_upgrade_output.d/*/log/*.log')));
SKIP: {
    skip 'pg_upgrade failed', 10 unless $upgrade_ok;
    $upgraded->start;
    for my $db (qw(postgres restored)) {
        is($upgraded->safe_psql($db, $state_sql), $before{$db}, "pg_upgrade: database $db keeps every key's number");
    }
    continues_ok($upgraded, 'postgres', 'pg_upgrade');
    $upgraded->stop;
}

done_testing();
