# Every query idseq runs itself goes through src/pg/internal_sql.h, which pins search_path
# to pg_catalog, pg_temp for the query's life (sql/85_security.sql, part 1b, shows that no
# object planted in a schema before pg_catalog runs on the paths it exercises). This test
# keeps a new query from bypassing the helper: only internal_sql.cpp connects to SPI, and a
# query is executed only there or in the one wrapper that connects through the helper on its
# first line (charset_registry.cpp's spi_query), so no SQL can run without the pinned search_path.
use strict;
use warnings;
use Test::More;
use File::Basename;

my $root = dirname(__FILE__) . '/..';
my @files = sort glob("$root/src/pg/*.cpp $root/src/pg/*.h");
ok(@files > 10, 'the adapter sources are there');

# SPI calls that run or prepare SQL
my $runs = qr/\bSPI_(?:execute\w*|exec|prepare\w*|cursor_open\w*|cursor_parse_open\w*|execp)\s*\(/;
my (%connects, %queries);
for my $path (@files) {
    open my $fh, '<', $path or die "$path: $!";
    my @lines = <$fh>;
    close $fh;
    my $name = basename($path);
    for my $i (0 .. $#lines) {
        next if $lines[$i] =~ m{^\s*//};
        push @{ $connects{$name} }, $i + 1 if $lines[$i] =~ /\bSPI_connect\w*\s*\(/;
        next unless $lines[$i] =~ $runs;
        # the enclosing function's first lines must connect through the helper
        my $from = $i;
        $from-- while $from > 0 && $lines[$from] !~ /^\S.*\)\s*$|^\{/;
        my $body = join '', @lines[$from .. $i];
        push @{ $queries{$name} }, { line => $i + 1, pinned => ($name eq 'internal_sql.cpp' || $body =~ /internal_sql_connect\(\)/) ? 1 : 0 };
    }
}
is_deeply([sort keys %connects], ['internal_sql.cpp'], 'only internal_sql.cpp calls SPI_connect')
  or diag explain \%connects;
my @unpinned = map { my $f = $_; map { "$f:$_->{line}" } grep { !$_->{pinned} } @{ $queries{$f} } } sort keys %queries;
is_deeply(\@unpinned, [], 'every SPI query runs inside internal_sql_connect()') or diag explain \@unpinned;
ok(exists $queries{'internal_sql.cpp'}, 'internal_sql.cpp runs the queries');
done_testing();
