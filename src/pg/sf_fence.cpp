// Snowflake ids: the server's fence, a time before which every unit of every layout counts as
// spent on this server, whatever database issued it.
//
// A generator's own durable mark H lives in its database (sf_store.cpp); no database
// can read another's. So when a database starts issuing a (layout definition, node id) that
// another database of the server may have issued before -- a claim taken over after a
// failover, a pg_upgrade, a dropped database, a lost or deleted claim file -- its own H says
// nothing about those ids, and a clock that is behind (a promoted standby's, a step back)
// would let it issue them again. The fence closes that: every reservation raises it to the
// time its mark stands for (idseq::fence_of_mark) in the same WAL flush that makes H durable,
// and a database that takes a claim restarts above the greater of its H and the fence
// (idseq::fence_mark; restart_above_fence in sf_generator.cpp).
//
// The fence is the progress of a replication origin, "idseq_snowflake_fence" (and
// "idseq_snowflake_fence_long" for layouts with units longer than a second): PostgreSQL
// WAL-logs it (replorigin_advance with wal_log), replays it at crash recovery and on
// standbys, writes it at every checkpoint (pg_logical/replorigin_checkpoint) and copies it
// with a base backup, and every database of the server reads it. It only rises here
// (go_backward false). What it costs: two replication origins, whose progress takes up to two
// of the max_replication_slots entries PostgreSQL keeps for origins, and one small WAL record per
// reservation that raises it (at most one per lease and layout). What it does not survive:
// pg_upgrade (a new cluster has no origins; the install script of CREATE EXTENSION and ALTER
// EXTENSION UPDATE creates it, a binary upgrade runs neither) and a superuser's
// pg_replication_origin_drop(). Without it, or with max_replication_slots = 0, no database
// takes a claim: snowflake_nextval fails with 55000 and says how to restore it.
#include "sf_internal.h"

extern "C" {
#include "access/xact.h"
#include "access/xlog.h"
#include "catalog/pg_replication_origin.h"
#include "miscadmin.h"
#include "replication/origin.h"
#include "replication/slot.h"
#include "storage/lmgr.h"
#include "utils/fmgrprotos.h"
}

#include <algorithm>

namespace snowflake {

// Two fences: layouts whose time unit is at most a second, and the others. A reservation
// may raise its fence up to its unit's end (a burst that spends most of a unit early), so
// one fence for all would let a day-unit layout's burst move a millisecond layout's take-over
// a day ahead of the clock; apart, the first kind moves at most a second.
constexpr const char* kFenceOrigin = "idseq_snowflake_fence";
constexpr const char* kFenceOriginLong = "idseq_snowflake_fence_long";
constexpr int64 kShortUnitUs = 1000000;

namespace {

const char* origin_name(int64 unit_us) { return unit_us <= kShortUnitUs ? kFenceOrigin : kFenceOriginLong; }

void check_origins_kept()
{
    if (max_replication_slots == 0)
        ereport(ERROR,
                (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
                 errmsg("snowflake ids need max_replication_slots of at least 1"),
                 errdetail("idseq keeps the server's snowflake fence in replication origin \"%s\", whose progress "
                           "PostgreSQL keeps only when max_replication_slots is above 0.",
                           kFenceOrigin),
                 errhint("Set max_replication_slots to at least 1 and restart the server.")));
}

RepOriginId fence_origin(int64 unit_us)
{
    check_origins_kept();
    const RepOriginId origin = replorigin_by_name(origin_name(unit_us), true);
    if (origin == InvalidRepOriginId)
        ereport(ERROR,
                (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
                 errmsg("the snowflake fence of this server is missing"),
                 errdetail("idseq keeps it in replication origin \"%s\". A cluster made by pg_upgrade has none, "
                           "and a superuser may have dropped it.",
                           origin_name(unit_us)),
                 errhint("A superuser creates it with SELECT idseq_snowflake_fence_init(); in a database with idseq.")));
    return origin;
}

} // namespace

int64 fence_read(int64 unit_us) { return (int64) replorigin_get_progress(fence_origin(unit_us), false); }

XLogRecPtr fence_raise(int64 unit_us, int64 us)
{
    const RepOriginId origin = fence_origin(unit_us);
    if ((int64) replorigin_get_progress(origin, false) >= us)
        return InvalidXLogRecPtr;
    // replorigin_advance's rule: a lock on pg_replication_origin keeps the origin from being
    // dropped meanwhile. Released at once, so that no transaction of ours holds up another
    // session's CREATE SUBSCRIPTION until it ends.
    LockRelationOid(ReplicationOriginRelationId, RowExclusiveLock);
    replorigin_advance(origin, (XLogRecPtr) us, InvalidXLogRecPtr, false /* never back */, true /* WAL-log */);
    UnlockRelationOid(ReplicationOriginRelationId, RowExclusiveLock);
    // The end of the record just inserted (XLogInsert sets it), as a commit flushes up to
    // it. Not GetXLogInsertRecPtr(): when a record ends at a page boundary, the insert
    // position lies past the next page's header, which nothing has written yet, and
    // XLogFlush of it fails ("xlog flush request ... is not satisfied"), about once in a
    // thousand reservations.
    return XactLastRecEnd;
}

} // namespace snowflake

extern "C" {

PG_FUNCTION_INFO_V1(idseq_snowflake_fence_init);

namespace {

int64 pending_fence_us = 0; // raised at the commit of the transaction that asked for it

// The raise happens just before the commit, when the origin a transaction creates is about to
// exist for everybody: progress given to an origin whose creation then rolls back would stay
// in shared memory under an origin id the next replorigin_create hands out (to a
// subscription, whose changes it would then skip).
void raise_at_commit(XactEvent event, void*)
{
    if (pending_fence_us == 0)
        return;
    if (event == XACT_EVENT_PRE_COMMIT) {
        const int64 us = pending_fence_us;
        pending_fence_us = 0;
        XLogRecPtr lsn = snowflake::fence_raise(1, us);
        lsn = std::max(lsn, snowflake::fence_raise(INT64_MAX, us));
        if (lsn != InvalidXLogRecPtr)
            XLogFlush(lsn);
    } else if (event == XACT_EVENT_ABORT || event == XACT_EVENT_PARALLEL_ABORT) {
        pending_fence_us = 0;
    }
}

} // namespace

// Creates the fence when it is missing and, with raise, when the transaction commits, raises
// it to the clock plus the lease (or the run-ahead, the greater): every id issued on this server before
// the fence was lost lies below that, unless the clock has since stepped back by more than the
// time between. Superuser only; run by CREATE EXTENSION and ALTER EXTENSION UPDATE.
Datum idseq_snowflake_fence_init(PG_FUNCTION_ARGS)
{
    using namespace snowflake;
    if (!superuser())
        ereport(ERROR, (errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
                        errmsg("permission denied to create the snowflake fence"),
                        errdetail("Only superusers may create or raise the server's snowflake fence.")));
    for (const char* name : {kFenceOrigin, kFenceOriginLong}) {
        if (replorigin_by_name(name, true) != InvalidRepOriginId)
            continue;
        LockRelationOid(ReplicationOriginRelationId, ExclusiveLock); // as replorigin_create takes it
        if (replorigin_by_name(name, true) == InvalidRepOriginId)
            (void) replorigin_create(name);
        UnlockRelationOid(ReplicationOriginRelationId, ExclusiveLock);
    }
    if (!PG_GETARG_BOOL(0) || max_replication_slots == 0)
        PG_RETURN_VOID(); // nothing to raise (with no slots, snowflake_nextval refuses until the setting allows)
    static bool registered = false;
    if (!registered) {
        RegisterXactCallback(raise_at_commit, nullptr);
        registered = true;
    }
    pending_fence_us = std::max(pending_fence_us, now_unix_us() + lease_us());
    PG_RETURN_VOID();
}

} // extern "C"
