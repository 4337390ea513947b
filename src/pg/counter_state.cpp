// Counters per key: the state of keys, one row of idseq_counter_state per (counter, key,
// period), found through the non-unique index on (counter, key).
//
// Fast counters (gaps allowed) work like nextval: never undone, never waiting for another
// transaction. A key's row is found with an index probe and updated IN PLACE under its heap
// buffer's exclusive lock, as sequence.c updates a sequence's tuple; every change is
// WAL-logged as a generic WAL record (see write_logged), whose redo applies the changed bytes,
// so the page on disk, after a crash and on a standby always equals the WAL (no change is
// ever left unlogged, unlike nextval's log-ahead). The transaction gets an xid first, so that
// its commit flushes the record (and waits for synchronous standbys) before a client can act
// on the number. A new key's row is inserted FROZEN (visible to every snapshot at once, and
// kept when the inserting transaction rolls back: a number is never undone) together with
// its index entry, under a lock of (counter, key, period) taken and released around the
// insert only; the row is looked for again under the lock, so two callers never make two
// rows.
//
// Gap-free counters are transactional: an MVCC UPDATE of the row (which waits for the
// transaction holding the row and re-reads it after, as any UPDATE does), through internal
// SQL run as the table's owner. A new key's row is inserted under a lock of (counter, key,
// period) held for the check and the insert only; a caller that finds a row another
// transaction is inserting waits for that transaction, as a unique index's check does, and
// one that finds a row committed after its snapshot, under REPEATABLE READ or SERIALIZABLE,
// fails with 40001 as a concurrent UPDATE would.
#include "counter_internal.h"

#include "core_call.h"
#include "quoted_text_pg.h"
#include "internal_sql.h"
#include "charset_registry.h"

extern "C" {
#include "access/rmgr.h"
#include "access/xloginsert.h"
#include "access/genam.h"
#include "access/heapam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "access/transam.h"
#include "access/xlog.h"
#include "catalog/index.h"
#include "catalog/pg_am.h"
#include "catalog/pg_collation.h"
#include "catalog/pg_type.h"
#include "common/hashfn.h"
#include "executor/spi.h"
#include "storage/bufmgr.h"
#include "storage/lmgr.h"
#include "storage/lock.h"
#include "utils/fmgroids.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"
}

namespace idseq::pg::counter {

namespace {

constexpr AttrNumber kLast = 1, kCounter = 2, kPeriod = 3, kKey = 4;

// The state table and its index on (counter, key), looked up again after an invalidation.
struct StateTable {
    Oid rel = InvalidOid;
    Oid index = InvalidOid;
    Oid owner = InvalidOid;
    bool valid = false;
};
StateTable state;
bool callback_registered;

void on_relcache(Datum, Oid relid)
{
    if (relid == InvalidOid || relid == state.rel || relid == state.index)
        state.valid = false;
}

void ensure_state()
{
    if (unlikely(!callback_registered)) {
        CacheRegisterRelcacheCallback(on_relcache, (Datum) 0);
        callback_registered = true;
    }
    if (likely(state.valid))
        return;
    Oid rel = get_relname_relid("idseq_counter_state", extension_schema_oid(false));
    if (!OidIsValid(rel))
        ereport(ERROR, (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
                        errmsg("extension \"idseq\" has no counters in this database"),
                        errhint("Run ALTER EXTENSION idseq UPDATE.")));
    state.valid = true; // an invalidation from here on clears it again
    state.rel = rel;
    Relation r = table_open(rel, AccessShareLock);
    state.owner = r->rd_rel->relowner;
    state.index = InvalidOid;
    List* indexes = RelationGetIndexList(r);
    ListCell* lc;
    foreach (lc, indexes) {
        Relation index = index_open(lfirst_oid(lc), AccessShareLock);
        Form_pg_index form = index->rd_index;
        if (form->indisvalid && form->indnatts == 2 && form->indkey.values[0] == kCounter &&
            form->indkey.values[1] == kKey && index->rd_rel->relam == BTREE_AM_OID)
            state.index = RelationGetRelid(index);
        index_close(index, AccessShareLock);
    }
    list_free(indexes);
    table_close(r, AccessShareLock);
    if (!OidIsValid(state.index)) {
        state.valid = false;
        ereport(ERROR, (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
                        errmsg("table idseq_counter_state has no index on (counter, key)"),
                        errhint("Recreate the extension's objects with ALTER EXTENSION idseq UPDATE or a restore.")));
    }
}

// The rows of (counter, key), every period, through the index on (counter, key).
SysScanDesc key_scan(Relation heap, Oid counter, text* key, Snapshot snap)
{
    ScanKeyData sk[2];
    ScanKeyInit(&sk[0], kCounter, BTEqualStrategyNumber, F_OIDEQ, ObjectIdGetDatum(counter));
    ScanKeyEntryInitialize(&sk[1], 0, kKey, BTEqualStrategyNumber, InvalidOid, C_COLLATION_OID, F_TEXTEQ,
                           PointerGetDatum(key));
    return systable_beginscan(heap, state.index, true, snap, 2, sk);
}

// A row's period number: 0 for a counter that never restarts (the column is NULL).
int32 period_of(HeapTuple tup, TupleDesc desc)
{
    bool isnull;
    Datum p = heap_getattr(tup, kPeriod, desc, &isnull);
    return isnull ? 0 : DatumGetInt32(p);
}

// The row of (counter, key, period) as snap sees it: its TID and last number.
// With a dirty snapshot, *inserter is the transaction still inserting the row found (or
// InvalidTransactionId).
bool find_row(Relation heap, Oid counter, text* key, int32 period, Snapshot snap, ItemPointer tid, int64* last,
              TransactionId* inserter = nullptr)
{
    SysScanDesc scan = key_scan(heap, counter, key, snap);
    TupleDesc desc = RelationGetDescr(heap);
    bool found = false;
    HeapTuple tup;
    while (!found && HeapTupleIsValid(tup = systable_getnext(scan))) {
        bool isnull;
        if (period_of(tup, desc) != period)
            continue;
        *tid = tup->t_self;
        *last = DatumGetInt64(heap_getattr(tup, kLast, desc, &isnull));
        if (inserter)
            *inserter = snap->snapshot_type == SNAPSHOT_DIRTY ? snap->xmin : InvalidTransactionId;
        found = true;
    }
    systable_endscan(scan);
    return found;
}

// The lock of (counter, key, period) under which a key's row is made: an object lock whose
// "class" is the anchor (a user relation's oid, never a catalog's) and whose object is a hash
// of the key and period. Two keys that share a hash only wait for each other when both are
// new.
LOCKTAG key_lock(Oid counter, text* key, int32 period)
{
    uint32 h = hash_bytes((const unsigned char*) VARDATA_ANY(key), (int) VARSIZE_ANY_EXHDR(key));
    h = hash_combine(h, hash_bytes_uint32((uint32) period));
    LOCKTAG tag;
    SET_LOCKTAG_OBJECT(tag, MyDatabaseId, counter, h, 0);
    return tag;
}

[[noreturn]] void fail_overflow(const CounterDef& def, text* key)
{
    ereport(ERROR, (errcode(ERRCODE_SEQUENCE_GENERATOR_LIMIT_EXCEEDED),
                    errmsg("key \"%s\" of counter \"%s\" reached its maximum value (" INT64_FORMAT ")",
                           shown(VARDATA_ANY(key), VARSIZE_ANY_EXHDR(key)), def.name, PG_INT64_MAX)));
    pg_unreachable();
}

// The new last number for op from last; false if it would overflow.
bool next_last(int64 last, Op op, int64 arg, int64& out)
{
    if (op == Op::AtLeast) {
        out = Max(last, arg);
        return true;
    }
    return !pg_add_s64_overflow(last, arg, &out);
}

// Writes value over the 8 bytes at offset of buf's page (locked exclusively) and logs the
// change as a generic WAL record (RM_GENERIC_ID, replayed by generic_redo) of one fragment,
// in the delta format of generic_xlog.c (the same from 9.6 to 18): the fragment's offset and
// length (two OffsetNumbers), then its bytes. GenericXLogFinish would find that fragment by
// copying the page and comparing it byte by byte with the original, which was half of the
// cost of a number (measured with perf); the record, its redo and its full-page images are
// the same. Returns the record's end, or InvalidXLogRecPtr for a relation without WAL.
XLogRecPtr write_logged(Relation rel, Buffer buf, uint16 offset, int64 value)
{
    struct {
        OffsetNumber offset;
        OffsetNumber length;
        char data[sizeof(int64)];
    } fragment;
    static_assert(sizeof fragment == 2 * sizeof(OffsetNumber) + sizeof(int64), "a fragment is unpadded");
    fragment.offset = offset;
    fragment.length = sizeof(int64);
    memcpy(fragment.data, &value, sizeof value);
    Page page = BufferGetPage(buf);
    XLogRecPtr lsn = InvalidXLogRecPtr;
    START_CRIT_SECTION();
    memcpy((char*) page + offset, &value, sizeof value);
    MarkBufferDirty(buf);
    if (RelationNeedsWAL(rel)) {
        XLogBeginInsert();
        XLogRegisterBuffer(0, buf, REGBUF_STANDARD);
        XLogRegisterBufData(0, (char*) &fragment, sizeof fragment);
        lsn = XLogInsert(RM_GENERIC_ID, 0);
        PageSetLSN(page, lsn);
    }
    END_CRIT_SECTION();
    return lsn;
}

enum class InPlace { Done, Moved, Overflow };

// Applies op to the row at tid in place (fast counters). Moved: the TID no longer holds the
// row (the caller looks again).
InPlace update_in_place(Relation heap, Oid counter, ItemPointer tid, Op op, int64 arg, bool flush, int64& result)
{
    Buffer buf = ReadBuffer(heap, ItemPointerGetBlockNumber(tid));
    LockBuffer(buf, BUFFER_LOCK_EXCLUSIVE);
    Page page = BufferGetPage(buf);
    const OffsetNumber off = ItemPointerGetOffsetNumber(tid);
    ItemId lp = off <= PageGetMaxOffsetNumber(page) ? PageGetItemId(page, off) : nullptr;
    if (!lp || !ItemIdIsNormal(lp)) {
        UnlockReleaseBuffer(buf);
        return InPlace::Moved;
    }
    HeapTupleData htup;
    htup.t_data = (HeapTupleHeader) PageGetItem(page, lp);
    htup.t_len = ItemIdGetLength(lp);
    htup.t_self = *tid;
    htup.t_tableOid = RelationGetRelid(heap);
    bool isnull;
    if (!HeapTupleSatisfiesVisibility(&htup, SnapshotSelf, buf) ||
        DatumGetObjectId(heap_getattr(&htup, kCounter, RelationGetDescr(heap), &isnull)) != counter) {
        UnlockReleaseBuffer(buf);
        return InPlace::Moved;
    }
    int64 last;
    memcpy(&last, (char*) htup.t_data + htup.t_data->t_hoff, sizeof last);
    int64 out;
    if (!next_last(last, op, arg, out)) {
        UnlockReleaseBuffer(buf);
        return InPlace::Overflow;
    }
    result = out;
    if (out != last) {
        XLogRecPtr lsn = write_logged(heap, buf, (uint16) ((char*) htup.t_data + htup.t_data->t_hoff - (char*) page), out);
        UnlockReleaseBuffer(buf);
        if (flush && lsn != InvalidXLogRecPtr)
            XLogFlush(lsn);
        return InPlace::Done;
    }
    UnlockReleaseBuffer(buf);
    return InPlace::Done;
}

// Inserts the row of a new key, frozen, with its index entry (fast counters).
void insert_frozen(Relation heap, Relation index, Oid counter, text* key, int32 period, bool has_period, int64 last,
                   bool flush)
{
    Datum values[4] = {Int64GetDatum(last), ObjectIdGetDatum(counter), Int32GetDatum(period), PointerGetDatum(key)};
    bool nulls[4] = {false, false, !has_period, false};
    HeapTuple tup = heap_form_tuple(RelationGetDescr(heap), values, nulls);
    heap_insert(heap, tup, GetCurrentCommandId(true), HEAP_INSERT_FROZEN, NULL);
    Datum ivalues[2] = {ObjectIdGetDatum(counter), PointerGetDatum(key)};
    bool inulls[2] = {false, false};
    IndexInfo* info = BuildIndexInfo(index);
    index_insert(index, ivalues, inulls, &tup->t_self, heap, UNIQUE_CHECK_NO, false, info);
    if (flush && RelationNeedsWAL(heap))
        XLogFlush(XactLastRecEnd); // the end of this backend's last record: the index entry's
    heap_freetuple(tup);
}

int64 apply_fast(const CounterDef& def, text* key, int32 period, Op op, int64 arg, bool flush)
{
    Relation heap = table_open(state.rel, RowExclusiveLock);
    if (RelationNeedsWAL(heap))
        (void) GetTopTransactionId();
    Relation index = index_open(state.index, RowExclusiveLock);
    int64 result = 0;
    for (int attempt = 0;; attempt++) {
        if (attempt > 100)
            elog(ERROR, "could not find the row of key \"%s\" of counter \"%s\"",
                 shown(VARDATA_ANY(key), VARSIZE_ANY_EXHDR(key)), def.name);
        ItemPointerData tid;
        int64 last;
        if (find_row(heap, def.anchor, key, period, SnapshotSelf, &tid, &last)) {
            InPlace r = update_in_place(heap, def.anchor, &tid, op, arg, flush, result);
            if (r == InPlace::Overflow)
                fail_overflow(def, key);
            if (r == InPlace::Done)
                break;
            continue;
        }
        LOCKTAG tag = key_lock(def.anchor, key, period);
        (void) LockAcquire(&tag, ExclusiveLock, false, false);
        if (find_row(heap, def.anchor, key, period, SnapshotSelf, &tid, &last)) {
            LockRelease(&tag, ExclusiveLock, false);
            continue;
        }
        int64 first;
        if (!next_last(def.start - 1, op, arg, first)) {
            LockRelease(&tag, ExclusiveLock, false);
            fail_overflow(def, key);
        }
        if (first != def.start - 1) // raising to a value below start makes no row
            insert_frozen(heap, index, def.anchor, key, period, def.period != Period::None, first, flush);
        LockRelease(&tag, ExclusiveLock, false);
        result = first;
        break;
    }
    index_close(index, NoLock);
    table_close(heap, NoLock);
    return result;
}

// Saved plans of the gap-free statements, kept for the backend's life (the plan cache
// re-plans them after a change of the table).
SPIPlanPtr plan_add, plan_at_least, plan_insert;

SPIPlanPtr prepare(const char* sql)
{
    Oid types[4] = {REGCLASSOID, TEXTOID, INT4OID, INT8OID};
    return internal_sql_keep_plan(sql, 4, types);
}

void ensure_plans()
{
    if (likely(plan_insert))
        return;
    const char* t = extension_relation("idseq_counter_state");
    const char* where = "WHERE counter OPERATOR(pg_catalog.=) $1 AND key OPERATOR(pg_catalog.=) $2 "
                        "AND period IS NOT DISTINCT FROM $3 RETURNING last";
    if (!plan_add)
        plan_add = prepare(psprintf("UPDATE %s SET last = last OPERATOR(pg_catalog.+) $4 %s", t, where));
    if (!plan_at_least)
        plan_at_least = prepare(psprintf("UPDATE %s SET last = GREATEST(last, $4) %s", t, where));
    plan_insert = prepare(psprintf("INSERT INTO %s (last, counter, period, key) VALUES ($4, $1, $3, $2)", t));
}

// Runs a gap-free statement; the number of rows, the new last in *last.
uint64 run_plan(SPIPlanPtr plan, const CounterDef& def, text* key, int32 period, int64 arg, int64* last)
{
    Datum values[4] = {ObjectIdGetDatum(def.anchor), PointerGetDatum(key), Int32GetDatum(period), Int64GetDatum(arg)};
    char nulls[4] = {' ', ' ', def.period == Period::None ? 'n' : ' ', ' '};
    internal_sql_run_plan(plan, values, nulls, false);
    if (SPI_processed == 1 && SPI_tuptable && last) {
        bool isnull;
        *last = DatumGetInt64(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull));
    }
    return SPI_processed;
}

int64 apply_gapless(const CounterDef& def, text* key, int32 period, Op op, int64 arg)
{
    InternalSqlSaved saved;
    internal_sql_connect_as(state.owner, true, saved);
    ensure_plans();
    SPIPlanPtr update = op == Op::Add ? plan_add : plan_at_least;
    int64 result = 0;
    for (int attempt = 0;; attempt++) {
        if (run_plan(update, def, key, period, arg, &result) == 1)
            break;
        if (attempt > 1000)
            elog(ERROR, "could not update key \"%s\" of counter \"%s\"",
                 shown(VARDATA_ANY(key), VARSIZE_ANY_EXHDR(key)), def.name);
        // No row this statement can see: make it, unless another transaction made one. As a
        // unique index's check: a row another transaction is inserting is waited for (and
        // looked for again after), so the lock of the key is held for the check and the
        // insert only, never to the end of the transaction (a statement may make 10^6 keys).
        LOCKTAG tag = key_lock(def.anchor, key, period);
        (void) LockAcquire(&tag, ExclusiveLock, false, false);
        Relation heap = table_open(state.rel, AccessShareLock);
        SnapshotData dirty;
        InitDirtySnapshot(dirty);
        ItemPointerData tid;
        int64 last;
        TransactionId inserter = InvalidTransactionId;
        const bool exists = find_row(heap, def.anchor, key, period, &dirty, &tid, &last, &inserter);
        if (!exists) {
            int64 first;
            if (!next_last(def.start - 1, op, arg, first)) {
                LockRelease(&tag, ExclusiveLock, false);
                fail_overflow(def, key);
            }
            if (first != def.start - 1)
                run_plan(plan_insert, def, key, period, first, nullptr);
            table_close(heap, AccessShareLock);
            LockRelease(&tag, ExclusiveLock, false);
            result = first;
            break;
        }
        LockRelease(&tag, ExclusiveLock, false);
        if (TransactionIdIsValid(inserter)) {
            XactLockTableWait(inserter, heap, &tid, XLTW_InsertIndex);
            table_close(heap, AccessShareLock);
            continue;
        }
        table_close(heap, AccessShareLock);
        // committed after this transaction's snapshot: under READ COMMITTED the next UPDATE
        // (a new snapshot) sees it
        if (IsolationUsesXactSnapshot())
            ereport(ERROR, (errcode(ERRCODE_T_R_SERIALIZATION_FAILURE),
                            errmsg("could not serialize access to key \"%s\" of counter \"%s\"",
                                   shown(VARDATA_ANY(key), VARSIZE_ANY_EXHDR(key)), def.name),
                            errdetail("Another transaction made the key's row after this transaction's snapshot."),
                            errhint("Retry the transaction.")));
    }
    internal_sql_finish_as(saved);
    return result;
}

} // namespace

int64 apply(const CounterDef& def, const char* key, size_t key_len, int32 period, Op op, int64 arg, bool flush)
{
    ensure_state();
    text* k = cstring_to_text_with_len(key, (int) key_len);
    return def.gapless ? apply_gapless(def, k, period, op, arg) : apply_fast(def, k, period, op, arg, flush);
}

namespace {

// Whether a transaction id is committed (frozen and hinted ones without a look at the commit
// log). The current transaction's own is not, until it commits.
bool xmin_committed(HeapTupleHeader t)
{
    return HeapTupleHeaderXminFrozen(t) || HeapTupleHeaderXminCommitted(t) ||
           (!HeapTupleHeaderXminInvalid(t) && TransactionIdDidCommit(HeapTupleHeaderGetRawXmin(t)));
}

bool replaced_by_committed(HeapTupleHeader t)
{
    if (t->t_infomask & HEAP_XMAX_INVALID || HEAP_XMAX_IS_LOCKED_ONLY(t->t_infomask))
        return false;
    if (t->t_infomask & HEAP_XMAX_COMMITTED)
        return true;
    return TransactionIdDidCommit(HeapTupleHeaderGetUpdateXid(t));
}

// The committed version of a gap-free key's row: the one whose insert committed and whose
// update did not (every version, through SnapshotAny; the current transaction's own update
// is not committed yet, so its caller reads the number before it).
bool find_committed(Relation heap, Oid counter, text* key, int32 period, int64* last)
{
    SysScanDesc scan = key_scan(heap, counter, key, SnapshotAny);
    TupleDesc desc = RelationGetDescr(heap);
    bool found = false;
    HeapTuple tup;
    while (!found && HeapTupleIsValid(tup = systable_getnext(scan))) {
        bool isnull;
        if (period_of(tup, desc) != period || !xmin_committed(tup->t_data) ||
            replaced_by_committed(tup->t_data))
            continue;
        *last = DatumGetInt64(heap_getattr(tup, kLast, desc, &isnull));
        found = true;
    }
    systable_endscan(scan);
    return found;
}

} // namespace

bool current(const CounterDef& def, const char* key, size_t key_len, int32 period, int64& last)
{
    ensure_state();
    text* k = cstring_to_text_with_len(key, (int) key_len);
    Relation heap = table_open(state.rel, AccessShareLock);
    if (def.gapless) {
        bool found = find_committed(heap, def.anchor, k, period, &last);
        table_close(heap, AccessShareLock);
        return found;
    }
    ItemPointerData tid;
    bool found = find_row(heap, def.anchor, k, period, GetLatestSnapshot(), &tid, &last);
    if (found) {
        // a fast row changes in place: read it under the buffer lock its writers take
        Buffer buf = ReadBuffer(heap, ItemPointerGetBlockNumber(&tid));
        LockBuffer(buf, BUFFER_LOCK_SHARE);
        Page page = BufferGetPage(buf);
        ItemId lp = PageGetItemId(page, ItemPointerGetOffsetNumber(&tid));
        if (ItemIdIsNormal(lp)) {
            HeapTupleHeader t = (HeapTupleHeader) PageGetItem(page, lp);
            memcpy(&last, (char*) t + t->t_hoff, sizeof last);
        }
        UnlockReleaseBuffer(buf);
    }
    table_close(heap, AccessShareLock);
    return found;
}

int64 next_number(const CounterDef& def, const char* key, size_t key_len, int32 period)
{
    PreventCommandIfReadOnly("idseq_counter_next()");
    PreventCommandIfParallelMode("idseq_counter_next()");
    return apply(def, key, key_len, period, Op::Add, 1, false);
}

} // namespace idseq::pg::counter
