# Every SQL example in README.md and docs/*.md runs as printed. Each file's ```sql blocks run
# in order in a fresh database of their own (so a reader can paste them in order); when a
# block is followed directly by an untagged ``` block, that block is the output psql prints
# and must match exactly (errors included, as psql shows them). A ```sql block without an
# output block must run without error. A block right after a line
# "<!-- example: needs NAME -->" runs only when the extension has a function NAME (an
# example written for a feature that lands on another branch); otherwise it is skipped, as a
# skip the TAP output shows. Every relative link [text](file#anchor) in README.md,
# CONTRIBUTING.md, docs/*.md, docs/dev/*.md and bench/results/*.md reaches an existing file
# and, with an anchor into a Markdown file, one of its headings; none of them names a
# Markdown file the repository does not hold, or a path that climbs out of it. The users'
# pages (README.md, docs/*.md, not docs/dev/) name no test file: proof is the contributors'
# pages' business. The runbook's command blocks,
# marked "<!-- runbook: name -->" in docs/operations.md, run where the runbook says, in the
# TAP files that test it: here each marker must stand right before a block that is not
# ```sql, name it uniquely, and be run by a TAP file (a t/*.pl file, or t/IdseqTest.pm).
use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;
use IdseqTest qw(markdown_blocks);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use File::Basename;
use File::Spec;

my $root = dirname(__FILE__) . '/..';
my @files = ("$root/README.md", sort glob("$root/docs/*.md"));

# GitHub's anchor of a heading: lower case, markup and punctuation dropped (letters, digits,
# '_', '-' and spaces kept), spaces as '-'; a repeated anchor gets -1, -2, ...
sub anchors_of {
    my ($path) = @_;
    open my $fh, '<:encoding(UTF-8)', $path or return undef;
    my (%seen, %a, $fence);
    while (my $l = <$fh>) {
        if ($l =~ /^```/) { $fence = !$fence; next; }
        next if $fence || $l !~ /^#{1,6}\s+(.*?)\s*#*\s*$/;
        my $h = $1;
        $h =~ s/\[([^\]]*)\]\([^)]*\)/$1/g;
        $h = lc $h;
        $h =~ s/[^\p{L}\p{N}\p{M}_\- ]//g;
        $h =~ s/ /-/g;
        my $n = $seen{$h}++;
        $a{$n ? "$h-$n" : $h} = 1;
    }
    return \%a;
}
# The files a page says land with a feature of another branch ("<!-- lands with: x.md -->"):
# a link to one of them may miss its file until that branch is merged.
sub landing {
    my ($path) = @_;
    return { map { $_ => 1 } slurp_file($path) =~ /^<!--\s*lands with:\s*(\S+)\s*-->\s*$/mg };
}

# Every relative link [text](file#anchor) of the given files names a file that exists and,
# with an anchor into a Markdown file, one of its headings. Returns the broken ones.
sub broken_links {
    my @files = @_;
    my (@bad, %cache);
    for my $path (@files) {
        my $landing = landing($path);
        open my $fh, '<:encoding(UTF-8)', $path or die "$path: $!";
        my ($fence, $ln) = (0, 0);
        while (my $l = <$fh>) {
            $ln++;
            if ($l =~ /^```/) { $fence = !$fence; next; }
            next if $fence;
            $l =~ s/`[^`]*`//g;
            while ($l =~ /\]\(([^)\s]+)\)/g) {
                my $t = $1;
                next if $t =~ m{^[a-z][a-z0-9+.-]*:}i;
                my ($file, $anchor) = split /#/, $t, 2;
                my $target = $file eq '' ? $path : File::Spec->catfile(dirname($path), $file);
                next if !-e $target && $landing->{$file};
                if (!-e $target) { push @bad, "$path:$ln: $t (no such file)"; next; }
                next unless defined $anchor && $target =~ /\.md$/;
                my $a = $cache{$target} //= anchors_of($target);
                push @bad, "$path:$ln: $t (no such heading)" unless $a->{$anchor};
            }
        }
    }
    return @bad;
}

# An absolute path with its . and .. steps taken away, without touching the file system.
sub collapse {
    my @parts;
    for my $p (split m{/}, $_[0]) {
        if ($p eq '..') { pop @parts } elsif ($p ne '.' && $p ne '') { push @parts, $p }
    }
    return '/' . join('/', @parts);
}

# Names of files outside the repository in the given files: a Markdown file named anywhere
# in the text (`API.md`, docs/x.md) that is in the tree neither beside the file nor from the
# root, and a relative path (../x) that climbs out of the root.
sub outside_references {
    my @files = @_;
    my $top = collapse(File::Spec->rel2abs($root));
    my @bad;
    for my $path (@files) {
        my $landing = landing($path);
        open my $fh, '<:encoding(UTF-8)', $path or die "$path: $!";
        my $dir = dirname($path);
        my $ln = 0;
        while (my $l = <$fh>) {
            $ln++;
            while ($l =~ m{(?<![\w./-])((?:\.\./|\./)*[\w./-]*[\w-]\.md)\b}g) {
                my $f = $1;
                next if $f =~ m{^[\w.-]+://} || $landing->{$f};
                my @in = grep { -e $_ && index($_, "$top/") == 0 }
                    map { collapse(File::Spec->rel2abs(File::Spec->catfile($_, $f))) } $dir, $root;
                push @bad, "$path:$ln: $f (no such file in the repository)" unless @in;
            }
            while ($l =~ m{(?<![\w./-])((?:\.\./)+[\w./-]*)}g) {
                my $f = $1;
                my $norm = collapse(File::Spec->rel2abs(File::Spec->catfile($dir, $f)));
                push @bad, "$path:$ln: $f (outside the repository)"
                    unless $norm eq $top || index($norm, "$top/") == 0;
            }
        }
    }
    return @bad;
}

{
    my @linked = ("$root/README.md", "$root/CONTRIBUTING.md", sort(glob("$root/docs/*.md")),
                  sort(glob("$root/docs/dev/*.md")), sort(glob("$root/bench/results/*.md")));
    my @bad = broken_links(@linked);
    is(scalar(@bad), 0, 'every relative link of ' . scalar(@linked) . ' Markdown files reaches its file and heading')
        or diag(join("\n", @bad));
    # the dated benchmark results are kept as they were written
    @bad = outside_references(grep { !m{/bench/results/} } @linked);
    is(scalar(@bad), 0, 'no Markdown file names a file outside the repository')
        or diag(join("\n", @bad));
}

# The users' pages name no test file: no TAP file, pg_regress or isolation test, test
# folder or the TAP helpers, by path or by the name of a file the tree holds.
{
    my @user = ("$root/README.md", sort(glob("$root/docs/*.md")));
    my @names;
    for my $f (glob("$root/t/*.pl"), glob("$root/t/*/*.pl"), glob("$root/sql/*.sql"), glob("$root/specs/*.spec")) {
        my $b = basename($f);
        push @names, $b;
        (my $stem = $b) =~ s/\.(pl|sql|spec)$//;
        push @names, $stem if $stem =~ /^\d+_/ || $f =~ /\.spec$/;
    }
    my $named = join('|', map { quotemeta } sort { length($b) <=> length($a) } @names);
    my $pattern = qr{(?<![\w/.-])(?:t/[\w/.-]*\.p[lm]|\d{3}_\w+\.pl|(?:sql|expected)/\w+\.(?:sql|out)|specs/[\w.-]*|[\w-]+\.spec|core_tests/(?:unit|fuzz)\b|IdseqTest|$named)(?![\w])};
    my @bad;
    for my $path (@user) {
        open my $fh, '<:encoding(UTF-8)', $path or die "$path: $!";
        my $ln = 0;
        while (my $l = <$fh>) {
            $ln++;
            push @bad, "$path:$ln: $1" while $l =~ /($pattern)/g;
        }
    }
    is(scalar(@bad), 0, 'the users\' pages (' . scalar(@user) . ' files) name no test file')
        or diag(join("\n", @bad));
}

# The runbook's markers: each right before a block of its own, names unique, none on a
# ```sql block (this file would run it in a scratch database), each name run by a TAP file
# (named there in quotes).
{
    my $runbook = "$root/docs/operations.md";
    my $markers = () = slurp_file($runbook) =~ /^<!--\s*runbook:/mg;
    my @named = grep { defined $_->{runbook} } markdown_blocks($runbook);
    is(scalar(@named), $markers, "each of the $markers runbook markers of operations.md stands right before a block");
    my %count;
    $count{ $_->{runbook} }++ for @named;
    is(join(' ', grep { $count{$_} > 1 } sort keys %count), '', 'runbook names are unique');
    is(join(' ', map { $_->{runbook} } grep { $_->{tag} eq 'sql' } @named), '', 'no runbook block is tagged sql');
    my $tap = join('', map { slurp_file($_) } glob("$root/t/*.pl"), "$root/t/IdseqTest.pm");
    is(join(' ', grep { $tap !~ /['"]\Q$_\E['"]/ } sort keys %count), '', 'every runbook block is run by a TAP file');
}

my $node = PostgreSQL::Test::Cluster->new('docs');
$node->init;
# The setting the README's set-up section asks for.
$node->append_conf('postgresql.conf', "shared_preload_libraries = 'idseq'\nidseq.node_id = 1\n");
$node->start;

sub normalise {
    my ($s) = @_;
    $s =~ s/^psql:<stdin>:\d+: //mg;
    $s =~ s/[ \t]+$//mg;
    $s =~ s/\n+\z//;
    $s =~ s/\A\n+//;
    return $s;
}

# IDSEQ_DOCS_BLESS=<dir>: also write each file with the outputs psql really printed into <dir>,
# for a writer to review with diff (never used by the suite itself).
my $bless = $ENV{IDSEQ_DOCS_BLESS};

my $n = 0;
for my $path (@files) {
    my $name = basename($path);
    my $db = 'docs_' . $n++;
    $node->safe_psql('postgres', "CREATE DATABASE $db");
    my @b = markdown_blocks($path);
    # "<!-- example: needs NAME -->" on the last non-blank line before a block's fence
    my @lines = split /\n/, slurp_file($path), -1;
    for my $blk (@b) {
        my $i = $blk->{line} - 2;
        $i-- while $i >= 0 && $lines[$i] =~ /^\s*$/;
        $blk->{needs} = $1 if $i >= 0 && $lines[$i] =~ /^<!--\s*example:\s*needs\s+(\w+)\s*-->\s*$/;
    }
    # A file that shows CREATE EXTENSION runs it itself; the others start with it done.
    $node->safe_psql($db, 'CREATE EXTENSION idseq')
        unless grep { $_->{tag} eq 'sql' && $_->{text} =~ /CREATE EXTENSION idseq/ } @b;
    my $examples = 0;
    for my $i (0 .. $#b) {
        next unless $b[$i]{tag} eq 'sql';
        if (defined $b[$i]{needs}
            && $node->safe_psql($db, "SELECT count(*) FROM pg_proc WHERE proname = '$b[$i]{needs}'") eq '0') {
          SKIP: { skip("$name:$b[$i]{line} needs $b[$i]{needs}, which this build does not have", 1); }
            next;
        }
        $examples++;
        my $expected;
        if ($i < $#b && $b[$i + 1]{tag} eq '' && !$b[$i]{followed}) {
            $expected = $b[$i + 1]{text};
        }
        # psql prints results and errors on two streams; fold them into one, in order.
        my $merged = '';
        IPC::Run::run(['psql', '-X', '-q', '-v', 'ON_ERROR_STOP=0', '-d', $node->connstr($db)],
                      '<', \$b[$i]{text}, '>', \$merged, '2>&1');
        my $where = "$name:$b[$i]{line}";
        if (defined $expected) {
            is(normalise($merged), normalise($expected), "$where prints what the example shows");
            $b[$i + 1]{actual} = normalise($merged) . "\n";
        } else {
            unlike($merged, qr/^(psql:<stdin>:\d+: )?(ERROR|FATAL|PANIC):/m, "$where runs without error")
                or diag($merged);
        }
    }
    ok($examples > 0 || $name ne 'README.md', "$name has examples ($examples)");
    if ($bless) {
        open my $in, '<', $path or die;
        my @lines = <$in>;
        close $in;
        for my $blk (reverse grep { defined $_->{actual} } @b) {
            my $len = () = $blk->{text} =~ /\n/g;
            splice @lines, $blk->{line}, $len, $blk->{actual};
        }
        open my $out, '>', "$bless/$name" or die "$bless/$name: $!";
        print $out @lines;
        close $out;
    }
    # Done with this file, as a reader drops a scratch database: two databases of one server
    # may not issue one layout's ids with one node id, and the next file's database takes over.
    $node->safe_psql('postgres', "DROP DATABASE $db");
}

done_testing();
