# The binary form of lexid carries the charset's definition (a fingerprint of its symbols and
# case folding), so binary COPY and binary logical replication never re-spell a value: a
# receiver whose same-named charset is defined otherwise refuses it. Text COPY re-reads values
# by spelling, so permuted symbols keep the spelling and change order and ranks (documented in
# docs/lexid.md, "Binary form").
use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;
use IdseqTest qw(idseq_node);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = idseq_node('binary', extension => 0);
my %defs = (a => [ 'abc', 'pqr' ], b => [ 'xyzw', 'rqp' ], c => [ 'abc', 'pqr' ]);
for my $db (sort keys %defs) {
    $node->safe_psql('postgres', "CREATE DATABASE $db");
    $node->safe_psql($db, qq{
        CREATE EXTENSION idseq;
        SELECT idseq_create_charset('tag', '$defs{$db}[0]');
        SELECT idseq_create_charset('perm', '$defs{$db}[1]');
        CREATE TABLE codes (id int PRIMARY KEY, code lexid(tag), b lexid(base62));
        CREATE TABLE pcodes (id int PRIMARY KEY, code lexid(perm));
    });
}
$node->safe_psql('a', q{
    INSERT INTO codes VALUES (1, 'a', 'a'), (2, 'b', 'Zz'), (3, 'cab', '09');
    INSERT INTO pcodes VALUES (1, 'p'), (2, 'q'), (3, 'r'), (4, 'pr');
});
my $dir = $node->basedir;
$node->safe_psql('a', qq{
    COPY codes TO '$dir/codes.bin' (FORMAT binary);
    COPY pcodes TO '$dir/pcodes.bin' (FORMAT binary);
    COPY pcodes TO '$dir/pcodes.txt';
});

# ---- a differently defined same-named charset refuses binary values ----
my ($ret, $out, $err) = $node->psql('b', qq{\\set VERBOSITY verbose
COPY codes FROM '$dir/codes.bin' (FORMAT binary)});
isnt($ret, 0, 'binary COPY into a database where "tag" has other symbols fails');
like($err, qr/42804: binary lexid value of charset "tag" was written under another definition of the charset/,
     'the error names the charset and says why');
like($err, qr/HINT:  Define the charset identically/, 'with a hint');
is($node->safe_psql('b', 'SELECT count(*) FROM codes'), '0', 'nothing was stored re-spelled');

($ret, $out, $err) = $node->psql('b', qq{COPY pcodes FROM '$dir/pcodes.bin' (FORMAT binary)});
isnt($ret, 0, 'permuted symbols (pqr vs rqp) are refused in binary too');
like($err, qr/charset "perm" was written under another definition/, 'permuted: same error');
is($node->safe_psql('b', 'SELECT count(*) FROM pcodes'), '0', 'no permuted value was stored');

# ---- identical definitions: binary COPY keeps every value ----
$node->safe_psql('c', qq{COPY codes FROM '$dir/codes.bin' (FORMAT binary);
                         COPY pcodes FROM '$dir/pcodes.bin' (FORMAT binary)});
is($node->safe_psql('c', 'SELECT id, code, b, lexid_rank(code) FROM codes ORDER BY id'),
   $node->safe_psql('a', 'SELECT id, code, b, lexid_rank(code) FROM codes ORDER BY id'),
   'identical definitions in another database: binary COPY round trip');
is($node->safe_psql('c', 'SELECT string_agg(code::text, \',\' ORDER BY code) FROM pcodes'), 'p,q,r,pr',
   'identical definitions: same order');

# ---- text COPY re-reads by spelling: permuted symbols keep the spelling, not the order ----
$node->safe_psql('b', qq{COPY pcodes FROM '$dir/pcodes.txt'});
is($node->safe_psql('b', 'SELECT string_agg(code::text, \',\' ORDER BY id) FROM pcodes'), 'p,q,r,pr',
   'text COPY into permuted definitions keeps every spelling');
is($node->safe_psql('b', 'SELECT string_agg(code::text, \',\' ORDER BY code) FROM pcodes'), 'r,q,p,pr',
   'but orders them by the receiving definition (documented)');
is($node->safe_psql('b', q{SELECT lexid_rank('p'::lexid(perm))}), '3', "and ranks them by it ('p' is rank 1 in a, 3 in b)");

# ---- a same-named case-insensitive charset stores its own canonical spelling (documented) ----
$node->safe_psql('a', qq{SELECT idseq_create_charset('fold', 'aBc');
    CREATE TABLE fcodes (id int PRIMARY KEY, code lexid(fold));
    INSERT INTO fcodes VALUES (1, 'aB'), (2, 'Bc');
    COPY fcodes TO '$dir/fcodes.txt'});
$node->safe_psql('b', qq{SELECT idseq_create_charset('fold', 'abc', true);
    CREATE TABLE fcodes (id int PRIMARY KEY, code lexid(fold));
    COPY fcodes FROM '$dir/fcodes.txt'});
is($node->safe_psql('b', q{SELECT string_agg(code::text, ',' ORDER BY id) FROM fcodes}), 'ab,bc',
   'text COPY into a case-insensitive charset of the same name stores its canonical spelling');

# ---- built-in charsets keep 1.1's binary form (a 1.1 receiver reads it); custom ones carry the fingerprint ----
is($node->safe_psql('a', q{SELECT get_byte(lexid_send('Az'::lexid(base62)), 0), get_byte(lexid_send('ab'::lexid(tag)), 0),
                                  get_byte(lexid_send('ab'::lexid), 0), length(lexid_send('ab'::lexid(tag)))}),
   '1|2|1|27', 'version 1 for built-in and untyped values, version 2 (with 16 fingerprint bytes) for custom ones');

# ---- version 1 binary values (idseq 1.1, no fingerprint) ----
# A binary COPY file of one lexid column: PGCOPY header, tuples (int16 1, int32 size, bytes), trailer.
sub copy_file {
    my ($name, @payloads) = @_;
    my $data = "PGCOPY\n\377\r\n\0" . pack('NN', 0, 0);
    $data .= pack('nN', 1, length $_) . $_ for @payloads;
    $data .= pack('n', 0xffff);
    open my $fh, '>:raw', "$dir/$name" or die $!;
    print $fh $data;
    close $fh;
    chmod 0644, "$dir/$name";
    return "$dir/$name";
}
sub v1 { my ($charset, @digits) = @_; return pack('C', 1) . "$charset\0" . pack('N', scalar @digits) . pack('C*', @digits) }
$node->safe_psql('b', 'CREATE TABLE b62 (v lexid(base62)); CREATE TABLE tags (v lexid(tag))');
my $f = copy_file('v1_builtin.bin', v1('base62', 10, 61));
$node->safe_psql('b', qq{COPY b62 FROM '$f' (FORMAT binary)});
is($node->safe_psql('b', 'SELECT v FROM b62'), 'Az', 'version 1 values of built-in charsets are still read');
$f = copy_file('v1_custom.bin', v1('tag', 0, 1));
($ret, $out, $err) = $node->psql('b', qq{\\set VERBOSITY verbose
COPY tags FROM '$f' (FORMAT binary)});
like($err, qr/42804: binary lexid value of custom charset "tag" does not identify the charset's definition/,
     'version 1 values of custom charsets are refused');
like($err, qr/binary = false/, 'the hint gives the remedy for a subscription');
is($node->safe_psql('b', 'SELECT count(*) FROM tags'), '0', 'and nothing was stored');

done_testing();
