// Snowflake ids (API.md section 4): layouts, pack/unpack, and the generator's two paths.
//
// A generator is per database and layout (layouts live in the database's registry; see the
// README for that scope). Its state:
//
//   H  the durable high-water mark, a time unit: every id ever issued has unit <= H. It is the
//      value of the layout's state sequence (WAL-logged), moved with setval() and flushed
//      with XLogFlush() -- and, under synchronous replication, confirmed by the synchronous
//      standbys -- BEFORE any id under it is issued. Crash recovery replays it, a streaming
//      standby replays it, pg_dump dumps it. A reservation moves H to now + the lease
//      (idseq.snowflake_lease_ms), so one flush covers a lease's worth of ids. Reservations
//      are serialised by a heavyweight lock on the layout.
//   P  the last id issued by the path without shared memory: the value of the layout's
//      UNLOGGED last-id sequence, or "unknown" (is_called = false). A crash or a promotion
//      resets an unlogged relation, so P becomes unknown by itself.
//   S  the shared-memory GenState of the fast path (lost at every restart).
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
// The core's unit test SnowflakeDurable.BothPathsCrashesRestartsAndNodeChangesNeverRepeat
// runs this model with crashes, restarts, path switches, clock jumps and node changes.
#include "error.h"
#include "snowflake.h"

#include <climits>
#include <cstring>
#include <ctime>
#include <string>
#include <unordered_map>

#include "boundary.h"
#include "module.h"
#include "registry.h"

extern "C" {
#include "access/htup_details.h"
#include "access/relation.h"
#include "access/xact.h"
#include "access/xlog.h"
#include "catalog/pg_class.h"
#include "catalog/pg_type.h"
#include "commands/sequence.h"
#include "common/pg_prng.h"
#include "datatype/timestamp.h"
#include "executor/spi.h"
#include "replication/syncrep.h"
#include "storage/ipc.h"
#include "storage/lmgr.h"
#include "storage/bufmgr.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"
#include "storage/spin.h"
#include "utils/fmgrprotos.h"
#include "utils/guc.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"

PG_FUNCTION_INFO_V1(snowflake_nextval);
PG_FUNCTION_INFO_V1(snowflake_pack);
PG_FUNCTION_INFO_V1(snowflake_unpack);
PG_FUNCTION_INFO_V1(snowflake_timestamp);
PG_FUNCTION_INFO_V1(snowflake_min_id);
PG_FUNCTION_INFO_V1(idseq_snowflake_check);
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

constexpr int kSlots = 128;

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
};

struct Shared {
    int used;
    Slot slots[kSlots];
};

Shared* shared;
LWLock* table_lock;
shmem_request_hook_type prev_shmem_request_hook;
shmem_startup_hook_type prev_shmem_startup_hook;

void shmem_request()
{
    if (prev_shmem_request_hook)
        prev_shmem_request_hook();
    RequestAddinShmemSpace(MAXALIGN(sizeof(Shared)));
    RequestNamedLWLockTranche("idseq_snowflake", 1);
}

void shmem_startup()
{
    if (prev_shmem_startup_hook)
        prev_shmem_startup_hook();
    LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
    bool found;
    shared = (Shared*) ShmemInitStruct("idseq_snowflake", sizeof(Shared), &found);
    if (!found) {
        memset(static_cast<void*>(shared), 0, sizeof(Shared));
        for (Slot& s : shared->slots) {
            SpinLockInit(&s.mutex);
            s.state = GenState{};
            s.last_node = -1;
        }
    }
    table_lock = &GetNamedLWLockTranche("idseq_snowflake")->lock;
    LWLockRelease(AddinShmemInitLock);
}

// The slot of (this database, name), taking a free one if needed; nullptr when none is free.
Slot* find_slot(const char* name)
{
    if (!shared)
        return nullptr;
    for (int pass = 0; pass < 2; pass++) {
        LWLockAcquire(table_lock, pass == 0 ? LW_SHARED : LW_EXCLUSIVE);
        for (int i = 0; i < shared->used; i++) {
            Slot* s = &shared->slots[i];
            if (s->db == MyDatabaseId && strcmp(s->name, name) == 0) {
                LWLockRelease(table_lock);
                return s;
            }
        }
        if (pass == 1 && shared->used < kSlots) {
            Slot* s = &shared->slots[shared->used];
            s->db = MyDatabaseId;
            strlcpy(s->name, name, NAMEDATALEN);
            pg_write_barrier();
            shared->used++;
            LWLockRelease(table_lock);
            return s;
        }
        LWLockRelease(table_lock);
    }
    return nullptr;
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

[[noreturn]] void unknown_layout(const char* name, Oid nsp)
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
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("unknown snowflake layout \"%s\"", name),
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

Entry* entry_by_name(const char* name, size_t len, Oid nsp)
{
    ensure_cache();
    if (len >= NAMEDATALEN)
        unknown_layout(pnstrdup(name, len), nsp);
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
    Entry* fresh = e;
    if (!fresh)
        run([&] { fresh = new Entry(); });
    if (!load_entry(fresh, key, nsp))
        unknown_layout(key, nsp);
    if (!e)
        run([&] { cache->emplace(std::string(key, len), fresh); });
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
    UnpackCall unpack;
};

FnCache* fn_cache(FunctionCallInfo fcinfo)
{
    if (!fcinfo->flinfo->fn_extra)
        fcinfo->flinfo->fn_extra = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(FnCache));
    return (FnCache*) fcinfo->flinfo->fn_extra;
}

Entry* entry_for(FunctionCallInfo fcinfo, int argno)
{
    text* t = PG_GETARG_TEXT_PP(argno);
    const char* name = VARDATA_ANY(t);
    int len = VARSIZE_ANY_EXHDR(t);
    FnCache* fc = fn_cache(fcinfo);
    if (fc->entry && fc->len == len && memcmp(fc->name, name, len) == 0 && fc->entry->valid)
        return fc->entry;
    Entry* e = entry_by_name(name, len, get_func_namespace(fcinfo->flinfo->fn_oid));
    fc->entry = e;
    fc->len = len;
    memcpy(fc->name, name, len);
    return e;
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

// A sequence's value; false when it was never set (is_called = false).
bool read_seq(Oid relid, int64& value)
{
    Relation rel = relation_open(relid, AccessShareLock);
    Buffer buf;
    Form_pg_sequence_data seq = lock_seq_tuple(rel, BUFFER_LOCK_SHARE, &buf);
    bool called = seq->is_called;
    value = seq->last_value;
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

// H: -1 when nothing was ever reserved.
int64 read_mark(const Entry* e)
{
    int64 h;
    return read_seq(e->state_relid, h) ? h : -1;
}

// Moves H to target with setval() (WAL-logged by sequence.c), as the sequence's owner so that
// callers need no privilege on it, and makes it durable: flushed to this server's WAL, and
// confirmed by the synchronous standbys when synchronous replication is configured, before
// any id under it is issued. An error on the way restores the user with the transaction.
void write_mark(const Entry* e, int64 target)
{
    Oid saved_user;
    int saved_context;
    GetUserIdAndSecContext(&saved_user, &saved_context);
    SetUserIdAndSecContext(e->state_owner, saved_context | SECURITY_LOCAL_USERID_CHANGE | SECURITY_RESTRICTED_OPERATION);
    DirectFunctionCall3(setval3_oid, ObjectIdGetDatum(e->state_relid), Int64GetDatum(target), BoolGetDatum(true));
    SetUserIdAndSecContext(saved_user, saved_context);
    XLogRecPtr end = XactLastRecEnd;
    XLogFlush(end);
    SyncRepWaitForLSN(end, false);
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

// Makes H cover unit (reserving ahead by the lease); returns the durable H.
int64 reserve(const Entry* e, int64 unit, int64 now_unit)
{
    lock_layout(e);
    int64 mark = read_mark(e);
    if (mark < unit) {
        int64 target = reservation_for(e, unit, now_unit, mark);
        write_mark(e, target);
        mark = target;
    }
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

void wait_for_unit(const Entry* e, int64 unit)
{
    int64 start = 0;
    run([&] { start = idseq::unit_start_us(e->layout, unit); });
    int64 us = start - now_unix_us();
    pg_usleep(us < 20 ? 20 : us > 10000 ? 10000 : (long) us);
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
        int64 mark = read_mark(e);
        forget_last(e);
        SpinLockAcquire(&s->mutex);
        if (s->fingerprint != e->fingerprint) // another definition: its units mean something else
            s->state = GenState{};
        bool done = guarded([&] { idseq::restart_from(s->state, mark); });
        s->state_relid = e->state_relid;
        s->last_relid = e->last_relid;
        s->fingerprint = e->fingerprint;
        s->last_node = -1;
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
        e->base_mark = e->mark = read_mark(e);
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

} // namespace

// ---- Module initialisation ----------------------------------------------------------------------

void idseq_snowflake_init(void)
{
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
    MarkGUCPrefixReserved("idseq");

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

// (name, epoch, fields, time_unit) -> the canonical field list, or the definition's error.
Datum idseq_snowflake_check(PG_FUNCTION_ARGS)
{
    char* name = text_to_cstring(PG_GETARG_TEXT_PP(0));
    int64 epoch = epoch_us_of(PG_GETARG_TIMESTAMPTZ(1));
    char* fields = text_to_cstring(PG_GETARG_TEXT_PP(2));
    int64 unit = unit_us_of(PG_GETARG_INTERVAL_P(3));
    std::string& out = scratch_text();
    bool builtin = false;
    run([&] {
        idseq::validate_layout_name(name);
        builtin = idseq::builtin_layout(name) != nullptr;
        if (builtin)
            return;
        Layout l = idseq::parse_layout(name, epoch, fields, unit);
        idseq::validate_sql_field_widths(l);
        out = idseq::format_fields(l);
    });
    if (builtin)
        ereport(ERROR, (errcode(ERRCODE_DUPLICATE_OBJECT), errmsg("snowflake layout \"%s\" is built in", name),
                        errhint("Choose another name for the custom layout.")));
    PG_RETURN_TEXT_P(cstring_to_text_with_len(out.data(), (int) out.size()));
}

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
