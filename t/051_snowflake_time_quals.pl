# A random differential test of the derived id conditions of time predicates
# (src/pg/sf_time_quals.cpp). Over the built-in layouts, fixed custom layouts (units
# of a microsecond to a day, a node-first one) and random time-first layouts, hundreds of
# random predicates -- every operator, both argument orders, BETWEEN, the default layout
# argument, timestamps at unit edges, one microsecond off them, before the epoch, past the
# layout's end and infinite -- run as literals, generic and custom plans of prepared
# statements and stable expressions, on a plain table (index and sequential scans) and on a
# table partitioned BY RANGE (id). Each result (count and sum of the ids) must equal a
# sequential scan that gets no derived condition (the layout read from a column), and on a
# time-first layout the literal plans must use the index (or find no row at plan time), on
# the node-first layout never. Then: queries that do not mention the time functions plan
# the same with and without the library loaded, and the first query of a fresh session gets
# its derived condition. The seed is fixed; set IDSEQ_DIFF_SEED to try others.
use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;
use IdseqTest qw(idseq_node);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $seed = $ENV{IDSEQ_DIFF_SEED} // 20261126;
srand($seed);
note("seed $seed");

my $node = idseq_node('time_quals');

# ---- layouts ----
my @custom = (
    [ 'cq_second', '2021-03-04 05:06:07.891234+00', 'time:32,seq:8', '1 second' ],
    [ 'cq_7ms', '2019-12-31 23:59:59.999+00', 'time:40,node:3,seq:5', '7 milliseconds' ],
    [ 'cq_micro', '2024-01-01 00:00:00+00', 'time:50,rand:4', '1 microsecond' ],
    [ 'cq_day', '1990-01-01 00:00:00+00', 'time:20,node:5,seq:6,rand:3', '1 day' ],
    [ 'cq_node_first', '2020-01-01 00:00:00+00', 'node:3,time:40,seq:8', '1 millisecond' ]);
my @units = ('1 microsecond', '3 milliseconds', '1 second', '90 seconds', '1 day', '250 microseconds');
for my $i (1 .. 6) {
    my $time = 28 + int(rand(18));
    my @rest;
    my $left = 63 - $time;
    for my $f (qw(node seq rand)) {
        next if rand() < 0.4 || $left < 2;
        my $w = 1 + int(rand($left > 12 ? 12 : $left - 1));
        push @rest, "$f:$w";
        $left -= $w;
    }
    my $epoch = sprintf('%04d-%02d-%02d %02d:%02d:%02d.%06d+00',
        1995 + int(rand(35)), 1 + int(rand(12)), 1 + int(rand(28)),
        int(rand(24)), int(rand(60)), int(rand(60)), int(rand(1000000)));
    push @custom, [ "cq_random_$i", $epoch, join(',', "time:$time", @rest), $units[ int(rand(@units)) ] ];
}
my $setup = '';
$setup .= "SELECT snowflake_create_layout('$_->[0]', '$_->[1]', '$_->[2]', '$_->[3]');\n" for @custom;
$node->safe_psql('postgres', $setup);

my @layouts = split /\n/, $node->safe_psql('postgres',
    "SELECT name FROM snowflake_layouts ORDER BY builtin DESC, name");
my %node_first = (cq_node_first => 1);

# ---- data: per layout, ids spread over about 300 time units of a window, plus the first
# unit and (where the time type reaches it) the last ----
my $tables = "SET timezone = 'UTC';\n";
for my $l (@layouts) {
    my $start_unit = int(rand(1000));
    $tables .= qq{
CREATE TABLE d_$l (id bigint PRIMARY KEY, lay text NOT NULL);
CREATE TABLE p_$l (id bigint, lay text NOT NULL) PARTITION BY RANGE (id);
CREATE INDEX ON p_$l (id);
INSERT INTO d_$l
SELECT snowflake_pack('$l', w.epoch + (($start_unit + floor(random() * 300)) * extract(epoch FROM w.time_unit)
                                        + random() * extract(epoch FROM w.time_unit)) * interval '1 second',
                      (random() * (2 ^ w.node_bits - 1))::int, (random() * (2 ^ w.seq_bits - 1))::int,
                      (random() * (2 ^ w.rand_bits - 1))::int), '$l'
  FROM snowflake_layouts w, generate_series(1, 300) WHERE w.name = '$l'
ON CONFLICT DO NOTHING;
INSERT INTO d_$l SELECT snowflake_pack('$l', w.epoch), '$l' FROM snowflake_layouts w WHERE w.name = '$l'
ON CONFLICT DO NOTHING;
INSERT INTO d_$l SELECT snowflake_pack('$l', w.last_time), '$l' FROM snowflake_layouts w
 WHERE w.name = '$l' AND w.last_time < '200000-01-01' ON CONFLICT DO NOTHING;
};
    # four partitions, split at the ids of three of the rows
    $tables .= qq{
DO \$\$
DECLARE c bigint[] := (SELECT array_agg(id ORDER BY id) FROM (SELECT id FROM d_$l ORDER BY id) s);
        n int := array_length(c, 1);
BEGIN
    EXECUTE format('CREATE TABLE p_${l}_1 PARTITION OF p_$l FOR VALUES FROM (MINVALUE) TO (%s)', c[n / 4]);
    EXECUTE format('CREATE TABLE p_${l}_2 PARTITION OF p_$l FOR VALUES FROM (%s) TO (%s)', c[n / 4], c[n / 2]);
    EXECUTE format('CREATE TABLE p_${l}_3 PARTITION OF p_$l FOR VALUES FROM (%s) TO (%s)', c[n / 2], c[3 * n / 4]);
    EXECUTE format('CREATE TABLE p_${l}_4 PARTITION OF p_$l FOR VALUES FROM (%s) TO (MAXVALUE)', c[3 * n / 4]);
END \$\$;
INSERT INTO p_$l SELECT * FROM d_$l;
};
}
$tables .= "VACUUM ANALYZE;\n";
$node->safe_psql('postgres', $tables);

# ---- predicates ----
# Timestamps to compare with: the times of some ids, a microsecond either side, random
# points of the window, and the extremes.
my %probes;
for my $l (@layouts) {
    my $sql = qq{SET timezone = 'UTC';
SELECT t::text FROM (
    SELECT unnest(ARRAY[ts, ts + interval '1 microsecond', ts - interval '1 microsecond']) AS t
      FROM (SELECT snowflake_timestamp(id, '$l') AS ts FROM d_$l ORDER BY random() LIMIT 12) s
    UNION ALL
    SELECT min(snowflake_timestamp(id, '$l')) + random() * (max(snowflake_timestamp(id, '$l')) - min(snowflake_timestamp(id, '$l')))
      FROM d_$l, generate_series(1, 6) GROUP BY generate_series
    UNION ALL
    SELECT epoch - interval '1 microsecond' FROM snowflake_layouts WHERE name = '$l'
    UNION ALL
    SELECT last_time + interval '1 microsecond' FROM snowflake_layouts WHERE name = '$l' AND last_time < '200000-01-01') p;};
    $probes{$l} = [ split(/\n/, $node->safe_psql('postgres', $sql)), '-infinity', 'infinity',
        '1900-01-01 00:00:00+00', '290000-01-01 00:00:00+00' ];
}

my @ops = ('<', '<=', '=', '>=', '>');
my %flip = ('<' => '>', '<=' => '>=', '=' => '=', '>=' => '<=', '>' => '<');
my @preds;    # [layout, predicate with %L for the layout argument and $1/$2, values]
for my $l (@layouts) {
    my @p = @{ $probes{$l} };
    for (1 .. 36) {
        my $a = $p[ int(rand(@p)) ];
        my $b = $p[ int(rand(@p)) ];
        my $r = rand();
        if ($r < 0.2) {
            push @preds, [ $l, 'snowflake_timestamp(id%L) BETWEEN $1 AND $2', $a, $b ];
        } else {
            my $op = $ops[ int(rand(@ops)) ];
            if ($r < 0.6) {
                push @preds, [ $l, "snowflake_timestamp(id%L) $op \$1", $a ];
            } else {
                push @preds, [ $l, "\$1 $flip{$op} snowflake_timestamp(id%L)", $a ];
            }
        }
    }
}
note(scalar(@preds) . ' predicates over ' . scalar(@layouts) . ' layouts');

sub lit { my $v = shift; return "'$v'::timestamptz"; }

# One script: every predicate under every shape, each query printing "k|shape|count|sum".
my $script = "SET timezone = 'UTC';\n" . q{
CREATE FUNCTION derived(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE l text; r text := '';
BEGIN
    FOR l IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
        IF l ~ 'Index Cond: .*\mid [<>]=' THEN r := r || 'index '; END IF;
        IF l ~ 'One-Time Filter: \(?(NULL|false)' THEN r := r || 'empty '; END IF;
        IF l ~ 'idseq_snowflake_(lower|upper)_id|\mid [<>]= ''' THEN r := r || 'derived '; END IF;
    END LOOP;
    RETURN r;
END $$;
};
my $agg = "count(*) || '|' || coalesce(sum(id::numeric), 0)";
for my $k (0 .. $#preds) {
    my ($l, $pred, @v) = @{ $preds[$k] };
    my $layout_arg = ($l eq 'snowflake' && $k % 3 == 0) ? '' : ", '$l'";
    my $with = sub {
        my ($p, @x) = @_;
        $p =~ s/\$(\d)/$x[$1 - 1]/g;
        return $p;
    };
    my $base = $with->($pred =~ s/%L/, lay/r, map { lit($_) } @v);
    my $literal = $with->($pred =~ s/%L/$layout_arg/r, map { lit($_) } @v);
    my $stable = $with->($pred =~ s/%L/$layout_arg/r, map { lit($_) . " + (now() - now())" } @v);
    my $params = $pred =~ s/%L/$layout_arg/r;
    my $types = join(', ', map { 'timestamptz' } @v);
    my $args = join(', ', map { "'$_'" } @v);
    $script .= qq{
SET enable_indexscan = off; SET enable_indexonlyscan = off; SET enable_bitmapscan = off;
SELECT '$k|base|' || $agg FROM d_$l WHERE $base;
SELECT '$k|seq|' || $agg FROM d_$l WHERE $literal;
SELECT '$k|seq-part|' || $agg FROM p_$l WHERE $literal;
RESET enable_indexscan; RESET enable_indexonlyscan; RESET enable_bitmapscan;
SET enable_seqscan = off;
SELECT '$k|index|' || $agg FROM d_$l WHERE $literal;
SELECT '$k|index-plan|' || derived(\$q\$SELECT id FROM d_$l WHERE $literal\$q\$);
SELECT '$k|index-part|' || $agg FROM p_$l WHERE $literal;
SELECT '$k|stable-part|' || $agg FROM p_$l WHERE $stable;
SELECT '$k|stable-plan|' || derived(\$q\$SELECT id FROM p_$l WHERE $stable\$q\$);
PREPARE s_$k($types) AS SELECT '$k|' || $agg FROM p_$l WHERE $params;
PREPARE t_$k($types) AS SELECT '$k|' || $agg FROM d_$l WHERE $params;
SET plan_cache_mode = force_generic_plan;
};
    # a prepared statement's rows are printed after a line that names the shape
    $script .= qq{\\echo generic-part
EXECUTE s_$k($args);
\\echo generic-plain
EXECUTE t_$k($args);
SET plan_cache_mode = force_custom_plan;
\\echo custom-part
EXECUTE s_$k($args);
RESET plan_cache_mode;
RESET enable_seqscan;
DEALLOCATE s_$k; DEALLOCATE t_$k;
};
}
my ($out, $err);
$node->psql('postgres', $script, stdout => \$out, stderr => \$err, extra_params => [ '-A', '-t', '-F', '|' ],
    on_error_stop => 1);
is($err, '', 'the differential script ran without an error');

# A script's output as {predicate}{shape} = "count|sum": lines "k|shape|count|sum", and the
# rows of a prepared statement ("k|count|sum") after a line that names the shape.
sub results_of {
    my ($output) = @_;
    my (%r, $pending);
    for my $line (split /\n/, $output) {
        next if $line =~ /^(SET|RESET|CREATE|PREPARE|DEALLOCATE)/ || $line eq '';
        if ($line =~ /^([a-z-]+)$/) {
            $pending = $1;
            next;
        }
        if (defined $pending) {
            my ($k, $rest) = split /\|/, $line, 2;
            $r{$k}{$pending} = $rest;
            undef $pending;
            next;
        }
        my ($k, $shape, $rest) = split /\|/, $line, 3;
        $r{$k}{$shape} = $rest;
    }
    return %r;
}
my %result = results_of($out);

my ($differ, $planned, $unplanned, $node_first_derived, $empty, $runtime) = (0, 0, 0, 0, 0, 0);
for my $k (0 .. $#preds) {
    my ($l, $pred, @v) = @{ $preds[$k] };
    my $r = $result{$k};
    for my $shape (qw(seq seq-part index index-part stable-part generic-part generic-plain custom-part)) {
        next if defined $r->{$shape} && defined $r->{base} && $r->{$shape} eq $r->{base};
        $differ++;
        diag("predicate $k ($l: $pred with @v): $shape gave " . ($r->{$shape} // 'nothing')
              . ', a sequential scan ' . ($r->{base} // 'nothing'));
    }
    my $plan = $r->{'index-plan'} // '';
    if ($node_first{$l}) {
        $node_first_derived++ if $plan =~ /derived|index/ || ($r->{'stable-plan'} // '') =~ /derived/;
    } elsif ($plan =~ /index|empty/) {
        $planned++;
        $empty++ if $plan =~ /empty/;
    } else {
        $unplanned++;
        diag("predicate $k ($l: $pred with @v) was not planned with a derived condition: $plan");
    }
    $runtime++ if !$node_first{$l} && ($r->{'stable-plan'} // '') =~ /derived/;
}
note("$planned predicates used the index or were empty at plan time ($empty empty); $runtime with run-time bounds");
is($differ, 0, 'every shape gives the rows of a sequential scan');
is($unplanned, 0, 'every predicate on a time-first layout gets a derived condition');
is($node_first_derived, 0, 'no derived condition on the node-first layout');
cmp_ok($runtime, '>', 100, 'stable expressions get run-time bounds');
cmp_ok($empty, '>', 5, 'some predicates were found empty at plan time');

# ---- queries without the time functions plan as they did ----
# A fresh session runs no function of idseq, so the library is not loaded: those plans are
# PostgreSQL's own. LOAD then installs the hooks; the plans must not change.
my @plain = (
    'SELECT * FROM d_snowflake WHERE id >= 1000',
    'SELECT count(*) FROM p_snowflake WHERE id < 2000 AND lay = \'x\'',
    'SELECT * FROM d_snowflake a JOIN d_instagram b ON a.id = b.id WHERE b.id > 5',
    'SELECT * FROM p_snowflake WHERE id BETWEEN 10 AND 20 OR lay LIKE \'a%\'',
    'SELECT * FROM (SELECT id FROM d_snowflake UNION ALL SELECT id FROM d_sonyflake) s WHERE id > 100',
    'SELECT * FROM d_snowflake WHERE EXISTS (SELECT FROM p_display60 p WHERE p.id = d_snowflake.id)',
    'WITH c AS MATERIALIZED (SELECT * FROM p_snowflake WHERE id > 3) SELECT * FROM c LEFT JOIN d_snowflake d USING (id)',
    'SELECT * FROM p_snowflake WHERE now() - interval \'1 hour\' < to_timestamp(id)',
    'SELECT * FROM d_snowflake WHERE id = ANY (ARRAY[1, 2, 3]) ORDER BY id DESC LIMIT 3');
my $explain = join("\n", map { "EXPLAIN (COSTS OFF, VERBOSE) $_;" } @plain);
my $without = $node->safe_psql('postgres', "SET enable_seqscan = off;\n$explain");
my $with = $node->safe_psql('postgres', "LOAD 'idseq';\nSET enable_seqscan = off;\n$explain");
is($with, $without, 'queries without the time functions plan the same with the library loaded');
unlike($without, qr/idseq_snowflake/, 'and get no derived condition');

# ---- the first query of a fresh session ----
my $first = $node->safe_psql('postgres', "SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT * FROM d_snowflake WHERE snowflake_timestamp(id) >= '2020-01-01 00:00:00+00';");
like($first, qr/Index Cond: \(id >= '\d+'::bigint\)/, 'the first query of a fresh session gets the derived condition');

# ---- dates, timestamps and local time, across time zones ----
# The other forms of time predicates: the time compared with a date or a timestamp without
# time zone (replaced by the range), the time's date (snowflake_timestamp(id)::date) and
# date_trunc of it, with and without a zone (kept beside their bounds). Ids crowd around the
# zones' transitions (found from the offsets themselves), and at the local midnights near
# them, on the built-in layout and on one of 15-minute units that start at 7 past; the
# values compared with are the dates and midnights around the transitions, the transitions
# a microsecond either side, and their truncations. Each predicate runs in a session time
# zone of its own -- ones that change by an hour, by 30 minutes (Australia/Lord_Howe), one
# at +5:45, America/St_Johns (whose clocks went back across midnight until 2011), Pacific/Apia
# (which skipped 30 December 2011), a POSIX zone 100 hours west -- as a literal (index and
# sequential scans, a table partitioned BY RANGE (id)), and as generic and custom plans of a
# prepared statement, the generic one also run again in another time zone than it was
# planned in. Every result must be a sequential scan's with no derived condition, and every
# literal plan must scan the index with the id range (for the local-time forms with the
# predicate beside it).
my @zones = ('UTC', 'Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kathmandu',
    'America/St_Johns', 'Pacific/Apia', 'XXX+100');
my @lt_layouts = ('snowflake', 'lt_quarter');
my $lt_setup = qq{
SELECT setseed(@{[ ($seed % 1999) / 1000 - 0.999 ]});
SELECT snowflake_create_layout('lt_quarter', '2010-01-01 00:07:00+00', 'time:36,seq:4', '15 minutes');
CREATE TABLE lt_transitions (zone text, t timestamptz);
CREATE TABLE lt_instants (t timestamptz);
};
for my $z (@zones) {
    # the first hour of each new offset from 2010-11-05 to 2030; a few of them, and the ones
    # that make the hard cases
    $lt_setup .= qq{
SET timezone = '$z';
INSERT INTO lt_transitions
SELECT '$z', t FROM (
    SELECT t, extract(timezone FROM t) AS o, lag(extract(timezone FROM t)) OVER (ORDER BY t) AS before
      FROM generate_series('2010-11-05 00:00:00+00'::timestamptz, '2031-01-01 00:00:00+00', '1 hour') t) s
 WHERE o <> before
   AND (random() < 0.15 OR t BETWEEN '2010-11-07' AND '2010-11-08' OR t BETWEEN '2011-12-29' AND '2011-12-31');
INSERT INTO lt_instants
SELECT t + (random() - 0.5) * interval '72 hours' FROM lt_transitions, generate_series(1, 40) WHERE zone = '$z'
UNION ALL
SELECT (date(t) + d)::timestamptz + e * interval '1 millisecond'
  FROM lt_transitions, generate_series(-1, 1) d, generate_series(-1, 1) e WHERE zone = '$z'
UNION ALL
SELECT date_trunc('month', t) + e * interval '1 millisecond' FROM lt_transitions, generate_series(-1, 1) e WHERE zone = '$z';
};
}
$lt_setup .= q{
SET timezone = 'UTC';
INSERT INTO lt_instants SELECT '2010-11-05'::timestamptz + random() * interval '20 years' FROM generate_series(1, 600);
};
for my $l (@lt_layouts) {
    $lt_setup .= qq{
CREATE TABLE lt_$l (id bigint PRIMARY KEY, lay text NOT NULL);
INSERT INTO lt_$l SELECT snowflake_pack('$l', t, seq => (random() * 15)::int), '$l' FROM lt_instants
 WHERE t >= '2010-11-05' ON CONFLICT DO NOTHING;
CREATE TABLE lp_$l (id bigint, lay text NOT NULL) PARTITION BY RANGE (id);
CREATE INDEX ON lp_$l (id);
CREATE TABLE lp_${l}_1 PARTITION OF lp_$l FOR VALUES FROM (MINVALUE) TO (snowflake_min_id('2014-01-01', '$l'));
CREATE TABLE lp_${l}_2 PARTITION OF lp_$l
    FOR VALUES FROM (snowflake_min_id('2014-01-01', '$l')) TO (snowflake_min_id('2020-01-01', '$l'));
CREATE TABLE lp_${l}_3 PARTITION OF lp_$l FOR VALUES FROM (snowflake_min_id('2020-01-01', '$l')) TO (MAXVALUE);
INSERT INTO lp_$l SELECT * FROM lt_$l;
};
}
$lt_setup .= "VACUUM ANALYZE;\n";
$node->safe_psql('postgres', $lt_setup);
my %lt_rows = map { $_ => $node->safe_psql('postgres', "SELECT count(*) FROM lt_$_") } @lt_layouts;
note("local-time data: " . join(', ', map { "$lt_rows{$_} ids of $_" } @lt_layouts));

# the values compared with, per zone and type
my (%dates, %stamps, %tzs);
for my $z (@zones) {
    my $sql = qq{SET timezone = '$z';
SET DateStyle = 'ISO';
SELECT 'd', ((t AT TIME ZONE '$z')::date + d)::text FROM lt_transitions, generate_series(-1, 1) d WHERE zone = '$z'
UNION ALL SELECT 'd', date_trunc('month', t AT TIME ZONE '$z')::date::text FROM lt_transitions WHERE zone = '$z'
UNION ALL SELECT 's', ((t AT TIME ZONE '$z')::date + d)::timestamp::text
  FROM lt_transitions, generate_series(0, 1) d WHERE zone = '$z'
UNION ALL SELECT 's', ((t AT TIME ZONE '$z') + e * interval '30 minutes')::text
  FROM lt_transitions, generate_series(-1, 1) e WHERE zone = '$z'
UNION ALL SELECT 'z', (t + e * interval '1 microsecond')::text FROM lt_transitions, generate_series(-1, 1) e WHERE zone = '$z'
UNION ALL SELECT 'z', date_trunc('day', t)::text FROM lt_transitions WHERE zone = '$z'
UNION ALL SELECT 'd', v FROM unnest(ARRAY['2011-12-30', '2011-12-31', '2010-11-07', '2024-02-29', 'infinity', '-infinity',
                                          '5874897-12-31']) v
UNION ALL SELECT 's', v FROM unnest(ARRAY['2010-11-07 00:00:30', 'infinity', '294276-12-31 23:00:00']) v;};
    for my $line (split /\n/, $node->safe_psql('postgres', $sql)) {
        my ($kind, $v) = split /\|/, $line, 2;
        next unless defined $v;
        push @{ { d => \%dates, s => \%stamps, z => \%tzs }->{$kind}{$z} }, $v;
    }
}
# zones without transitions (UTC, the POSIX zone) take the values of a real zone too
for my $z (grep { !$tzs{$_} } @zones) {
    push @{ $_->{$z} }, @{ $_->{'America/New_York'} } for (\%dates, \%stamps, \%tzs);
}

my @trunc_units = ('day', 'day', 'week', 'month', 'quarter', 'year', 'hour', 'minute');
my @lt_preds;    # [zone, other zone, layout, predicate with %L and $1/$2, [types], [values]]
sub pick { my $a = shift; return $a->[ int(rand(@$a)) ]; }
for my $k (0 .. 319) {
    my $z = $zones[ $k % @zones ];
    my $other = pick(\@zones);
    my $l = pick(\@lt_layouts);
    my $op = pick(\@ops);
    my $flip = rand() < 0.3;
    my $form = pick([qw(date stamp date_cast date_cast trunc trunc trunc_zone between cast_between)]);
    my ($side, $type, $pred, @v, @types);
    my $d = pick($dates{$z});
    if ($form eq 'date' || $form eq 'stamp') {
        $type = $form eq 'date' ? 'date' : 'timestamp';
        @v = (pick($form eq 'date' ? $dates{$z} : $stamps{$z}));
        $side = 'snowflake_timestamp(id%L)';
    } elsif ($form eq 'date_cast') {
        $type = 'date';
        @v = ($d);
        $side = 'snowflake_timestamp(id%L)::date';
    } elsif ($form eq 'between' || $form eq 'cast_between') {
        my @two = (pick($dates{$z}), pick($dates{$z}));
        @two = sort @two;
        my $s = $form eq 'between' ? 'snowflake_timestamp(id%L)' : 'snowflake_timestamp(id%L)::date';
        push @lt_preds, [ $z, $other, $l, "$s BETWEEN \$1 AND \$2", [ 'date', 'date' ], [@two] ];
        next;
    } else {
        my $unit = pick(\@trunc_units);
        my $zone_arg = $form eq 'trunc_zone' ? ", '" . pick([ grep { $_ ne 'XXX+100' } @zones, 'EST' ]) . "'" : '';
        $side = "date_trunc('$unit', snowflake_timestamp(id%L)$zone_arg)";
        my $r = rand();
        ($type, @v) = $r < 0.4 ? ('timestamptz', pick($tzs{$z})) : $r < 0.7 ? ('date', $d) : ('timestamp', pick($stamps{$z}));
        if (rand() < 0.5 && $type eq 'timestamptz') {
            # a truncated value, which equality can meet
            push @lt_preds, [ $z, $other, $l,
                $flip ? "date_trunc('$unit', \$1$zone_arg) $flip{$op} $side" : "$side $op date_trunc('$unit', \$1$zone_arg)",
                ['timestamptz'], [@v] ];
            next;
        }
    }
    $pred = $flip ? "\$1 $flip{$op} $side" : "$side $op \$1";
    push @lt_preds, [ $z, $other, $l, $pred, [$type], [@v] ];
}
note(scalar(@lt_preds) . ' local-time predicates in ' . scalar(@zones) . ' zones');

my $lt_script = q{
CREATE FUNCTION lt_plan(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE l text; r text := '';
BEGIN
    FOR l IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
        IF l ~ 'Index Cond: .*\mid [<>]=' THEN r := r || 'range '; END IF;
        IF l ~ 'Filter: .*snowflake_timestamp' THEN r := r || 'kept '; END IF;
        IF l ~ 'One-Time Filter: \(?(NULL|false)' THEN r := r || 'empty '; END IF;
    END LOOP;
    RETURN r;
END $$;
SET DateStyle = 'ISO';
};
for my $k (0 .. $#lt_preds) {
    my ($z, $other, $l, $pred, $types, $v) = @{ $lt_preds[$k] };
    my $with = sub {
        my ($p) = @_;
        $p =~ s/\$(\d)/"'" . $v->[$1 - 1] . "'::" . $types->[$1 - 1]/ge;
        return $p;
    };
    my $base = $with->($pred =~ s/%L/, lay/gr);
    my $literal = $with->($pred =~ s/%L/, '$l'/gr);
    my $params = $pred =~ s/%L/, '$l'/gr;
    my $base_params = $pred =~ s/%L/, lay/gr;
    my $typelist = join(', ', @$types);
    my $args = join(', ', map { "'$_'" } @$v);
    $lt_script .= qq{
SET timezone = '$z';
SET enable_indexscan = off; SET enable_indexonlyscan = off; SET enable_bitmapscan = off;
SELECT '$k|base|' || $agg FROM lt_$l WHERE $base;
SELECT '$k|seq|' || $agg FROM lt_$l WHERE $literal;
SELECT '$k|seq-part|' || $agg FROM lp_$l WHERE $literal;
RESET enable_indexscan; RESET enable_indexonlyscan; RESET enable_bitmapscan;
SET enable_seqscan = off;
SELECT '$k|index|' || $agg FROM lt_$l WHERE $literal;
SELECT '$k|plan|' || lt_plan(\$q\$SELECT id FROM lt_$l WHERE $literal\$q\$);
SELECT '$k|index-part|' || $agg FROM lp_$l WHERE $literal;
PREPARE lg_$k($typelist) AS SELECT '$k|' || $agg FROM lp_$l WHERE $params;
PREPARE lt_$k($typelist) AS SELECT '$k|' || $agg FROM lt_$l WHERE $params;
PREPARE lb_$k($typelist) AS SELECT '$k|' || $agg FROM lt_$l WHERE $base_params;
SET plan_cache_mode = force_generic_plan;
\\echo generic-part
EXECUTE lg_$k($args);
\\echo generic-plain
EXECUTE lt_$k($args);
SET plan_cache_mode = force_custom_plan;
\\echo custom-plain
EXECUTE lt_$k($args);
SET timezone = '$other';
SET plan_cache_mode = force_generic_plan;
\\echo generic-other-zone
EXECUTE lt_$k($args);
RESET enable_seqscan;
SET enable_indexscan = off; SET enable_indexonlyscan = off; SET enable_bitmapscan = off;
\\echo base-other-zone
EXECUTE lb_$k($args);
RESET enable_indexscan; RESET enable_indexonlyscan; RESET enable_bitmapscan;
RESET plan_cache_mode;
DEALLOCATE lg_$k; DEALLOCATE lt_$k; DEALLOCATE lb_$k;
};
}
($out, $err) = ('', '');
$node->psql('postgres', $lt_script, stdout => \$out, stderr => \$err, extra_params => [ '-A', '-t', '-F', '|' ],
    on_error_stop => 1);
is($err, '', 'the local-time script ran without an error');

my %lt_result = results_of($out);
my ($lt_differ, $lt_unplanned, %lt_forms) = (0, 0);
for my $k (0 .. $#lt_preds) {
    my ($z, $other, $l, $pred, $types, $v) = @{ $lt_preds[$k] };
    my $r = $lt_result{$k};
    my $what = "predicate $k ($z, $l: $pred with @$v)";
    for my $shape (qw(seq seq-part index index-part generic-part generic-plain custom-plain)) {
        next if defined $r->{$shape} && defined $r->{base} && $r->{$shape} eq $r->{base};
        $lt_differ++;
        diag("$what: $shape gave " . ($r->{$shape} // 'nothing') . ', a sequential scan ' . ($r->{base} // 'nothing'));
    }
    if (!defined $r->{'generic-other-zone'} || ($r->{'base-other-zone'} // '') ne $r->{'generic-other-zone'}) {
        $lt_differ++;
        diag("$what: run in $other, the generic plan gave " . ($r->{'generic-other-zone'} // 'nothing')
              . ', a sequential scan ' . ($r->{'base-other-zone'} // 'nothing'));
    }
    # the time itself (against a date or timestamp) is replaced by the range; its date and
    # date_trunc of it keep the predicate beside the range
    my $kept = $pred =~ /::date|date_trunc\('\w+', snowflake/;
    my $plan = $r->{plan} // '';
    $lt_forms{ $kept ? 'kept' : 'replaced' }++;
    if (!($plan =~ /range/ && ($kept ? $plan =~ /kept/ : $plan !~ /kept/)) && $plan !~ /empty/) {
        $lt_unplanned++;
        diag("$what: plan '$plan'");
    }
}
note("local-time forms: $lt_forms{replaced} replaced by the range, $lt_forms{kept} kept beside it");
is($lt_differ, 0, 'dates, timestamps and local-time forms give the rows of a sequential scan, in every shape and zone');
is($lt_unplanned, 0, 'every one is planned as the id range (the local-time forms with the predicate beside it)');
cmp_ok($lt_forms{kept}, '>', 120, 'many local-time forms were tried');

$node->stop;
done_testing();
