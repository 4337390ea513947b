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
// Gap-free counters are transactional: each number is an MVCC update of the key's row, made
// with heap_update as an UPDATE statement makes it (no SQL: an executor per number was half
// of a number's cost). The row's version is first looked for where the key's hint says its
// last number wrote it (find_hinted), then through the index. Under READ COMMITTED a new
// snapshot finds the row; heap_update waits
// for a transaction holding it and, when that one committed a newer version, the row is
// looked for again with a new snapshot, which sees it (an UPDATE re-reads the newer version
// the same way). Under REPEATABLE READ or SERIALIZABLE a newer version committed after the
// transaction's snapshot fails with 40001, as an UPDATE does. A new key's row is inserted
// under a lock of (counter, key, period) held for the check and the insert only; a caller
// that finds a row another transaction is inserting waits for that transaction, as a unique
// index's check does, and one that finds a row committed after its snapshot, under
// REPEATABLE READ or SERIALIZABLE, fails with 40001 as a concurrent UPDATE would.
//
// Every row written outside SQL gets its entries in every index of the table that takes
// inserts (also one being built by REINDEX CONCURRENTLY), as the executor would make them.
#include "counter_internal.h"

#include "core_call.h"
#include "quoted_text_pg.h"
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
#include "executor/executor.h"
#include "executor/tuptable.h"
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

// The locks of (counter, key, period): object locks whose "class" is the anchor (a user
// relation's oid, never a catalog's) and whose object is a 47-bit hash of the key and period
// (the object id, and the sub-id from 1). Sub-id 0 is the lock under which a key's row is
// made (held around the insert only); the others are the queue of a gap-free key's callers
// (see apply_gapless). Two keys whose hashes agree would wait for each other: about one pair
// in 10^14, and only while both are busy.
enum class KeyLock { Make, Queue };
LOCKTAG key_lock(Oid counter, text* key, int32 period, KeyLock which = KeyLock::Make)
{
    const uint64 h = key_hash(counter, key, period);
    LOCKTAG tag;
    SET_LOCKTAG_OBJECT(tag, MyDatabaseId, counter, (uint32) h,
                       which == KeyLock::Make ? 0 : 1 + (uint16) ((h >> 32) % 65535));
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

// The index entries of heap tuple tup, in every index of the state table that takes inserts
// (its index on (counter, key), and one being built concurrently). unchanged: the entry is
// that of a new version of a row whose key did not change (a hint to the index).
void insert_index_entries(Relation heap, HeapTuple tup, bool unchanged)
{
    TupleTableSlot* slot = MakeSingleTupleTableSlot(RelationGetDescr(heap), &TTSOpsHeapTuple);
    ExecStoreHeapTuple(tup, slot, false);
    EState* estate = nullptr; // for an index on expressions or a partial one only
    List* indexes = RelationGetIndexList(heap);
    ListCell* lc;
    foreach (lc, indexes) {
        Relation index = index_open(lfirst_oid(lc), RowExclusiveLock);
        IndexInfo* info = BuildIndexInfo(index);
        if (info->ii_ReadyForInserts) {
            if (!estate && (info->ii_Expressions != NIL || info->ii_Predicate != NIL)) {
                estate = CreateExecutorState();
                GetPerTupleExprContext(estate)->ecxt_scantuple = slot;
            }
            if (info->ii_Predicate == NIL ||
                ExecQual(ExecPrepareQual(info->ii_Predicate, estate), GetPerTupleExprContext(estate))) {
                Datum values[INDEX_MAX_KEYS];
                bool isnull[INDEX_MAX_KEYS];
                FormIndexDatum(info, slot, estate, values, isnull);
                (void) index_insert(index, values, isnull, &tup->t_self, heap,
                                    index->rd_index->indisunique ? UNIQUE_CHECK_YES : UNIQUE_CHECK_NO, unchanged, info);
            }
        }
        index_close(index, NoLock);
    }
    list_free(indexes);
    if (estate)
        FreeExecutorState(estate);
    ExecDropSingleTupleTableSlot(slot);
}

// A row of the state table.
HeapTuple form_row(Relation heap, const CounterDef& def, text* key, int32 period, int64 last)
{
    Datum values[4] = {Int64GetDatum(last), ObjectIdGetDatum(def.anchor), Int32GetDatum(period), PointerGetDatum(key)};
    bool nulls[4] = {false, false, def.period == Period::None, false};
    return heap_form_tuple(RelationGetDescr(heap), values, nulls);
}

enum class InPlace { Done, NotThisRow, Overflow };

// Whether a row's key is key (a key stored compressed or out of line, which idseq never
// writes, is taken for another: the caller then looks through the index).
bool row_has_key(HeapTuple htup, TupleDesc desc, const text* key)
{
    bool isnull;
    const struct varlena* v = (const struct varlena*) DatumGetPointer(heap_getattr(htup, kKey, desc, &isnull));
    if (isnull || (VARATT_IS_EXTENDED(v) && !VARATT_IS_SHORT(v)))
        return false;
    const size_t len = VARSIZE_ANY_EXHDR(v);
    return len == VARSIZE_ANY_EXHDR(key) && memcmp(VARDATA_ANY(v), VARDATA_ANY(key), len) == 0;
}

// Whether the tuple at tid in buf's page (locked by the caller) is a row of (counter, period)
// that snap sees and, with key_check, of that key; the tuple goes to *htup.
bool row_at(Relation heap, Buffer buf, ItemPointer tid, Snapshot snap, Oid counter, int32 period,
            const text* key_check, HeapTupleData* htup)
{
    Page page = BufferGetPage(buf);
    const OffsetNumber off = ItemPointerGetOffsetNumber(tid);
    ItemId lp = off <= PageGetMaxOffsetNumber(page) ? PageGetItemId(page, off) : nullptr;
    if (!lp || !ItemIdIsNormal(lp))
        return false;
    htup->t_data = (HeapTupleHeader) PageGetItem(page, lp);
    htup->t_len = ItemIdGetLength(lp);
    htup->t_self = *tid;
    htup->t_tableOid = RelationGetRelid(heap);
    TupleDesc desc = RelationGetDescr(heap);
    bool isnull;
    return HeapTupleSatisfiesVisibility(htup, snap, buf) &&
           DatumGetObjectId(heap_getattr(htup, kCounter, desc, &isnull)) == counter && period_of(htup, desc) == period &&
           (!key_check || row_has_key(htup, desc, key_check));
}

// The place the hint of hash h names, if it lies within the table: VACUUM may have cut the
// table short since (it cannot while this transaction holds the table's lock).
bool hinted_place(Relation heap, uint64 h, ItemPointer tid)
{
    return hint_get(h, tid) && ItemPointerGetBlockNumber(tid) < RelationGetNumberOfBlocks(heap);
}

// Applies op in place to the row at tid (fast counters), if it is the row of (counter, key,
// period): a live row (SnapshotSelf) of that counter and period, and with key_check, of that
// key. Without key_check the TID comes from an entry of the index on (counter, key) whose
// leaf page the caller's scan keeps pinned, so that VACUUM cannot have freed it and the row
// it names has that key; with it, from a hint, which may name anything.
InPlace update_in_place(Relation heap, Oid counter, int32 period, const text* key_check, ItemPointer tid, Op op,
                        int64 arg, bool flush, int64& result)
{
    Buffer buf = ReadBuffer(heap, ItemPointerGetBlockNumber(tid));
    LockBuffer(buf, BUFFER_LOCK_EXCLUSIVE);
    HeapTupleData htup;
    if (!row_at(heap, buf, tid, SnapshotSelf, counter, period, key_check, &htup)) {
        UnlockReleaseBuffer(buf);
        return InPlace::NotThisRow;
    }
    Page page = BufferGetPage(buf);
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

// Applies op in place to the row of (counter, key, period), found through the index alone
// (the heap is read once, under the lock that changes it); false when the key has no row.
// The row's place goes to *found.
bool apply_existing_fast(Relation heap, Relation index, const CounterDef& def, text* key, int32 period, Op op,
                         int64 arg, bool flush, int64& result, ItemPointer found)
{
    ScanKeyData sk[2];
    ScanKeyInit(&sk[0], 1, BTEqualStrategyNumber, F_OIDEQ, ObjectIdGetDatum(def.anchor));
    ScanKeyEntryInitialize(&sk[1], 0, 2, BTEqualStrategyNumber, InvalidOid, C_COLLATION_OID, F_TEXTEQ,
                           PointerGetDatum(key));
    IndexScanDesc scan = IDSEQ_INDEX_BEGINSCAN(heap, index, SnapshotSelf, 2, 0);
    index_rescan(scan, sk, 2, nullptr, 0);
    InPlace r = InPlace::NotThisRow;
    ItemPointer tid;
    while (r == InPlace::NotThisRow && (tid = index_getnext_tid(scan, ForwardScanDirection)) != nullptr) {
        r = update_in_place(heap, def.anchor, period, nullptr, tid, op, arg, flush, result);
        if (r == InPlace::Done)
            *found = *tid;
    }
    index_endscan(scan);
    if (r == InPlace::Overflow)
        fail_overflow(def, key);
    return r == InPlace::Done;
}

// Refuses a new key of a fast counter while an index of the state table is being built
// concurrently and takes inserts but is not valid yet. Its row is inserted frozen (visible to
// every snapshot at once, so that a rollback keeps it), which the build's validation does not
// expect: it adds the rows its snapshot sees and the index lacks, and a frozen row made after
// that snapshot is one of them, so the index would get the row twice or, left out by this
// insert, not at all. Existing keys change in place and are not affected; before the index
// takes inserts the validation adds every frozen row, after it is valid inserts are plain.
void refuse_during_index_build(Relation heap, const CounterDef& def, text* key)
{
    List* indexes = RelationGetIndexList(heap);
    ListCell* lc;
    foreach (lc, indexes) {
        Relation index = index_open(lfirst_oid(lc), RowExclusiveLock);
        const bool building = index->rd_index->indisready && !index->rd_index->indisvalid;
        char* name = building ? pstrdup(RelationGetRelationName(index)) : nullptr;
        index_close(index, NoLock);
        if (building)
            ereport(ERROR, (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
                            errmsg("cannot make key \"%s\" of counter \"%s\" while index \"%s\" is being built or dropped",
                                   shown(VARDATA_ANY(key), VARSIZE_ANY_EXHDR(key)), def.name, name),
                            errdetail("Existing keys take numbers; a new key's row waits until the index is valid."),
                            errhint("Retry when REINDEX CONCURRENTLY, CREATE INDEX CONCURRENTLY or DROP INDEX CONCURRENTLY has finished.")));
    }
    list_free(indexes);
}

// Inserts the row of a new key, frozen, with its index entries (fast counters); its place
// goes to *place.
void insert_frozen(Relation heap, const CounterDef& def, text* key, int32 period, int64 last, bool flush,
                   ItemPointer place)
{
    refuse_during_index_build(heap, def, key);
    HeapTuple tup = form_row(heap, def, key, period, last);
    heap_insert(heap, tup, GetCurrentCommandId(true), HEAP_INSERT_FROZEN, NULL);
    insert_index_entries(heap, tup, false);
    if (flush && RelationNeedsWAL(heap))
        XLogFlush(XactLastRecEnd); // the end of this backend's last record: the index entry's
    *place = tup->t_self;
    heap_freetuple(tup);
}

int64 apply_fast(const CounterDef& def, text* key, int32 period, Op op, int64 arg, bool flush)
{
    Relation heap = table_open(state.rel, RowExclusiveLock);
    if (RelationNeedsWAL(heap))
        (void) GetTopTransactionId();
    int64 result = 0;
    const uint64 h = key_hash(def.anchor, key, period);
    ItemPointerData tid;
    if (hinted_place(heap, h, &tid)) {
        const InPlace r = update_in_place(heap, def.anchor, period, key, &tid, op, arg, flush, result);
        if (r == InPlace::Overflow)
            fail_overflow(def, key);
        if (r == InPlace::Done) {
            table_close(heap, NoLock);
            return result;
        }
    }
    Relation index = index_open(state.index, RowExclusiveLock);
    for (int attempt = 0;; attempt++) {
        if (attempt > 100)
            elog(ERROR, "could not find the row of key \"%s\" of counter \"%s\"",
                 shown(VARDATA_ANY(key), VARSIZE_ANY_EXHDR(key)), def.name);
        if (apply_existing_fast(heap, index, def, key, period, op, arg, flush, result, &tid)) {
            hint_put(h, &tid);
            break;
        }
        // No row: make it under the lock of (counter, key, period), unless another caller
        // made it first (looked for again under the lock).
        LOCKTAG tag = key_lock(def.anchor, key, period);
        (void) LockAcquire(&tag, ExclusiveLock, false, false);
        int64 last;
        if (find_row(heap, def.anchor, key, period, SnapshotSelf, &tid, &last)) {
            LockRelease(&tag, ExclusiveLock, false);
            continue;
        }
        int64 first;
        if (!next_last(def.start - 1, op, arg, first)) {
            LockRelease(&tag, ExclusiveLock, false);
            fail_overflow(def, key);
        }
        if (first != def.start - 1) { // raising to a value below start makes no row
            insert_frozen(heap, def, key, period, first, flush, &tid);
            hint_put(h, &tid);
        }
        LockRelease(&tag, ExclusiveLock, false);
        result = first;
        break;
    }
    index_close(index, NoLock);
    table_close(heap, NoLock);
    return result;
}

[[noreturn]] void fail_serialization(const CounterDef& def, text* key, const char* detail)
{
    ereport(ERROR, (errcode(ERRCODE_T_R_SERIALIZATION_FAILURE),
                    errmsg("could not serialize access to key \"%s\" of counter \"%s\"",
                           shown(VARDATA_ANY(key), VARSIZE_ANY_EXHDR(key)), def.name),
                    errdetail_internal("%s", detail), errhint("Retry the transaction.")));
    pg_unreachable();
}

// The row of a gap-free key as snap sees it, read where its hint says it was last written (a
// gap-free row moves at each number): the version there is taken only if snap sees it and it
// is a row of that counter, period and key; otherwise (false) the caller looks through the
// index, which also finds an older version this snapshot sees. One version of a key's row is
// visible to a snapshot, so both ways find the same one. Under REPEATABLE READ and
// SERIALIZABLE the index is always used (its scan takes the predicate locks).
bool find_hinted(Relation heap, Oid counter, const text* key, int32 period, Snapshot snap, uint64 h, ItemPointer tid,
                 int64* last)
{
    ItemPointerData hint;
    if (IsolationUsesXactSnapshot() || !hinted_place(heap, h, &hint))
        return false;
    Buffer buf = ReadBuffer(heap, ItemPointerGetBlockNumber(&hint));
    LockBuffer(buf, BUFFER_LOCK_SHARE);
    HeapTupleData htup;
    const bool found = row_at(heap, buf, &hint, snap, counter, period, key, &htup);
    if (found) {
        bool isnull;
        *tid = hint;
        *last = DatumGetInt64(heap_getattr(&htup, kLast, RelationGetDescr(heap), &isnull));
    }
    UnlockReleaseBuffer(buf);
    return found;
}

// Takes the queue lock of a gap-free key (see apply_gapless), once per call.
void queue_for_key(const CounterDef& def, text* key, int32 period, bool& queued)
{
    if (queued)
        return;
    LOCKTAG tag = key_lock(def.anchor, key, period, KeyLock::Queue);
    (void) LockAcquire(&tag, ExclusiveLock, false, false);
    queued = true;
}

// Makes the row of a new key of a gap-free counter, unless another transaction made one
// (false: look for it again).
bool insert_gapless(Relation heap, const CounterDef& def, text* key, int32 period, Op op, int64 arg, int64& result,
                    bool& queued)
{
    // As a unique index's check: a row another transaction is inserting is waited for (and
    // looked for again after), so the lock of the key is held for the check and the insert
    // only, never to the end of the transaction (a statement may make 10^6 keys).
    LOCKTAG tag = key_lock(def.anchor, key, period);
    (void) LockAcquire(&tag, ExclusiveLock, false, false);
    SnapshotData dirty;
    InitDirtySnapshot(dirty);
    ItemPointerData tid;
    int64 last;
    TransactionId inserter = InvalidTransactionId;
    if (!find_row(heap, def.anchor, key, period, &dirty, &tid, &last, &inserter)) {
        int64 first;
        if (!next_last(def.start - 1, op, arg, first)) {
            LockRelease(&tag, ExclusiveLock, false);
            fail_overflow(def, key);
        }
        if (first != def.start - 1) {
            HeapTuple tup = form_row(heap, def, key, period, first);
            heap_insert(heap, tup, GetCurrentCommandId(true), 0, NULL);
            insert_index_entries(heap, tup, false);
            heap_freetuple(tup);
        }
        LockRelease(&tag, ExclusiveLock, false);
        result = first;
        return true;
    }
    LockRelease(&tag, ExclusiveLock, false);
    if (TransactionIdIsValid(inserter)) {
        // the inserter holds the key until it ends: wait in the key's queue, as for a row
        queue_for_key(def, key, period, queued);
        XactLockTableWait(inserter, heap, &tid, XLTW_None); // the context is the key's (apply_gapless)
    }
    else if (IsolationUsesXactSnapshot()) // committed after this transaction's snapshot
        fail_serialization(def, key, "Another transaction made the key's row after this transaction's snapshot.");
    // under READ COMMITTED the next snapshot sees it
    return false;
}

// A caller that finds the key's row held by another transaction (updated, or being inserted)
// queues for it on the key's queue lock (held to the end of its transaction, as the row is)
// before waiting for that transaction:
// the lock manager grants that lock to one waiter at a time, in order, when the holder ends.
// Waiting on the row alone, every waiter would wake at each commit, find the row replaced,
// and look for it again, so that each number of a busy key cost a wake-up of all its waiters.
// A caller that finds the row free takes it without the queue.
// The context of an error raised while a gap-free number is taken (a lock or statement
// timeout, a deadlock, a cancel): the key and counter, not the state table's rows.
struct GaplessContext {
    const CounterDef* def;
    const text* key;
};

void gapless_context(void* arg)
{
    const GaplessContext* c = (const GaplessContext*) arg;
    errcontext("while taking the next number of key \"%s\" of counter \"%s\"",
               shown(VARDATA_ANY(c->key), VARSIZE_ANY_EXHDR(c->key)), c->def->name);
}

int64 apply_gapless(const CounterDef& def, text* key, int32 period, Op op, int64 arg)
{
    GaplessContext context{&def, key};
    ErrorContextCallback callback;
    callback.callback = gapless_context;
    callback.arg = &context;
    callback.previous = error_context_stack;
    error_context_stack = &callback;
    Relation heap = table_open(state.rel, RowExclusiveLock);
    int64 result = 0;
    bool queued = false;
    const uint64 h = key_hash(def.anchor, key, period);
    for (int attempt = 0;; attempt++) {
        if (attempt > 1000)
            elog(ERROR, "could not update key \"%s\" of counter \"%s\"",
                 shown(VARDATA_ANY(key), VARSIZE_ANY_EXHDR(key)), def.name);
        // As each SQL statement, this transaction's earlier changes are seen.
        CommandCounterIncrement();
        // The first look uses a copy of the statement's snapshot, made to see this
        // transaction's changes up to now (a new snapshot per number cost a pass over the
        // process array under its lock): a row another transaction changed or made since
        // the statement began is then reported by heap_update, or found by the dirty look
        // before an insert, and looked for again with a new snapshot, which sees it.
        const bool statement_snapshot = attempt == 0 && ActiveSnapshotSet();
        if (statement_snapshot)
            PushCopiedSnapshot(GetActiveSnapshot());
        else
            PushActiveSnapshot(GetTransactionSnapshot());
        UpdateActiveSnapshotCommandId();
        ItemPointerData tid;
        int64 last;
        const bool found = find_hinted(heap, def.anchor, key, period, GetActiveSnapshot(), h, &tid, &last) ||
                           find_row(heap, def.anchor, key, period, GetActiveSnapshot(), &tid, &last);
        PopActiveSnapshot();
        if (!found) {
            if (insert_gapless(heap, def, key, period, op, arg, result, queued))
                break;
            continue;
        }
        int64 next;
        if (!next_last(last, op, arg, next))
            fail_overflow(def, key);
        HeapTuple tup = form_row(heap, def, key, period, next);
        TM_FailureData tmfd;
        LockTupleMode lockmode;
        // once queued, waits for a transaction that holds the row, as an UPDATE does
        const TM_Result r = IDSEQ_HEAP_UPDATE(heap, &tid, tup, GetCurrentCommandId(true), queued, &tmfd, &lockmode);
        if (r == TM_BeingModified && !queued) {
            heap_freetuple(tup);
            queue_for_key(def, key, period, queued);
            continue;
        }
        if (r == TM_Ok) {
            if (!HeapTupleIsHeapOnly(tup))
                insert_index_entries(heap, tup, true);
            hint_put(h, &tup->t_self);
            heap_freetuple(tup);
            result = next;
            break;
        }
        heap_freetuple(tup);
        if (r != TM_Updated && r != TM_Deleted)
            elog(ERROR, "unexpected result %d updating key \"%s\" of counter \"%s\"", (int) r,
                 shown(VARDATA_ANY(key), VARSIZE_ANY_EXHDR(key)), def.name);
        if (IsolationUsesXactSnapshot())
            fail_serialization(def, key, "Another transaction changed the key's row after this transaction's snapshot.");
        // READ COMMITTED: the version that replaced it is looked for with a new snapshot
    }
    table_close(heap, NoLock);
    error_context_stack = callback.previous;
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
    // a fast key's row is inserted frozen and changed in place: every snapshot sees it, and
    // SnapshotSelf needs none taken (a parallel query's leader may take no new one)
    ItemPointerData tid;
    bool found = find_row(heap, def.anchor, k, period, SnapshotSelf, &tid, &last);
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
