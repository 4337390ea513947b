# Databases that are not UTF-8. idseq reads charset symbols as UTF-8 characters; in another
# server encoding only ASCII is the same, so a charset with a non-ASCII symbol is refused
# when it is created, and every stored value, code and message is ASCII there (non-ASCII
# input bytes are quoted as \xNN in errors). In UTF8 databases non-ASCII symbols work.
use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;
use IdseqTest qw(idseq_node);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = idseq_node('encodings', extension => 0);

# non-ASCII text made on the server from its UTF-8 bytes, in each database's own encoding
my %sample = (
    UTF8      => q{convert_from('\xe38182e38184e38186', 'UTF8')},   # あいう
    # 'Ã©b': its LATIN1 bytes C3 A9 62 are also valid UTF-8 (two characters, 1.1 read base 2)
    LATIN1    => q{convert_from('\xc383c2a962', 'UTF8')},
    # three EUC_JP kanji whose bytes are also valid UTF-8 (á â ã)
    EUC_JP    => q{convert_from('\xc3a1c3a2c3a3', 'EUC_JP')},
    SQL_ASCII => q{convert_from('\xe38182e38184e38186', 'UTF8')},   # bytes of no known encoding
);
for my $enc (qw(UTF8 LATIN1 EUC_JP SQL_ASCII)) {
    my $db = lc "db_$enc";
    $node->safe_psql('postgres',
        "CREATE DATABASE $db TEMPLATE template0 ENCODING '$enc' LC_COLLATE 'C' LC_CTYPE 'C'");
    $node->safe_psql($db, q{
        CREATE EXTENSION idseq;
        SELECT idseq_create_charset('tag', 'xyzw');
        CREATE TABLE t (id int PRIMARY KEY, a lexid(tag), b lexid(base62), c text);
        INSERT INTO t SELECT g, lexid_from_rank(g, 'tag'), lexid_from_rank(g * 7919, 'base62'),
                             idseq_encode(g * 104729, 'tag') FROM generate_series(1, 200) g;
    });
    is($node->safe_psql($db, q{SELECT count(*) FROM t WHERE lexid_rank(a) = id
                                 AND idseq_decode(c, 'tag') = id * 104729 AND b = lexid_from_rank(id * 7919, 'base62')}),
       '200', "$enc: stored rows read back, ranks and codes round trip");
    is($node->safe_psql($db, q{SELECT base FROM idseq_charsets WHERE name = 'tag'}) . ','
         . $node->safe_psql($db, q{SELECT length(idseq_encode(63, 'tag'))}), '4,3',
       "$enc: idseq_charsets' base is the codec's");

    my ($ret, $out, $err) = $node->psql($db, "\\set VERBOSITY verbose\nSELECT idseq_create_charset('wide', $sample{$enc})");
    if ($enc eq 'UTF8') {
        is($ret, 0, 'UTF8: a charset of non-ASCII symbols is created');
        is($node->safe_psql($db, qq{SELECT base FROM idseq_charsets WHERE name = 'wide'}) . ','
             . $node->safe_psql($db, qq{SELECT idseq_decode(idseq_encode(5, 'wide'), 'wide')}), '3,5',
           'UTF8: non-ASCII symbols: base 3, codec round trip');
        is($node->safe_psql($db, qq{SELECT lexid_rank(lexid_from_rank(7, 'wide')::text::lexid(wide))}), '7',
           'UTF8: non-ASCII values print and read back');
    } else {
        like($err, qr/22023: charset "wide" has a non-ASCII symbol, which idseq supports only in UTF8 databases/,
             "$enc: a charset of non-ASCII symbols is refused when it is created");
        like($err, qr/This database's encoding is $enc/, "$enc: the detail names the encoding");
        ($ret, $out, $err) = $node->psql($db,
            "DO \$\$ BEGIN EXECUTE format('CREATE TABLE w (v lexid(wide2, %L))', $sample{$enc}); END \$\$");
        like($err, qr/non-ASCII symbol/, "$enc: also through a self-describing type modifier");
        is($node->safe_psql($db, q{SELECT count(*) FROM idseq_charset_registry}), '1', "$enc: nothing was registered");
        # input of non-ASCII text: a clean 22P02, its bytes quoted as \xNN (valid in any encoding)
        ($ret, $out, $err) = $node->psql($db, "\\set VERBOSITY verbose\nSELECT ($sample{$enc})::lexid(tag)");
        like($err, qr/22P02: invalid character "\\x[0-9A-F]{2}(\\x[0-9A-F]{2})*" at position 1 in "(\\x[0-9A-F]{2})+[a-z]*"/,
             "$enc: non-ASCII input is 22P02 quoted byte by byte");
        # also without a charset: an untyped value (SQL_ASCII kept bytes that were valid UTF-8)
        ($ret, $out, $err) = $node->psql($db, "\\set VERBOSITY verbose\nSELECT ($sample{$enc})::lexid");
        like($err, qr/22P02: invalid (character|byte) "\\x[0-9A-F]{2}(\\x[0-9A-F]{2})*" at position 1 in /,
             "$enc: non-ASCII input of an untyped lexid is 22P02");
        ($ret, $out, $err) = $node->psql($db, "SELECT lexid_send(($sample{$enc})::lexid)");
        is($ret != 0 && $out eq '', 1, "$enc: ... and no value is made of it");
        ($ret, $out, $err) = $node->psql($db, "SELECT idseq_decode('x' || $sample{$enc}, 'tag')");
        like($err, qr/invalid symbol "\\x[0-9A-F]{2}/, "$enc: codecs quote non-ASCII input byte by byte");
    }
}

done_testing();
