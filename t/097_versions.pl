# What differs by PostgreSQL major, checked on whichever major runs the suite (the host's 15,
# and 17 and 18 in `make test-versions`):
#  - infinite intervals exist from 17 on: 'infinity' as a snowflake time unit is then ours to
#    reject, with a detail that says why; before 17 the interval input itself rejects it;
#  - from 18 on the module's magic block names the library and its version, which
#    pg_get_loaded_modules() shows.
use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;
use IdseqTest qw(idseq_node);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = idseq_node('versions', preload => 1);
my $major = $node->safe_psql('postgres', q{SELECT current_setting('server_version_num')::int / 10000});
note "PostgreSQL $major";

for my $unit ('infinity', '-infinity') {
    my ($ret, $out, $err) = $node->psql('postgres',
        qq{SELECT snowflake_create_layout('endless', '2024-01-01', 'time:41', '$unit')});
    if ($major >= 17) {
        like($err, qr/ERROR:  invalid snowflake time unit "\Q$unit\E"\nDETAIL:  A time unit must be finite\./,
             "$major: '$unit' is an interval but no time unit");
    } else {
        like($err, qr/ERROR:  invalid input syntax for type interval: "\Q$unit\E"/, "$major: '$unit' is no interval");
    }
}
is($node->safe_psql('postgres', q{SELECT count(*) FROM snowflake_layouts WHERE name = 'endless'}), '0',
   'no layout was created');

SKIP: {
    skip "PostgreSQL $major has no pg_get_loaded_modules() (18 and later)", 1 if $major < 18;
    is($node->safe_psql('postgres', q{SELECT module_name || ' ' || version FROM pg_get_loaded_modules()
                                       WHERE file_name LIKE 'idseq%'}),
       'idseq ' . $node->safe_psql('postgres', q{SELECT default_version FROM pg_available_extensions WHERE name = 'idseq'}),
       'the loaded module names itself and its version');
}

$node->stop;
done_testing();
