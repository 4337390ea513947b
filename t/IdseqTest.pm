# The cluster set-ups the TAP files share: a node with idseq (preloaded or not, with a node
# id), the switch between the generator's two paths, a streaming standby and its promotion,
# pg_dump and restore between clusters, logical subscriptions, pgbench runs in the foreground
# and in the background, a psql client left running, settings changed by ALTER SYSTEM and a
# reload, the SQL that checks drawn ids, the fenced blocks of the Markdown documents and the
# marked commands of docs/operations.md run as printed, and samples of snowflake ids drawn on
# several servers and checked together. Each file loads it with
#
#     use FindBin;
#     use lib $FindBin::RealBin;
#     use IdseqTest qw(idseq_node ...);
#
# (a `use lib` of the file's own directory, so that every runner finds it: PGXS's
# prove_installcheck, tools/idseq-run, the version roots, tools/deb-check). Add a set-up here when a second file needs it; what one file uses stays in
# that file.
package IdseqTest;
use strict;
use warnings;
use Exporter 'import';
use File::Basename qw(dirname);
use IPC::Run;
use Time::HiRes ();
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

# INITDB_TEMPLATE: a data directory made by initdb once per run (tools/idseq-run makes it,
# and writes the absolute path of the initdb that made it to "$INITDB_TEMPLATE.initdb"). A
# node is then made by copying it, which costs a tenth of an initdb: PostgreSQL::Test::Cluster
# does so itself from PostgreSQL 17 on. Before 17 the same is done here, on the same terms: an
# initdb with no extra options, by the initdb the template was made with, becomes a copy (any
# other initdb runs as usual). The copy is what that initdb writes, except that every node
# shares one system identifier, as from 17 on.
if (defined $ENV{INITDB_TEMPLATE}
    && slurp_file($INC{'PostgreSQL/Test/Cluster.pm'}) !~ /INITDB_TEMPLATE/)
{
    my $template = $ENV{INITDB_TEMPLATE};
    my $made_by = -f "$template.initdb" ? slurp_file("$template.initdb") : '';
    chomp $made_by;
    my $initdb_bail = \&PostgreSQL::Test::Utils::system_or_bail;
    my $in_path = sub {
        for my $dir (split /:/, $ENV{PATH} // '') {
            return "$dir/$_[0]" if -x "$dir/$_[0]";
        }
        return '';
    };
    no warnings 'redefine';
    *PostgreSQL::Test::Utils::system_or_bail = sub {
        if (   @_ == 6 && $_[0] eq 'initdb' && $_[1] eq '-D' && "@_[3 .. 5]" eq '-A trust -N'
            && $made_by ne '' && $in_path->('initdb') eq $made_by)
        {
            note('initializing database system by copying initdb template');
            return $initdb_bail->('cp', '-RPp', $template, $_[2]);
        }
        return $initdb_bail->(@_);
    };
}

our @EXPORT_OK = qw(idseq_node switch_path standby_of promote_and_wait dump_ok restore_ok
  subscribe pgbench_ok pgbench_start psql_start crash_while_streaming psql_as alter_system
  not_increasing_sql count_above_mark markdown_blocks runbook_block runbook_ok node_ids_are
  mint repeated_ids sample keep_sample sampled above_before overlaps sample_over time_of
  past_lease_of no_repeated_ids wait_for_server);

# A new node with idseq, initialised, configured, started, and the extension created in
# database postgres. Options:
#   preload   => 1        shared_preload_libraries = 'idseq' (the shared-memory path)
#   node_id   => N        idseq.node_id = N
#   conf      => '...'    more postgresql.conf lines (after the two above)
#   streaming => 1 | 'logical'   init(allows_streaming => ...)
#   archiving => 1        init(has_archiving => 1): WAL archived into the node's archive_dir
#   start     => 0        configure only (no start, no extension)
#   extension => 0        start, but do not create the extension
sub idseq_node
{
    my ($name, %o) = @_;
    my $node = PostgreSQL::Test::Cluster->new($name);
    $node->init(($o{streaming} ? (allows_streaming => $o{streaming}) : ()),
        ($o{archiving} ? (has_archiving => 1) : ()));
    my $conf = '';
    $conf .= "shared_preload_libraries = 'idseq'\n" if $o{preload};
    $conf .= "idseq.node_id = $o{node_id}\n" if defined $o{node_id};
    $conf .= $o{conf} if defined $o{conf};
    $node->append_conf('postgresql.conf', $conf) if $conf ne '';
    return $node if defined $o{start} && !$o{start};
    $node->start;
    $node->safe_psql('postgres', 'CREATE EXTENSION idseq') unless defined $o{extension} && !$o{extension};
    return $node;
}

# Puts the node on one of the generator's two paths: 'shared' (idseq in
# shared_preload_libraries, the shared-memory path) or 'plain' (not preloaded, the path that
# keeps its state in sequences). Appends the setting and restarts the node, or starts it when
# it is not running. Tests that run on both paths loop over ('shared', 'plain').
sub switch_path
{
    my ($node, $path) = @_;
    die "unknown generator path '$path'" unless $path eq 'shared' || $path eq 'plain';
    $node->append_conf('postgresql.conf',
        "shared_preload_libraries = '" . ($path eq 'shared' ? 'idseq' : '') . "'\n");
    # pg_ctl status exits with 3 when no server runs in the data directory
    my $running = IPC::Run::run([ 'pg_ctl', 'status', '-D', $node->data_dir ], '>', \my $out, '2>', \my $err);
    if ($running) {
        $node->restart;
    } else {
        $node->start;
    }
}

# A streaming standby of $primary, started. Options:
#   backup => 'name'   the base backup to start from: reused when $primary already has it,
#                      else taken now (default: a new backup named after the standby)
#   conf   => '...'    postgresql.conf lines of the standby
#   start  => 0        do not start it
sub standby_of
{
    my ($primary, $name, %o) = @_;
    my $backup = $o{backup} // "${name}_base";
    $primary->backup($backup) unless -d $primary->backup_dir . "/$backup";
    my $standby = PostgreSQL::Test::Cluster->new($name);
    $standby->init_from_backup($primary, $backup, has_streaming => 1);
    $standby->append_conf('postgresql.conf', $o{conf}) if defined $o{conf};
    $standby->start unless defined $o{start} && !$o{start};
    return $standby;
}

# Promotes a standby and waits until it accepts writes.
sub promote_and_wait
{
    my ($node) = @_;
    $node->promote;
    $node->poll_query_until('postgres', 'SELECT NOT pg_is_in_recovery()')
      or die 'node ' . $node->name . ' was not promoted';
}

# pg_dump of database $db into $file, as a test named $name: custom format, or a plain SQL
# script with plain => 1. user => 'role' dumps as that role.
sub dump_ok
{
    my ($node, $db, $file, $name, %o) = @_;
    local $Test::Builder::Level = $Test::Builder::Level + 1;
    my $connstr = $node->connstr($db) . (defined $o{user} ? " user=$o{user}" : '');
    $node->command_ok([ 'pg_dump', ($o{plain} ? () : '-Fc'), '-f', $file, '-d', $connstr ], $name);
}

# Restores $file into database $db of $node, creating the database first, as a test named
# $name: a custom-format dump with pg_restore --exit-on-error, a plain one (plain => 1) with
# psql and ON_ERROR_STOP.
sub restore_ok
{
    my ($node, $db, $file, $name, %o) = @_;
    local $Test::Builder::Level = $Test::Builder::Level + 1;
    $node->safe_psql('postgres', "CREATE DATABASE $db");
    my $connstr = $node->connstr($db);
    $node->command_ok(
        $o{plain}
        ? [ 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-f', $file, '-d', $connstr ]
        : [ 'pg_restore', '--exit-on-error', '-d', $connstr, $file ],
        $name);
}

# Subscribes database $db of $sub to publication $publication of database $pubdb of $pub
# (subscription $subname, WITH options as a string, e.g. 'binary = true'), and waits for the
# initial table sync.
sub subscribe
{
    my ($sub, $db, $subname, $pub, $pubdb, $publication, $with) = @_;
    my $connstr = $pub->connstr . " dbname=$pubdb";
    $sub->safe_psql($db, "CREATE SUBSCRIPTION $subname CONNECTION '$connstr' PUBLICATION $publication"
          . (defined $with ? " WITH ($with)" : ''));
    # the tables' sync states live in the subscription's own database (the helper's default
    # is postgres, where it would find none to wait for)
    $sub->wait_for_subscription_sync($pub, $subname, $db);
}

# The pgbench command line of the options below.
my $scripts = 0;
sub pgbench_command
{
    my ($node, %o) = @_;
    my $file = $o{file};
    if (!defined $file) {
        $file = $node->basedir . '/pgbench_' . ++$scripts . '.sql';
        PostgreSQL::Test::Utils::append_to_file($file, $o{script});
    }
    my $protocol = $o{protocol} // 'prepared';
    return [ 'pgbench', '--no-vacuum', "--client=$o{clients}", '--jobs=' . ($o{jobs} // 2),
             (defined $o{transactions} ? "--transactions=$o{transactions}" : "--time=$o{time}"),
             ($protocol ne '' ? "--protocol=$protocol" : ()),
             (map { "--define=$_=$o{define}{$_}" } sort keys %{ $o{define} // {} }),
             "--file=$file", '--host=' . $node->host, '--port=' . $node->port, $o{db} // 'postgres' ];
}

# pgbench on $node as one test named $name, which passes when pgbench exits 0, processed every
# transaction and wrote nothing on stderr. Options:
#   clients, and transactions (per client) or time => seconds (then out is required)
#   script => SQL | file => path   the transaction (a script is written to a file of its own)
#   define => { var => value }     --define
#   jobs (default 2), protocol (default 'prepared'; '' for pgbench's default), db
#   out => [qr//], err => [qr//]   other expectations of stdout and stderr
sub pgbench_ok
{
    my ($node, $name, %o) = @_;
    local $Test::Builder::Level = $Test::Builder::Level + 1;
    my $out = $o{out};
    if (!defined $out) {
        my $total = $o{clients} * $o{transactions};
        $out = [qr{processed: $total/$total}];
    }
    $node->command_checks_all(pgbench_command($node, %o), 0, $out, $o{err} // [qr{^$}], $name);
}

# pgbench started in the background, for time => seconds or transactions => n per client
# (other options as pgbench_ok). Returns the IPC::Run handle and references to its stdout and
# stderr: finish the handle, then $? is pgbench's exit status.
sub pgbench_start
{
    my ($node, %o) = @_;
    my ($out, $err) = ('', '');
    my $h = IPC::Run::start(pgbench_command($node, %o), '>', \$out, '2>', \$err,
        IPC::Run::timeout($PostgreSQL::Test::Utils::timeout_default));
    return ($h, \$out, \$err);
}

# psql running $sql (psql -XAtq -c) in the background. Options: db (default postgres),
# fetch_count => n (results reach the client every n rows, before the statement ends).
# Returns the IPC::Run handle and references to its stdout and stderr.
sub psql_start
{
    my ($node, $sql, %o) = @_;
    my ($out, $err) = ('', '');
    my $h = IPC::Run::start(
        [ 'psql', '-XAtq', (defined $o{fetch_count} ? ('-v', "FETCH_COUNT=$o{fetch_count}") : ()),
          '-h', $node->host, '-p', $node->port, '-d', $o{db} // 'postgres', '-c', $sql ],
        '>', \$out, '2>', \$err, IPC::Run::timeout($PostgreSQL::Test::Utils::timeout_default));
    return ($h, \$out, \$err);
}

# Waits until $node answers a query again after a crash restart it is going through (a
# backend killed by a signal); false if it does not within the default timeout. A psql that
# cannot connect exits before reading its query from standard input, and the Cluster
# module's poll_query_until then dies writing it ("Broken pipe"): here each attempt is one
# query whose failure, of any kind, means "not yet".
sub wait_for_server
{
    my ($node) = @_;
    my $deadline = time + $PostgreSQL::Test::Utils::timeout_default;
    while (time < $deadline) {
        my $up = eval { $node->safe_psql('postgres', 'SELECT true') eq 't' };
        return 1 if $up;
        Time::HiRes::usleep(100_000);
    }
    return 0;
}

# Crashes $node (an immediate stop) under load: a client streams the values of $expr, one
# per row, as they are made, in a transaction that never commits; once the query $ready is
# true (a test named $name) and the client has read 100,000 bytes, the server stops and the
# client and $bench (the handle of a background pgbench) end with it. Returns the lines the
# client read: values no transaction committed, that the generator must never issue again.
sub crash_while_streaming
{
    my ($node, $bench, $expr, $ready, $name) = @_;
    local $Test::Builder::Level = $Test::Builder::Level + 1;
    my ($psql, $out) = psql_start($node, "SELECT $expr FROM (SELECT generate_series(1, 1000000000)) s", fetch_count => 100);
    ok($node->poll_query_until('postgres', $ready), $name);
    $psql->pump until length($$out) > 100000;
    $node->stop('immediate');
    $bench->finish;
    $psql->finish;
    return split /\n/, $$out;
}

# Runs $sql in database $db as $role; returns whether it succeeded, its stdout and stderr.
sub psql_as
{
    my ($node, $role, $db, $sql) = @_;
    my ($ret, $out, $err) = $node->psql($db, $sql, extra_params => [ '-U', $role ]);
    return ($ret == 0, $out, $err);
}

# ALTER SYSTEM SET of each 'name = value' (idseq loaded first, so that its settings are
# checked whether or not it is preloaded), then a reload. With wait => 1, returns once a new
# session sees every value (compared with pg_settings.setting, in the setting's base unit:
# 'idseq.snowflake_max_ahead_ms = 3000', not '3s'); dies if it never does.
sub alter_system
{
    my ($node, $settings, %o) = @_;
    $node->safe_psql('postgres',
        "LOAD 'idseq'; " . join('', map { "ALTER SYSTEM SET $_; " } @$settings) . 'SELECT pg_reload_conf();');
    return unless $o{wait};
    for my $s (@$settings) {
        my ($name, $value) = $s =~ /^\s*([\w.]+)\s*(?:=|TO)\s*(.*?)\s*$/i or die "cannot read setting '$s'";
        $value =~ s/^'(.*)'$/$1/s;
        $value =~ s/'/''/g;
        # (psql prints LOAD's command tag before the result)
        $node->poll_query_until('postgres',
            "LOAD 'idseq'; SELECT setting = '$value' FROM pg_settings WHERE name = '$name'", "LOAD\nt")
          or die "$name did not become $value";
    }
}

# SQL: how many ids drawn by a backend are not above the one the same backend drew before,
# over the rows of $table WHERE $where, whose columns record the id ($id, default id), the
# backend (pid), its transaction (xid, pg_current_xact_id()) and the row within it (g).
sub not_increasing_sql
{
    my ($table, $where, $id) = @_;
    $id //= 'id';
    return "(SELECT count(*) FROM (SELECT $id <= lag($id) OVER (PARTITION BY pid ORDER BY xid, g) AS bad "
      . "FROM $table WHERE $where) s WHERE bad)";
}

# How many ids of $table WHERE $where lie beyond the durable high-water mark that sequence
# $seq holds: an id's unit is id >> $shift; a mark inside a unit is 2^41 plus the packed unit,
# node and counter, >> $mark_shift giving its unit (one more than $shift when the layout's
# 63 bits drop the counter's low bit), else the mark is a unit.
sub count_above_mark
{
    my ($node, $db, $table, $where, $seq, $shift, $mark_shift) = @_;
    return $node->safe_psql($db, qq{SELECT count(*) FROM $table WHERE $where AND
        id >> $shift > (SELECT CASE WHEN last_value >= 1::bigint << 41
                                    THEN (last_value - (1::bigint << 41)) >> $mark_shift
                                    ELSE last_value END FROM "$seq")});
}

# The fenced blocks of a Markdown file, in order, each a hash: tag (the fence's info string,
# '' for none), text, line (the line number of its first line of text), followed (a non-blank
# line stands between it and the next block) and runbook (the name of a line
# "<!-- runbook: name -->" right before its fence, blank lines between allowed). A fence is
# a line that starts with ``` (t/099_docs.pl runs the ```sql blocks and checks the markers).
sub markdown_blocks
{
    my ($path) = @_;
    open my $fh, '<', $path or die "$path: $!";
    my @lines = <$fh>;
    close $fh;
    my (@out, $cur, $tag, $start, $marker);
    for my $i (0 .. $#lines) {
        my $l = $lines[$i];
        if (!defined $cur) {
            if ($l =~ /^```(\S*)\s*$/) {
                ($cur, $tag, $start) = ('', $1, $i + 1);
            } elsif ($l !~ /^\s*$/) {
                $out[-1]{followed} = 1 if @out;
                $marker = $l =~ /^<!--\s*runbook:\s*(\S+)\s*-->\s*$/ ? $1 : undef;
            }
        } elsif ($l =~ /^```\s*$/) {
            push @out, { tag => $tag, text => $cur, line => $start, runbook => $marker };
            undef $cur;
            undef $marker;
        } else {
            $cur .= $l;
        }
    }
    return @out;
}

# docs/operations.md, the operators' runbook, beside this file's directory.
my $runbook_path = dirname(__FILE__) . '/../docs/operations.md';

# The block of docs/operations.md marked "<!-- runbook: $name -->" (a hash as
# markdown_blocks gives); dies unless exactly one block has that name.
sub runbook_block
{
    my ($name) = @_;
    my @b = grep { ($_->{runbook} // '') eq $name } markdown_blocks($runbook_path);
    die "docs/operations.md has " . scalar(@b) . " blocks marked 'runbook: $name'" unless @b == 1;
    return $b[0];
}

# Runs the block of docs/operations.md marked "runbook: $name" as printed, as a test named
# "$what: runbook $name". Only placeholders the page names are filled in, the way its reader
# fills them in: an sh block runs in bash (-e, -u: a placeholder left unset is an error, -o
# pipefail) with the environment variables env => { NAME => value }, and libpq's PGHOST and
# PGPORT of node => $node when given; any other block is psql input, run in database db
# (default postgres) of node => $node with the psql variables vars => { name => value }, and
# stopping at the first error. Returns the block's standard output (psql's: unaligned,
# tuples only), and in list context its standard error too.
sub runbook_ok
{
    my ($name, $what, %o) = @_;
    local $Test::Builder::Level = $Test::Builder::Level + 1;
    my $block = runbook_block($name);
    my ($ok, $out, $err);
    if ($block->{tag} eq 'sh') {
        local %ENV = (%ENV, %{ $o{env} // {} },
            ($o{node} ? (PGHOST => $o{node}->host, PGPORT => $o{node}->port) : ()));
        ($out, $err) = ('', '');
        $ok = IPC::Run::run([ 'bash', '-euo', 'pipefail', '-c', $block->{text} ], '>', \$out, '2>', \$err,
            IPC::Run::timeout($PostgreSQL::Test::Utils::timeout_default));
        note("runbook $name: $_") for split /\n/, $out . $err;
    } else {
        die "runbook $name: a SQL block needs node =>" unless $o{node};
        my $ret;
        ($ret, $out, $err) = $o{node}->psql($o{db} // 'postgres', $block->{text},
            extra_params => [ map { ('-v', "$_=$o{vars}{$_}") } sort keys %{ $o{vars} // {} } ]);
        $ok = $ret == 0 && $err !~ /^(psql:<stdin>:\d+: )?(ERROR|FATAL|PANIC):/m;
    }
    ok($ok, "$what: runbook $name") or diag("stdout: $out\nstderr: $err");
    return wantarray ? ($out, $err) : $out;
}

# Checks with the runbook's own check (its block check-node-id, run as printed) that each
# database of %$want on $node issues its ids with the node id given for it, once new sessions
# see the configuration reloaded before (pg_reload_conf() only signals the postmaster; up to
# 30 s): a test per database, named "$what: database db issues with node id N".
sub node_ids_are
{
    my ($node, $want, $what) = @_;
    local $Test::Builder::Level = $Test::Builder::Level + 1;
    my $check = runbook_block('check-node-id')->{text};
    for my $db (sort keys %$want) {
        for (1 .. 300) {
            last if $node->safe_psql($db, $check) eq $want->{$db};
            Time::HiRes::usleep(100_000);
        }
        my $out = runbook_ok('check-node-id', "$what, database $db", node => $node, db => $db);
        is($out, $want->{$db}, "$what: database $db issues with node id $want->{$db}");
    }
}

# Draws $n snowflake ids (layout snowflake) in database $db of $node in one statement, into
# table minted (label, g, id), created where missing, rows labelled $label with g counting
# 1 .. $n in the order drawn, and returns them in that order (an array reference). With
# at => a timestamptz literal, the session's clock is set to that instant first
# (idseq.test_clock_offset_ms, taken and used in one block, so that no round trip of a loaded
# machine lies between them).
sub mint
{
    my ($node, $db, $label, $n, %o) = @_;
    my $offset = defined $o{at}
      ? "PERFORM set_config('idseq.test_clock_offset_ms', (-extract(epoch FROM clock_timestamp() - "
      . "'$o{at}'::timestamptz) * 1000)::bigint::text, false);"
      : '';
    # spread_ms: the ids drawn over at least that long (100 pauses), so that a sample drawn
    # later with its clock at this one's first id starts within its time even when the later
    # sample's first reservation is slow (a loaded machine)
    my $pause = $o{spread_ms}
      ? ", LATERAL (SELECT pg_sleep(CASE WHEN g % greatest($n / 100, 1) = 0 THEN $o{spread_ms} / 100000.0 ELSE 0 END)) p"
      : '';
    $node->safe_psql($db, qq{
        CREATE TABLE IF NOT EXISTS minted (label text, g bigint, id bigint);
        DO \$\$ BEGIN $offset
            INSERT INTO minted SELECT '$label', g, snowflake_nextval() FROM generate_series(1, $n) g$pause;
        END \$\$});
    return [ split /\n/, $node->safe_psql($db, "SELECT id FROM minted WHERE label = '$label' ORDER BY g") ];
}

# How many ids of the given lists (array references) repeat an id found before them, in the
# same list or an earlier one: 0 when all are distinct.
sub repeated_ids
{
    my %seen;
    my $repeated = 0;
    for my $list (@_) {
        $seen{$_}++ && $repeated++ for @$list;
    }
    return $repeated;
}

# ---- samples of snowflake ids drawn on several servers, checked together ----
# Each sample has a label, unique in the test file, and is kept where it was drawn (or read),
# once: a copy of its rows on another server (a clone, a restore, a standby) is the same ids.
my %samples;

sub max_id { my $m; for (@_) { $m = $_ if !defined $m || $_ > $m } return $m; }
sub min_id { my $m; for (@_) { $m = $_ if !defined $m || $_ < $m } return $m; }

# Draws a sample with mint (options: n => count, default 20000; at => instant; spread_ms =>
# the least time its ids span) and keeps it;
# a test that its ids increase in the order drawn. Returns the ids.
sub sample
{
    my ($node, $db, $label, %o) = @_;
    local $Test::Builder::Level = $Test::Builder::Level + 1;
    die "sample $label exists" if $samples{$label};
    my $ids = mint($node, $db, $label, delete $o{n} // 20000, %o);
    my $bad = grep { $ids->[$_] <= $ids->[ $_ - 1 ] } 1 .. $#$ids;
    is($bad, 0, "$label: " . scalar(@$ids) . ' ids, increasing');
    $samples{$label} = $ids;
    return $ids;
}

# Keeps ids drawn another way (by pgbench, seen by a client) as sample $label.
sub keep_sample
{
    my ($label, $ids) = @_;
    die "sample $label exists" if $samples{$label};
    $samples{$label} = $ids;
}

# The ids of sample $label.
sub sampled { return $samples{ $_[0] } // die "no sample $_[0]"; }

# A test that every id of sample $new lies above every id database $db of $node held before it
# (the rows of minted under other labels).
sub above_before
{
    my ($node, $db, $new, $what) = @_;
    local $Test::Builder::Level = $Test::Builder::Level + 1;
    my $before = $node->safe_psql($db, "SELECT max(id) FROM minted WHERE label <> '$new'");
    cmp_ok(min_id(@{ sampled($new) }), '>', $before, "$what: every id of $new is above every id $db held before");
}

# The instant of snowflake id $id, as a timestamptz literal (for mint's at); idseq is in
# database postgres of $node, as idseq_node makes it.
sub time_of
{
    my ($node, $id) = @_;
    return $node->safe_psql('postgres', "SELECT snowflake_timestamp($id)");
}

# A test that sample $new starts within the time of sample $old: with one node id their ids
# would meet, so the attack is real whatever the machine's speed.
sub overlaps
{
    my ($node, $new, $old) = @_;
    local $Test::Builder::Level = $Test::Builder::Level + 1;
    my ($within, $first, $last) = split /\|/, $node->safe_psql('postgres',
        'SELECT snowflake_timestamp(a) <= snowflake_timestamp(b), snowflake_timestamp(a), snowflake_timestamp(b) '
        . 'FROM (VALUES (' . sampled($new)->[0] . '::bigint, ' . max_id(@{ sampled($old) }) . '::bigint)) v(a, b)');
    is($within, 't', "$new starts within the time units of $old ($first <= $last)");
}

# Draws sample $new in database $db of $node with its clock set to the first id of sample
# $old, which its ids must not meet: tests that it starts within $old's time units (overlaps)
# and lies above every id $db held before (above_before).
sub sample_over
{
    my ($node, $db, $new, $old, $what) = @_;
    local $Test::Builder::Level = $Test::Builder::Level + 1;
    sample($node, $db, $new, at => time_of($node, sampled($old)->[0]));
    overlaps($node, $new, $old);
    above_before($node, $db, $new, $what);
}

# Sleeps on $node until its clock is past the newest of @ids plus its lease
# (idseq.snowflake_lease_ms), so that its next ids lie beyond every mark those ids were issued
# under.
sub past_lease_of
{
    my ($node, @ids) = @_;
    my $newest = max_id(@ids);
    $node->safe_psql('postgres', "LOAD 'idseq'; SELECT pg_sleep_until(snowflake_timestamp($newest)
        + current_setting('idseq.snowflake_lease_ms')::interval + interval '50 ms')");
}

# A test that no id of every sample kept is issued twice.
sub no_repeated_ids
{
    my ($what) = @_;
    local $Test::Builder::Level = $Test::Builder::Level + 1;
    my @labels = sort keys %samples;
    my $total = 0;
    $total += @{ $samples{$_} } for @labels;
    my $repeated = repeated_ids(map { $samples{$_} } @labels);
    is($repeated, 0, "$what: no id issued twice among $total ids of " . scalar(@labels) . ' samples')
      or diag("$repeated ids issued again");
}

1;
