// Snowflake ids: layouts, pack/unpack, and the generator's two paths.
//
// A generator is per database and layout (layouts live in the database's registry; see the
// README for that scope). Its state:
//
//   H  the durable high-water mark, a time unit: every id ever issued has unit <= H. It is the
//      value of the layout's state sequence (WAL-logged), moved with setval() and flushed
//      with XLogFlush() -- and, when synchronous_standby_names is set, flushed by the
//      synchronous standbys whatever the session's synchronous_commit -- BEFORE any id under
//      it is issued (confirm_mark). Crash recovery replays it, a streaming standby replays
//      it, pg_dump dumps it. A reservation moves H to max(the unit, now + the lease)
//      (idseq.snowflake_lease_ms), so one flush covers a lease's worth of ids and H is never
//      more than a lease ahead of the clock unless the ids are. Reservations, and every read
//      of H that ids are issued under, hold a heavyweight lock on the layout, and H as read
//      is confirmed again before use: a reservation whose wait for the standbys was cancelled
//      leaves its mark in the sequence, unconfirmed, and errors out without issuing or
//      publishing anything.
//   P  the last id issued by the path without shared memory: the value of the layout's
//      UNLOGGED last-id sequence, or "unknown" (is_called = false). A crash or a promotion
//      resets an unlogged relation, so P becomes unknown by itself.
//   S  the shared-memory GenState of the fast path (lost at every restart, except that the
//      postmaster saves it in a file at a clean shutdown, for the next start only; see
//      "Clean shutdown" below).
//
// Fast path (idseq in shared_preload_libraries): one slot per (database, layout) holds S under
// a spinlock; each id is one core step (next()) under it, clock read included -- no WAL, no
// buffer lock. A step that needs a reservation moves H (outside the spinlock) and publishes
// it in S. The first use of a slot after a start takes the layout's lock, reads H, sets P to
// unknown and does restart_from(S, H).
// Slow path (no preload, or no free slot): each id locks P's buffer (an LWLock, as nextval
// locks its sequence's), rebuilds the state from P -- or, when P is unknown, restarts from
// H as the backend first read it -- runs the same core step, writes the new id into P and
// unlocks. Reservations and waits for the clock happen with the buffer unlocked, then the
// step starts over.
//
// Why no id is ever issued twice or out of order, on either path and across switches
// (a switch needs a restart, since shared_preload_libraries is fixed while a server runs;
// within one run a (database, layout) pair keeps its path, because slots are never freed):
//  1. Every id is issued under a unit the durable H covers, and H never decreases.
//  2. While the slow path runs, P is the greatest id issued since P was last unknown (P's
//     buffer lock serialises read-step-write).
//  3. Whenever P is unknown or the fast path starts, the state restarts from a value of H
//     read after the event that lost the state: the next id goes into a unit above it, so
//     above every id issued before (1), whichever path issued it.
//  4. The fast path sets P to unknown before it issues anything, so a later slow path never
//     resumes from a P older than the fast path's ids; a crash or promotion resets P anyway.
//  5. A clean restart keeps P (unlogged relations survive it) only if no fast path ran
//     since P was written (4), so P is then still the greatest id issued.
//  6. A start that takes S from the file saved at a clean shutdown does so only when the
//     control file still shows that shutdown and no recovery follows, so nothing was issued
//     since S was saved: S is then the greatest id issued by the fast path, which alone
//     issued that layout's ids in that run (P was unknown, 4).
// The core's unit test SnowflakeDurable.BothPathsCrashesRestartsAndNodeChangesNeverRepeat
// runs this model with crashes, restarts, path switches, clock jumps and node changes.
#include "error.h"
#include "snowflake.h"

#include <climits>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <string>
#include <unordered_map>

#include "boundary.h"
#include "errors.h"
#include "module.h"
#include "registry.h"

extern "C" {
#include "access/htup_details.h"
#include "access/relation.h"
#include "access/xact.h"
#include "access/xlog.h"
#include "catalog/pg_class.h"
#include "catalog/pg_type.h"
#include "commands/dbcommands.h"
#include "commands/sequence.h"
#include "common/md5.h"
#include "common/pg_prng.h"
#include "datatype/timestamp.h"
#include "executor/spi.h"
#include "replication/syncrep.h"
#include "replication/walsender.h"
#include "replication/walsender_private.h"
#include "storage/ipc.h"
#include "storage/fd.h"
#include "catalog/pg_control.h"
#include "access/xlog_internal.h"
#include "port/pg_crc32c.h"
#include "miscadmin.h"
#include "storage/lmgr.h"
#include "storage/bufmgr.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"
#include "storage/spin.h"
#include "utils/fmgrprotos.h"
#include "utils/guc.h"
#include "utils/guc_tables.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/regproc.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"

PG_FUNCTION_INFO_V1(snowflake_nextval);
PG_FUNCTION_INFO_V1(snowflake_pack);
PG_FUNCTION_INFO_V1(snowflake_unpack);
PG_FUNCTION_INFO_V1(snowflake_timestamp);
PG_FUNCTION_INFO_V1(snowflake_min_id);
PG_FUNCTION_INFO_V1(idseq_snowflake_check);
PG_FUNCTION_INFO_V1(idseq_snowflake_check_new);
PG_FUNCTION_INFO_V1(snowflake_create_layout);
PG_FUNCTION_INFO_V1(idseq_snowflake_builtin_layouts);
PG_FUNCTION_INFO_V1(idseq_snowflake_describe);
}

using idseq::Field;
using idseq::GenState;
using idseq::Layout;
using idseq::Step;
using idseq::pg::run;

namespace {

// ---- GUCs -----------------------------------------------------------------------------------

int node_id_guc = -1;
int lease_ms_guc = 1000;
int clock_offset_ms_guc = 0;
int max_layouts_guc = 128; // shared-memory slots, fixed at server start

constexpr int64 kUnixToPgEpochUs = INT64CONST(946684800000000); // 1970-01-01 to 2000-01-01

int64 now_unix_us()
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return int64(t.tv_sec) * 1000000 + t.tv_nsec / 1000 + int64(clock_offset_ms_guc) * 1000;
}

// ---- Running core code where ereport is not allowed (under a spinlock) ------------------------

idseq::pg::CaughtError spin_error;

// Runs core code, catching everything; the caller releases its spinlock, then reports.
template <class F>
bool guarded(F&& body) noexcept
{
    try {
        body();
        return true;
    } catch (const idseq::Error& e) {
        idseq::pg::capture(spin_error, e.kind(), e.what(), e.detail().c_str(), e.hint().c_str());
    } catch (const std::bad_alloc&) {
        idseq::pg::capture(spin_error, idseq::ErrorKind::Limit, "out of memory", "", "");
    } catch (const std::exception& e) {
        idseq::pg::capture(spin_error, idseq::ErrorKind::Internal, e.what(), "", "");
    } catch (...) {
        idseq::pg::capture(spin_error, idseq::ErrorKind::Internal, "unexpected C++ exception in idseq", "", "");
    }
    return false;
}

// ---- Shared memory --------------------------------------------------------------------------

struct Slot {
    // The key, written once under the table lock before the slot is counted in used.
    Oid db;
    char name[NAMEDATALEN];
    // Everything below is protected by mutex.
    slock_t mutex;
    bool ready; // state was set up from H for these relations and this definition
    Oid state_relid;
    Oid last_relid;
    uint64 fingerprint;
    GenState state;
    int64 last_node;
    bool saved; // not ready: state and last_node are the ones saved at the last clean shutdown
    // The unit a backend is spinning on the clock for (see wait_for_unit); no lock.
    pg_atomic_uint64 spinner_unit;
};

// The table's header; its idseq.snowflake_max_layouts slots follow it.
struct Shared {
    int used;
    int capacity;
    bool full_reported; // the warning that the slots are used up was given (once per start)
};

Shared* shared;
Slot* slots;
LWLock* table_lock;
shmem_request_hook_type prev_shmem_request_hook;
shmem_startup_hook_type prev_shmem_startup_hook;

Size shmem_size()
{
    return add_size(MAXALIGN(sizeof(Shared)), mul_size(sizeof(Slot), (Size) max_layouts_guc));
}

void load_saved_states();
void save_states_at_shutdown(int code, Datum);

void shmem_request()
{
    if (prev_shmem_request_hook)
        prev_shmem_request_hook();
    RequestAddinShmemSpace(shmem_size());
    RequestNamedLWLockTranche("idseq_snowflake", 1);
}

void shmem_startup()
{
    if (prev_shmem_startup_hook)
        prev_shmem_startup_hook();
    LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
    bool found;
    shared = (Shared*) ShmemInitStruct("idseq_snowflake", shmem_size(), &found);
    slots = (Slot*) ((char*) shared + MAXALIGN(sizeof(Shared)));
    if (!found) {
        memset(static_cast<void*>(shared), 0, shmem_size());
        shared->capacity = max_layouts_guc;
        for (int i = 0; i < shared->capacity; i++) {
            Slot& s = slots[i];
            SpinLockInit(&s.mutex);
            s.state = GenState{};
            s.last_node = -1;
            pg_atomic_init_u64(&s.spinner_unit, 0);
        }
    }
    table_lock = &GetNamedLWLockTranche("idseq_snowflake")->lock;
    LWLockRelease(AddinShmemInitLock);
    if (!IsUnderPostmaster && IsPostmasterEnvironment) { // the postmaster (not single-user mode)
        if (!found)
            load_saved_states();
        on_shmem_exit(save_states_at_shutdown, (Datum) 0);
    }
}

// The slot of (this database, name), taking a free one if needed; nullptr when none is free
// (the first time that happens after a start, a warning says so).
Slot* find_slot(const char* name)
{
    if (!shared)
        return nullptr;
    bool report = false;
    for (int pass = 0; pass < 2; pass++) {
        LWLockAcquire(table_lock, pass == 0 ? LW_SHARED : LW_EXCLUSIVE);
        for (int i = 0; i < shared->used; i++) {
            Slot* s = &slots[i];
            if (s->db == MyDatabaseId && strcmp(s->name, name) == 0) {
                LWLockRelease(table_lock);
                return s;
            }
        }
        if (pass == 1 && shared->used < shared->capacity) {
            Slot* s = &slots[shared->used];
            s->db = MyDatabaseId;
            strlcpy(s->name, name, NAMEDATALEN);
            pg_write_barrier();
            shared->used++;
            LWLockRelease(table_lock);
            return s;
        }
        if (pass == 1 && !shared->full_reported) {
            shared->full_reported = true;
            report = true;
        }
        LWLockRelease(table_lock);
    }
    if (report)
        ereport(WARNING,
                (errmsg("all %d shared-memory slots of the snowflake generator are in use", shared->capacity),
                 errdetail("Snowflake layout \"%s\" in database \"%s\", and every further layout, uses the slower "
                           "generator path without shared memory until the server restarts. This warning is "
                           "given once per server start.",
                           name, get_database_name(MyDatabaseId)),
                 errhint("Raise idseq.snowflake_max_layouts (a restart is needed); each slot serves one layout in "
                         "one database.")));
    return nullptr;
}

// ---- Clean shutdown: the fast path's exact state, carried to the next start -------------------
//
// Shared memory dies with the server, and a start without the saved state restarts every
// layout from H, up to a lease ahead of the clock: each clean restart would push ids further
// ahead. So the postmaster, as it exits after a clean shutdown (every backend gone, the
// shutdown checkpoint written), saves each slot's state -- its last id -- in a file, with the
// shutdown checkpoint's location. The next start takes the file only if the control file
// still shows that very clean shutdown and the server is not starting a recovery (no
// standby.signal, recovery.signal or backup_label): then no WAL was written or replayed
// since and no id was issued since, so the saved state is still the last id issued. The file
// is removed at every start before any backend runs, so it serves at most one start; a
// crash, an immediate stop, a promotion or a restore never finds a usable one and restarts
// from H as before.

constexpr const char* kSavedFile = "idseq_snowflake.state";
constexpr uint32 kSavedMagic = 0x1D5E0F1A;
constexpr uint32 kSavedVersion = 1;

struct SavedHeader {
    uint32 magic;
    uint32 version;
    uint32 entry_size;
    uint32 count;
    uint64 system_identifier;
    XLogRecPtr checkpoint;
    pg_crc32c crc; // of the entries
};

struct SavedEntry {
    Oid db;
    char name[NAMEDATALEN];
    Oid state_relid, last_relid;
    uint64 fingerprint;
    int64 last_unit, counter, last_node;
};

// The control file as the postmaster sees it, read without ereport (the postmaster may be
// exiting); false if it cannot be read or its CRC is wrong.
bool read_control_file(ControlFileData& cf)
{
    int fd = OpenTransientFile(XLOG_CONTROL_FILE, O_RDONLY | PG_BINARY);
    if (fd < 0)
        return false;
    bool ok = read(fd, &cf, sizeof cf) == (ssize_t) sizeof cf;
    CloseTransientFile(fd);
    if (!ok)
        return false;
    pg_crc32c crc;
    INIT_CRC32C(crc);
    COMP_CRC32C(crc, (char*) &cf, offsetof(ControlFileData, crc));
    FIN_CRC32C(crc);
    return EQ_CRC32C(crc, cf.crc);
}

pg_crc32c entries_crc(const SavedEntry* entries, uint32 count)
{
    pg_crc32c crc;
    INIT_CRC32C(crc);
    COMP_CRC32C(crc, (const char*) entries, sizeof(SavedEntry) * count);
    FIN_CRC32C(crc);
    return crc;
}

// on_shmem_exit in the postmaster: runs as it exits, also after a crash of a child (code 1,
// before shared memory is rebuilt) and after an immediate stop; the control file tells a
// clean shutdown apart.
void save_states_at_shutdown(int code, Datum)
{
    ControlFileData cf;
    if (code != 0 || !shared || !read_control_file(cf) || cf.state != DB_SHUTDOWNED)
        return;
    SavedEntry* entries = (SavedEntry*) palloc0(sizeof(SavedEntry) * shared->capacity);
    uint32 n = 0;
    for (int i = 0; i < shared->used && i < shared->capacity; i++) {
        const Slot* sl = &slots[i];
        if (!sl->ready && !sl->saved)
            continue;
        SavedEntry& x = entries[n++];
        x.db = sl->db;
        strlcpy(x.name, sl->name, NAMEDATALEN);
        x.state_relid = sl->state_relid;
        x.last_relid = sl->last_relid;
        x.fingerprint = sl->fingerprint;
        x.last_unit = sl->state.last_unit;
        x.counter = sl->state.counter;
        x.last_node = sl->last_node;
    }
    if (n == 0)
        return;
    SavedHeader h;
    memset(&h, 0, sizeof h);
    h.magic = kSavedMagic;
    h.version = kSavedVersion;
    h.entry_size = sizeof(SavedEntry);
    h.count = n;
    h.system_identifier = cf.system_identifier;
    h.checkpoint = cf.checkPoint;
    h.crc = entries_crc(entries, n);
    const char* tmp = "idseq_snowflake.state.tmp";
    int fd = OpenTransientFile(tmp, O_WRONLY | O_CREAT | O_TRUNC | PG_BINARY);
    bool ok = fd >= 0 && write(fd, &h, sizeof h) == (ssize_t) sizeof h &&
        write(fd, entries, sizeof(SavedEntry) * n) == (ssize_t) (sizeof(SavedEntry) * n) && pg_fsync(fd) == 0;
    if (fd >= 0)
        CloseTransientFile(fd);
    if (!ok || durable_rename(tmp, kSavedFile, LOG) != 0) {
        ereport(LOG, (errmsg("could not save the snowflake generators' state in file \"%s\"", kSavedFile),
                      errdetail("The next start continues their ids from the durable marks.")));
        unlink(tmp);
    }
}

// At the postmaster's start, before any backend: takes the saved states into free slots if
// they belong to this very clean shutdown, and removes the file in any case.
void load_saved_states()
{
    int fd = OpenTransientFile(kSavedFile, O_RDONLY | PG_BINARY);
    if (fd < 0)
        return;
    SavedHeader h;
    SavedEntry* entries = nullptr;
    bool ok = read(fd, &h, sizeof h) == (ssize_t) sizeof h && h.magic == kSavedMagic && h.version == kSavedVersion &&
        h.entry_size == sizeof(SavedEntry) && h.count <= (uint32) 10000; // idseq.snowflake_max_layouts at most
    if (ok) {
        entries = (SavedEntry*) palloc0(sizeof(SavedEntry) * (h.count + 1));
        ok = read(fd, entries, sizeof(SavedEntry) * h.count) == (ssize_t) (sizeof(SavedEntry) * h.count) &&
            EQ_CRC32C(entries_crc(entries, h.count), h.crc);
    }
    CloseTransientFile(fd);
    // Good for one start only: gone before anything can be issued, or it is not used.
    if (durable_unlink(kSavedFile, LOG) != 0)
        return;
    ControlFileData cf;
    struct stat st;
    ok = ok && read_control_file(cf) && cf.state == DB_SHUTDOWNED && cf.checkPoint == h.checkpoint &&
        cf.system_identifier == h.system_identifier && stat(STANDBY_SIGNAL_FILE, &st) != 0 &&
        stat(RECOVERY_SIGNAL_FILE, &st) != 0 && stat(BACKUP_LABEL_FILE, &st) != 0;
    if (!ok)
        return;
    for (uint32 i = 0; i < h.count && shared->used < shared->capacity; i++) {
        const SavedEntry& x = entries[i];
        Slot* sl = &slots[shared->used++];
        sl->db = x.db;
        strlcpy(sl->name, x.name, NAMEDATALEN);
        sl->state_relid = x.state_relid;
        sl->last_relid = x.last_relid;
        sl->fingerprint = x.fingerprint;
        sl->state = GenState{};
        sl->state.last_unit = x.last_unit;
        sl->state.counter = x.counter;
        sl->last_node = x.last_node;
        sl->ready = false;
        sl->saved = true;
    }
    ereport(LOG, (errmsg("snowflake generators continue from the state saved at the clean shutdown")));
}

// ---- Layouts and the per-backend cache ------------------------------------------------------

struct Entry {
    Layout layout;
    char name[NAMEDATALEN];
    bool valid = false;
    bool builtin = false;
    Oid state_relid = InvalidOid, last_relid = InvalidOid;
    Oid state_owner = InvalidOid;
    uint64 fingerprint = 0;
    Slot* slot = nullptr; // nullptr: the slow path
    bool slot_checked = false;
    bool has_node = false, has_rand = false;
    int64 max_node = 0;
    bool relations_checked = false;
    bool mark_read = false; // slow path: this backend's view of H ...
    int64 base_mark = -1; // ... as first read (the restart point while the last id is unknown)
    int64 mark = -1; // ... and as last read or written
    int64 last_clock_unit = INT64_MIN; // slow path: this backend's clock at its last id
    int64 last_warning_us = INT64_MIN;
};

// Never destroyed, so no destructor can be skipped by a longjmp; entries are never freed
// (an invalidated entry is reloaded in place), so pointers to them stay good.
std::unordered_map<std::string, Entry*>* cache;
bool loaded_in_xact;
bool callbacks_registered;

void invalidate(Oid relid)
{
    if (!cache)
        return;
    for (auto& kv : *cache) {
        Entry* e = kv.second;
        if (relid == InvalidOid || e->state_relid == relid || e->last_relid == relid)
            e->valid = false;
    }
}

void on_relcache(Datum, Oid relid) { invalidate(relid); }

void on_xact(XactEvent event, void*)
{
    if (event == XACT_EVENT_ABORT || event == XACT_EVENT_PARALLEL_ABORT) {
        if (loaded_in_xact) // forget what an aborted transaction may have created
            invalidate(InvalidOid);
        loaded_in_xact = false;
    } else if (event == XACT_EVENT_COMMIT || event == XACT_EVENT_PARALLEL_COMMIT || event == XACT_EVENT_PREPARE) {
        loaded_in_xact = false;
    }
}

void on_subxact(SubXactEvent event, SubTransactionId, SubTransactionId, void*)
{
    if (event == SUBXACT_EVENT_ABORT_SUB && loaded_in_xact)
        invalidate(InvalidOid);
}

void ensure_cache()
{
    if (!callbacks_registered) {
        CacheRegisterRelcacheCallback(on_relcache, (Datum) 0);
        RegisterXactCallback(on_xact, nullptr);
        RegisterSubXactCallback(on_subxact, nullptr);
        callbacks_registered = true;
    }
    if (!cache)
        run([&] { cache = new std::unordered_map<std::string, Entry*>(); });
}

Oid seq_owner(Oid relid)
{
    HeapTuple tp = SearchSysCache1(RELOID, ObjectIdGetDatum(relid));
    if (!HeapTupleIsValid(tp))
        return InvalidOid;
    Oid owner = ((Form_pg_class) GETSTRUCT(tp))->relowner;
    ReleaseSysCache(tp);
    return owner;
}

// Converts a timestamptz to microseconds since the Unix epoch; false if it is infinite or
// does not fit.
bool unix_us_from_pg(TimestampTz ts, int64& out)
{
    return !TIMESTAMP_NOT_FINITE(ts) && !pg_add_s64_overflow(ts, kUnixToPgEpochUs, &out);
}

TimestampTz pg_from_unix_us(int64 us)
{
    int64 ts;
    if (pg_sub_s64_overflow(us, kUnixToPgEpochUs, &ts) || !IS_VALID_TIMESTAMP(ts))
        ereport(ERROR, (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE), errmsg("timestamp out of range")));
    return ts;
}

// A layout's epoch; 22023 when it is infinite or past the microsecond range.
int64 epoch_us_of(TimestampTz epoch)
{
    int64 us;
    if (!unix_us_from_pg(epoch, us))
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                        errmsg("invalid snowflake layout epoch \"%s\"", timestamptz_to_str(epoch)),
                        errdetail("The epoch must be a finite timestamp.")));
    return us;
}

// A time unit in microseconds; 22023 for months (their length varies) or a huge interval.
int64 unit_us_of(const Interval* unit)
{
    __extension__ __int128 us = (__int128) unit->day * USECS_PER_DAY + unit->time;
    if (unit->month != 0 || us > INT64_MAX || us < INT64_MIN)
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                        errmsg("invalid snowflake time unit \"%s\"",
                               DatumGetCString(DirectFunctionCall1(interval_out, IntervalPGetDatum(unit)))),
                        errdetail(!IDSEQ_INTERVAL_IS_FINITE(unit) ? "A time unit must be finite."
                                  : unit->month != 0 ? "A time unit must have a fixed length, so it cannot count months or years."
                                                     : "The time unit is too long.")));
    return (int64) us;
}

Interval* interval_from_us(int64 us)
{
    Interval* iv = (Interval*) palloc0(sizeof(Interval));
    iv->time = us;
    return iv;
}

uint64 fingerprint_of(const Layout& l)
{
    uint64 h = (uint64) l.epoch_us * UINT64CONST(0x9E3779B97F4A7C15) ^ (uint64) l.unit_us;
    for (const idseq::FieldBits& f : l.fields)
        h = (h ^ (uint64) (f.width * 64 + f.shift)) * UINT64CONST(0x100000001B3);
    return h;
}

char* registry_relation(Oid nsp)
{
    return quote_qualified_identifier(get_namespace_name(nsp), "idseq_layout_registry");
}

// name need not be NUL-terminated: len bytes are shown, cut to a short prefix.
[[noreturn]] void unknown_layout(const char* name, size_t len, Oid nsp)
{
    StringInfoData known;
    initStringInfo(&known);
    run([&] {
        for (const Layout& l : idseq::builtin_layouts()) {
            if (known.len)
                appendStringInfoString(&known, ", ");
            appendStringInfoString(&known, l.name.c_str());
        }
    });
    char* sql = psprintf("SELECT pg_catalog.string_agg(name, ', ' ORDER BY name) FROM %s", registry_relation(nsp));
    if (idseq::pg::spi_query(sql, 0, nullptr, true) == 1) {
        char* custom = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1);
        if (custom)
            appendStringInfo(&known, ", %s", custom);
    }
    idseq::pg::spi_end();
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("unknown snowflake layout \"%s\"", idseq::pg::shown(name, len)),
                    errhint("Known layouts: %s. Create one with snowflake_create_layout().", known.data)));
    pg_unreachable();
}

// Fills e from the built-ins or the registry; false if there is no such layout.
bool load_entry(Entry* e, const char* name, Oid nsp)
{
    const Layout* builtin = nullptr;
    run([&] { builtin = idseq::builtin_layout(name); });
    if (builtin) {
        run([&] { e->layout = *builtin; });
        char* state_name = psprintf("idseq_sf_state_%s", name);
        char* last_name = psprintf("idseq_sf_last_%s", name);
        e->state_relid = get_relname_relid(state_name, nsp);
        e->last_relid = get_relname_relid(last_name, nsp);
    } else {
        char* sql = psprintf("SELECT epoch, fields, time_unit, state_seq::pg_catalog.oid, last_id_seq::pg_catalog.oid"
                             " FROM %s WHERE name OPERATOR(pg_catalog.=) $1",
                             registry_relation(nsp));
        const char* args[1] = {name};
        // Not read-only: a fresh snapshot sees a layout created earlier in this transaction.
        if (idseq::pg::spi_query(sql, 1, args, false) != 1) {
            idseq::pg::spi_end();
            return false;
        }
        HeapTuple t = SPI_tuptable->vals[0];
        TupleDesc d = SPI_tuptable->tupdesc;
        bool isnull;
        int64 epoch = epoch_us_of(DatumGetTimestampTz(SPI_getbinval(t, d, 1, &isnull)));
        char* fields = SPI_getvalue(t, d, 2);
        fields = (char*) SPI_palloc(strlen(fields) + 1);
        strcpy(fields, SPI_getvalue(t, d, 2));
        int64 unit = unit_us_of(DatumGetIntervalP(SPI_getbinval(t, d, 3, &isnull)));
        e->state_relid = DatumGetObjectId(SPI_getbinval(t, d, 4, &isnull));
        e->last_relid = DatumGetObjectId(SPI_getbinval(t, d, 5, &isnull));
        idseq::pg::spi_end();
        run([&] { e->layout = idseq::parse_layout(name, epoch, fields, unit); });
    }
    e->builtin = builtin != nullptr;
    strlcpy(e->name, name, NAMEDATALEN);
    e->state_owner = OidIsValid(e->state_relid) ? seq_owner(e->state_relid) : InvalidOid;
    e->has_node = e->layout.has(Field::Node);
    e->has_rand = e->layout.has(Field::Rand);
    e->max_node = e->layout.max_value(Field::Node);
    e->fingerprint = fingerprint_of(e->layout);
    e->mark_read = false;
    e->relations_checked = false;
    e->valid = true;
    loaded_in_xact = loaded_in_xact || IsTransactionState();
    return true;
}

// Whether a layout could have this name: built-in names and the registry's (its CHECK runs
// validate_layout_name) all pass. Reads at most NAMEDATALEN bytes of a name of any size.
bool possible_layout_name(const char* name, size_t len)
{
    if (len >= NAMEDATALEN)
        return false;
    bool ok = true;
    run([&] {
        try {
            idseq::validate_layout_name(std::string_view(name, len));
        } catch (const idseq::Error&) {
            ok = false;
        }
    });
    return ok;
}

// The cache holds an entry only for a name that was found: an unknown name is looked up in
// this spare, kept for the next miss, so a stream of unknown names allocates nothing.
Entry* spare;

Entry* entry_by_name(const char* name, size_t len, Oid nsp)
{
    if (!possible_layout_name(name, len)) // cheap: no lookup, no copy of a huge name
        unknown_layout(name, len, nsp);
    ensure_cache();
    char key[NAMEDATALEN];
    memcpy(key, name, len);
    key[len] = '\0';
    Entry* e = nullptr;
    run([&] {
        auto it = cache->find(std::string(key, len));
        e = it == cache->end() ? nullptr : it->second;
    });
    if (e && e->valid)
        return e;
    if (e) { // known before: reload in place, so the pointers to it stay good
        if (!load_entry(e, key, nsp))
            unknown_layout(key, len, nsp);
        return e;
    }
    if (!spare)
        run([&] { spare = new Entry(); });
    if (!load_entry(spare, key, nsp))
        unknown_layout(key, len, nsp);
    Entry* fresh = spare;
    run([&] { cache->emplace(std::string(key, len), fresh); });
    spare = nullptr;
    return fresh;
}

struct UnpackCall {
    TupleDesc desc; // blessed, in fn_mcxt
    bool returned; // the row went out; the next call ends the set
};

// Per call site (fn_extra): the layout named by the text argument, remembered across the
// calls of a query, and snowflake_unpack's state.
struct FnCache {
    Entry* entry;
    int len;
    char name[NAMEDATALEN];
    Datum arg; // the argument the entry was found for
    bool arg_checked, arg_stable; // whether the argument is a Const of the call (asked once)
    UnpackCall unpack;
};

FnCache* fn_cache(FunctionCallInfo fcinfo)
{
    if (!fcinfo->flinfo->fn_extra)
        fcinfo->flinfo->fn_extra = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(FnCache));
    return (FnCache*) fcinfo->flinfo->fn_extra;
}

// Whether the call's argument is a Const (as written, or a default filled in by the planner):
// then it is the same datum, unchanged, on every call through this FmgrInfo. Not a Param,
// unlike get_fn_expr_arg_stable: PL/pgSQL reuses a simple expression's state while the
// variable behind a Param changes, and a new value may sit at the old one's address.
bool arg_is_const(FmgrInfo* flinfo, int argno)
{
    Node* expr = flinfo->fn_expr;
    if (!expr || !IsA(expr, FuncExpr))
        return false;
    List* args = ((FuncExpr*) expr)->args;
    return argno < list_length(args) && IsA(list_nth(args, argno), Const);
}

Entry* entry_for(FunctionCallInfo fcinfo, int argno)
{
    FnCache* fc = fn_cache(fcinfo);
    // A Const argument (the layout name written in the call, or the default) is the same
    // datum on every call: then no need to read the name again.
    const Datum raw = PG_GETARG_DATUM(argno);
    if (fc->arg_stable && fc->arg == raw && fc->entry && fc->entry->valid)
        return fc->entry;
    if (!fc->arg_checked) {
        fc->arg_stable = arg_is_const(fcinfo->flinfo, argno);
        fc->arg_checked = true;
    }
    text* t = PG_GETARG_TEXT_PP(argno);
    const char* name = VARDATA_ANY(t);
    int len = VARSIZE_ANY_EXHDR(t);
    if (!(fc->entry && fc->len == len && memcmp(fc->name, name, len) == 0 && fc->entry->valid)) {
        fc->entry = entry_by_name(name, len, get_func_namespace(fcinfo->flinfo->fn_oid));
        fc->len = len;
        memcpy(fc->name, name, len);
    }
    fc->arg = raw;
    return fc->entry;
}

// ---- Sequences as the durable and the volatile store --------------------------------------------

void check_state_relations(const Entry* e)
{
    bool ok = OidIsValid(e->state_relid) && OidIsValid(e->last_relid) && OidIsValid(e->state_owner) &&
        get_rel_relkind(e->state_relid) == RELKIND_SEQUENCE && get_rel_relkind(e->last_relid) == RELKIND_SEQUENCE;
    if (!ok)
        ereport(ERROR, (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
                        errmsg("the state sequences of snowflake layout \"%s\" are missing", e->name),
                        errhint("Recreate the extension idseq, or restore the layout's sequences.")));
    // The proof in the header needs H to survive crashes and P to be reset by them.
    if (get_rel_persistence(e->state_relid) != RELPERSISTENCE_PERMANENT ||
        get_rel_persistence(e->last_relid) != RELPERSISTENCE_UNLOGGED)
        ereport(ERROR, (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
                        errmsg("the state sequences of snowflake layout \"%s\" have the wrong persistence", e->name),
                        errdetail("Sequence \"%s\" must be logged and sequence \"%s\" unlogged.",
                                  get_rel_name(e->state_relid), get_rel_name(e->last_relid)),
                        errhint("Change them back with ALTER SEQUENCE ... SET LOGGED or SET UNLOGGED.")));
}

// The page of one of our own sequences, locked, and its tuple (last_value, log_cnt,
// is_called), read and written in place as sequence.c does. Used for the reads of H and for
// P, the unlogged last-id sequence, which only this file writes: no ACL check, no per-backend
// sequence cache, one buffer lock. Release with UnlockReleaseBuffer.
Form_pg_sequence_data lock_seq_tuple(Relation rel, int mode, Buffer* buf)
{
    *buf = ReadBuffer(rel, 0);
    LockBuffer(*buf, mode);
    Page page = BufferGetPage(*buf);
    constexpr uint32 kSeqMagic = 0x1717; // sequence.c's SEQ_MAGIC
    if (PageGetSpecialSize(page) != MAXALIGN(sizeof(uint32)) || *(uint32*) PageGetSpecialPointer(page) != kSeqMagic ||
        PageGetMaxOffsetNumber(page) < FirstOffsetNumber || !ItemIdIsNormal(PageGetItemId(page, FirstOffsetNumber)))
        elog(ERROR, "bad page in sequence \"%s\"", RelationGetRelationName(rel));
    HeapTupleHeader t = (HeapTupleHeader) PageGetItem(page, PageGetItemId(page, FirstOffsetNumber));
    return (Form_pg_sequence_data) ((char*) t + t->t_hoff);
}

// A sequence's value and its page's LSN (the end of the WAL record that last set it); false
// when it was never set (is_called = false).
bool read_seq(Oid relid, int64& value, XLogRecPtr& lsn)
{
    Relation rel = relation_open(relid, AccessShareLock);
    Buffer buf;
    Form_pg_sequence_data seq = lock_seq_tuple(rel, BUFFER_LOCK_SHARE, &buf);
    bool called = seq->is_called;
    value = seq->last_value;
    lsn = BufferGetLSNAtomic(buf);
    UnlockReleaseBuffer(buf);
    relation_close(rel, NoLock);
    return called;
}

// Writes P, the unlogged last-id sequence (no WAL: it is meant to vanish with a crash).
void write_last_locked(Buffer buf, Form_pg_sequence_data seq, int64 value, bool is_called)
{
    START_CRIT_SECTION();
    seq->last_value = value;
    seq->is_called = is_called;
    seq->log_cnt = 0;
    MarkBufferDirty(buf);
    END_CRIT_SECTION();
}

void forget_last(const Entry* e)
{
    Relation rel = relation_open(e->last_relid, RowExclusiveLock);
    Buffer buf;
    Form_pg_sequence_data seq = lock_seq_tuple(rel, BUFFER_LOCK_EXCLUSIVE, &buf);
    write_last_locked(buf, seq, -1, false);
    UnlockReleaseBuffer(buf);
    relation_close(rel, NoLock);
}

// H as it stands in the sequence (-1 when nothing was ever reserved), and the LSN that makes
// it durable. It may not be durable yet: a reservation whose wait was cancelled leaves its
// mark behind. Read it only under the layout's lock, and confirm it before using it.
int64 read_mark(const Entry* e, XLogRecPtr& lsn)
{
    int64 h;
    return read_seq(e->state_relid, h, lsn) ? h : -1;
}

// The synchronous standbys have flushed the WAL up to lsn, or none is configured. This is
// the test SyncRepWaitForLSN makes before it waits (WalSndCtl->lsn[] is the position the
// synchronous standbys have confirmed); here it is made after the wait too, because the wait
// also ends, with a mere WARNING, on a query cancel, a termination or the postmaster's death.
bool standbys_confirmed(XLogRecPtr lsn)
{
    if (max_wal_senders == 0 || !SyncRepStandbyNames || SyncRepStandbyNames[0] == '\0')
        return true;
    LWLockAcquire(SyncRepLock, LW_SHARED);
    bool ok = lsn <= WalSndCtl->lsn[SYNC_REP_WAIT_FLUSH];
    LWLockRelease(SyncRepLock);
    return ok;
}

// Makes a mark durable before any id under it is issued: flushed to this server's WAL, and
// flushed by the synchronous standbys when synchronous_standby_names is set -- whatever this
// session's synchronous_commit says (local and off would skip the wait: it is set to on for
// the wait only, restored as a function's SET clause is). A wait that ends unconfirmed is an
// error, so that nothing is issued or published under the mark; the mark stays in the
// sequence, unconfirmed, and the next reader confirms it again.
void confirm_mark(const Entry* e, XLogRecPtr lsn)
{
    XLogFlush(lsn);
    if (standbys_confirmed(lsn))
        return;
    const int nest = NewGUCNestLevel();
    (void) set_config_option("synchronous_commit", "on", PGC_USERSET, PGC_S_SESSION, GUC_ACTION_SAVE, true, 0, false);
    SyncRepWaitForLSN(lsn, false);
    AtEOXact_GUC(true, nest);
    if (standbys_confirmed(lsn))
        return;
    CHECK_FOR_INTERRUPTS(); // a termination ends the session here
    ereport(ERROR, (errcode(ERRCODE_QUERY_CANCELED),
                    errmsg("canceling the wait for synchronous replication of snowflake layout \"%s\"", e->name),
                    errdetail("No id is issued under a reservation the synchronous standbys have not confirmed.")));
}

// H, made durable (confirm_mark). The caller holds the layout's lock.
int64 durable_mark(const Entry* e)
{
    XLogRecPtr lsn;
    int64 h = read_mark(e, lsn);
    confirm_mark(e, lsn);
    return h;
}

// Moves H to target with setval() (WAL-logged by sequence.c), as the sequence's owner so that
// callers need no privilege on it. Not durable yet: see confirm_mark. An error on the way
// restores the user with the transaction.
void write_mark(const Entry* e, int64 target)
{
    Oid saved_user;
    int saved_context;
    GetUserIdAndSecContext(&saved_user, &saved_context);
    SetUserIdAndSecContext(e->state_owner, saved_context | SECURITY_LOCAL_USERID_CHANGE | SECURITY_RESTRICTED_OPERATION);
    DirectFunctionCall3(setval3_oid, ObjectIdGetDatum(e->state_relid), Int64GetDatum(target), BoolGetDatum(true));
    SetUserIdAndSecContext(saved_user, saved_context);
}

int64 reservation_for(const Entry* e, int64 unit, int64 now_unit, int64 mark)
{
    int64 target = 0;
    run([&] {
        int64 lease = idseq::lease_units(e->layout, int64(lease_ms_guc) * 1000);
        target = std::max(idseq::reservation_target(e->layout, unit, now_unit, lease), mark);
    });
    return target;
}

// The heavyweight lock that serialises a layout's reservations and the first use of its
// shared-memory slot. A lock tag on our state sequence's pg_class OID; PostgreSQL locks
// relations under another tag type, so nothing else takes it. Unlike an LWLock it may be held
// across setval() and the flush, is interruptible and is released on error.
void lock_layout(const Entry* e) { LockDatabaseObject(RelationRelationId, e->state_relid, 0, ExclusiveLock); }
void unlock_layout(const Entry* e) { UnlockDatabaseObject(RelationRelationId, e->state_relid, 0, ExclusiveLock); }

// Makes H cover unit (reserving ahead by the lease); returns the durable H. H as read may be
// another reservation's that is not confirmed yet (its wait was cancelled): it is confirmed
// too before it is returned.
int64 reserve(const Entry* e, int64 unit, int64 now_unit)
{
    lock_layout(e);
    XLogRecPtr lsn;
    int64 mark = read_mark(e, lsn);
    if (mark < unit) {
        write_mark(e, reservation_for(e, unit, now_unit, mark));
        mark = read_mark(e, lsn);
    }
    confirm_mark(e, lsn);
    unlock_layout(e);
    return mark;
}

// ---- Warnings and waiting -------------------------------------------------------------------------

void warn_clock_back(Entry* e, int64 back_units, int64 unit, int64 now_us)
{
    if (e->last_warning_us != INT64_MIN && now_us - e->last_warning_us < 60 * INT64CONST(1000000) &&
        now_us >= e->last_warning_us)
        return; // once a minute per layout and backend
    e->last_warning_us = now_us;
    __extension__ __int128 back_us = (__int128) back_units * e->layout.unit_us;
    char amount[64];
    if (back_us % 1000 == 0 && back_us / 1000 <= INT64_MAX)
        snprintf(amount, sizeof amount, INT64_FORMAT " ms", (int64) (back_us / 1000));
    else
        snprintf(amount, sizeof amount, "%.3f ms", (double) back_us / 1000.0);
    int64 start = 0, pg_start;
    run([&] { start = idseq::unit_start_us(e->layout, unit); });
    const char* when = pg_sub_s64_overflow(start, kUnixToPgEpochUs, &pg_start) || !IS_VALID_TIMESTAMP(pg_start)
        ? "beyond the timestamp range" : timestamptz_to_str(pg_start);
    ereport(WARNING, (errmsg("system clock went back by %s", amount),
                      errdetail("Snowflake layout \"%s\" goes on issuing ids from its last time, %s, until the clock "
                                "catches up; they stay unique and increasing.",
                                e->name, when)));
}

// This backend's waiter: what its own sleeps showed about their overshoot.
idseq::ClockWaiter clock_waiter;

// Waits (outside every lock) until the clock reaches the unit: sleeps while it is far, spins
// on the clock for the last stretch, so the next unit's ids start on time (see ClockWaiter).
// On the fast path one backend per slot and unit spins, the first to claim the unit; the
// others only sleep (and may wake a little late): one backend on time is enough to use the
// unit's ids, and a crowd spinning would take the CPU from it. Returns early for a pending
// interrupt, which it then services.
void wait_for_unit(const Entry* e, int64 unit)
{
    int64 start = 0;
    run([&] { start = idseq::unit_start_us(e->layout, unit); });
    bool spin = true;
    if (e->slot) {
        uint64 seen = pg_atomic_read_u64(&e->slot->spinner_unit);
        spin = seen != (uint64) unit && pg_atomic_compare_exchange_u64(&e->slot->spinner_unit, &seen, (uint64) unit);
    }
    if (spin) {
        clock_waiter.wait_until(start, now_unix_us, [](int64 us) { pg_usleep((long) us); },
                                [] { return InterruptPending != 0; });
    } else {
        const int64 left = start - now_unix_us();
        if (left > 0)
            pg_usleep((long) std::min<int64>(left, idseq::ClockWaiter::kMaxSleepUs));
    }
    CHECK_FOR_INTERRUPTS();
}

int64 compose_id(const Entry* e, const Step& step, int32 node, uint64 rnd)
{
    int64 id = 0;
    run([&] { id = idseq::compose(e->layout, step.unit, node, step.counter, rnd); });
    return id;
}

// ---- The fast path ------------------------------------------------------------------------------

bool slot_matches(const Slot* s, const Entry* e)
{
    return s->ready && s->state_relid == e->state_relid && s->last_relid == e->last_relid &&
        s->fingerprint == e->fingerprint;
}

// First use of the slot since the server started (or since the layout's relations changed):
// restart from the durable mark, and make the slow path's last id unknown.
void init_slot(const Entry* e)
{
    Slot* s = e->slot;
    lock_layout(e);
    SpinLockAcquire(&s->mutex);
    bool ok = slot_matches(s, e);
    SpinLockRelease(&s->mutex);
    if (!ok) {
        int64 mark = durable_mark(e);
        forget_last(e);
        SpinLockAcquire(&s->mutex);
        // The state saved at a clean shutdown, for these relations and this definition: its
        // last id is the last one issued, so the ids go on from it, with no lease lost.
        const bool resume = s->saved && s->state_relid == e->state_relid && s->last_relid == e->last_relid &&
            s->fingerprint == e->fingerprint;
        if (s->fingerprint != e->fingerprint) // another definition: its units mean something else
            s->state = GenState{};
        bool done = guarded([&] {
            if (resume)
                s->state = idseq::resume_saved(s->state, mark);
            else
                idseq::restart_from(s->state, mark);
        });
        s->state_relid = e->state_relid;
        s->last_relid = e->last_relid;
        s->fingerprint = e->fingerprint;
        if (!resume)
            s->last_node = -1;
        s->saved = false;
        s->ready = done;
        SpinLockRelease(&s->mutex);
        if (!done)
            idseq::pg::report(spin_error);
    }
    unlock_layout(e);
}

void reserve_fast(const Entry* e, int64 unit, int64 now_unit)
{
    Slot* s = e->slot;
    int64 mark = reserve(e, unit, now_unit);
    SpinLockAcquire(&s->mutex);
    if (slot_matches(s, e) && s->state.reserved_unit < mark)
        s->state.reserved_unit = mark;
    SpinLockRelease(&s->mutex);
}

int64 nextval_fast(Entry* e, int32 node)
{
    Slot* s = e->slot;
    for (;;) {
        uint64 rnd = e->has_rand ? pg_prng_uint64(&pg_global_prng_state) : 0;
        Step step{};
        int64 now_us = 0, now_unit = 0;
        bool ready, ok = true;

        SpinLockAcquire(&s->mutex);
        ready = slot_matches(s, e);
        if (ready) {
            // The clock is read under the lock, so readings and issues are in one order and
            // a reading below the last one is a real step back of the clock.
            now_us = now_unix_us();
            ok = guarded([&] {
                now_unit = idseq::unit_of(e->layout, now_us);
                if (e->has_node && s->last_node != node)
                    idseq::finish_unit(s->state); // the node id changed: a new unit keeps ids increasing
                step = idseq::next(e->layout, s->state, now_unit, rnd);
            });
            if (ok && step.kind == Step::Issue)
                s->last_node = node;
        }
        SpinLockRelease(&s->mutex);

        if (!ready) {
            init_slot(e);
            continue;
        }
        if (!ok)
            idseq::pg::report(spin_error);
        switch (step.kind) {
        case Step::Issue:
            if (step.clock_back > 0)
                warn_clock_back(e, step.clock_back, step.unit, now_us);
            return compose_id(e, step, node, rnd);
        case Step::NeedReservation:
            reserve_fast(e, step.unit, now_unit);
            break;
        case Step::WaitForClock:
            wait_for_unit(e, step.unit);
            break;
        }
        CHECK_FOR_INTERRUPTS();
    }
}

// ---- The slow path -----------------------------------------------------------------------------------

// Every id: lock P's page, rebuild the state from P (or from H when P is unknown), one core
// step, write the new id into P, unlock. The buffer lock serialises the backends as nextval's
// does; reservations and waits happen with it released, then the step starts over.
int64 nextval_slow(Entry* e, int32 node)
{
    if (!e->mark_read) {
        // This backend's view of H, read once: every id issued before the last id became
        // unknown (a crash, a promotion, a run with shared memory -- all before this backend
        // started) is within it, so it is the restart point while the last id is unknown.
        // Read under the layout's lock and confirmed: a reservation in progress holds the lock
        // until its mark is durable, and one whose wait was cancelled left its mark unconfirmed.
        lock_layout(e);
        e->base_mark = e->mark = durable_mark(e);
        unlock_layout(e);
        e->mark_read = true;
    }
    Relation rel = relation_open(e->last_relid, RowExclusiveLock);
    for (;;) {
        const uint64 rnd = e->has_rand ? pg_prng_uint64(&pg_global_prng_state) : 0;
        Buffer buf;
        Form_pg_sequence_data last = lock_seq_tuple(rel, BUFFER_LOCK_EXCLUSIVE, &buf);
        const bool known = last->is_called;
        const int64 last_id = last->last_value;
        const int64 now_us = now_unix_us();
        int64 now_unit = 0, id = 0;
        Step step{};
        bool ok = guarded([&] {
            GenState st = idseq::rebuild_state(e->layout, known, last_id, e->base_mark, e->mark, node);
            now_unit = idseq::unit_of(e->layout, now_us);
            step = idseq::next(e->layout, st, now_unit, rnd);
            if (step.kind == Step::Issue)
                id = idseq::compose(e->layout, step.unit, node, step.counter, rnd);
        });
        if (ok && step.kind == Step::Issue)
            write_last_locked(buf, last, id, true);
        UnlockReleaseBuffer(buf);
        if (!ok)
            idseq::pg::report(spin_error);

        if (step.kind == Step::Issue) {
            relation_close(rel, NoLock);
            // Without shared memory the last clock reading is this backend's own: a step
            // back is noticed by every backend that issues ids across it.
            const int64 back = e->last_clock_unit != INT64_MIN && now_unit < e->last_clock_unit
                ? e->last_clock_unit - now_unit : 0;
            e->last_clock_unit = now_unit;
            if (back > 0)
                warn_clock_back(e, back, step.unit, now_us);
            return id;
        }
        if (step.kind == Step::NeedReservation)
            e->mark = reserve(e, step.unit, now_unit);
        else
            wait_for_unit(e, step.unit);
        CHECK_FOR_INTERRUPTS();
    }
}

// ---- Shared helpers of the pure functions ---------------------------------------------------------

int64 unix_us_for(const Entry* e, TimestampTz ts)
{
    int64 us;
    if (!unix_us_from_pg(ts, us)) {
        const char* spelled = timestamptz_to_str(ts);
        run([&] { idseq::fail_timestamp_out_of_range(e->layout, spelled); });
    }
    return us;
}

void unpack_shutdown(Datum arg)
{
    ((UnpackCall*) DatumGetPointer(arg))->returned = false;
}

// Function-static scratch: lives forever, so a longjmp can never skip its destructor.
std::string& scratch_text()
{
    static std::string* s = new std::string();
    return *s;
}

int32 field_int(int64 v)
{
    return (int32) v; // fields reachable from SQL have at most 31 bits (validate_sql_field_widths)
}


// ---- Layout definitions and their creation ------------------------------------------------------

// The canonical field list of a definition, or the definition's error (22023, or 42710 for a
// built-in name); with generator, also the error of a field order whose ids cannot increase.
// A name too long to be valid is judged by its first bytes, never copied whole.
text* canonical_fields(text* name_text, TimestampTz epoch_ts, text* fields_text, Interval* unit_iv, bool generator)
{
    const size_t len = VARSIZE_ANY_EXHDR(name_text);
    const std::string_view name(VARDATA_ANY(name_text), len <= NAMEDATALEN ? len : NAMEDATALEN + 1);
    int64 epoch = epoch_us_of(epoch_ts);
    char* fields = text_to_cstring(fields_text);
    int64 unit = unit_us_of(unit_iv);
    std::string& out = scratch_text();
    bool builtin = false;
    run([&] {
        idseq::validate_layout_name(name);
        builtin = idseq::builtin_layout(std::string(name)) != nullptr;
        if (builtin)
            return;
        Layout l = idseq::parse_layout(std::string(name), epoch, fields, unit);
        idseq::validate_sql_field_widths(l);
        if (generator)
            idseq::validate_generator_order(l, idseq::ErrorKind::InvalidParameter);
        out = idseq::format_fields(l);
    });
    if (builtin)
        ereport(ERROR, (errcode(ERRCODE_DUPLICATE_OBJECT),
                        errmsg("snowflake layout \"%s\" is built in", pnstrdup(name.data(), name.size())),
                        errhint("Choose another name for the custom layout.")));
    return cstring_to_text_with_len(out.data(), (int) out.size());
}

void spi_run(const char* sql, int nargs, Oid* types, Datum* values, int expected)
{
    int rc = SPI_execute_with_args(sql, nargs, types, values, NULL, false, 0);
    if (rc != expected)
        elog(ERROR, "SPI_execute_with_args failed: %s", SPI_result_code_string(rc));
}

// The names of a new layout's two sequences: idseq_sf_state_<base> and idseq_sf_last_<base>,
// base being the name (or, past 48 bytes, its first 39 and 8 hex digits of its md5). When a
// relation of either name already exists in the schema, base is its first 31 bytes and 16
// random hex digits instead:
// nobody can keep a layout from being created by planting relations with the names it would use.
void sequence_names(const char* name, Oid nsp, char* state_name, char* last_name)
{
    char base[NAMEDATALEN];
    const size_t len = strlen(name);
    if (len <= 48) {
        strlcpy(base, name, sizeof base);
    } else {
        char md5[33];
        const char* errstr = nullptr;
        if (!pg_md5_hash(name, len, md5, &errstr))
            elog(ERROR, "could not compute an MD5 hash: %s", errstr);
        snprintf(base, sizeof base, "%.39s_%.8s", name, md5);
    }
    for (int attempt = 0;; attempt++) {
        snprintf(state_name, NAMEDATALEN, "idseq_sf_state_%.48s", base);
        snprintf(last_name, NAMEDATALEN, "idseq_sf_last_%.48s", base);
        if (!OidIsValid(get_relname_relid(state_name, nsp)) && !OidIsValid(get_relname_relid(last_name, nsp)))
            return;
        if (attempt == 100)
            ereport(ERROR, (errcode(ERRCODE_DUPLICATE_TABLE),
                            errmsg("could not find free names for the state sequences of snowflake layout \"%s\"",
                                   name)));
        uint64 r = pg_prng_uint64(&pg_global_prng_state);
        snprintf(base, sizeof base, "%.31s_%016llx", name, (unsigned long long) r);
    }
}

// The sequence just created under this name in nsp, checked to be the caller's own.
Oid created_sequence(const char* relname, Oid nsp)
{
    Oid relid = get_relname_relid(relname, nsp);
    if (!OidIsValid(relid) || get_rel_relkind(relid) != RELKIND_SEQUENCE || seq_owner(relid) != GetUserId())
        elog(ERROR, "sequence \"%s\" was not created as expected", relname);
    return relid;
}

void create_layout(const char* name, TimestampTz epoch, text* canonical, Interval* unit, Oid nsp)
{
    Oid registry = get_relname_relid("idseq_layout_registry", nsp);
    if (!OidIsValid(registry))
        elog(ERROR, "the snowflake layout registry is missing");
    const char* schema = quote_identifier(get_namespace_name(nsp));
    char* registry_name = quote_qualified_identifier(get_namespace_name(nsp), "idseq_layout_registry");
    if (SPI_connect() != SPI_OK_CONNECT)
        elog(ERROR, "SPI_connect failed");
    // One creator at a time, so that the duplicate check below is reliable (and the caller's
    // privileges on the registry are checked as LOCK TABLE checks them).
    spi_run(psprintf("LOCK TABLE %s IN SHARE ROW EXCLUSIVE MODE", registry_name), 0, nullptr, nullptr, SPI_OK_UTILITY);
    {
        Oid types[1] = {TEXTOID};
        Datum values[1] = {CStringGetTextDatum(name)};
        spi_run(psprintf("SELECT r.fields, r.epoch::pg_catalog.text, r.time_unit::pg_catalog.text FROM %s r"
                         " WHERE r.name OPERATOR(pg_catalog.=) $1",
                         registry_name),
                1, types, values, SPI_OK_SELECT);
        if (SPI_processed > 0) {
            HeapTuple t = SPI_tuptable->vals[0];
            TupleDesc d = SPI_tuptable->tupdesc;
            ereport(ERROR, (errcode(ERRCODE_DUPLICATE_OBJECT), errmsg("snowflake layout \"%s\" already exists", name),
                            errdetail("Its fields are \"%s\", its epoch is %s and its time unit is %s.",
                                      SPI_getvalue(t, d, 1), SPI_getvalue(t, d, 2), SPI_getvalue(t, d, 3)),
                            errhint("Layouts cannot be redefined; create one under another name.")));
        }
    }
    char state_name[NAMEDATALEN], last_name[NAMEDATALEN];
    sequence_names(name, nsp, state_name, last_name);
    const char* state_q = psprintf("%s.%s", schema, quote_identifier(state_name));
    const char* last_q = psprintf("%s.%s", schema, quote_identifier(last_name));
    spi_run(psprintf("CREATE SEQUENCE %s MINVALUE -1 START -1", state_q), 0, nullptr, nullptr, SPI_OK_UTILITY);
    spi_run(psprintf("CREATE UNLOGGED SEQUENCE %s MINVALUE -1 START -1", last_q), 0, nullptr, nullptr, SPI_OK_UTILITY);
    Oid state_relid = created_sequence(state_name, nsp);
    Oid last_relid = created_sequence(last_name, nsp);
    // The sequences go with the registry (DROP EXTENSION drops them), which needs one owner.
    Oid registry_owner = seq_owner(registry);
    if (registry_owner != GetUserId()) {
        const char* owner = quote_identifier(GetUserNameFromId(registry_owner, false));
        spi_run(psprintf("ALTER SEQUENCE %s OWNER TO %s", state_q, owner), 0, nullptr, nullptr, SPI_OK_UTILITY);
        spi_run(psprintf("ALTER SEQUENCE %s OWNER TO %s", last_q, owner), 0, nullptr, nullptr, SPI_OK_UTILITY);
    }
    spi_run(psprintf("ALTER SEQUENCE %s OWNED BY %s.name", state_q, registry_name), 0, nullptr, nullptr, SPI_OK_UTILITY);
    spi_run(psprintf("ALTER SEQUENCE %s OWNED BY %s.name", last_q, registry_name), 0, nullptr, nullptr, SPI_OK_UTILITY);
    Oid types[6] = {TEXTOID, TIMESTAMPTZOID, TEXTOID, INTERVALOID, OIDOID, OIDOID};
    Datum values[6] = {CStringGetTextDatum(name),         TimestampTzGetDatum(epoch),
                       PointerGetDatum(canonical),        IntervalPGetDatum(unit),
                       ObjectIdGetDatum(state_relid),     ObjectIdGetDatum(last_relid)};
    spi_run(psprintf("INSERT INTO %s (name, epoch, fields, time_unit, state_seq, last_id_seq)"
                     " VALUES ($1, $2, $3, $4, $5::pg_catalog.regclass, $6::pg_catalog.regclass)",
                     registry_name),
            6, types, values, SPI_OK_INSERT);
    SPI_finish();
}

// ---- The node id comes from the server configuration only -----------------------------------------

// Where this session's value of a setting not yet defined (a placeholder) came from.
GucSource placeholder_source(const char* name)
{
    struct config_generic** vars = get_guc_variables();
    const int n = GetNumConfigOptions();
    for (int i = 0; i < n; i++)
        if (pg_strcasecmp(vars[i]->name, name) == 0)
            return vars[i]->source > vars[i]->reset_source ? vars[i]->source : vars[i]->reset_source;
    return PGC_S_DEFAULT;
}

// Without preload, PostgreSQL cannot refuse ALTER DATABASE/ROLE ... SET idseq.node_id (or a
// superuser's SET) in a session that has not loaded idseq: the value waits as a placeholder.
// When idseq loads, PostgreSQL refuses it ("cannot be changed now"), but the placeholder had
// replaced the server configuration's value, so the session would have no node id at all.
// Read the server configuration's value again, and say why the other one is ignored.
void keep_server_node_id()
{
    ConfigVariable* head = nullptr;
    ConfigVariable* tail = nullptr;
    char* value = nullptr;
    if (ParseConfigFile(ConfigFileName, true, NULL, 0, 0, LOG, &head, &tail) && DataDir)
        (void) ParseConfigFile(PG_AUTOCONF_FILENAME, false, NULL, 0, 0, LOG, &head, &tail);
    for (ConfigVariable* v = head; v; v = v->next)
        if (pg_strcasecmp(v->name, "idseq.node_id") == 0)
            value = pstrdup(v->value); // the last one wins, as when the server reads the files
    FreeConfigVariables(head);
    if (value)
        (void) set_config_option("idseq.node_id", value, PGC_SIGHUP, PGC_S_FILE, GUC_ACTION_SET, true, WARNING,
                                 false);
    ereport(WARNING, (errcode(ERRCODE_CANT_CHANGE_RUNTIME_PARAM),
                      errmsg("idseq.node_id set for a database, a role or a session is ignored"),
                      errdetail("The node id comes from the server configuration only; here it is %d.", node_id_guc),
                      errhint("Remove the setting with ALTER DATABASE ... RESET idseq.node_id or ALTER ROLE ... RESET "
                              "idseq.node_id, and set the node id in postgresql.conf or with ALTER SYSTEM.")));
}

} // namespace

// ---- Module initialisation ----------------------------------------------------------------------

void idseq_snowflake_init(void)
{
    const GucSource node_id_source = placeholder_source("idseq.node_id");
    DefineCustomIntVariable(
        "idseq.node_id", "This server's node id in snowflake ids.",
        "From -1 to 2147483647; -1 (the default) means unset. Each layout allows node ids up to its node "
        "field's maximum (1023 for snowflake). Settable only in the server configuration.",
        &node_id_guc, -1, -1, INT_MAX, PGC_SIGHUP, 0, NULL, NULL, NULL);
    DefineCustomIntVariable(
        "idseq.snowflake_lease_ms", "How far ahead of the clock snowflake_nextval reserves time durably.",
        "From 0 to 3600000 milliseconds (default 1000). One WAL flush covers this much time of ids; after a crash "
        "ids continue above the reserved time, so they may run up to this far ahead of the clock.",
        &lease_ms_guc, 1000, 0, 3600000, PGC_SIGHUP, GUC_UNIT_MS, NULL, NULL, NULL);
    DefineCustomIntVariable(
        "idseq.test_clock_offset_ms", "For tests only: shifts the clock snowflake_nextval reads.",
        "From -2147483647 to 2147483647 milliseconds (default 0). A testing aid to step the clock back or forward "
        "without changing the system clock; superuser only.",
        &clock_offset_ms_guc, 0, -INT_MAX, INT_MAX, PGC_SUSET, GUC_UNIT_MS | GUC_NOT_IN_SAMPLE, NULL, NULL, NULL);
    if (process_shared_preload_libraries_in_progress) {
        // Only with preload: PostgreSQL refuses a PGC_POSTMASTER setting defined later. Before
        // MarkGUCPrefixReserved, which drops the placeholders of names not defined yet.
        DefineCustomIntVariable(
            "idseq.snowflake_max_layouts", "Shared-memory slots of the snowflake generator's fast path.",
            "From 1 to 10000 (default 128); used only with idseq in shared_preload_libraries, and read at server "
            "start. Each slot serves one layout in one database, for the server's life; layouts beyond them use "
            "the slower path without shared memory (a warning says so once). A slot takes a few hundred bytes of shared memory.",
            &max_layouts_guc, 128, 1, 10000, PGC_POSTMASTER, 0, NULL, NULL, NULL);
    }
    MarkGUCPrefixReserved("idseq");
    if (node_id_source > PGC_S_ARGV) // a value from a database, role or session setting
        keep_server_node_id();

    if (process_shared_preload_libraries_in_progress) {
        prev_shmem_request_hook = shmem_request_hook;
        shmem_request_hook = shmem_request;
        prev_shmem_startup_hook = shmem_startup_hook;
        shmem_startup_hook = shmem_startup;
    }
}

// ---- SQL entry points --------------------------------------------------------------------------------

extern "C" {

Datum snowflake_nextval(PG_FUNCTION_ARGS)
{
    Entry* e = entry_for(fcinfo, 0);
    PreventCommandIfReadOnly("snowflake_nextval()");
    PreventCommandIfParallelMode("snowflake_nextval()");
    const int32 node = node_id_guc;
    if (e->has_node && (node < 0 || node > e->max_node))
        run([&] { idseq::check_node_id(e->layout, node); });
    if (!e->relations_checked) {
        check_state_relations(e); // again after any change to them (the relcache callback)
        // A layout created before the rule (1.1 accepted any order) still packs and unpacks.
        run([&] { idseq::validate_generator_order(e->layout, idseq::ErrorKind::Prerequisite); });
        e->relations_checked = true;
    }
    if (shared && !e->slot_checked) {
        e->slot = find_slot(e->name); // nullptr when all slots are taken: the slow path, for good
        e->slot_checked = true;
    }
    PG_RETURN_INT64(e->slot ? nextval_fast(e, node) : nextval_slow(e, node));
}

Datum snowflake_pack(PG_FUNCTION_ARGS)
{
    Entry* e = entry_for(fcinfo, 0);
    int64 us = unix_us_for(e, PG_GETARG_TIMESTAMPTZ(1));
    int64 node = PG_GETARG_INT32(2), seq = PG_GETARG_INT32(3), rand = PG_GETARG_INT32(4);
    int64 id = 0;
    run([&] { id = idseq::pack(e->layout, us, node, seq, rand); });
    PG_RETURN_INT64(id);
}

// One row, returned value-per-call with the row type blessed once per query: far cheaper
// than a tuplestore per call. The state is reset when the executor shuts the call down
// early (a LIMIT, a rescan), as funcapi's SRF_* macros do.
Datum snowflake_unpack(PG_FUNCTION_ARGS)
{
    ReturnSetInfo* rsinfo = (ReturnSetInfo*) fcinfo->resultinfo;
    if (!rsinfo || !IsA(rsinfo, ReturnSetInfo) || !(rsinfo->allowedModes & SFRM_ValuePerCall))
        ereport(ERROR, (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                        errmsg("set-valued function called in context that cannot accept a set")));
    UnpackCall* call = &fn_cache(fcinfo)->unpack;
    if (call->returned) {
        UnregisterExprContextCallback(rsinfo->econtext, unpack_shutdown, PointerGetDatum(call));
        call->returned = false;
        rsinfo->isDone = ExprEndResult;
        PG_RETURN_NULL();
    }
    int64 id = PG_GETARG_INT64(0);
    Entry* e = entry_for(fcinfo, 1);
    idseq::Unpacked u{};
    run([&] { u = idseq::unpack(e->layout, id); });
    if (!call->desc) {
        TupleDesc desc;
        if (get_call_result_type(fcinfo, NULL, &desc) != TYPEFUNC_COMPOSITE)
            elog(ERROR, "return type must be a row type");
        MemoryContext old = MemoryContextSwitchTo(fcinfo->flinfo->fn_mcxt);
        call->desc = BlessTupleDesc(CreateTupleDescCopy(desc));
        MemoryContextSwitchTo(old);
    }
    Datum values[4] = {TimestampTzGetDatum(pg_from_unix_us(u.ts_us)), Int32GetDatum(field_int(u.node)),
                       Int32GetDatum(field_int(u.seq)), Int32GetDatum(field_int(u.rand))};
    bool nulls[4] = {false, false, false, false};
    RegisterExprContextCallback(rsinfo->econtext, unpack_shutdown, PointerGetDatum(call));
    call->returned = true;
    rsinfo->isDone = ExprMultipleResult;
    PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(call->desc, values, nulls)));
}

Datum snowflake_timestamp(PG_FUNCTION_ARGS)
{
    int64 id = PG_GETARG_INT64(0);
    Entry* e = entry_for(fcinfo, 1);
    idseq::Unpacked u{};
    run([&] { u = idseq::unpack(e->layout, id); });
    PG_RETURN_TIMESTAMPTZ(pg_from_unix_us(u.ts_us));
}

Datum snowflake_min_id(PG_FUNCTION_ARGS)
{
    Entry* e = entry_for(fcinfo, 1);
    int64 us = unix_us_for(e, PG_GETARG_TIMESTAMPTZ(0));
    int64 id = 0;
    run([&] { id = idseq::min_id(e->layout, us); });
    PG_RETURN_INT64(id);
}

} // extern "C"

namespace {

// (name, epoch, fields, time_unit) -> the canonical field list, or the definition's error;
// with generator, also the error of a field order whose ids cannot increase.
Datum check_definition(FunctionCallInfo fcinfo, bool generator)
{
    PG_RETURN_TEXT_P(canonical_fields(PG_GETARG_TEXT_PP(0), PG_GETARG_TIMESTAMPTZ(1), PG_GETARG_TEXT_PP(2),
                                      PG_GETARG_INTERVAL_P(3), generator));
}

} // namespace

extern "C" {

// Creates a custom layout: the registry row and its two state sequences. In C, so that the
// extension's own calls cannot be captured by objects another role plants in its schema (an
// overload of idseq_snowflake_check, a relation named like a state sequence): the definition
// is checked by a direct call, every statement names schema-qualified relations and
// pg_catalog operators only, and the state sequences get names that are free when they are
// created (CREATE SEQUENCE without IF NOT EXISTS fails rather than adopt another's relation).
Datum snowflake_create_layout(PG_FUNCTION_ARGS)
{
    for (int i = 0; i < 4; i++)
        if (PG_ARGISNULL(i))
            ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
                            errmsg("a snowflake layout definition cannot contain null values")));
    text* name_text = PG_GETARG_TEXT_PP(0);
    TimestampTz epoch = PG_GETARG_TIMESTAMPTZ(1);
    Interval* unit = PG_GETARG_INTERVAL_P(3);
    text* canonical = canonical_fields(name_text, epoch, PG_GETARG_TEXT_PP(2), unit, true);
    create_layout(text_to_cstring(name_text), epoch, canonical, unit, get_func_namespace(fcinfo->flinfo->fn_oid));
    PG_RETURN_VOID();
}

// The registry's CHECK: any field order, so that layouts created before 1.2 still restore.
Datum idseq_snowflake_check(PG_FUNCTION_ARGS) { return check_definition(fcinfo, false); }

// snowflake_create_layout's check: only field orders whose ids increase.
Datum idseq_snowflake_check_new(PG_FUNCTION_ARGS) { return check_definition(fcinfo, true); }

Datum idseq_snowflake_builtin_layouts(PG_FUNCTION_ARGS)
{
    InitMaterializedSRF(fcinfo, 0);
    ReturnSetInfo* rsinfo = (ReturnSetInfo*) fcinfo->resultinfo;
    const std::vector<Layout>* all = nullptr;
    run([&] { all = &idseq::builtin_layouts(); });
    for (size_t i = 0; i < all->size(); i++) {
        const Layout& l = (*all)[i];
        text* fields = nullptr;
        std::string& scratch = scratch_text();
        run([&] { scratch = idseq::format_fields(l); });
        fields = cstring_to_text_with_len(scratch.data(), (int) scratch.size());
        Datum values[4] = {CStringGetTextDatum(l.name.c_str()), TimestampTzGetDatum(pg_from_unix_us(l.epoch_us)),
                           PointerGetDatum(fields), IntervalPGetDatum(interval_from_us(l.unit_us))};
        bool nulls[4] = {false, false, false, false};
        tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
    }
    return (Datum) 0;
}

// (epoch, fields, time_unit) -> time_bits, node_bits, seq_bits, rand_bits, last_time
Datum idseq_snowflake_describe(PG_FUNCTION_ARGS)
{
    int64 epoch = epoch_us_of(PG_GETARG_TIMESTAMPTZ(0));
    char* fields = text_to_cstring(PG_GETARG_TEXT_PP(1));
    int64 unit = unit_us_of(PG_GETARG_INTERVAL_P(2));
    int bits[idseq::kFieldCount] = {0, 0, 0, 0};
    int64 last = 0;
    run([&] {
        Layout l = idseq::parse_layout("layout", epoch, fields, unit);
        for (int f = 0; f < idseq::kFieldCount; f++)
            bits[f] = l.fields[f].width;
        last = idseq::last_ts_us(l);
    });
    TupleDesc desc;
    if (get_call_result_type(fcinfo, NULL, &desc) != TYPEFUNC_COMPOSITE)
        elog(ERROR, "return type must be a row type");
    desc = BlessTupleDesc(desc);
    int64 pg_last;
    bool past = pg_sub_s64_overflow(last, kUnixToPgEpochUs, &pg_last) || !IS_VALID_TIMESTAMP(pg_last) ||
        last == INT64_MAX;
    Datum values[5] = {Int32GetDatum(bits[0]), Int32GetDatum(bits[1]), Int32GetDatum(bits[2]), Int32GetDatum(bits[3]),
                       TimestampTzGetDatum(past ? DT_NOEND : pg_last)};
    bool nulls[5] = {false, false, false, false, false};
    PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(desc, values, nulls)));
}

} // extern "C"
