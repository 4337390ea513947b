// Snowflake ids: the generator's two paths, and why they never issue an id twice or out of order.
//
// A generator's durable state is per database and layout (layouts live in the database's
// registry; see the README for that scope); with preload its shared-memory state S is the
// server's, per (definition, node id). Its state:
//
//   H  the durable high-water mark, a place in the ids (idseq::Mark: a time unit, or a node's
//      counter inside one): every id ever issued lies at or below it. It is the
//      greater (idseq::mark_max) of the values of the layout's state sequence and of its guard (both WAL-logged;
//      the database owner may set the first, as a restore does, only the generator writes the
//      second, so H cannot be lowered: read_mark), moved with setval() and flushed
//      with XLogFlush() -- and, when synchronous_standby_names is set, flushed by the
//      synchronous standbys whatever the session's synchronous_commit -- BEFORE any id under
//      it is issued (confirm_mark). Crash recovery replays it, a streaming standby replays
//      it, pg_dump dumps it. A reservation moves H a lease's worth of the layout's capacity
//      past the id (W places, in the ids' order), but not past the lease point, the place at
//      now + the lease at that capacity; or a block past the id when the id is beyond that
//      point (idseq::reservation_mark; idseq.snowflake_lease_ms, counted as at least
//      idseq.snowflake_max_ahead_ms). So at any demand up to the capacity one flush lasts at
//      least a lease, H is never more than a lease ahead of the clock unless the
//      ids are, and a crash skips at most W places -- also on a unit longer than the lease,
//      whose ids start at its first counter whatever the clock's share of it. A mark confirmed while no
//      synchronous standby was required is confirmed again, with them, before ids go under it
//      once they are (Slot::sync_reserved, Entry::sync_mark). Reservations, and every read
//      of H that ids are issued under, hold a heavyweight lock on the layout, and H as read
//      is confirmed again before use: a reservation whose wait for the standbys was cancelled
//      leaves its mark in the sequence, unconfirmed, and errors out without issuing or
//      publishing anything.
//   P  the last id issued by the path without shared memory: the value of the layout's
//      UNLOGGED last-id sequence, or "unknown" (is_called = false). A crash or a promotion
//      resets an unlogged relation, so P becomes unknown by itself.
//   S  the shared-memory GenState of the fast path (lost at every restart, except that the
//      postmaster saves it in a file at a clean shutdown, for the next start only; see
//      "Clean shutdown" in sf_shmem.cpp).
//
// Fast path (idseq in shared_preload_libraries): one slot per (layout definition, node id) for
// the whole server -- shared by its databases, each under its own H: see "Databases sharing a
// stream" below; idseq_uuidv7()'s: one per database -- holds S in
// atomics -- the last id's (unit, node, counter) packed in one word, the reserved unit, the
// last clock reading, the anchor -- no WAL, no buffer lock. The common id (the clock not behind,
// no anchor, the unit reserved, within max_ahead of the clock) is one compare-and-swap of the
// word without a lock (try_lock_free); every other step (a reservation, a wait for the clock,
// an anchor, a clock step-back, the first id after a set-up) runs next() under the slot's
// spinlock and issues with a compare-and-swap of the word too. A step that needs a
// reservation moves H (outside the spinlock) and publishes it in S (for a shared stream: in
// the reserving backend's own view of its database's H). The first use of a slot after a start
// takes the layout's lock, reads H, sets P to unknown and does restart_from(S, H) (a shared
// stream: join_stream, which also restarts above the fence).
// Slow path (no preload, or no free slot): each id locks P's buffer (an LWLock, as nextval
// locks its sequence's), rebuilds the state from P (with the anchor every backend shares, kept
// in P's log_cnt) -- or, when P is unknown, restarts from
// H as the backend first read it -- runs the same core step, writes the new id into P and
// unlocks. Reservations and waits for the clock happen with the buffer unlocked, then the
// step starts over.
//
// Why no id is ever issued twice or out of order, on either path and across switches
// (a switch needs a restart, since shared_preload_libraries is fixed while a server runs;
// within one run a (database, layout) pair keeps its path, because slots are never freed):
//  1. Every id is issued under a place the durable H covers, and H never decreases.
//  2. While the slow path runs, P is the greatest id issued since P was last unknown (P's
//     buffer lock serialises read-step-write).
//  3. Whenever P is unknown or the fast path starts, the state restarts from a value of H
//     read after the event that lost the state: the next id goes above it (inside its unit
//     when H ends inside one for this node: idseq::restart_from_mark), so above every id
//     issued before (1), whichever path issued it.
//  4. The fast path sets P to unknown before it issues anything, so a later slow path never
//     resumes from a P older than the fast path's ids; a crash or promotion resets P anyway.
//  5. A clean restart keeps P (unlogged relations survive it) only if no fast path ran
//     since P was written (4), so P is then still the greatest id issued.
//  6. A start that takes S from the file saved at a clean shutdown does so only when the
//     control file still shows that shutdown and no recovery follows, so nothing was issued
//     since S was saved: S is then the greatest id issued by the fast path, which alone
//     issued that layout's ids in that run (P was unknown, 4).
//  7. The fast path's set-up may resume right after a known P instead of above H: P is then
//     the greatest id issued (2; and 3, since the slow path restarted above every id before
//     P was last unknown), and it is made unknown in the same step (4).
// The core's unit test SnowflakeDurable.BothPathsCrashesRestartsAndNodeChangesNeverRepeat
// runs both paths as described here (the fast path's word, lock-free and locked steps,
// anchor and set-up with rules 6 and 7; the slow path's P with its shared anchor), one
// backend step at a time, through crashes, restarts, path switches, clock jumps and node
// changes. Several backends inside one step at once are left to t/033_snowflake_lockfree.pl.
#include "sf_internal.h"

#include <ctime>

extern "C" {
#include "access/relation.h"
#include "access/xlog.h"
#include "catalog/pg_class.h"
#include "common/pg_prng.h"
#include "replication/syncrep.h"
#include "replication/walsender.h"
#include "replication/walsender_private.h"
#include "storage/lmgr.h"
#include "storage/proc.h"
#include "utils/guc.h"
#include "utils/resowner.h"
#include "utils/wait_event.h"
}

#include "compat_syncrep.h"

namespace snowflake {

// The clock the generator reads (with the test offset).
int64 now_unix_us()
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return int64(t.tv_sec) * 1000000 + t.tv_nsec / 1000 + int64(clock_offset_ms_guc) * 1000;
}

namespace {

// A clock that never steps (the pace of anchored frontiers: see GenState::anchor_unit).
int64 now_mono_us()
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return int64(t.tv_sec) * 1000000 + t.tv_nsec / 1000;
}


// ---- Running core code where ereport is not allowed (under a spinlock) ------------------------

// Core code run with idseq::pg::try_run: the caller releases its spinlock, then reports.
idseq::pg::CaughtError spin_error;

// ---- The durable mark: confirmation and reservations ---------------------------------------------

// Whether the server requires synchronous standbys now: as the checkpointer last read
// synchronous_standby_names into shared memory, the test SyncRepWaitForLSN makes, so that a
// statement already running sees a reload at once (a backend reads its own copy of the
// setting only between statements); this backend's own setting until the checkpointer has
// read it once. A reservation confirmed while they were not required is confirmed again
// before any id is issued under it once they are (Slot::sync_reserved, Entry::sync_mark):
// setting synchronous_standby_names must not leave a lease of ids the standbys never saw.
// Read without a lock, as SyncRepWaitForLSN reads it: a change that lands during a call
// counts from the next call.
bool sync_required()
{
    if (max_wal_senders == 0)
        return false;
#ifdef SYNC_STANDBY_DEFINED
    static_assert(SYNC_STANDBY_INIT == 1 && SYNC_STANDBY_DEFINED == 2, "the bits idseq::sync_standbys_required reads");
#endif
    // The running server's version, not the headers' (compat_syncrep.h): read once per backend.
    static int server_version = 0;
    if (server_version == 0) {
        const char* v = GetConfigOption("server_version_num", false, false);
        server_version = v ? atoi(v) : PG_VERSION_NUM;
    }
    const int shared_state = idseq::sync_standbys_required(server_version, idseq_sync_standbys_byte(WalSndCtl));
    if (shared_state >= 0)
        return shared_state == 1;
    return SyncRepStandbyNames && SyncRepStandbyNames[0] != '\0';
}

// The synchronous standbys have flushed the WAL up to lsn, or none is required. This is
// the test SyncRepWaitForLSN makes before it waits (WalSndCtl->lsn[] is the position the
// synchronous standbys have confirmed); here it is made after the wait too, because the wait
// also ends, with a mere WARNING, on a query cancel, a termination or the postmaster's death.
bool standbys_confirmed(XLogRecPtr lsn)
{
    if (!sync_required())
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
idseq::Mark durable_mark(const Entry* e)
{
    XLogRecPtr lsn;
    idseq::Mark h = read_mark(e, lsn);
    confirm_mark(e, lsn);
    return h;
}

// Moves H to target with setval() (WAL-logged by sequence.c) on the guard and on the state
// sequence (see read_mark), as their owner so that callers need no privilege on them. Not
// durable yet: see confirm_mark. An error on the way restores the user with the transaction.
void write_mark(const Entry* e, const idseq::Mark& mark)
{
    int64 target = 0;
    run([&] { target = idseq::encode_mark(e->layout, mark); });
    Oid saved_user;
    int saved_context;
    GetUserIdAndSecContext(&saved_user, &saved_context);
    SetUserIdAndSecContext(e->state_owner, saved_context | SECURITY_LOCAL_USERID_CHANGE | SECURITY_RESTRICTED_OPERATION);
    DirectFunctionCall3(setval3_oid, ObjectIdGetDatum(e->guard_relid), Int64GetDatum(target), BoolGetDatum(true));
    DirectFunctionCall3(setval3_oid, ObjectIdGetDatum(e->state_relid), Int64GetDatum(target), BoolGetDatum(true));
    SetUserIdAndSecContext(saved_user, saved_context);
}

// The mark H must be for the id (unit, counter) of node's ids: H itself when it covers the id,
// else where a reservation moves it (idseq::mark_for_id). A lease at least as long as the
// run-ahead, so that a burst ahead of the clock is covered by one reservation per lease rather
// than one per unit.
idseq::Mark mark_for_id(const Entry* e, int64 unit, int64 counter, int32 node, int64 now_us, const idseq::Mark& mark)
{
    idseq::Mark target;
    run([&] { target = idseq::mark_for_id(e->layout, mark, unit, counter, node, now_us, lease_us()); });
    return target;
}

// The heavyweight lock that serialises a layout's reservations and the first use of its
// shared-memory slot. A lock tag on our state sequence's pg_class OID; PostgreSQL locks
// relations under another tag type, so nothing else takes it. Unlike an LWLock it may be held
// across setval() and the flush, is interruptible and is released on error.
void lock_layout(const Entry* e) { LockDatabaseObject(RelationRelationId, e->state_relid, 0, ExclusiveLock); }
void unlock_layout(const Entry* e) { UnlockDatabaseObject(RelationRelationId, e->state_relid, 0, ExclusiveLock); }

// The server's fence raised to cover the mark (sf_fence.cpp): every id a reservation
// allows, in any database, lies below it. idseq_uuidv7()'s generator takes no claim and keeps
// its ids apart by their random bits, so it neither reads nor raises the fence. Returns the
// LSN that makes the raise durable (InvalidXLogRecPtr: nothing written).
constexpr int64 kFenceToleranceUs = INT64CONST(3600000000); // an hour

XLogRecPtr raise_fence_to(const Entry* e, const idseq::Mark& mark)
{
    if (strcmp(e->name, kUuidv7Entry) == 0)
        return InvalidXLogRecPtr;
    int64 us = 0;
    run([&] { us = idseq::fence_of_mark(e->layout, mark); });
    // The fence is the server's: a mark far above both it and the clock -- the state sequence
    // set ahead by hand (its database's owner may set it, as a restore does) -- would move every
    // other database's take-overs there too, up to the end of their layouts. No reservation
    // moves it further than the clock or the fence already reach, plus the lease and the
    // run-ahead and an hour (a restore from a server whose clock was ahead, a clock step
    // back); such a mark stops this layout of this database only, with an error that says why.
    const int64 fence_us = fence_read(e->layout.unit_us);
    if (us <= fence_us)
        return InvalidXLogRecPtr; // the common case: one read of the fence per reservation
    if (us > std::max(fence_us, now_unix_us()) + lease_us() + e->layout.unit_us + kFenceToleranceUs)
        ereport(ERROR,
                (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
                 errmsg("the durable mark of snowflake layout \"%s\" is too far ahead of this server's clock", e->name),
                 errdetail("Its ids would carry times from %s on, more than an hour past the clock and past every "
                           "id issued on this server.",
                           timestamptz_to_str(pg_from_unix_us(us))),
                 errhint("The layout's state sequence was set ahead (setval, or a restore from a server whose "
                         "clock was ahead). Set it back if no id above the server's ids was issued, or wait.")));
    return fence_raise(e->layout.unit_us, us);
}

// Makes H cover the id (unit, node, counter) (reserving ahead by the lease); returns the
// durable H. H as read may be another reservation's that is not confirmed yet (its wait was
// cancelled): it is confirmed too before it is returned.
idseq::Mark reserve(Entry* e, int64 unit, int64 counter, int32 node, int64 now_us)
{
    // The claim again, once per reservation: a claim file lost while this database issues
    // ids (deleted, damaged, taken by another database meanwhile) stops it here rather than
    // let two databases issue one node's ids.
    if (!e->stream)
        recheck_claim(e, node);
    lock_layout(e);
    XLogRecPtr lsn;
    idseq::Mark mark = read_mark(e, lsn);
    const idseq::Mark target = mark_for_id(e, unit, counter, node, now_us, mark);
    if (target != mark) {
        write_mark(e, target);
        mark = read_mark(e, lsn);
    }
    confirm_mark(e, std::max(lsn, raise_fence_to(e, mark)));
    unlock_layout(e);
    return mark;
}

// The server's fence for e's layout, read now; when it lies no further ahead of the clock than
// reservations go (the lease, or the run-ahead, and a unit) it is waited out first, so that
// ids restarted above it carry the clock's time. One further ahead (a clock stepped back) is
// not: the ids then run ahead of the clock, as after a step back.
int64 wait_out_fence(const Entry* e)
{
    const int64 ahead_us = lease_us() + e->layout.unit_us;
    const int64 fence_us = fence_read(e->layout.unit_us);
    if (fence_us > now_unix_us() && fence_us - now_unix_us() <= ahead_us) {
        for (int64 left; (left = fence_us - now_unix_us()) > 0;) {
            pgstat_report_wait_start(WAIT_EVENT_PG_SLEEP); // as pg_sleep() shows its own
            pg_usleep((long) std::min<int64>(left, 100000));
            pgstat_report_wait_end();
            CHECK_FOR_INTERRUPTS();
        }
    }
    return fence_us;
}

} // namespace

// This database takes a claim that another database of the server may have issued ids under
// (claim_layout): H is raised to cover the server's fence, and both paths restart from H --
// the slow path's last id made unknown and this backend's view of H replaced, the slot set up
// again -- so that the next id of any backend of this database goes above every id issued on
// the server before. The database's own H goes into the fence too.
void restart_above_fence(Entry* e, int32 node)
{
    // The fence as read now, under the claims' lock (claim_layout), covers every id of the pair
    // issued so far: whoever issued them reserved before, and a holder that reserves again
    // checks its claim first, which this lock holds up until the claim is this database's.
    // Other pairs' reservations move the fence on meanwhile, which concerns this pair not at
    // all. A fence no further ahead of the clock than reservations go (the lease, or the
    // run-ahead, and a unit) is waited out, so that the ids carry the clock's time from the
    // first; one further ahead (a clock stepped back) is not: the ids then run ahead of the
    // clock, as after a step back.
    const int64 fence_us = wait_out_fence(e);
    lock_layout(e);
    XLogRecPtr lsn;
    idseq::Mark mark = read_mark(e, lsn);
    const idseq::Mark fence = idseq::fence_mark(e->layout, fence_us, node < 0 ? 0 : node);
    if (!idseq::mark_covers(mark, fence)) {
        write_mark(e, idseq::mark_max(mark, fence));
        mark = read_mark(e, lsn);
    }
    confirm_mark(e, std::max(lsn, raise_fence_to(e, mark)));
    (void) forget_last(e);
    if (e->slot) {
        SpinLockAcquire(&e->slot->mutex);
        e->slot->ready = false;
        SpinLockRelease(&e->slot->mutex);
    }
    e->mark = e->base_mark = mark;
    e->sync_mark = sync_required() ? mark : idseq::Mark{};
    e->mark_read = true;
    unlock_layout(e);
}

namespace {

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
    // Shown in pg_stat_activity as pg_sleep() shows its own (wait_event PgSleep, type Timeout).
    pgstat_report_wait_start(WAIT_EVENT_PG_SLEEP);
    if (spin) {
        idseq::ClockWaiter::wait_until(start, now_unix_us, [](int64 us) { pg_usleep((long) us); },
                                [] { return InterruptPending != 0; });
    } else {
        const int64 left = start - now_unix_us();
        if (left > 0)
            pg_usleep((long) std::min<int64>(left, idseq::ClockWaiter::kMaxSleepUs));
    }
    pgstat_report_wait_end();
    CHECK_FOR_INTERRUPTS();
}

// idseq.snowflake_max_ahead_ms in the layout's units (whole units, rounded down).
int64 ahead_units_of(const Entry* e)
{
    if (max_ahead_ms_guc <= 0)
        return 0;
    int64 units = 0;
    run([&] { units = idseq::ahead_units(e->layout, int64(max_ahead_ms_guc) * 1000); });
    return units;
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
    if (shared_stream(s))
        return s->ready && e->joined;
    return s->ready && s->state_relid == e->state_relid && s->last_relid == e->last_relid;
}

void join_stream(Entry* e, int32 node);

// First use of the slot since the server started (or since the layout's relations changed):
// restart from the durable mark, and make the slow path's last id unknown. Lock-free issuers
// see setup 0 from the start of the set-up on, and drop an id whose compare-and-swap they
// cannot prove came before it (nextval_fast).
void init_slot(Entry* e, int32 node)
{
    Slot* s = e->slot;
    if (shared_stream(s)) {
        join_stream(e, node);
        return;
    }
    lock_layout(e);
    SpinLockAcquire(&s->mutex);
    bool ok = slot_matches(s, e);
    SpinLockRelease(&s->mutex);
    if (!ok) {
        const idseq::Mark mark = durable_mark(e);
        int64 encoded = -1;
        run([&] { encoded = idseq::encode_mark(e->layout, mark); });
        // The slow path's last id, when known, is the greatest id issued (see 2 and 3 above:
        // it restarted above every earlier id), so the ids go on right after it: a clean
        // restart that adds idseq to shared_preload_libraries costs no drift.
        const int64 last_id = forget_last(e);
        SpinLockAcquire(&s->mutex);
        // The state saved at a clean shutdown, for these relations (the slot's key holds the
        // definition): its last id is the last one issued, so the ids go on from it, with no
        // lease lost.
        const bool resume = s->saved && s->state_relid == e->state_relid && s->last_relid == e->last_relid;
        idseq::slot::begin_setup<PgAtomics>(*s);
        // A lock-free issuer of the old set-up may still move the word: it then drops its id.
        const bool done = idseq::pg::try_run(spin_error, [&] {
            // the word goes on right after the saved or the last id only when the mark covers
            // it (else it cannot be the last one issued); otherwise from the mark
            idseq::slot::exchange_word<PgAtomics>(
                *s, [&](uint64 old) { return idseq::slot_setup_word(e->layout, old, mark, resume, last_id); });
        });
        // confirmed by durable_mark under this backend's configuration
        idseq::slot::reset_cells<PgAtomics>(*s, encoded, sync_required() ? encoded : INT64CONST(-1));
        s->state_relid = e->state_relid;
        s->last_relid = e->last_relid;
        s->saved = false;
        s->ready = done;
        if (done) {
            s->generation = idseq::slot::next_generation(s->generation);
            idseq::slot::publish_setup<PgAtomics>(*s, s->generation);
        }
        SpinLockRelease(&s->mutex);
        if (!done)
            idseq::pg::report(spin_error);
    }
    unlock_layout(e);
}

// ---- Databases sharing a stream ----------------------------------------------------------------
//
// With preload a layout's slot is the server's stream of its (definition, node id), shared by
// every database that issues those ids (Slot): one word, so two databases never issue the
// same id while the server runs. Each database still keeps its own H above its own ids (for
// its dumps): a backend issues from the shared word only under its own database's H as it
// last confirmed it (Entry::own_reserved, the reservation view of the slot protocol), and a
// place above it asks for a reservation of its own database's H, which raises the server's
// fence too (reserve). So every id lies under its database's H and under the fence, both
// WAL-logged, and what happens after a crash or a promotion follows from them alone:
//  - a backend's first id of a layout joins the stream (join_stream), under a server-wide
//    lock per slot: its database's H, confirmed and raised into the fence, becomes its view,
//    and the slow path's last id is made unknown (rule 4);
//  - the first join after a start sets the stream up: from the word saved at a clean
//    shutdown (rule 6: the stream was the pair's only issuer in that run, since a pair with
//    a slot never takes the slow path while the server runs), or above the fence, which
//    covers every database's H and so every id of the pair issued before on this server, or,
//    when no id of the pair can have been issued on this server (stream_history: Never), above
//    the joiner's H alone, so that a layout's first id on a server carries the clock's time,
//    or, when the claim file shows that the joiner's database alone issued the pair on this
//    timeline (Mine: its layout's claim, written without preload or by a stream only it
//    joined; a second database or a twin records itself there before its first id,
//    note_stream_shared), above that H, or right
//    after the layout's last id while it is known (rule 7);
//  - an H above the fence was not made by a reservation of this server (every reservation
//    raises the fence over its mark): a restore from elsewhere, whose rows may carry ids up to
//    it. The word goes above such an H; an H the fence covers needs nothing, since every id
//    under it was issued on this server, below where the stream started or by the stream.
// The words themselves (after H, above the fence, after this backend's own last id, and an H
// that ends inside a unit for another node id) are idseq::stream_words'.
void join_stream(Entry* e, int32 node)
{
    Slot* s = e->slot;
    const int32 word_node = node < 0 ? 0 : node;
    LOCKTAG tag;
    SET_LOCKTAG_ADVISORY(tag, InvalidOid, 0x1D5E0F1A, slot_number(s), 72);
    (void) LockAcquire(&tag, ExclusiveLock, false, false);
    SpinLockAcquire(&s->mutex);
    const bool ready = s->ready, saved = s->saved;
    SpinLockRelease(&s->mutex);
    // (a set-up from the saved state reads the claims too, to know the stream's databases)
    bool multi = false;
    const StreamHistory history = !ready ? stream_history(e, node, multi) : StreamHistory::Unknown;
    const bool above_fence = !ready && !saved && history == StreamHistory::Unknown;
    if (ready && !s->stream_multi && (s->stream_db != MyDatabaseId || strcmp(s->stream_layout, e->name) != 0)) {
        // a second database (or a twin layout) joins: a later start must take the fence, and a
        // start without preload must not take the first one's claim for its alone (durable
        // before any id)
        note_stream_shared(e, node);
        s->stream_multi = true;
    }
    lock_layout(e);
    XLogRecPtr lsn;
    idseq::StreamJoin join;
    join.mark = read_mark(e, lsn);
    join.fence_us = fence_read(e->layout.unit_us); // before this join raises it
    join.has_node = e->has_node;
    join.word_node = word_node;
    // this layout of this database issued the pair alone, without preload: while its last id
    // is known (a clean restart), the ids go on right after it (rule 7), as a clean restart
    // that adds idseq to shared_preload_libraries should
    join.mine = history == StreamHistory::Mine;
    join.above_fence = above_fence;
    // this backend's own last id of the layout (another stream's, before a change of node id):
    // its next ids go above it, so that a session's ids keep increasing
    join.issuer_word = e->issuer.word;
    // H into the fence: ids under an H from elsewhere (a restore) may have been issued on
    // another server, and a later start must go above them (an H far ahead of the clock is
    // refused there)
    confirm_mark(e, std::max(lsn, raise_fence_to(e, join.mark)));
    join.last_id = forget_last(e);
    idseq::StreamWords words;
    int64 encoded = -1;
    run([&] {
        words = idseq::stream_words(e->layout, join);
        encoded = idseq::encode_mark(e->layout, join.mark);
    });
    const uint64 above = words.floor();
    SpinLockAcquire(&s->mutex);
    bool done = true;
    if (!s->ready) {
        idseq::slot::begin_setup<PgAtomics>(*s);
        done = idseq::pg::try_run(spin_error, [&] {
            // right after the last id of the last run when it was saved, else above the words
            idseq::slot::exchange_word<PgAtomics>(
                *s, [&](uint64 old) { return idseq::stream_setup_word(e->layout, old, s->saved, words); });
        });
        idseq::slot::reset_cells<PgAtomics>(*s, INT64CONST(-1), INT64CONST(-1)); // reservations: each database's own
        s->state_relid = s->last_relid = InvalidOid;
        s->stream_db = MyDatabaseId;
        strlcpy(s->stream_layout, e->name, NAMEDATALEN);
        s->stream_multi = multi;
        s->saved = false;
        s->ready = done;
        if (done) {
            s->generation = idseq::slot::next_generation(s->generation);
            idseq::slot::publish_setup<PgAtomics>(*s, s->generation);
        }
    } else if (above > pg_atomic_read_u64(&s->word)) {
        // this database's ids (restored ones), or this session's, reach above the stream: the
        // word goes above them
        idseq::slot::begin_setup<PgAtomics>(*s);
        idseq::slot::exchange_word<PgAtomics>(*s, [&](uint64 old) { return std::max(old, above); });
        s->generation = idseq::slot::next_generation(s->generation);
        idseq::slot::publish_setup<PgAtomics>(*s, s->generation);
    }
    SpinLockRelease(&s->mutex);
    if (!done)
        idseq::pg::report(spin_error);
    e->own_reserved = encoded;
    e->own_sync_reserved = sync_required() ? encoded : INT64CONST(-1); // as confirm_mark confirmed it
    e->mark = e->base_mark = join.mark;
    e->joined = true;
    unlock_layout(e);
    LockRelease(&tag, ExclusiveLock, false);
}

void reserve_fast(Entry* e, int64 unit, int64 counter, int32 node, int64 now_us)
{
    Slot* s = e->slot;
    const idseq::Mark mark = reserve(e, unit, counter, node, now_us);
    int64 encoded = -1;
    run([&] { encoded = idseq::encode_mark(e->layout, mark); });
    const bool sync = sync_required(); // as reserve() confirmed the mark
    if (shared_stream(s)) {
        // this database's mark, this backend's view of it (it only rises: H never decreases)
        run([&] {
            if (!idseq::mark_covers(idseq::decode_mark(e->layout, e->own_reserved), mark))
                e->own_reserved = encoded;
            if (sync && !idseq::mark_covers(idseq::decode_mark(e->layout, e->own_sync_reserved), mark))
                e->own_sync_reserved = encoded;
        });
        return;
    }
    SpinLockAcquire(&s->mutex);
    if (slot_matches(s, e)) {
        // pure arithmetic that never throws, but under a spinlock: no ereport from here (see
        // spin_error), so nothing to report
        idseq::pg::try_run(spin_error, [&] {
            idseq::slot::raise_mark<PgAtomics>(e->layout, s->reserved, mark, encoded);
            if (sync)
                idseq::slot::raise_mark<PgAtomics>(e->layout, s->sync_reserved, mark, encoded);
        });
    }
    SpinLockRelease(&s->mutex);
}

// The slot's mark decoded for this backend's node into Entry's cache (see usable_reserved).
__attribute__((noinline)) void decode_reserved(Entry* e, int64 r, int32 node)
{
    GenState st;
    idseq::apply_mark(e->layout, st, idseq::decode_mark(e->layout, r), node);
    e->res_value = r;
    e->res_node = node;
    e->res_unit = st.reserved_unit;
    e->res_counter = st.reserved_counter;
}

// While synchronous standbys are required: the part of the mark confirmed with them.
__attribute__((noinline)) void sync_reserved_for(const Entry* e, int64 r, int64 sr, int32 node, int64& unit, int64& counter)
{
    GenState st;
    idseq::apply_mark(e->layout, st, idseq::mark_min(idseq::decode_mark(e->layout, r), idseq::decode_mark(e->layout, sr)),
                      node);
    unit = st.reserved_unit;
    counter = st.reserved_counter;
}

// The reserved place ids may go under: Slot::reserved, and while synchronous standbys are
// required only what was confirmed while they were (a place above it asks for a reservation,
// which confirms H with the standbys, waiting as a commit does).
// As GenState::reserved_unit and reserved_counter for this backend's node (idseq::apply_mark),
// decoded again only when the slot's mark or the node changed (never throws: the locked step
// calls it under the slot's mutex). Inline: the lock-free step calls it for every id.
inline void usable_reserved(Entry* e, const Slot* s, int32 node, int64& unit, int64& counter)
{
    const bool own = e->stream; // a shared stream: this database's mark, as this backend confirmed it
    const int64 r = own ? e->own_reserved : (int64) pg_atomic_read_u64(const_cast<pg_atomic_uint64*>(&s->reserved));
    if (unlikely(r != e->res_value || node != e->res_node))
        decode_reserved(e, r, node);
    unit = e->res_unit;
    counter = e->res_counter;
    if (sync_required()) {
        const int64 sr = own ? e->own_sync_reserved : (int64) pg_atomic_read_u64(const_cast<pg_atomic_uint64*>(&s->sync_reserved));
        if (sr != r)
            sync_reserved_for(e, r, sr, node, unit, counter);
    }
}

// The common id without a lock: idseq::slot::try_lock_free on the slot's cells, with this
// backend's clock and view of the reservation. Returns false when the locked step must decide.
bool try_lock_free(Entry* e, int32 node, int64 ahead, uint64 rnd, int64& id)
{
    Slot* s = e->slot;
    idseq::FastIssue fi;
    if (!idseq::slot::try_lock_free<PgAtomics>(
            *s, e->issuer, e->layout, e->word_step, node, ahead, rnd,
            [e] { return idseq::unit_of(e->layout, now_unix_us()); },
            [e, s, node](int64_t& unit, int64_t& counter) { usable_reserved(e, s, node, unit, counter); }, fi))
        return false;
    id = compose_id(e, Step{Step::Issue, fi.unit, fi.counter, 0}, node, rnd);
    return true;
}

} // namespace

int64 nextval_fast(Entry* e, int32 node)
{
    Slot* s = e->slot;
    const int64 ahead = ahead_units_of(e);
    // One draw per id, kept through reservations and waits: a rand counter's start drawn again
    // on every attempt could be issued below the start a reservation was made for, leaving the
    // mark up to half a unit above the ids (what a crash would then skip).
    const uint64 rnd = e->has_rand ? pg_prng_uint64(&pg_global_prng_state) : 0;
    for (;;) {
        int64 id;
        if (try_lock_free(e, node, ahead, rnd, id))
            return id;

        // The locked step: next() on the state the atomics hold, under the mutex, so that
        // steps that reserve, wait, anchor or see the clock go back are taken one at a time;
        // its id is a compare-and-swap of the word too, retried when a lock-free id came first.
        Step step{};
        int64_t now_us = 0;
        bool ready, ok = true;
        SpinLockAcquire(&s->mutex);
        ready = slot_matches(s, e);
        if (ready) {
            // idseq::slot::locked_step: its core calls may throw, never ereport under the spinlock
            ok = idseq::pg::try_run(spin_error, [&] {
                step = idseq::slot::locked_step<PgAtomics>(
                    *s, e->issuer, e->layout, node, ahead, rnd,
                    [](int64_t& us, int64_t& mono) {
                        us = now_unix_us();
                        mono = now_mono_us();
                    },
                    [e, s, node](int64_t& unit, int64_t& counter) { usable_reserved(e, s, node, unit, counter); },
                    now_us);
            });
        }
        SpinLockRelease(&s->mutex);

        if (!ready) {
            init_slot(e, node);
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
            reserve_fast(e, step.unit, step.counter, node, now_us);
            break;
        case Step::WaitForClock:
            wait_for_unit(e, step.unit);
            break;
        }
        CHECK_FOR_INTERRUPTS();
    }
}

// ---- The slow path -----------------------------------------------------------------------------------

namespace {

// This backend's view of H, just confirmed (durable_mark, reserve) under the configuration in
// force now: also its view of H confirmed with the synchronous standbys when they are required.
void note_confirmed_mark(Entry* e, const idseq::Mark& mark)
{
    e->mark = mark;
    if (sync_required())
        e->sync_mark = mark;
}

} // namespace

// Every id: lock P's page, rebuild the state from P (or from H when P is unknown), one core
// step, write the new id into P, unlock. The buffer lock serialises the backends as nextval's
// does; reservations and waits happen with it released, then the step starts over.
// H read as a restart point: under the layout's lock and confirmed (a reservation in
// progress holds the lock until its mark is durable, and one whose wait was cancelled left its
// mark unconfirmed). Every id issued so far is within it.
void read_restart_mark(Entry* e)
{
    lock_layout(e);
    e->sync_mark = idseq::Mark{};
    note_confirmed_mark(e, durable_mark(e));
    unlock_layout(e);
    e->base_mark = e->mark;
}

int64 nextval_slow(Entry* e, int32 node)
{
    if (!e->mark_read) {
        // This backend's view of H, read once: every id issued before the last id became
        // unknown (a crash, a promotion, a run with shared memory -- all before this backend
        // started) is within it, so it is the restart point while the last id is unknown.
        read_restart_mark(e);
        e->mark_read = true;
    }
    if (sync_required() && !idseq::mark_covers(e->sync_mark, e->mark)) {
        // This backend's view of H was confirmed before synchronous standbys were required:
        // confirm H with them before any id goes under it (the restart point included).
        lock_layout(e);
        note_confirmed_mark(e, idseq::mark_max(e->mark, durable_mark(e)));
        unlock_layout(e);
    }
    const int64 ahead = ahead_units_of(e);
    // P's lock once per transaction, owned by the top transaction so that a subtransaction's
    // abort does not release it, as nextval does (sequence.c, lock_and_open_sequence): a
    // lock-manager call per id was most of what this path cost beyond nextval.
    if (e->last_locked_lxid != IDSEQ_MY_LXID()) {
        ResourceOwner current = CurrentResourceOwner;
        CurrentResourceOwner = TopTransactionResourceOwner;
        LockRelationOid(e->last_relid, RowExclusiveLock);
        CurrentResourceOwner = current;
        e->last_locked_lxid = IDSEQ_MY_LXID();
    }
    Relation rel = relation_open(e->last_relid, NoLock);
    bool mark_fresh = false;
    const uint64 rnd = e->has_rand ? pg_prng_uint64(&pg_global_prng_state) : 0; // one draw per id (nextval_fast)
    for (;;) {
        Buffer buf;
        Form_pg_sequence_data last = lock_seq_tuple(rel, BUFFER_LOCK_EXCLUSIVE, &buf);
        const LastId p = last_id_state(last);
        if (!p.known && !mark_fresh) {
            // P unknown: a crash before this backend read H, or a reset of P by somebody
            // else (setval) at any time since. H as read now covers every id issued so far,
            // whichever happened; H as first read may not, after a reset.
            UnlockReleaseBuffer(buf);
            read_restart_mark(e);
            mark_fresh = true;
            continue;
        }
        const bool known = p.known;
        const int64 last_id = p.value;
        const int64 anchor = p.anchor; // shared by every backend, as the last id is
        const int64 now_us = now_unix_us();
        int64 now_unit = 0, id = 0, new_anchor = anchor;
        Step step{};
        bool ok = idseq::pg::try_run(spin_error, [&] {
            GenState st = idseq::rebuild_state_marks(e->layout, known, last_id, e->base_mark, e->mark, node);
            // The monotonic clock only when the step can use it (an anchor, or ids at the
            // clock's frontier): a second clock read per id cost more than the rest of the step.
            int64 mono = idseq::kNoMono;
            if (anchor != 0) {
                mono = now_mono_us();
                idseq::set_anchor_from_offset(e->layout, st, anchor, mono);
            }
            now_unit = idseq::unit_of(e->layout, now_us);
            if (mono == idseq::kNoMono && idseq::next_reads_mono(st, now_unit, ahead))
                mono = now_mono_us();
            step = idseq::next(e->layout, st, now_unit, rnd, ahead, mono);
            new_anchor = idseq::anchor_offset(e->layout, st);
            if (step.kind == Step::Issue)
                id = idseq::compose(e->layout, step.unit, node, step.counter, rnd);
        });
        if (ok && step.kind == Step::Issue)
            write_last_locked(buf, last, id, true, new_anchor);
        else if (ok && step.kind == Step::WaitForClock && new_anchor != anchor)
            write_last_locked(buf, last, last_id, known, new_anchor);
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
            note_confirmed_mark(e, reserve(e, step.unit, step.counter, node, now_us));
        else
            wait_for_unit(e, step.unit);
        CHECK_FOR_INTERRUPTS();
    }
}

} // namespace snowflake
