# Memory stays flat: one statement calls a function of the extension millions of times, and
# the backend's private memory must not grow while it runs (no per-call leak into a
# long-lived memory context, and none into the C++ heap, which memory contexts do not see).
#
# Method. A psql session runs each statement; meanwhile this script samples the backend's
# RssAnon (private anonymous resident memory: palloc'd blocks and malloc/new alike; shared
# buffers are not in it) from /proc/<pid>/status every 20 ms. When the statement ends, the
# samples nearest to 20% and to 90% of its run time are compared. (The first 20% holds the
# one-time growth: caches, the executor's memory, glibc's arenas.) The bound is per call: the
# growth between the two samples, divided by the calls made between them (the calls in
# proportion to the time, the statement's calls running at one pace), must stay below 1 byte.
# With 2,000,000 calls that window holds about 1,400,000 of them, so the bound is about
# 1.3 MB, while the growth measured on idseq's functions is 0 to 16 kB (pages of 4 kB, glibc's
# arenas): any allocation kept per call (16 bytes at least, a palloc'd chunk or a malloc'd
# block) fails it, and so does one allocation of 32 bytes kept every 32 calls.
#
# Calls per function: 2,000,000 (the whole test then takes about 30 s on a 2-core machine);
# IDSEQ_MEMORY_CALLS=10000000 runs the 10^7 calls (about two and a half minutes).
use strict;
use warnings;
use IPC::Run;
use Time::HiRes qw(time usleep);
use FindBin;
use lib $FindBin::RealBin;
use IdseqTest qw(idseq_node);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

if (!-r "/proc/self/status") {
    plan skip_all => 'needs /proc/<pid>/status (Linux)';
}

my $calls = $ENV{IDSEQ_MEMORY_CALLS} || 2_000_000;
my $limit_bytes_per_call = 1;

my $node = idseq_node('memory', preload => 1, node_id => 1);
$node->safe_psql('postgres', q{
    CREATE SEQUENCE lexid_seq;
    CREATE SEQUENCE block_seq INCREMENT BY 10;
    SELECT create_code_sequence('code_seq', 5);
    SELECT idseq_create_charset('stars', '★☆✦✧');
    SELECT snowflake_create_layout('custom', '2020-01-01 00:00:00+00', 'time:40,node:10,seq:13');
    SELECT idseq_create_key('k');
});

# [name, expression of g (1 .. $calls), more FROM items]; each statement is
# SELECT count(<expression>) FROM generate_series(1, $calls) g <more FROM items>.
# Set-returning functions are called in LATERAL, once per row of g.
my @cases = (
    [ 'lexid_in, lexid_out' => q{lexid_out(lexid_in(('A' || g)::cstring, 0, -1))} ],
    [ 'casts text <-> lexid(typmod)' => q{('A' || g)::lexid(base36)::text} ],
    [ 'custom charset cast' => q{(lexid_from_rank(g, 'stars'))::text} ],
    [ 'lexical_add(lexid, bigint)' => q{lexical_add('ZZZ'::lexid(upper), g)} ],
    [ 'lexid - bigint, lexid - lexid' => q{(('ZZZZZ'::lexid(upper) - g) - 'A'::lexid(upper))} ],
    [ 'lexical_add(text, charset, n)' => q{lexical_add('zzz', 'base62', g)} ],
    [ 'lexid_rank, lexid_from_rank' => q{lexid_from_rank(lexid_rank(lexical_add('A'::lexid(upper), g)), 'upper')} ],
    [ 'comparison (typed and literal)' =>
        q{lexical_add('A'::lexid(upper), g) < 'ZZZZ' OR lexid_cmp('B'::lexid(upper), lexical_add('A'::lexid(upper), g)) = 0} ],
    [ 'lexid_hash, lexid_hash_extended' =>
        q{lexid_hash(lexical_add('A'::lexid(upper), g)) + lexid_hash_extended(lexical_add('A'::lexid(upper), g), 7)} ],
    [ 'nextval_lexid' => q{nextval_lexid('lexid_seq', 'A'::lexid(upper))} ],
    [ 'lexid_block' => q{b.last_id},
        q{, LATERAL lexid_block('block_seq', lexical_add('A'::lexid(upper), g % 2)) b} ],
    [ 'nextval_code' => q{nextval_code('code_seq')} ],
    [ 'code_format, code_parse' => q{code_parse(code_format(g % 17576, 3))} ],
    [ 'snowflake_nextval' => q{snowflake_nextval()} ],
    [ 'snowflake_nextval (custom layout)' => q{snowflake_nextval('custom')} ],
    [ 'snowflake_pack' => q{snowflake_pack('snowflake', '2020-01-01 00:00:00+00'::timestamptz + g * interval '1 ms', 1, g % 4096)} ],
    [ 'snowflake_unpack' => q{u.ts}, q{, LATERAL snowflake_unpack(g::bigint << 22) u} ],
    [ 'snowflake_timestamp, snowflake_min_id' =>
        q{snowflake_min_id(snowflake_timestamp(g::bigint << 22), 'snowflake')} ],
    [ 'idseq_encode, idseq_decode' => q{idseq_decode(idseq_encode(g, 'base62', 2), 'base62', 2)} ],
    [ 'idseq_scramble, idseq_unscramble' => q{idseq_unscramble(idseq_scramble(g, 'secret'), 'secret')} ],
    [ 'idseq_public_id, idseq_from_public_id, idseq_try_from_public_id' =>
        q{idseq_from_public_id(idseq_public_id(g, 'k'), 'k') + coalesce(idseq_try_from_public_id(g::text, 'k'), 0)} ],
);

# One psql session for all statements, driven through IPC::Run.
my ($in, $out, $err) = ('', '', '');
my $psql = IPC::Run::start(
    [ $node->installed_command('psql'), '-XAtq', '-v', 'ON_ERROR_STOP=1', '-d', $node->connstr('postgres'), '-f', '-' ],
    \$in, \$out, \$err);
sub wait_for_output
{
    my ($re) = @_;
    my $deadline = time + 600;
    until ($out =~ $re) {
        die "psql died: $err" unless $psql->pumpable;
        $psql->pump_nb;
        die "timed out waiting for $re; stderr: $err" if time > $deadline;
        usleep(5_000);
    }
}
$in .= "SELECT 'pid=' || pg_backend_pid();\n";
wait_for_output(qr/pid=(\d+)\n/);
my ($pid) = $out =~ /pid=(\d+)/;
$out = '';

sub rss_anon_kb
{
    open(my $fh, '<', "/proc/$pid/status") or return undef;
    while (my $line = <$fh>) {
        return $1 if $line =~ /^RssAnon:\s+(\d+)\s+kB/;
    }
    return undef;
}

my $total_start = time;
my $n = 0;
foreach my $case (@cases) {
    my ($name, $expr, $from) = @$case;
    $from //= '';
    $n++;
    $out = '';
    $in .= "SELECT 'count=' || count($expr) FROM generate_series(1, $calls) g$from;\n\\echo done-$n\n";
    my @samples;    # [seconds since start, RssAnon kB]
    my $t0 = time;
    until ($out =~ /done-$n\n/) {
        die "psql died: $err" unless $psql->pumpable;
        $psql->pump_nb;
        my $kb = rss_anon_kb();
        push @samples, [ time - $t0, $kb ] if defined $kb;
        die "statement $name failed: $err" if $err =~ /ERROR/;
        usleep(20_000);
    }
    my $elapsed = time - $t0;
    like($out, qr/count=$calls\n/, "$name: $calls calls in one statement");
    # samples nearest to 20% and 90% of the run
    my ($early, $late) = map {
        my $target = $_ * $elapsed;
        (sort { abs($a->[0] - $target) <=> abs($b->[0] - $target) } @samples)[0]
    } (0.2, 0.9);
    my $growth = $late->[1] - $early->[1];
    my $max = (sort { $b <=> $a } map { $_->[1] } @samples)[0];
    # the calls between the two samples, at the statement's pace
    my $window_calls = $calls * ($late->[0] - $early->[0]) / $elapsed;
    my $per_call = $window_calls > 0 ? $growth * 1024 / $window_calls : 'inf';
    note(sprintf("%-40s %5.1f s, RssAnon at 20%%: %6d kB, at 90%%: %6d kB, growth %+5d kB over %d calls "
          . "(%.4f bytes per call), peak %6d kB (%d samples)",
        $name, $elapsed, $early->[1], $late->[1], $growth, $window_calls, $per_call, $max, scalar @samples));
    cmp_ok($window_calls, '>=', $calls / 2, "$name: the samples span at least half of the calls");
    cmp_ok($per_call, '<', $limit_bytes_per_call,
        "$name: memory flat (growth between 20% and 90% of the run below $limit_bytes_per_call byte per call)");
}

# The backend's memory contexts after all of it, as the server reports them.
$out = '';
$in .= "SELECT 'logged=' || pg_log_backend_memory_contexts(pg_backend_pid());\n\\echo done-contexts\n";
wait_for_output(qr/done-contexts\n/);
$in .= "\\q\n";
$psql->finish;
my $total = time - $total_start;
note(sprintf("%d statements of %d calls in %.1f s", scalar @cases, $calls, $total));
my $grand;
for (1 .. 50) {
    my $log = slurp_file($node->logfile);
    if ($log =~ /\[$pid\][^\n]*LOG:\s+Grand total: (\d+) bytes/) {
        $grand = $1;
        last;
    }
    usleep(100_000);
}
ok(defined $grand, 'pg_log_backend_memory_contexts reported the backend\'s memory');
note("memory contexts of the backend after all statements: $grand bytes in all") if defined $grand;
cmp_ok($grand // 0, '<', 16 * 1024 * 1024, 'the backend holds less than 16 MB in memory contexts');

$node->stop;
done_testing();
