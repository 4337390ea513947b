// Counters per key: the state of keys, one row of idseq_counter_state per (counter, key,
// period), found through the non-unique index on (counter, key).
//
// Fast counters (gaps allowed) work like nextval: never undone, never waiting for another
// transaction. A key's row is found with an index probe and updated IN PLACE under its heap
// buffer's exclusive lock, as sequence.c updates a sequence's tuple; every change is
// WAL-logged with generic WAL (access/generic_xlog.h), whose redo applies the changed bytes,
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
// period) held until the transaction ends; a caller that then finds a row committed after
// its snapshot, under REPEATABLE READ or SERIALIZABLE, fails with 40001 as a concurrent
// UPDATE would.
#include "counter_internal.h"

#include "boundary.h"
#include "errors.h"
#include "internal_sql.h"
#include "registry.h"

extern "C" {
#include "access/generic_xlog.h"
#include "access/genam.h"
#include "access/heapam.h"
#include "access/htup_details.h"
#include "access/table.h"
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

// The row of (counter, key, period) as snap sees it: its TID and last number.
bool find_row(Relation heap, Oid counter, text* key, int32 period, Snapshot snap, ItemPointer tid, int64* last)
{
    ScanKeyData sk[2];
    ScanKeyInit(&sk[0], kCounter, BTEqualStrategyNumber, F_OIDEQ, ObjectIdGetDatum(counter));
    ScanKeyEntryInitialize(&sk[1], 0, kKey, BTEqualStrategyNumber, InvalidOid, C_COLLATION_OID, F_TEXTEQ,
                           PointerGetDatum(key));
    SysScanDesc scan = systable_beginscan(heap, state.index, true, snap, 2, sk);
    TupleDesc desc = RelationGetDescr(heap);
    bool found = false;
    HeapTuple tup;
    while (!found && HeapTupleIsValid(tup = systable_getnext(scan))) {
        bool isnull;
        Datum p = heap_getattr(tup, kPeriod, desc, &isnull);
        if ((isnull ? 0 : DatumGetInt32(p)) != period)
            continue;
        *tid = tup->t_self;
        *last = DatumGetInt64(heap_getattr(tup, kLast, desc, &isnull));
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
        GenericXLogState* gx = GenericXLogStart(heap);
        Page copy = GenericXLogRegisterBuffer(gx, buf, 0);
        HeapTupleHeader t = (HeapTupleHeader) PageGetItem(copy, PageGetItemId(copy, off));
        memcpy((char*) t + t->t_hoff, &out, sizeof out);
        XLogRecPtr lsn = GenericXLogFinish(gx);
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
        XLogFlush(GetXLogInsertRecPtr());
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
    SPIPlanPtr p = SPI_prepare(sql, 4, types);
    if (!p)
        elog(ERROR, "SPI_prepare failed: %s", SPI_result_code_string(SPI_result));
    if (SPI_keepplan(p) != 0)
        elog(ERROR, "SPI_keepplan failed");
    return p;
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
    int rc = SPI_execute_plan(plan, values, nulls, false, 0);
    if (rc < 0)
        elog(ERROR, "SPI_execute_plan failed: %s", SPI_result_code_string(rc));
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
    if (run_plan(update, def, key, period, arg, &result) == 0) {
        LOCKTAG tag = key_lock(def.anchor, key, period);
        (void) LockAcquire(&tag, ExclusiveLock, false, false); // held until the transaction ends
        Relation heap = table_open(state.rel, AccessShareLock);
        ItemPointerData tid;
        int64 last;
        const bool exists = find_row(heap, def.anchor, key, period, SnapshotSelf, &tid, &last);
        table_close(heap, AccessShareLock);
        if (exists) {
            if (IsolationUsesXactSnapshot())
                ereport(ERROR, (errcode(ERRCODE_T_R_SERIALIZATION_FAILURE),
                                errmsg("could not serialize access to key \"%s\" of counter \"%s\"",
                                       shown(VARDATA_ANY(key), VARSIZE_ANY_EXHDR(key)), def.name),
                                errdetail("Another transaction made the key's row after this transaction's snapshot."),
                                errhint("Retry the transaction.")));
            if (run_plan(update, def, key, period, arg, &result) != 1)
                elog(ERROR, "could not update key \"%s\" of counter \"%s\"",
                     shown(VARDATA_ANY(key), VARSIZE_ANY_EXHDR(key)), def.name);
        } else {
            int64 first;
            if (!next_last(def.start - 1, op, arg, first))
                fail_overflow(def, key);
            if (first != def.start - 1)
                run_plan(plan_insert, def, key, period, first, nullptr);
            result = first;
        }
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

bool current(const CounterDef& def, const char* key, size_t key_len, int32 period, int64& last)
{
    ensure_state();
    text* k = cstring_to_text_with_len(key, (int) key_len);
    Relation heap = table_open(state.rel, AccessShareLock);
    ItemPointerData tid;
    bool found = find_row(heap, def.anchor, k, period, GetLatestSnapshot(), &tid, &last);
    if (found && !def.gapless) {
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
