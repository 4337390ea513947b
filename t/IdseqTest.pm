# The cluster set-ups the TAP files share: a node with idseq (preloaded or not, with a node
# id), the switch between the generator's two paths, a streaming standby and its promotion,
# pg_dump and restore between clusters, logical subscriptions, pgbench runs in the foreground
# and in the background, a psql client left running, settings changed by ALTER SYSTEM and a
# reload, and the SQL that checks drawn ids. Each file loads it with
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
use IPC::Run;
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
  not_increasing_sql count_above_mark);

# A new node with idseq, initialised, configured, started, and the extension created in
# database postgres. Options:
#   preload   => 1        shared_preload_libraries = 'idseq' (the shared-memory path)
#   node_id   => N        idseq.node_id = N
#   conf      => '...'    more postgresql.conf lines (after the two above)
#   streaming => 1 | 'logical'   init(allows_streaming => ...)
#   start     => 0        configure only (no start, no extension)
#   extension => 0        start, but do not create the extension
sub idseq_node
{
    my ($name, %o) = @_;
    my $node = PostgreSQL::Test::Cluster->new($name);
    $node->init($o{streaming} ? (allows_streaming => $o{streaming}) : ());
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
    $sub->wait_for_subscription_sync($pub, $subname);
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

1;
