# The charset registry cache under commits, aborts, subtransactions, two-phase commit and
# concurrent sessions.
#
# - The crash: a call site's cached charset and an untyped literal that makes
#   the cache read every registry row, as a role that owns nothing; the server must not
#   restart (no "terminated by signal" in its log).
# - Memory: PL/pgSQL loops of BEGIN ... EXCEPTION around charset lookups, with
#   successful and failing calls, with charsets created and rolled back inside, and with
#   top-level rollbacks. The backend's RssAnon (private resident memory: palloc'd and C++
#   heap alike) is read from /proc/<pid>/status after a warm-up run and after a run five
#   times longer: it must not grow by 2 MB or more. Before the fix a failing call grew it
#   by about 850 bytes per iteration (17 MB over the 20,000 iterations here).
# - 2PC, with a second session: PREPARE then COMMIT
#   PREPARED, and a session that waits on a prepared transaction's row.
# - Charsets created by other sessions while one uses the registry.
use strict;
use warnings;
use IPC::Run;
use Time::HiRes qw(usleep);
use FindBin;
use lib $FindBin::RealBin;
use IdseqTest qw(idseq_node);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = idseq_node('charset_cache', preload => 1, conf => "max_prepared_transactions = 5\n");
$node->safe_psql('postgres', q{
    SELECT idseq_create_charset('stars', '★☆✦✧');
    SELECT idseq_create_charset('abcd', 'abcd');
    CREATE ROLE plain LOGIN;
});

# One psql session kept open: query() sends SQL and waits for it; start() sends it and
# returns at once (finish it with wait_done()).
package Session {
    sub new
    {
        my ($class, $node, $user) = @_;
        my $self = bless { in => '', out => '', err => '', n => 0 }, $class;
        my @cmd = ($node->installed_command('psql'), '-XAtq', '-v', 'ON_ERROR_STOP=0',
                   '-d', $node->connstr('postgres') . ($user ? " user=$user" : ''), '-f', '-');
        $self->{h} = IPC::Run::start(\@cmd, \$self->{in}, \$self->{out}, \$self->{err});
        return $self;
    }
    sub start
    {
        my ($self, $sql) = @_;
        $self->{n}++;
        $self->{out} = '';
        $self->{err} = '';
        $self->{in} .= "$sql;\n\\echo __done_$self->{n}\n";
        $self->{h}->pump_nb;
    }
    sub done
    {
        my ($self) = @_;
        $self->{h}->pump_nb;
        return $self->{out} =~ /__done_$self->{n}\n/;
    }
    sub wait_done
    {
        my ($self) = @_;
        my $deadline = time + $PostgreSQL::Test::Utils::timeout_default;
        until ($self->done) {
            die "psql died: $self->{err}" unless $self->{h}->pumpable;
            die "timed out; stderr: $self->{err}" if time > $deadline;
            Time::HiRes::usleep(5_000);
        }
        (my $out = $self->{out}) =~ s/__done_\d+\n//;
        # one line per row; a void result (idseq_create_charset) prints an empty one
        $out = join("\n", grep { $_ ne '' } split /\n/, $out);
        return wantarray ? ($out, $self->{err}) : $out;
    }
    sub query
    {
        my ($self, $sql) = @_;
        $self->start($sql);
        return $self->wait_done;
    }
    sub quit
    {
        my ($self) = @_;
        $self->{in} .= "\\q\n";
        $self->{h}->finish;
    }
}

sub no_crash
{
    my ($what) = @_;
    unlike(slurp_file($node->logfile), qr/terminated by signal/, "$what: no backend crashed");
}

# ===== the crash, as a role that owns nothing =====
my ($out, $err);
($out, $err) = Session->new($node, 'plain')->query(q{
    SELECT g, code_format(g, 3, 'stars'), repeat('★', g)::lexid IS NULL FROM generate_series(1, 3) g;
    SELECT g, lexical_add('★', 'stars', g), repeat('☆', g)::lexid IS NULL FROM generate_series(1, 3) g;
});
is($out, "1|★★☆|f\n2|★★✦|f\n3|★★✧|f\n1|☆|f\n2|✦|f\n3|✧|f",
    'code_format and lexical_add next to an untyped literal: right codes');
is($err, '', 'and no error');
no_crash('a cached charset');

# ===== memory under subtransaction aborts =====
my $mem = Session->new($node);
my ($pid) = $mem->query('SELECT pg_backend_pid()');
sub rss_anon_kb
{
    open(my $fh, '<', "/proc/$pid/status") or die "cannot read /proc/$pid/status: $!";
    while (my $line = <$fh>) {
        return $1 if $line =~ /^RssAnon:\s+(\d+)\s+kB/;
    }
    die "no RssAnon in /proc/$pid/status";
}
# [name, role, body of the loop (i is the counter), warm-up iterations]; the measured run is
# five times the warm-up. Cheap loops run more iterations; 2 MB is more than a leak of a
# few hundred bytes per iteration can hide in any of them.
my @loops = (
    [ 'successful lookups, then an exception' => 'plain',
      q{BEGIN PERFORM code_format(1, 3, 'stars'); RAISE EXCEPTION 'undo'; EXCEPTION WHEN raise_exception THEN NULL; END;}, 4000 ],
    [ 'failing calls (out of range)' => 'plain',
      q{BEGIN PERFORM code_format(100000, 3, 'stars'); EXCEPTION WHEN numeric_value_out_of_range THEN NULL; END;}, 4000 ],
    [ 'failing calls (unknown charset)' => 'plain',
      q{BEGIN PERFORM code_format(1, 3, 'nosuch'); EXCEPTION WHEN invalid_parameter_value THEN NULL; END;}, 2000 ],
    [ 'failing calls (a symbol of no charset)' => 'plain',
      q{BEGIN PERFORM ('★' || chr(10100 + i % 50))::lexid; EXCEPTION WHEN others THEN NULL; END;}, 4000 ],
    [ 'untyped literals read by the registry, then an exception' => 'plain',
      q{BEGIN PERFORM repeat('✦', 1 + i % 5)::lexid, code_format(i % 64, 3, 'stars'); RAISE EXCEPTION 'undo'; EXCEPTION WHEN raise_exception THEN NULL; END;}, 4000 ],
    [ 'charsets created and rolled back in subtransactions' => undef,
      q{BEGIN PERFORM idseq_create_charset('tmp_' || i % 7, '✧✦☆★'); PERFORM code_format(5, 2, 'tmp_' || i % 7); EXECUTE format('SELECT %L::lexid(tmq_%s, %L)::text', '★☆', i % 7, '✧✦☆★'); RAISE EXCEPTION 'undo'; EXCEPTION WHEN raise_exception THEN NULL; END;}, 500 ],
    [ 'charsets created and rolled back in top-level transactions' => undef,
      q{PERFORM idseq_create_charset('top_' || i % 7, 'pqrs'); PERFORM code_format(5, 2, 'top_' || i % 7); ROLLBACK;}, 500 ],
);
foreach my $loop (@loops) {
    my ($name, $role, $body, $warmup) = @$loop;
    my $do = sub {
        my ($n) = @_;
        my $set = $role ? "SET ROLE $role;" : '';
        my ($o, $e) = $mem->query("$set DO \$\$ BEGIN FOR i IN 1..$n LOOP $body END LOOP; END \$\$; RESET ROLE;");
        is($e, '', "$name: $n iterations without an error");
    };
    $do->($warmup);
    my $before = rss_anon_kb();
    $do->(5 * $warmup);
    my $after = rss_anon_kb();
    note(sprintf('%-58s RssAnon %6d kB -> %6d kB (%+d kB over %d iterations)',
        $name, $before, $after, $after - $before, 5 * $warmup));
    cmp_ok($after - $before, '<', 2048, "$name: memory flat");
}
($out) = $mem->query(q{SELECT count(*) FROM idseq_charset_registry});
is($out, 2, 'nothing created in the loops stayed');
$mem->quit;
no_crash('memory loops');

# ===== two-phase commit, with a second session =====
# The issue's repro, exactly.
my $s1 = Session->new($node);
my $s2 = Session->new($node);
($out, $err) = $s1->query(q{BEGIN; SELECT idseq_create_charset('ghost','ab'); SELECT 'b'::lexid(ghost)::text; PREPARE TRANSACTION 'g'; ROLLBACK PREPARED 'g';});
is($err, '', '2PC repro: prepare and roll back');
($out, $err) = $s2->query(q{SELECT idseq_create_charset('ghost', 'xyz'); CREATE TABLE gt (v lexid(ghost)); INSERT INTO gt VALUES ('z');});
is($err, '', '2PC repro: another session creates ghost with other symbols and stores z');
($out, $err) = $s1->query(q{SELECT v::text, lexid_rank(v), 'y'::lexid(ghost)::text, code_format(2, 1, 'ghost') FROM gt;});
is($out, 'z|3|y|z', '2PC repro: the first session reads the committed definition');
is($err, '', '2PC repro: without an error');
no_crash('2PC repro');

# PREPARE, then COMMIT PREPARED by the other session.
($out, $err) = $s1->query(q{BEGIN; SELECT idseq_create_charset('later', 'lmn'); SELECT code_format(2, 2, 'later'); PREPARE TRANSACTION 'p';});
is($out, 'ln', 'prepared: the creating transaction used the charset');
($out, $err) = $s1->query(q{SELECT code_format(2, 2, 'later');});
like($err, qr/unknown charset "later"/, 'prepared: the row is not committed, not even for the session that prepared it');
($out, $err) = $s2->query(q{SELECT code_format(2, 2, 'later');});
like($err, qr/unknown charset "later"/, 'prepared: invisible to the other session');
$s2->query(q{COMMIT PREPARED 'p';});
($out, $err) = $s1->query(q{SELECT code_format(2, 2, 'later'), 'n'::lexid(later)::text;});
is($out, 'ln|n', 'committed prepared: the first session reads it');
($out) = $s2->query(q{SELECT code_format(2, 2, 'later');});
is($out, 'ln', 'committed prepared: so does the second');

# A session creating a name that a prepared transaction holds waits for it; the prepared
# definition is rolled back, the waiting one commits, the preparing session reads it.
($out, $err) = $s1->query(q{BEGIN; SELECT idseq_create_charset('contested', 'ab'); SELECT code_format(1, 1, 'contested'); PREPARE TRANSACTION 'c';});
is($out, 'b', 'contested: prepared with ab');
$s2->start(q{SELECT idseq_create_charset('contested', 'uvw');});
usleep(300_000);
ok(!$s2->done, 'contested: the second session waits for the prepared transaction');
$s1->query(q{ROLLBACK PREPARED 'c';});
($out, $err) = $s2->wait_done;
is($err, '', 'contested: the second session created it once the prepared one was rolled back');
($out, $err) = $s1->query(q{SELECT code_format(1, 1, 'contested'), 'w'::lexid(contested)::text;});
is($out, 'v|w', 'contested: the first session reads the committed definition');
no_crash('2PC');

# ===== charsets created by other sessions mid-use =====
# s1 holds call sites and cached definitions while s2 creates charsets; s1 sees each one
# as soon as it commits (the registry is read like a catalog, with a fresh catalog snapshot,
# also inside a repeatable-read transaction), and never a definition that s2 rolled back.
($out) = $s1->query(q{BEGIN ISOLATION LEVEL REPEATABLE READ; SELECT code_format(1, 2, 'abcd');});
is($out, 'ab', 'mid-use: s1 in a repeatable-read transaction');
$s2->query(q{SELECT idseq_create_charset('fresh', 'fgh');});
($out, $err) = $s1->query(q{SELECT code_format(1, 2, 'fresh');});
is($out, 'fg', 'mid-use: a charset committed after the snapshot is seen, like a catalog row');
$s1->query(q{COMMIT;});
$s2->query(q{BEGIN; SELECT idseq_create_charset('undone', 'ab'); SELECT code_format(1, 2, 'undone');});
($out, $err) = $s1->query(q{SELECT code_format(1, 2, 'fresh'), code_format(1, 2, 'undone');});
is($out, '', 'mid-use: nothing returned while s2 has not committed');
like($err, qr/unknown charset "undone"/, 'mid-use: an uncommitted charset of another session is not seen');
$s2->query(q{ROLLBACK; SELECT idseq_create_charset('undone', 'xyz');});
# One statement of s1 keeps its call sites while the registry grows under it.
($out, $err) = $s1->query(q{
    SELECT string_agg(code_format(g, 2, c), ' ' ORDER BY c, g)
      FROM unnest(ARRAY['abcd', 'fresh', 'undone', 'stars', 'ghost']) c, generate_series(1, 2) g
     WHERE repeat('✧', g)::lexid IS NOT NULL;});
is($out, 'ab ac fg fh xy xz ★☆ ★✦ xy xz', 'mid-use: every definition as committed');
is($err, '', 'mid-use: without an error');
$s1->quit;
$s2->quit;
no_crash('mid-use');

$node->stop;
done_testing();
