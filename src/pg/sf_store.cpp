// Snowflake ids: a layout's two sequences read and written as pages -- the durable mark H
// (logged) and the last id P (unlogged); see the proof at the head of sf_generator.cpp.
#include "sf_internal.h"
#include "seq_page.h"

extern "C" {
#include "access/relation.h"
#include "catalog/pg_class.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
}

#include <algorithm>

namespace snowflake {

// ---- Sequences as the durable and the volatile store --------------------------------------------

void check_state_relations(const Entry* e)
{
    bool ok = OidIsValid(e->state_relid) && OidIsValid(e->last_relid) && OidIsValid(e->state_owner) &&
        get_rel_relkind(e->state_relid) == RELKIND_SEQUENCE && get_rel_relkind(e->last_relid) == RELKIND_SEQUENCE;
    // The guard: the extension's own sequence, written only as the registry's owner, so that
    // a database owner who may set the state sequence (a restore does) cannot lower the mark.
    // Made by the install, the update and the registry's adopting trigger.
    const bool guarded = OidIsValid(e->guard_relid) && get_rel_relkind(e->guard_relid) == RELKIND_SEQUENCE &&
        get_rel_persistence(e->guard_relid) == RELPERSISTENCE_PERMANENT && seq_owner(e->guard_relid) == e->state_owner;
    if (ok && !guarded)
        ereport(ERROR, (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
                        errmsg("the guard sequence of snowflake layout \"%s\" is missing", e->name),
                        errdetail("Each layout keeps its high-water mark also in a logged sequence of the extension, "
                                  "owned by its owner, named as sequence \"%s\" with \"guard\" for \"state\".",
                                  get_rel_name(e->state_relid)),
                        errhint("Update the extension with ALTER EXTENSION idseq UPDATE, or recreate it.")));
    if (!ok)
        ereport(ERROR, (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
                        errmsg("the state sequences of snowflake layout \"%s\" are missing", e->name),
                        errhint("Recreate the extension idseq, or restore the layout's sequences.")));
    // The proof at the head of sf_generator.cpp needs H to survive crashes and P to be reset by them.
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
// P, the unlogged last-id sequence, which only the generator writes: no ACL check, no per-backend
// sequence cache, one buffer lock. Release with UnlockReleaseBuffer.
Form_pg_sequence_data lock_seq_tuple(Relation rel, int mode, Buffer* buf)
{
    idseq::pg::SequencePage page = idseq::pg::lock_sequence_page(rel, mode);
    *buf = page.buf;
    return page.data;
}

namespace {

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

} // namespace

LastId last_id_state(const FormData_pg_sequence_data* seq)
{
    LastId p;
    p.known = seq->is_called && seq->log_cnt != 0;
    p.value = seq->last_value;
    p.anchor = !p.known || seq->log_cnt == kLastNoAnchor ? 0 : seq->log_cnt;
    return p;
}

// Writes P, the unlogged last-id sequence (no WAL: it is meant to vanish with a crash), and
// in its log_cnt the slow path's shared anchor (idseq::anchor_offset; 0: none), stored as
// kLastNoAnchor for none, so that idseq never leaves log_cnt at 0 beside a set value.
// setval() always leaves log_cnt at 0 (sequence.c, do_setval): a P that is set with log_cnt
// 0 was written by somebody else (a database owner's setval, which the grant a restore needs
// allows, or a restore itself), and last_id_state() reads it as unknown. nextval() can only
// raise the value. A crash resets the sequence to its initial state (is_called false).
void write_last_locked(Buffer buf, Form_pg_sequence_data seq, int64 value, bool is_called, int64 anchor)
{
    START_CRIT_SECTION();
    seq->last_value = value;
    seq->is_called = is_called;
    seq->log_cnt = anchor == 0 ? kLastNoAnchor : anchor;
    MarkBufferDirty(buf);
    END_CRIT_SECTION();
}

int64 forget_last(const Entry* e)
{
    Relation rel = relation_open(e->last_relid, RowExclusiveLock);
    Buffer buf;
    Form_pg_sequence_data seq = lock_seq_tuple(rel, BUFFER_LOCK_EXCLUSIVE, &buf);
    const LastId p = last_id_state(seq);
    const int64 last = p.known && p.value >= 0 ? p.value : -1;
    write_last_locked(buf, seq, -1, false, 0);
    UnlockReleaseBuffer(buf);
    relation_close(rel, NoLock);
    return last;
}

// H as it stands in the sequence (-1 when nothing was ever reserved), and the LSN that makes
// it durable. It may not be durable yet: a reservation whose wait was cancelled leaves its
// mark behind. Read it only under the layout's lock, and confirm it before using it.
//
// H is the greater of the state sequence and its guard. The state sequence is what pg_dump
// carries and what the database owner may set (pg_restore --no-owner sets it): a value set
// there counts when it is higher, and a lowered one changes nothing, because the guard,
// which only the generator writes, still holds the mark. lsn is the later of the two pages'.
// Each holds an encoded mark (idseq::encode_mark: a unit, as before 1.3, or a place inside
// one), so "greater" is the least mark that covers both, not the greater number.
idseq::Mark read_mark(const Entry* e, XLogRecPtr& lsn)
{
    int64 h, g;
    XLogRecPtr guard_lsn;
    if (!read_seq(e->state_relid, h, lsn))
        h = -1;
    if (!read_seq(e->guard_relid, g, guard_lsn))
        g = -1;
    lsn = std::max(lsn, guard_lsn);
    idseq::Mark m;
    run([&] { m = idseq::mark_max(idseq::decode_mark(e->layout, h), idseq::decode_mark(e->layout, g)); });
    return m;
}

Oid guard_of(Oid state_relid)
{
    constexpr char kState[] = "idseq_sf_state_";
    const char* name = OidIsValid(state_relid) ? get_rel_name(state_relid) : nullptr;
    if (!name || strncmp(name, kState, sizeof kState - 1) != 0)
        return InvalidOid;
    char guard[NAMEDATALEN];
    snprintf(guard, sizeof guard, "idseq_sf_guard_%s", name + sizeof kState - 1);
    return get_relname_relid(guard, get_rel_namespace(state_relid));
}

} // namespace snowflake
