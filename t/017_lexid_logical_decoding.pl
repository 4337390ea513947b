# Values of custom charsets wherever PostgreSQL prints or sends them outside an ordinary
# query: logical decoding (pg_recvlogical with test_decoding and wal2json, SQL decoding
# functions), real subscriptions in text and binary mode, FETCH from a WITH HOLD cursor after
# its transaction ended, parallel workers, and an error's detail. Every such path looks the
# charset up in a process (or a state) where SQL cannot run: a walsender decodes with a
# historic snapshot, and a fresh backend has nothing cached.
#
# Then the registries under replication: a publication FOR ALL TABLES carries them; the
# subscriber skips a charset it has identically, stops on one it has with other symbols, and
# adds one it lacks; no session, replica role or not, can change or remove a registered row.
use strict;
use warnings;
use IPC::Run;
use FindBin;
use lib $FindBin::RealBin;
use IdseqTest qw(idseq_node subscribe);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $pub = idseq_node('ld_pub', streaming => 'logical', start => 0, conf => q{
max_worker_processes = 16
max_parallel_workers = 4
max_wal_senders = 12
max_replication_slots = 12
max_prepared_transactions = 5
});
# Some builds admit only listed libraries as output plugins: admit wal2json too.
my $describe = '';
IPC::Run::run([ $pub->installed_command('postgres'), '--describe-config' ], '>', \$describe);
$pub->append_conf('postgresql.conf', "output_plugin_libraries = 'pgoutput, test_decoding, wal2json'\n")
    if $describe =~ /^output_plugin_libraries\t/m;
$pub->start;
my $charsets = q{
    SELECT idseq_create_charset('foo', 'abc');
    SELECT idseq_create_charset('stars', '★☆✦✧');
    SELECT idseq_create_charset('cihex', '0123456789abcdef', true);
};
my $table = 'CREATE TABLE lr (id int PRIMARY KEY, a lexid(foo), m lexid(stars), c lexid(cihex))';
$pub->safe_psql('postgres', "CREATE EXTENSION idseq; $charsets; $table;");
$pub->safe_psql('postgres', q{
    SELECT pg_create_logical_replication_slot('td', 'test_decoding');
    SELECT pg_create_logical_replication_slot('wj', 'wal2json');
    SELECT pg_create_logical_replication_slot('sqlslot', 'test_decoding');
    CREATE PUBLICATION lr_pub FOR TABLE lr;
});
$pub->safe_psql('postgres', q{
    INSERT INTO lr VALUES (1, 'a', '★', 'A'), (2, 'cab', '☆✧', 'fF0');
    UPDATE lr SET a = 'bb' WHERE id = 2;
});
# A charset created in the very transaction that first stores its values.
$pub->safe_psql('postgres', q{
    BEGIN;
    SELECT idseq_create_charset('late', 'xyz');
    CREATE TABLE lr_late (id int PRIMARY KEY, v lexid(late));
    INSERT INTO lr_late VALUES (1, 'zyx');
    COMMIT;
});
my $endpos = $pub->safe_psql('postgres', 'SELECT pg_current_wal_lsn()');

# ===== pg_recvlogical: a walsender decodes with a historic snapshot =====
# (eval: a failing decoder fails these tests, not the whole file)
my $td = eval {
    $pub->pg_recvlogical_upto('postgres', 'td', $endpos, $PostgreSQL::Test::Utils::timeout_default,
                              'include-xids' => '0', 'skip-empty-xacts' => '1');
} // "pg_recvlogical failed: $@";
like($td, qr/table public\.lr: INSERT: id\[integer\]:1 a\[(?:public\.)?lexid\]:'a' m\[(?:public\.)?lexid\]:'★' c\[(?:public\.)?lexid\]:'a'/,
     'test_decoding prints a custom, a multibyte and a case-insensitive value');
like($td, qr/table public\.lr: INSERT: id\[integer\]:2 a\[(?:public\.)?lexid\]:'cab' m\[(?:public\.)?lexid\]:'☆✧' c\[(?:public\.)?lexid\]:'ff0'/,
     'test_decoding: the second row');
like($td, qr/table public\.lr: UPDATE: id\[integer\]:2 a\[(?:public\.)?lexid\]:'bb'/, 'test_decoding: the update');
like($td, qr/table public\.lr_late: INSERT: id\[integer\]:1 v\[(?:public\.)?lexid\]:'zyx'/,
     'test_decoding: a charset created in the decoded transaction');

my $wj = eval { $pub->pg_recvlogical_upto('postgres', 'wj', $endpos, $PostgreSQL::Test::Utils::timeout_default) }
    // "pg_recvlogical failed: $@";
like($wj, qr/"columnvalues":\[2,"cab","☆✧","ff0"\]/, 'wal2json prints the values');
like($wj, qr/"columnvalues":\[1,"zyx"\]/, 'wal2json: a charset created in the decoded transaction');

# The SQL interface decodes in an ordinary backend, also with a historic snapshot.
my (undef, $sqldec, $sqlerr) = $pub->psql('postgres', q{
    SELECT string_agg(data, E'\n') FROM pg_logical_slot_get_changes('sqlslot', NULL, NULL, 'include-xids', '0')});
like($sqldec, qr/m\[(?:public\.)?lexid\]:'☆✧' c\[(?:public\.)?lexid\]:'ff0'/, 'pg_logical_slot_get_changes prints the values');
unlike(slurp_file($pub->logfile), qr/outer snapshot/, 'no lookup ran SQL in a walsender');

# Decoding at PREPARE (a two-phase slot) shows a charset that has not committed, and may
# never: the decoder must not keep its definition. Here it is rolled back and created again
# with its symbols reversed; the same backend decodes both, and 'ba' must print as 'ba' each
# time (its digits are 1,0 in the first definition and 0,1 in the second).
my $twophase = $pub->psql('postgres', q{
    SELECT pg_create_logical_replication_slot('tp', 'test_decoding', false, true) \g /dev/null
    BEGIN;
    SELECT idseq_create_charset('flip', 'ab');
    CREATE TABLE lr_flip (v lexid(flip));
    INSERT INTO lr_flip VALUES ('ba');
    PREPARE TRANSACTION 'f';
    SELECT string_agg(data, ' ') FROM pg_logical_slot_get_changes('tp', NULL, NULL, 'include-xids', '0', 'skip-empty-xacts', '1')
     WHERE data ~ 'lr_flip';
    ROLLBACK PREPARED 'f';
    BEGIN;
    SELECT idseq_create_charset('flip', 'ba');
    CREATE TABLE lr_flip (v lexid(flip));
    INSERT INTO lr_flip VALUES ('ba');
    COMMIT;
    SELECT string_agg(data, ' ') FROM pg_logical_slot_get_changes('tp', NULL, NULL, 'include-xids', '0', 'skip-empty-xacts', '1')
     WHERE data ~ 'lr_flip';
}, stdout => \my $tpout, stderr => \my $tperr);
like($tpout, qr/^\s*table public\.lr_flip: INSERT: v\[(?:public\.)?lexid\]:'ba'\s+table public\.lr_flip: INSERT: v\[(?:public\.)?lexid\]:'ba'\s*$/,
     'decoded at PREPARE, rolled back, created again with other symbols: both print as written');
is($tperr, '', 'without an error');

# A REINDEX, VACUUM FULL or CLUSTER of the registry after a change and before it is decoded:
# the decoder's historic snapshot names the index files of that time, now truncated. A new
# backend (no cached charset) and a walsender must still print the change.
$pub->safe_psql('postgres', q{
    SELECT pg_create_logical_replication_slot('rw', 'test_decoding');
    SELECT idseq_create_charset('rewritten', 'pqrs');
    CREATE TABLE lr_rw (id int PRIMARY KEY, v lexid(rewritten));
    INSERT INTO lr_rw VALUES (1, 'srqp');
});
$pub->safe_psql('postgres', 'VACUUM FULL idseq_charset_registry');
$pub->safe_psql('postgres', 'REINDEX TABLE idseq_charset_registry');
$pub->safe_psql('postgres', 'CLUSTER idseq_charset_registry USING idseq_charset_registry_pkey');
my (undef, $rwout, $rwerr) = $pub->psql('postgres', q{
    SELECT string_agg(data, ' ') FROM pg_logical_slot_peek_changes('rw', NULL, NULL, 'include-xids', '0', 'skip-empty-xacts', '1')
     WHERE data ~ 'lr_rw'});
like($rwout, qr/table public\.lr_rw: INSERT: id\[integer\]:1 v\[(?:public\.)?lexid\]:'srqp'/,
     'a registry rewritten after the change: a new backend decodes it');
is($rwerr, '', 'without an error');
my $rwend = $pub->safe_psql('postgres', 'SELECT pg_current_wal_lsn()');
my $rwrecv = eval {
    $pub->pg_recvlogical_upto('postgres', 'rw', $rwend, $PostgreSQL::Test::Utils::timeout_default,
                              'include-xids' => '0', 'skip-empty-xacts' => '1');
} // "pg_recvlogical failed: $@";
like($rwrecv, qr/table public\.lr_rw: INSERT: id\[integer\]:1 v\[(?:public\.)?lexid\]:'srqp'/,
     'a registry rewritten after the change: a walsender decodes it');

# ===== real subscriptions, text and binary =====
my $sub = idseq_node('ld_sub', conf => "max_logical_replication_workers = 6\nmax_worker_processes = 16\n", extension => 0);
my $pubconn = $pub->connstr . ' dbname=postgres';
for my $mode ('text', 'binary') {
    my $bin = $mode eq 'binary' ? 'true' : 'false';
    $sub->safe_psql('postgres', "CREATE DATABASE sub_$mode");
    $sub->safe_psql("sub_$mode", "CREATE EXTENSION idseq; $charsets; $table;");
    $sub->safe_psql("sub_$mode",
        "CREATE SUBSCRIPTION sub_$mode CONNECTION '$pubconn' PUBLICATION lr_pub WITH (binary = $bin)");
    eval { $sub->wait_for_subscription_sync($pub, "sub_$mode", "sub_$mode") };
}
$pub->safe_psql('postgres', q{
    INSERT INTO lr VALUES (3, 'ccc', '✦✦', 'DEAD');
    UPDATE lr SET m = '✧' WHERE id = 1;
    DELETE FROM lr WHERE id = 2;
    INSERT INTO lr VALUES (2, 'ab', '☆', '0');
});
my $rows = q{SELECT string_agg(format('%s %s %s %s', id, a, m, c), ', ' ORDER BY id) FROM lr};
my $want = $pub->safe_psql('postgres', $rows);
is($want, '1 a ✧ a, 2 ab ☆ 0, 3 ccc ✦✦ dead', 'the publisher holds the rows');
for my $mode ('text', 'binary') {
    eval { $pub->wait_for_catchup("sub_$mode") };
    is($sub->safe_psql("sub_$mode", $rows), $want, "subscription in $mode mode: every row arrived");
}
unlike(slurp_file($sub->logfile), qr/ERROR/, 'the apply workers met no error');
unlike(slurp_file($pub->logfile), qr/ERROR/, 'the walsenders met no error');

# ===== other processes and states that print values =====
# FETCH from a WITH HOLD cursor after its transaction committed, in a fresh backend.
my ($ret, $out, $err) = $pub->psql('postgres', q{
    BEGIN;
    DECLARE c CURSOR WITH HOLD FOR SELECT a, m, c FROM lr ORDER BY id;
    COMMIT;
    FETCH ALL FROM c;
});
is($out, "a|✧|a\nab|☆|0\nccc|✦✦|dead", 'FETCH from a WITH HOLD cursor prints the values');
is($err, '', 'and raises no warning');

# A parallel worker prints the values (its own process: nothing cached).
my $force = $pub->safe_psql('postgres', q{SELECT current_setting('server_version_num')::int >= 160000})
    eq 't' ? 'debug_parallel_query' : 'force_parallel_mode';
# "on", not "regress": EXPLAIN then shows the Gather node that runs the query in a worker.
my $parallel = qq{
    SET $force = on; SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0;
    SET min_parallel_table_scan_size = 0; SET max_parallel_workers_per_gather = 2;
};
($ret, $out, $err) = $pub->psql('postgres', $parallel . q{
    SELECT string_agg(format('%s %s %s', a, m, c), ', ' ORDER BY id) FROM lr;
    EXPLAIN (COSTS OFF) SELECT format('%s %s %s', a, m, c) FROM lr;
});
like($out, qr/^a ✧ a, ab ☆ 0, ccc ✦✦ dead\n.*Gather/s, 'a parallel worker prints the values');
is($err, '', 'without an error');
# ... also of a charset this transaction created (the worker shares the transaction).
($ret, $out, $err) = $pub->psql('postgres', $parallel . q{
    BEGIN;
    SELECT idseq_create_charset('fresh', 'pq');
    CREATE TABLE lr_fresh (v lexid(fresh));
    INSERT INTO lr_fresh VALUES ('qp'), ('ppq');
    SELECT string_agg(v::text, ',' ORDER BY v) FROM lr_fresh;
    ROLLBACK;
});
like($out, qr/^\s*qp,ppq$/, "a parallel worker prints a value of a charset the transaction created");
is($err, '', 'without an error');

# An error's detail prints a value: the key of a unique violation, in a fresh backend whose
# first lookup of the charset happens there.
$pub->safe_psql('postgres', 'CREATE TABLE uq (a lexid(foo) UNIQUE); INSERT INTO uq VALUES (\'ccc\')');
($ret, $out, $err) = $pub->psql('postgres', 'INSERT INTO uq SELECT a FROM lr WHERE id = 3');
like($err, qr/DETAIL:  Key \(a\)=\(ccc\) already exists/, 'a unique violation prints the value in its detail');

# ===== the registries under replication (a publication FOR ALL TABLES) =====
$pub->safe_psql('postgres', q{
    CREATE DATABASE regpub;
});
$pub->safe_psql('regpub', q{
    CREATE EXTENSION idseq;
    SELECT idseq_create_charset('same', 'abc');
    SELECT idseq_create_charset('missing', 'klm');
    CREATE TABLE t (id int PRIMARY KEY, v lexid(missing), w lexid(same));
    INSERT INTO t VALUES (1, 'lk', 'cb');
    CREATE PUBLICATION allpub FOR ALL TABLES;
});
$sub->safe_psql('postgres', 'CREATE DATABASE regsub');
$sub->safe_psql('regsub', q{
    CREATE EXTENSION idseq;
    SELECT idseq_create_charset('same', 'abc');
    CREATE TABLE t (id int PRIMARY KEY, v lexid(missing, 'klm'), w lexid(same));
});
# ===== final for everybody: replica role, row and statement triggers =====
for my $role ('origin', 'replica', 'local') {
    for my $stmt (q{UPDATE idseq_charset_registry SET symbols = 'cba' WHERE name = 'same'},
                  q{DELETE FROM idseq_charset_registry WHERE name = 'same'},
                  q{TRUNCATE idseq_charset_registry},
                  q{UPDATE idseq_layout_registry SET fields = fields},
                  q{DELETE FROM idseq_layout_registry}) {
        ($ret, $out, $err) = $sub->psql('regsub', "SET session_replication_role = $role; $stmt");
        like($err, qr/ERROR:  idseq_(charset|layout)_registry cannot be changed or removed/,
             "session_replication_role = $role: refused: $stmt");
    }
}
is($sub->safe_psql('regsub', q{SELECT symbols FROM idseq_charset_registry WHERE name = 'same'}), 'abc',
   'the row is unchanged');

subscribe($sub, 'regsub', 'regsub', $pub, 'regpub', 'allpub');
my $registry = q{SELECT string_agg(format('%s %s %s', name, symbols, case_insensitive), ', ' ORDER BY name)
                   FROM idseq_charset_registry};
is($sub->safe_psql('regsub', $registry), 'missing klm f, same abc f',
   'initial sync: an identical charset is skipped, a charset the subscriber has from a type modifier too');
$pub->safe_psql('regpub', q{
    SELECT idseq_create_charset('added', 'uvw');
    INSERT INTO t VALUES (2, 'mm', 'aa');
});
$pub->wait_for_catchup('regsub');
is($sub->safe_psql('regsub', $registry), 'added uvw f, missing klm f, same abc f',
   'a charset the subscriber lacks is added by the apply worker');
is($sub->safe_psql('regsub', q{SELECT string_agg(format('%s %s %s', id, v, w), ', ' ORDER BY id) FROM t}),
   '1 lk cb, 2 mm aa', 'rows keep arriving');

# A layout the subscriber lacks: refused (it needs sequences of its own), until the
# subscriber creates it identically; then the row is skipped and replication goes on.
my $layout = q{SELECT snowflake_create_layout('lay', '2024-01-01 00:00:00+00', 'time:40,node:6,seq:17')};
$pub->safe_psql('regpub', "$layout; INSERT INTO t VALUES (3, 'k', 'c');");
# (In text mode the row's state_seq names a sequence the subscriber lacks, which stops it
# before any trigger; in binary mode the trigger refuses it.)
$sub->wait_for_log(qr/ERROR:  (snowflake layout "lay" cannot be replicated|relation "[a-z.]*idseq_sf_state_lay" does not exist)/);
is($sub->safe_psql('regsub', q{SELECT count(*) FROM idseq_layout_registry}), '0', 'a missing layout is not half-made');
$sub->safe_psql('regsub', $layout);
$pub->wait_for_catchup('regsub');
is($sub->safe_psql('regsub', q{SELECT string_agg(format('%s %s', name, fields), ', ') FROM idseq_layout_registry}),
   'lay time:40,node:6,seq:17', 'once created identically on the subscriber, the layout row is skipped');
is($sub->safe_psql('regsub', q{SELECT count(*) FROM t}), '3', 'and the rows behind it arrive');

# The charsets of code sequences are records of each database's own sequences: the apply
# worker skips the rows of idseq_code_sequences, so that a publisher's record never attaches
# to the subscriber's sequence of the same name (nor of the same OID in binary mode), and a
# publisher dropping its sequence does not delete the subscriber's record.
$sub->safe_psql('regsub', q{
    CREATE SEQUENCE match_seq MINVALUE 0 MAXVALUE 17575 START 0 CYCLE;
    SELECT create_code_sequence('own_seq', 2, 'digits');
});
$pub->safe_psql('regpub', q{
    SELECT create_code_sequence('match_seq', 3, 'digits');
    SELECT create_code_sequence('own_seq', 2, 'hex');
    DROP SEQUENCE own_seq;
    INSERT INTO t VALUES (4, 'l', 'a');
});
$pub->wait_for_catchup('regsub');
is($sub->safe_psql('regsub', q{SELECT count(*) FROM t}), '4', 'rows after code sequences arrive');
is($sub->safe_psql('regsub', q{SELECT string_agg(format('%s %s', seq, charset), ', ' ORDER BY seq::text)
                                 FROM idseq_code_sequences}),
   'own_seq digits', "the publisher's code-sequence records are skipped, the subscriber's own stays");
is($sub->safe_psql('regsub', q{SELECT nextval_code('match_seq') || ' ' || nextval_code('own_seq')}), 'AAA 00',
   "the subscriber's sequences read their own charsets");

# The same in the initial table sync (a tablesync worker) and in binary mode, where a row
# arrived as the publisher's OID.
$pub->safe_psql('postgres', 'CREATE DATABASE codepub');
$pub->safe_psql('codepub', q{
    CREATE EXTENSION idseq;
    SELECT create_code_sequence('match_seq', 3, 'digits');
    CREATE PUBLICATION codepub FOR ALL TABLES;
});
$sub->safe_psql('postgres', 'CREATE DATABASE codesub');
$sub->safe_psql('codesub', q{
    CREATE EXTENSION idseq;
    CREATE SEQUENCE match_seq MINVALUE 0 MAXVALUE 17575 START 0 CYCLE;
});
subscribe($sub, 'codesub', 'codesub', $pub, 'codepub', 'codepub', 'binary = true');
$pub->safe_psql('codepub', q{SELECT create_code_sequence('later_seq', 2, 'hex')});
$pub->wait_for_catchup('codesub');
is($sub->safe_psql('codesub', q{SELECT count(*) FROM idseq_code_sequences}) . ' '
     . $sub->safe_psql('codesub', q{SELECT nextval_code('match_seq')}), '0 AAA',
   'initial sync and binary apply skip the records of code sequences');
$sub->safe_psql('codesub', 'DROP SUBSCRIPTION codesub');

# A charset the subscriber has with other symbols: the apply worker refuses it.
$sub->safe_psql('regsub', q{SELECT idseq_create_charset('clash', 'xyz')});
$pub->safe_psql('regpub', q{SELECT idseq_create_charset('clash', 'zyx')});
$sub->wait_for_log(qr/ERROR:  charset "clash" already exists/);
is($sub->safe_psql('regsub', q{SELECT symbols FROM idseq_charset_registry WHERE name = 'clash'}), 'xyz',
   'a charset defined differently on the subscriber keeps its definition');
$sub->safe_psql('regsub', 'DROP SUBSCRIPTION regsub');

# Registry reads are index probes: the plan-free lookups never need a sequential scan, and
# the relation is a user catalog table that decoding may read.
is($pub->safe_psql('postgres', q{SELECT reloptions FROM pg_class WHERE relname = 'idseq_charset_registry'}),
   '{user_catalog_table=true}', 'the charset registry is a user catalog table');

done_testing();
