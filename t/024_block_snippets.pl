# The snippets of docs/snippets/ that count through a block in the application (Python and
# Node.js, standard library only) give exactly the ids the server would issue. Blocks are
# taken with lexid_block (across length growth: 'ZZ' -> '000' over base36, '9' -> '00' over
# digits, over a custom charset of 1-, 3- and 4-byte symbols, and a case-sensitive one) and
# with nextval_block (across 2^53, where JavaScript's Number loses digits, and near the
# largest bigint). Each snippet's output is compared with the server's own expansion
# (lexical_add over the block, generate_series over the range) and with what a twin sequence
# issues one value at a time (nextval_lexid, nextval). The code docs/sequences.md shows is
# checked to be the snippets' own. An interpreter that is not installed is skipped, and the
# skip says which.
use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;
use IdseqTest qw(idseq_node);
use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $root = "$FindBin::RealBin/..";
my $snippets = "$root/docs/snippets";

# The code blocks docs/sequences.md shows are the snippets' own, as written there.
{
    open my $fh, '<:encoding(UTF-8)', "$root/docs/sequences.md" or die "docs/sequences.md: $!";
    my $doc = do { local $/; <$fh> };
    for my $lang ([ 'python', 'id_blocks.py' ], [ 'js', 'id_blocks.js' ]) {
        my ($tag, $file) = @$lang;
        open my $sf, '<:encoding(UTF-8)', "$snippets/$file" or die "$file: $!";
        my $code = do { local $/; <$sf> };
        my @shown = $doc =~ /^```\Q$tag\E\n(.*?)^```$/msg;
        cmp_ok(scalar(@shown), '>=', 1, "docs/sequences.md shows $file");
        for my $s (@shown) {
            ok(index($code, $s) >= 0, "the $tag block of docs/sequences.md is in docs/snippets/$file")
              or diag("shown:\n$s");
        }
    }
}

sub in_path
{
    my ($prog) = @_;
    for my $dir (split /:/, $ENV{PATH} // '') {
        return "$dir/$prog" if -f "$dir/$prog" && -x _;
    }
    return undef;
}
my @interpreters = (
    [ 'Python', in_path('python3'), "$snippets/id_blocks.py" ],
    [ 'Node.js', in_path('node'), "$snippets/id_blocks.js" ],
);

my $node = idseq_node('block_snippets');

# Blocks of lexid_block: charset, seed, block size (the sequence's INCREMENT).
my @lexid_cases = (
    [ 'base36', 'ZX', 10 ],
    [ 'digits', '9', 12 ],
    [ 'upper', 'ZZZ', 30 ],
    [ 'base62', 'zy', 5 ],
    [ 'hex', 'ff', 3 ],
    [ 'crockford32', 'ZZ', 4 ],
    [ 'snip_mb', "\xF0\x9F\x98\x80\xF0\x9F\x98\x80", 7 ],    # two U+1F600, as UTF-8 bytes
    [ 'base36', 'ZZZZZZZZZZZZZZZZZZZZ', 3 ],
    [ 'base36', '00A000', 5000 ],
);
# Blocks of nextval_block: the sequence's START (and MINVALUE), the block size.
my @range_cases = ([ 1, 1000 ], [ 9007199254740980, 30 ], [ 9223372036854775790, 16 ], [ -50, 100 ]);

# a, U+20AC and U+1F600: symbols of 1, 3 and 4 bytes (SQL and output are UTF-8 bytes here)
$node->safe_psql('postgres', "SELECT idseq_create_charset('snip_mb', 'a\xE2\x82\xAC\xF0\x9F\x98\x80')");

# Each case: the block as the application receives it, the server's expansion and the twin's.
my @cases;
for my $i (0 .. $#lexid_cases) {
    my ($cs, $seed, $size) = @{ $lexid_cases[$i] };
    my ($first, $last, $symbols, $server, $twin) = split /\|/, $node->safe_psql('postgres', qq{
        CREATE SEQUENCE lexid_seq_$i INCREMENT BY $size;
        CREATE SEQUENCE lexid_twin_$i;
        CREATE TABLE lexid_block_$i AS
            SELECT first_id::lexid($cs), last_id::lexid($cs) FROM lexid_block('lexid_seq_$i', '$seed'::lexid($cs));
        SELECT b.first_id, b.last_id, c.symbols,
               (SELECT string_agg(lexical_add(b.first_id, g)::text, ' ' ORDER BY g)
                  FROM generate_series(0, (b.last_id - b.first_id)::bigint) g),
               (SELECT string_agg(nextval_lexid('lexid_twin_$i', '$seed'::lexid($cs))::text, ' ' ORDER BY g)
                  FROM generate_series(1, $size) g)
          FROM lexid_block_$i b JOIN idseq_charsets c ON c.name = lexid_charset(b.first_id);
    });
    push @cases, { what => "lexid_block over $cs from '$seed', $size ids", args => [ 'lexid', $symbols, $first, $last ],
                   server => $server, twin => $twin, size => $size };
}
for my $i (0 .. $#range_cases) {
    my ($start, $size) = @{ $range_cases[$i] };
    my ($block, $server, $twin) = split /\|/, $node->safe_psql('postgres', qq{
        CREATE SEQUENCE range_seq_$i MINVALUE $start START $start;
        CREATE SEQUENCE range_twin_$i MINVALUE $start START $start;
        CREATE TABLE range_block_$i AS SELECT nextval_block('range_seq_$i', $size) AS r;
        SELECT r, (SELECT string_agg(v::text, ' ' ORDER BY v) FROM generate_series(lower(r), upper(r) - 1) v),
               (SELECT string_agg(nextval('range_twin_$i')::text, ' ' ORDER BY g) FROM generate_series(1, $size) g)
          FROM range_block_$i;
    });
    push @cases, { what => "nextval_block of $size from $start ($block)", args => [ 'range', $block ],
                   server => $server, twin => $twin, size => $size };
}

# The server's two expansions agree, so either is the reference.
for my $c (@cases) {
    my @ids = split / /, $c->{server};
    is(scalar(@ids), $c->{size}, "$c->{what}: the server expands it to its size");
    is($c->{twin}, $c->{server}, "$c->{what}: a twin sequence issues the same ids one by one");
}

for my $interp (@interpreters) {
    my ($lang, $bin, $script) = @$interp;
  SKIP:
    {
        skip "$lang is not installed (no " . ($lang eq 'Python' ? 'python3' : 'node') . " in PATH): its snippet is not run",
          scalar(@cases)
          unless $bin;
        note("$lang: $bin");
        for my $c (@cases) {
            my ($out, $err) = ('', '');
            my $ok = IPC::Run::run([ $bin, $script, @{ $c->{args} } ], '<', \undef, '>', \$out, '2>', \$err);
            my $got = join ' ', split /\n/, $out;
            ok($ok && $err eq '' && $got eq $c->{server}, "$lang: $c->{what}: the snippet gives the server's ids")
              or diag("exit $?, stderr: $err\ngot:      " . substr($got, 0, 300) . "\nexpected: " . substr($c->{server}, 0, 300));
        }
    }
}

$node->stop;
done_testing();
