// Snowflake ids across the databases of one server: the node id each database issues with
// (idseq.node_id, or its own one from idseq.node_id_by_database), and the server-wide claim
// that keeps two databases from issuing the same ids.
//
// A generator's marks are per database and layout: two databases of one server issuing ids of
// one layout definition with one node id would issue the same ids unless they share one
// stream. With preload they do (the server's shared-memory stream of the pair: see "Databases
// sharing a stream" in sf_generator.cpp), and no claim is taken. Without preload, or
// for a pair that found no free slot, the first database that issues a definition's ids with
// a node id claims the pair for the server, and any other database is refused until it has a
// node id of its own (idseq.node_id_by_database), the claiming database is dropped, or the
// holder has been idle for ten leases. A stream writes the pair's claim file too when it is
// set up: the claim of its layout while one layout of one database joined it, kStreamsClaim
// once another one joins (stream_history, note_stream_shared), so that a later start knows
// whether one database or several issued the pair.
//
// Without shared_preload_libraries there is no shared memory, and a claim must outlive
// restarts and crashes anyway, so a claim is a file in the data directory,
//
//     $PGDATA/idseq_snowflake_claims/<definition>-node<N>     (or -nonode)
//
// named by the exact definition (epoch, unit, every field's width and shift: not a hash) and
// the node id, holding the claiming database's OID and the name of the layout that claimed it
// there. Within the claiming database, another layout name with the same definition (a twin,
// whatever path registered it: snowflake_create_layout refuses one, but a registry row added
// the way a restore does, or a restored 1.2 database, can hold one) would issue the same ids
// under its own marks, so it is refused as long as the claiming layout exists. It is read and
// written under a
// heavyweight lock on a tag with database 0 (every backend of the server takes the same one),
// written to a temporary file, flushed and renamed durably, before any id of the pair is
// issued. A claim whose database no longer exists (pg_database is a shared catalog) is taken
// over. A backend checks a layout's claim once per node id (Entry::claim_node): a claim held
// by this backend's own database moves only when this database is dropped.
//
// Scope: the directory is a plain file tree, copied by a base backup and by pg_basebackup
// (so a standby made after a claim refuses as its primary did, also after promotion), but
// not WAL-logged: a claim made after a standby was set up, or the claims of a cluster given
// to pg_upgrade, are not carried. So the files only decide which database issues a pair's
// ids; that no id is issued twice rests on WAL alone: a database that takes a claim restarts
// above the server's fence first (sf_fence.cpp), and a holder checks its claim again
// at every reservation, so that one whose file was lost stops once another database takes it.
// A damaged file stops every database rather than count as no claim. See docs/snowflake.md.
#include "sf_internal.h"

#include "citus.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <fcntl.h>
#include <sys/stat.h>
#include <utime.h>
#include <unistd.h>

extern "C" {
#include "miscadmin.h"
#include "commands/dbcommands.h"
#include "access/xlog.h"
#include "storage/fd.h"
#include "utils/guc.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"
}

namespace snowflake {
namespace {

// ---- idseq.node_id_by_database ------------------------------------------------------------------

char* node_id_by_database_guc = nullptr;

struct DatabaseNode {
    char name[NAMEDATALEN];
    int node;
};

// The parsed setting (the GUC's extra, from the allocator PostgreSQL frees it with).
struct DatabaseNodes {
    int count; // -1: the value does not parse (see keep_invalid_value), for the reason in invalid
    char invalid[256];
    DatabaseNode items[FLEXIBLE_ARRAY_MEMBER];
};

const DatabaseNodes* database_nodes = nullptr;

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

const char* skip_spaces(const char* p)
{
    while (is_space(*p))
        p++;
    return p;
}

// A database name: a double-quoted one ("" for a quote; any character) or a bare run of
// characters other than spaces, commas and equals signs. Names are compared exactly, as
// PostgreSQL compares database names (no case folding).
bool parse_name(const char*& p, char* out)
{
    int len = 0;
    if (*p == '"') {
        for (p++;; p++) {
            if (*p == '\0')
                return false;
            if (*p == '"') {
                if (p[1] != '"')
                    break;
                p++;
            }
            if (len >= NAMEDATALEN - 1)
                return false;
            out[len++] = *p;
        }
        p++;
    } else {
        while (*p && !is_space(*p) && *p != ',' && *p != '=') {
            if (len >= NAMEDATALEN - 1)
                return false;
            out[len++] = *p++;
        }
    }
    out[len] = '\0';
    return len > 0;
}

// Parses the setting into parsed (capacity entries); on an error, its reason in why.
bool parse_database_nodes(const char* p, DatabaseNodes* parsed, char* why, size_t why_size)
{
    parsed->count = 0;
    p = skip_spaces(p);
    while (*p) {
        DatabaseNode& item = parsed->items[parsed->count];
        if (!parse_name(p, item.name)) {
            snprintf(why, why_size,
                     "Each entry is a database name, \"=\" and a node id, separated by commas, such as "
                     "'app=5, reporting=6'; a name longer than %d bytes is not a database name.",
                     NAMEDATALEN - 1);
            return false;
        }
        p = skip_spaces(p);
        char* end = nullptr;
        long node = -1;
        if (*p == '=') {
            p = skip_spaces(p + 1);
            errno = 0;
            node = (*p >= '0' && *p <= '9') ? strtol(p, &end, 10) : -1;
        }
        if (!end || errno != 0 || node < 0 || node > INT_MAX) {
            snprintf(why, why_size, "The node id of database \"%s\" must be an integer from 0 to %d, written after \"=\".",
                     item.name, INT_MAX);
            return false;
        }
        item.node = (int) node;
        for (int i = 0; i < parsed->count; i++) {
            if (strcmp(parsed->items[i].name, item.name) == 0) {
                snprintf(why, why_size, "Database \"%s\" is listed twice.", item.name);
                return false;
            }
            if (parsed->items[i].node == item.node) {
                snprintf(why, why_size, "Databases \"%s\" and \"%s\" are both given node id %d; each database needs its own.",
                         parsed->items[i].name, item.name, item.node);
                return false;
            }
        }
        parsed->count++;
        p = skip_spaces(end);
        if (*p == ',')
            p = skip_spaces(p + 1);
        else if (*p) {
            snprintf(why, why_size, "Expected a comma after the node id of database \"%s\".", item.name);
            return false;
        }
    }
    return true;
}

// While idseq's module initialisation defines the setting (at server start with preload, in
// each session without): a value read from the configuration files that does not parse is
// kept, as invalid, rather than refused. Refused, PostgreSQL would log a warning and run with
// no per-database node ids at all, so that a typo would let every listed database issue ids
// with idseq.node_id -- another database's. Kept, it stops every snowflake_nextval of a
// layout with a node field until it is corrected (effective_node_id). ALTER SYSTEM and a
// reload still refuse such a value (a reload keeps the value before it).
bool keep_invalid_value = false;

bool check_node_id_by_database(char** newval, void** extra, GucSource)
{
    const char* p = *newval ? *newval : "";
    int capacity = 1;
    for (const char* q = p; *q; q++)
        capacity += *q == ',';
    DatabaseNodes* parsed =
        (DatabaseNodes*) IDSEQ_GUC_MALLOC(offsetof(DatabaseNodes, items) + sizeof(DatabaseNode) * capacity);
    if (!parsed) {
        GUC_check_errcode(ERRCODE_OUT_OF_MEMORY);
        GUC_check_errmsg("out of memory");
        return false;
    }
    if (!parse_database_nodes(p, parsed, parsed->invalid, sizeof parsed->invalid)) {
        if (!keep_invalid_value) {
            GUC_check_errdetail("%s", parsed->invalid);
            IDSEQ_GUC_FREE(parsed);
            return false;
        }
        parsed->count = -1;
        ereport(LOG, (errmsg("invalid value for parameter \"idseq.node_id_by_database\": \"%s\"", p),
                      errdetail("%s", parsed->invalid),
                      errhint("No database issues snowflake ids with a node id until it is corrected.")));
    }
    *extra = parsed;
    return true;
}

// Counts assignments: a new value's extra may be allocated where the old one was freed, so
// the pointer alone does not tell that the value changed.
uint64 assignments = 0;

void assign_node_id_by_database(const char*, void* extra)
{
    database_nodes = (const DatabaseNodes*) extra;
    assignments++;
}

// This backend's database name (a database connected to cannot be renamed) and the node id
// idseq.node_id_by_database gives it, as of the setting's last assignment.
char my_database_name[NAMEDATALEN];
uint64 looked_up_at = 0; // the assignment listed_node was found for (0: none yet)
int listed_node = -1; // -1: not listed

// ---- Claims ---------------------------------------------------------------------------------------

constexpr const char* kClaimDir = "idseq_snowflake_claims";
// The layout name of a claim written by the set-up of a shared stream: the pair was issued on
// this server, by whichever databases shared the stream.
constexpr const char* kStreamClaim = "(stream)";
// ... and of one that more than one database joined, or whose history was not known.
constexpr const char* kStreamsClaim = "(streams)";

// The claim's file name: the definition spelled out, then the node id (-1: the layout has none).
void claim_path(const Definition& d, int32 node, char* out, size_t size)
{
    int n = snprintf(out, size, "%s/e" INT64_FORMAT "-u" INT64_FORMAT, kClaimDir, d.epoch_us, d.unit_us);
    for (int f = 0; f < idseq::kFieldCount; f++)
        n += snprintf(out + n, size - n, "-%d.%d", d.width[f], d.shift[f]);
    if (node < 0)
        snprintf(out + n, size - n, "-nonode");
    else
        snprintf(out + n, size - n, "-node%d", node);
}

// The database OID a claim file holds, in layout the name of the layout that claimed it
// (empty when the file names none), in touched when its holder last confirmed it (the file's
// modification time), and in timeline the WAL timeline it was written on (0: not recorded);
// InvalidOid when there is no file. A file that holds no
// claim (damaged: cut short, emptied, overwritten) is an error, not a free claim: which
// database issues these ids can no longer be told, so none is let on until an administrator
// removes the file.
Oid read_claim(const char* path, char* layout, time_t& touched, uint32& timeline)
{
    layout[0] = '\0';
    timeline = 0;
    int fd = OpenTransientFile(path, O_RDONLY | PG_BINARY);
    if (fd < 0) {
        if (errno != ENOENT)
            ereport(ERROR, (errcode_for_file_access(), errmsg("could not open file \"%s\": %m", path)));
        return InvalidOid;
    }
    struct stat st;
    touched = fstat(fd, &st) == 0 ? st.st_mtime : 0;
    char buf[32 + NAMEDATALEN];
    ssize_t got = read(fd, buf, sizeof buf - 1);
    int saved_errno = errno;
    CloseTransientFile(fd);
    if (got < 0) {
        errno = saved_errno;
        ereport(ERROR, (errcode_for_file_access(), errmsg("could not read file \"%s\": %m", path)));
    }
    buf[got] = '\0';
    char* end = nullptr;
    unsigned long oid = strtoul(buf, &end, 10);
    bool ok = end != buf && oid <= UINT32_MAX && OidIsValid((Oid) oid);
    if (ok && *end == ' ') { // "<oid> <layout>\n" or "<oid> <layout> t<timeline>\n"
        char* name = end + 1;
        char* nl = strchr(name, '\n');
        ok = nl && nl[1] == '\0';
        if (ok) {
            *nl = '\0';
            char* sp = strrchr(name, ' ');
            if (sp && sp[1] == 't' && sp[2] >= '0' && sp[2] <= '9') {
                char* tend = nullptr;
                const unsigned long t = strtoul(sp + 2, &tend, 10);
                ok = *tend == '\0' && t <= UINT32_MAX;
                timeline = (uint32) t;
                *sp = '\0';
            }
            ok = ok && strlen(name) < NAMEDATALEN;
            if (ok)
                strlcpy(layout, name, NAMEDATALEN);
        }
    } else {
        ok = ok && end[0] == '\n' && end[1] == '\0';
    }
    if (!ok)
        ereport(ERROR,
                (errcode(ERRCODE_DATA_CORRUPTED),
                 errmsg("snowflake claim file \"%s\" is damaged", path),
                 errdetail("It does not hold the database that issues these ids, so no database may issue them."),
                 errhint("Remove the file. The next database to issue these ids takes the claim and continues above "
                         "the server's snowflake fence, above every id issued before.")));
    return (Oid) oid;
}

// Writes a file durably: a temporary file, flushed, renamed over it, the directory flushed
// (durable_rename). Errors are ERRORs.
void write_durably(const char* path, const char* buf, int len)
{
    char tmp[MAXPGPATH + 8];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    int fd = OpenTransientFile(tmp, O_WRONLY | O_CREAT | O_TRUNC | PG_BINARY);
    if (fd < 0)
        ereport(ERROR, (errcode_for_file_access(), errmsg("could not create file \"%s\": %m", tmp)));
    errno = 0;
    if (write(fd, buf, len) != len) {
        int saved_errno = errno ? errno : ENOSPC;
        CloseTransientFile(fd);
        errno = saved_errno;
        ereport(ERROR, (errcode_for_file_access(), errmsg("could not write file \"%s\": %m", tmp)));
    }
    if (pg_fsync(fd) != 0) {
        int saved_errno = errno;
        CloseTransientFile(fd);
        errno = saved_errno;
        ereport(data_sync_elevel(ERROR), (errcode_for_file_access(), errmsg("could not fsync file \"%s\": %m", tmp)));
    }
    CloseTransientFile(fd);
    (void) durable_rename(tmp, path, ERROR); // flushes the file again and the directory
}

// ---- Whether the directory still holds every claim ever made ----------------------------------
//
// A database that takes a pair no file names restarts above the server's fence, because the
// pair may have been issued elsewhere and its claim lost (a standby made before it, a
// pg_upgrade, a deleted file). That costs up to a lease of drift, which a pair that was never
// issued on this server need not pay -- the common case, a layout's first id. The directory's
// record, "record", says when none can have been lost: it is written when the directory is
// made, then holds the timeline it was made on, whether the fence was still 0 then (nothing
// issued on the server before it), and how many claims were written since. A missing pair is
// taken without the fence's drift only while all three still hold: the same timeline (a
// promotion or a point-in-time recovery starts a new one), a directory made on a server that
// had issued nothing, and as many claim files as were written (none deleted). Anything else --
// no record, a damaged one, another count -- takes the fence, as before; the record can only
// spare drift, never let an id repeat that the fence would have stopped.
constexpr const char* kRecord = "idseq_snowflake_claims/record";

struct ClaimRecord {
    bool ok = false;
    uint32 timeline = 0;
    int fresh = 0;
    long count = 0;
};

ClaimRecord read_record()
{
    ClaimRecord r;
    int fd = OpenTransientFile(kRecord, O_RDONLY | PG_BINARY);
    if (fd < 0)
        return r;
    char buf[128];
    ssize_t got = read(fd, buf, sizeof buf - 1);
    CloseTransientFile(fd);
    if (got <= 0)
        return r;
    buf[got] = '\0';
    unsigned int tli = 0;
    int fresh = 0;
    long count = -1;
    char end = 0;
    if (sscanf(buf, "idseq claims 1 timeline %u fresh %d count %ld%c", &tli, &fresh, &count, &end) == 4 && end == '\n' &&
        count >= 0) {
        r.ok = true;
        r.timeline = tli;
        r.fresh = fresh;
        r.count = count;
    }
    return r;
}

void write_record(const ClaimRecord& r)
{
    char buf[128];
    int len = snprintf(buf, sizeof buf, "idseq claims 1 timeline %u fresh %d count %ld\n", r.timeline, r.fresh, r.count);
    write_durably(kRecord, buf, len);
}

long count_claim_files()
{
    long n = 0;
    DIR* dir = AllocateDir(kClaimDir);
    struct dirent* de;
    while ((de = ReadDir(dir, kClaimDir)) != NULL)
        if (de->d_name[0] == 'e' && strstr(de->d_name, ".tmp") == nullptr)
            n++;
    FreeDir(dir);
    return n;
}

// Whether a pair that no file names was never issued on this server (see above).
bool never_claimed_here()
{
    const ClaimRecord r = read_record();
    return r.ok && r.fresh == 1 && r.timeline == GetWALInsertionTimeLine() && r.count == count_claim_files();
}

// Writes the claim durably before any id of the pair is issued, the directory made first
// (with its record) when it is missing, and the record's count raised for a new pair.
void write_claim(const char* path, Oid db, const char* layout, bool new_pair)
{
    if (MakePGDirectory(kClaimDir) == 0) {
        fsync_fname(kClaimDir, true);
        fsync_fname(".", true); // the directory's entry in the data directory
        ClaimRecord r;
        r.timeline = GetWALInsertionTimeLine();
        r.fresh = fence_read(1) == 0 && fence_read(INT64_MAX) == 0;
        write_record(r);
    } else if (errno != EEXIST) {
        ereport(ERROR, (errcode_for_file_access(), errmsg("could not create directory \"%s\": %m", kClaimDir)));
    }
    char buf[48 + NAMEDATALEN];
    int len = snprintf(buf, sizeof buf, "%u %s t%u\n", db, layout, GetWALInsertionTimeLine());
    write_durably(path, buf, len);
    if (new_pair) {
        ClaimRecord r = read_record();
        if (r.ok) { // a record that cannot be read stays so: every missing pair takes the fence
            r.count++;
            write_record(r);
        }
    }
}

// The heavyweight lock every backend of the server takes to read or write a claim: an
// advisory tag with database 0 (pg_advisory_lock always names the current database) and a
// field4 of idseq's own (pg_advisory_lock uses 1 and 2).
void claim_lock_tag(LOCKTAG& tag) { SET_LOCKTAG_ADVISORY(tag, InvalidOid, 0x1D5E0F1A, 0, 71); }

// How long a claim's holder may issue none of its ids before another database may take it:
// ten leases (or run-aheads), at least ten seconds. A holder confirms its claim at every
// reservation, and reserves at least once per lease while it issues ids.
int64 claim_idle_seconds()
{
    const int64 lease_s = (lease_us() + 999999) / 1000000;
    return std::max<int64>(10, 10 * lease_s);
}

// What lets two databases issue the pair's ids at once: the shared stream, which needs idseq
// in shared_preload_libraries (no shared memory without it) and a free slot.
const char* stream_remedy()
{
    if (!shared)
        return "Add idseq to shared_preload_libraries and restart the server: the databases of a server then share "
               "one stream of each layout's ids and never issue the same id.";
    return psprintf("All %d shared-memory slots of the snowflake generator are in use, so this layout has no shared "
                    "stream: raise idseq.snowflake_max_layouts and restart the server.",
                    shared->capacity);
}

[[noreturn]] void refuse(const Entry* e, int32 node, Oid holder, const char* path)
{
    const char* holder_name = get_database_name(holder);
    const char* dbname = get_database_name(MyDatabaseId);
    if (node < 0)
        ereport(ERROR,
                (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
                 errmsg("snowflake layout \"%s\" is already issuing ids in database \"%s\" of this server", e->name,
                        holder_name ? holder_name : "?"),
                 errdetail("The layout has no node field, and without a shared stream the ids of two databases of one "
                           "server would collide. The claim is recorded in file \"%s\" of the data directory; it "
                           "moves to another database once its holder has issued none of these ids for %lld s.",
                           path, (long long) claim_idle_seconds()),
                 errhint("%s Or issue this layout's ids in one database of the server only.", stream_remedy())));
    ereport(ERROR,
            (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
             errmsg("snowflake layout \"%s\" with node id %d is already issuing ids in database \"%s\" of this server",
                    e->name, node, holder_name ? holder_name : "?"),
             errdetail("Without a shared stream, two databases of one server issuing ids of the same layout with the "
                       "same node id would issue the same ids. The claim is recorded in file \"%s\" of the data "
                       "directory; it moves to another database once its holder has issued none of these ids for "
                       "%lld s.",
                       path, (long long) claim_idle_seconds()),
             errhint("%s Or give database \"%s\" a node id of its own, one that no other database or server uses, "
                     "in the server configuration (idseq.node_id_by_database = '%s=N'), and reload it with SELECT "
                     "pg_reload_conf().",
                     stream_remedy(), dbname, dbname)));
    pg_unreachable();
}

} // namespace

namespace {

// On a Citus cluster, a node with no idseq.node_id takes its group's: Citus gives every
// worker group a number of its own (pg_dist_local_group; the coordinator's is 0), which a
// promoted replica of the worker keeps, as it keeps the worker's marks. A worker that no
// coordinator has added yet has group 0 too, so a group counts only once the cluster's node
// list names it. Read once per session (a group number changes only when a node is added).
int32 citus_node = -1;

int32 server_node_id()
{
    if (node_id_guc >= 0)
        return node_id_guc;
    if (citus_node < 0) {
        const int32 group = idseq::pg::citus_local_group();
        if (group >= 0 && idseq::pg::citus_lists_group(group))
            citus_node = group;
    }
    return citus_node;
}

} // namespace

int32 effective_node_id()
{
    const DatabaseNodes* nodes = database_nodes;
    if (nodes && nodes->count < 0)
        ereport(ERROR,
                (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                 errmsg("idseq.node_id_by_database is invalid: \"%s\"", node_id_by_database_guc),
                 errdetail("%s No database takes a node id while it is invalid.", nodes->invalid),
                 errhint("Correct it in postgresql.conf or with ALTER SYSTEM, and reload with SELECT pg_reload_conf().")));
    if (!nodes || nodes->count == 0)
        return server_node_id();
    if (looked_up_at != assignments) {
        if (my_database_name[0] == '\0') {
            const char* name = get_database_name(MyDatabaseId);
            if (!name)
                return server_node_id();
            strlcpy(my_database_name, name, NAMEDATALEN);
        }
        listed_node = -1;
        for (int i = 0; i < nodes->count; i++)
            if (strcmp(nodes->items[i].name, my_database_name) == 0)
                listed_node = nodes->items[i].node;
        looked_up_at = assignments;
    }
    return listed_node >= 0 ? listed_node : server_node_id();
}

namespace {

// Whether the layout of that name exists in this database (the schema of e's guard, which is
// the extension's).
bool layout_exists(const Entry* e, const char* name)
{
    const Oid nsp = get_rel_namespace(OidIsValid(e->guard_relid) ? e->guard_relid : e->state_relid);
    return OidIsValid(nsp) && layout_if_known(name, strlen(name), nsp) != nullptr;
}

[[noreturn]] void refuse_twin(const Entry* e, const char* holder_layout)
{
    ereport(ERROR,
            (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
             errmsg("snowflake layout \"%s\" has the definition of layout \"%s\", which issues these ids in this "
                    "database",
                    e->name, holder_layout),
             errdetail("Two names of one layout definition keep separate marks, so they would issue the same ids."),
             errhint("Issue these ids with snowflake_nextval('%s').", holder_layout)));
    pg_unreachable();
}

} // namespace

void claim_layout(Entry* e, int32 node)
{
    if (!e->has_node)
        node = -1;
    if (e->claim_node == node)
        return;
    // idseq_uuidv7()'s generator claims nothing: every database of a server may mint UUIDs,
    // and their 62 random bits keep two databases' UUIDs apart.
    if (strcmp(e->name, kUuidv7Entry) == 0) {
        e->claim_node = node;
        return;
    }
    char path[MAXPGPATH];
    claim_path(definition_of(e->layout), node, path, sizeof path);
    LOCKTAG tag;
    claim_lock_tag(tag);
    (void) LockAcquire(&tag, ExclusiveLock, false, false);
    AcceptInvalidationMessages(); // a database dropped before the lock was taken is seen as gone
    char holder_layout[NAMEDATALEN];
    time_t touched = 0;
    uint32 timeline = 0;
    const Oid holder = read_claim(path, holder_layout, touched, timeline);
    // A claim of this database written on another timeline is a copy, from before a promotion
    // or a point-in-time recovery (a base backup carries the files): another database may
    // have taken the pair over on the old primary since, and issued ids this database's mark
    // knows nothing of. It is taken again, above the fence, as a claim of nobody.
    // A claim a shared stream wrote (kStreamClaim) names no database that issues the pair
    // alone: every database of a run with preload may have issued it. Taken again likewise.
    const bool stale = (holder == MyDatabaseId && timeline != GetWALInsertionTimeLine()) ||
        (OidIsValid(holder) && (strcmp(holder_layout, kStreamClaim) == 0 || strcmp(holder_layout, kStreamsClaim) == 0));
    if (holder != MyDatabaseId || stale) {
        if (!stale && OidIsValid(holder) && SearchSysCacheExists1(DATABASEOID, ObjectIdGetDatum(holder))) {
            const int64 idle_s = int64(time(nullptr)) - int64(touched);
            if (idle_s <= claim_idle_seconds())
                refuse(e, node, holder, path); // the lock goes with the transaction
            // Its holder has issued none of these ids for a while (it confirms the claim at
            // every reservation): a claim is not held by a database that no longer uses it.
            // Safe to move: this database continues above the fence, and the holder, should
            // it come back, is refused at its next reservation or takes the claim back above
            // the fence in its turn.
            const char* holder_name = get_database_name(holder);
            ereport(NOTICE, (errmsg("snowflake layout \"%s\" %s now issues its ids in this database", e->name,
                                    node >= 0 ? psprintf("with node id %d", node) : "(no node field)"),
                             errdetail("Database \"%s\" held the claim but issued none of these ids for %lld s.",
                                       holder_name ? holder_name : "?", (long long) idle_s)));
        }
        // No claim yet, a claim of a dropped or idle database, or a copy of this database's
        // from another timeline: another database may have issued these ids (a claim lost
        // with a failover, a pg_upgrade or a deleted file), and this database's own mark
        // knows nothing of them. The fence does.
        const bool new_pair = !OidIsValid(holder); // (a stale claim of ours is no new pair)
        if (!new_pair || !never_claimed_here())
            restart_above_fence(e, node); // first: a claim must not be on disk before this is done
        write_claim(path, MyDatabaseId, e->name, new_pair);
    } else if (strcmp(holder_layout, e->name) != 0) {
        if (holder_layout[0] != '\0' && layout_exists(e, holder_layout))
            refuse_twin(e, holder_layout);
        restart_above_fence(e, node); // the claiming layout is gone (DROP EXTENSION), and its mark with it
        write_claim(path, MyDatabaseId, e->name, false);
    } else if (utime(path, nullptr) != 0) {
        // The holder confirms its claim (claim_idle_seconds). Not fatal: a claim that looks
        // idle moves above the fence, and this database is then refused at its next reservation.
        ereport(LOG, (errcode_for_file_access(), errmsg("could not touch file \"%s\": %m", path)));
    }
    LockRelease(&tag, ExclusiveLock, false);
    e->claim_node = node;
}

StreamHistory stream_history(const Entry* e, int32 node, bool& multi)
{
    if (!e->has_node)
        node = -1;
    char path[MAXPGPATH];
    claim_path(definition_of(e->layout), node, path, sizeof path);
    LOCKTAG tag;
    claim_lock_tag(tag);
    (void) LockAcquire(&tag, ExclusiveLock, false, false);
    char holder_layout[NAMEDATALEN];
    time_t touched = 0;
    uint32 timeline = 0;
    const Oid holder = read_claim(path, holder_layout, touched, timeline);
    StreamHistory history = StreamHistory::Unknown;
    multi = false;
    // A stream one layout of one database joined keeps (or writes) that layout's own claim, as
    // the path without preload writes it: a later start, with or without preload, then goes on
    // above that layout's mark.
    if (!OidIsValid(holder)) {
        if (never_claimed_here())
            history = StreamHistory::Never;
        write_claim(path, MyDatabaseId, e->name, true);
    } else if (holder == MyDatabaseId && timeline == GetWALInsertionTimeLine() && strcmp(holder_layout, e->name) == 0) {
        history = StreamHistory::Mine; // this layout of this database alone issued the pair
    } else {
        multi = true;
        if (strcmp(holder_layout, kStreamsClaim) != 0 || timeline != GetWALInsertionTimeLine())
            write_claim(path, MyDatabaseId, kStreamsClaim, false);
    }
    LockRelease(&tag, ExclusiveLock, false);
    return history;
}

void note_stream_shared(const Entry* e, int32 node)
{
    if (!e->has_node)
        node = -1;
    char path[MAXPGPATH];
    claim_path(definition_of(e->layout), node, path, sizeof path);
    LOCKTAG tag;
    claim_lock_tag(tag);
    (void) LockAcquire(&tag, ExclusiveLock, false, false);
    write_claim(path, MyDatabaseId, kStreamsClaim, false);
    LockRelease(&tag, ExclusiveLock, false);
}

void recheck_claim(Entry* e, int32 node)
{
    e->claim_node = INT32_MIN;
    claim_layout(e, e->has_node ? node : -1);
}

void define_node_id_by_database()
{
    keep_invalid_value = true; // until node_ids_defined(), after the module's own reads of the files
    DefineCustomStringVariable(
        "idseq.node_id_by_database", "Node ids of single databases of this server in snowflake ids.",
        "A list such as 'app=5, reporting=6': each database named gets its own node id; the others use "
        "idseq.node_id. Two databases of one server may not issue the same layout's ids with the same node id. "
        "Settable only in the server configuration.",
        &node_id_by_database_guc, "", PGC_SIGHUP, GUC_LIST_INPUT, check_node_id_by_database,
        assign_node_id_by_database, NULL);
}

void node_ids_defined() { keep_invalid_value = false; }

} // namespace snowflake
