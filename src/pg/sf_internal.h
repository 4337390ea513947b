// What the snowflake files of src/pg/ share: the settings, the shared-memory slot, the
// per-backend layout entry and the functions one file calls in another. Internal to them.
//
//   sf_settings.cpp          the idseq.* settings and the module's initialisation
//   sf_shmem.cpp             the fast path's shared-memory slots, and their state saved at a
//                            clean shutdown for the next start
//   sf_layout_registry.cpp   layouts: the per-backend cache, lookup by name, creation
//   sf_store.cpp             the layout's sequences as pages: the durable mark H (the state
//                            sequence and its guard) and the last id P
//   sf_generator.cpp         the generator's two paths, reservations and waits, and the proof
//                            that no id is issued twice or out of order
//   sf_sql.cpp               the SQL entry points
//   sf_claims.cpp            the node id each database issues with, and the server-wide claim
//                            that keeps two databases from issuing the same ids
//   sf_fence.cpp             the server's fence: a time before which every unit counts as spent
//                            on this server
//   sf_uuid.cpp              version 7 UUIDs: snowflake_uuid, snowflake_from_uuid,
//                            idseq_uuidv7, idseq_uuidv7_bound
//   sf_time_quals.cpp        time predicates on ids, planned as ranges of ids
//   sf_local_time.cpp        the bounds of time predicates on dates, timestamps and local time
//   sf_partitions.cpp        partitions by date: the statements run as the parent table's owner
//                            (does not include this file)
#pragma once

#include "error.h"
#include "slot_protocol.h"
#include "snowflake.h"

#include <string>

#include "core_call.h"
#include "quoted_text_pg.h"

extern "C" {
#include "access/xlogdefs.h"
#include "commands/sequence.h"
#include "port/atomics.h"
#include "storage/bufmgr.h"
#include "storage/ipc.h"
#include "storage/lock.h"
#include "storage/spin.h"
#include "utils/timestamp.h"
}

using idseq::Field;
using idseq::GenState;
using idseq::Layout;
using idseq::Step;
using idseq::pg::run;

namespace snowflake {

// ---- Settings (sf_settings.cpp) ------------------------------------------------------

extern int node_id_guc;
extern int lease_ms_guc;
extern int max_ahead_ms_guc;
extern int clock_offset_ms_guc;
extern int max_layouts_guc; // shared-memory slots, fixed at server start

// The lease in microseconds, counted as at least the run-ahead: how far ahead of the clock a
// reservation may reach, so that one flush covers a burst running ahead too.
inline int64 lease_us() { return int64(lease_ms_guc > max_ahead_ms_guc ? lease_ms_guc : max_ahead_ms_guc) * 1000; }

constexpr int64 kUnixToPgEpochUs = INT64CONST(946684800000000); // 1970-01-01 to 2000-01-01

// ---- Shared memory (sf_shmem.cpp) ------------------------------------------------------

// What a layout's ids and a slot's packed word mean: the whole definition, compared exactly
// (not a hash), so that a slot's word is only ever read and written by one definition.
struct Definition {
    int64 epoch_us;
    int64 unit_us;
    uint8 width[idseq::kFieldCount];
    uint8 shift[idseq::kFieldCount];
    bool operator==(const Definition& o) const { return memcmp(this, &o, sizeof o) == 0; }
    bool operator!=(const Definition& o) const { return !(*this == o); }
};
static_assert(sizeof(Definition) == 16 + 2 * idseq::kFieldCount, "Definition has no padding (compared bytewise)");
Definition definition_of(const Layout& l);

struct Slot {
    // The key, written once under the table lock before the slot is counted in used. A
    // layout's ids come from the server's stream of its (definition, node id): db is
    // InvalidOid and name empty, and every database issuing that definition with that node id
    // shares the slot (each under its own durable mark: see "Databases sharing a stream" in
    // sf_generator.cpp). idseq_uuidv7()'s generator keeps a slot per database (db, name
    // kUuidv7Entry, node -1): its order is per database. A layout dropped and created again
    // with another definition takes another slot: a backend still running the old definition
    // (a long statement sees no invalidation) can then never move the new definition's word.
    Oid db;
    char name[NAMEDATALEN];
    Definition definition;
    int32 node; // -1: the layout has no node field
    // A shared stream's databases since it was set up (under the lock of its set-ups, see
    // join_stream): the first, and whether another one joined (its claim file says so too)
    Oid stream_db;
    char stream_layout[NAMEDATALEN]; // the first one's layout name (a twin is another issuer)
    bool stream_multi;
    // mutex serialises the slot's set-up, its reservations and the ids next() decides (see
    // nextval_fast); the fields up to saved are protected by it.
    slock_t mutex;
    bool ready; // the state was set up from H for these relations and this definition
    Oid state_relid;
    Oid last_relid;
    uint32 generation; // counts set-ups (the next value of setup)
    bool saved; // not ready: word is the one saved at the last clean shutdown
    // The unit a backend is spinning on the clock for (see wait_for_unit); no lock.
    pg_atomic_uint64 spinner_unit;
    // The generator's state, GenState's fields in atomics, so that the common id is one
    // compare-and-swap of word without the mutex (see nextval_fast): the cells of the slot
    // protocol (idseq::slot::SlotCells, src/core/slot_protocol.h). Each id reads the
    // fields below and changes only word, so they have cache lines of their own: the mutex's
    // line is written by locked steps only, theirs by a new clock unit or a reservation.
    alignas(PG_CACHE_LINE_SIZE) pg_atomic_uint32 setup; // 0 while being set up, else the generation of the last set-up
    pg_atomic_uint64 reserved; // the durable mark (idseq::encode_mark); written under mutex
    // The greatest mark confirmed while synchronous standbys were required (-1: none, encoded
    // as reserved); written under mutex. While they are, ids go only under min(reserved, this): a
    // reservation made before synchronous_standby_names was set is confirmed again first.
    pg_atomic_uint64 sync_reserved;
    pg_atomic_uint64 last_now; // GenState::last_now, sign bit flipped (orders as unsigned)
    pg_atomic_uint64 anchor_unit; // GenState::anchor_unit (-1: none); written under mutex
    pg_atomic_uint64 anchor_mono; // GenState::anchor_mono_us; written under mutex
    alignas(PG_CACHE_LINE_SIZE) pg_atomic_uint64 word; // the last id's (unit, node, counter): idseq::pack_position
};

// The slot protocol's atomics (src/core/slot_protocol.h) on PostgreSQL's: Slot holds its cells.
struct PgAtomics {
    using U64 = pg_atomic_uint64;
    using U32 = pg_atomic_uint32;
    static uint64 read(pg_atomic_uint64& a) { return pg_atomic_read_u64(&a); }
    static void write(pg_atomic_uint64& a, uint64 v) { pg_atomic_write_u64(&a, v); }
    static uint32 read(pg_atomic_uint32& a) { return pg_atomic_read_u32(&a); }
    static void write(pg_atomic_uint32& a, uint32 v) { pg_atomic_write_u32(&a, v); }
    static bool cas(pg_atomic_uint64& a, uint64& expected, uint64 desired)
    {
        return pg_atomic_compare_exchange_u64(&a, &expected, desired);
    }
    static void read_barrier() { pg_read_barrier(); }
    static void write_barrier() { pg_write_barrier(); }
    static void full_barrier() { pg_memory_barrier(); }
};

// The table's header; its idseq.snowflake_max_layouts slots follow it.
struct Shared {
    int used;
    int capacity;
    bool full_reported; // the warning that the slots are used up was given (once per start)
};

extern Shared* shared; // nullptr without shared_preload_libraries
extern shmem_request_hook_type prev_shmem_request_hook;
extern shmem_startup_hook_type prev_shmem_startup_hook;
void shmem_request();
void shmem_startup();
// The slot of a layout's stream: (definition, node) for the server, or this database's for
// idseq_uuidv7() (name kUuidv7Entry); nullptr when every slot is taken.
Slot* find_slot(const char* name, const Definition& definition, int32 node);
// A slot's number in the table (the tag of the lock that serialises its set-ups).
uint32 slot_number(const Slot* s);
// Whether the entry's slot is a stream shared by the server's databases.
inline bool shared_stream(const Slot* s) { return s && s->db == InvalidOid; }

// ---- Layouts (sf_layout_registry.cpp) ----------------------------------------------------------

struct Entry {
    Layout layout;
    char name[NAMEDATALEN];
    bool valid = false;
    bool builtin = false;
    Oid state_relid = InvalidOid, last_relid = InvalidOid;
    Oid guard_relid = InvalidOid; // the mark only the extension writes (src/sql/42_snowflake_guard.sql)
    Oid state_owner = InvalidOid;
    idseq::WordStep word_step; // the lock-free step's masks (idseq::fast_successor)
    // snowflake_timestamp's arithmetic, read once: ids 0..max_id, time = (id >> time_shift) &
    // time_mask units after epoch_us
    int64 max_id = 0, time_mask = 0;
    int time_shift = 0;
    Slot* slot = nullptr; // nullptr: the slow path
    idseq::slot::Issuer issuer; // the slot's setup and word as this backend last saw them
    bool slot_checked = false;
    int32 slot_node = INT32_MIN; // the node id slot was found for
    // A shared stream (shared_stream): this backend joined it (join_stream), and the part of
    // the stream it may issue under, its own database's durable mark as it last confirmed it
    // (encoded; -1: none), and that mark as last confirmed while synchronous standbys were
    // required. The slot's reserved cells serve the per-database slots only.
    bool stream = false; // shared_stream(slot), kept here: the slot's key shares a cache line with its mutex
    bool joined = false;
    int64 own_reserved = -1, own_sync_reserved = -1;
    bool has_node = false, has_rand = false;
    int64 max_node = 0;
    bool relations_checked = false;
    bool mark_read = false; // slow path: this backend's view of H ...
    idseq::Mark base_mark; // ... as first read (the restart point while the last id is unknown)
    idseq::Mark mark; // ... and as last read or written
    idseq::Mark sync_mark; // ... and as last confirmed while synchronous standbys were required
    // fast path: the slot's usable mark as this backend last decoded it, for its node
    int64 res_value = PG_INT64_MIN;
    int32 res_node = -1;
    int64 res_unit = -1, res_counter = -1;
    int64 last_clock_unit = INT64_MIN; // slow path: this backend's clock at its last id
    LocalTransactionId last_locked_lxid = InvalidLocalTransactionId; // slow path: P locked in this transaction
    int64 last_warning_us = INT64_MIN;
    int32 claim_node = INT32_MIN; // the node id (-1: none) this database's claim was checked for (claim_layout)
};

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
    void* bound; // the last local-time bound of the call site (sf_local_time.cpp)
};

bool unix_us_from_pg(TimestampTz ts, int64& out);
TimestampTz pg_from_unix_us(int64 us);
int64 epoch_us_of(TimestampTz epoch);
int64 unit_us_of(const Interval* unit);
Interval* interval_from_us(int64 us);
FnCache* fn_cache(FunctionCallInfo fcinfo);
Entry* entry_for(FunctionCallInfo fcinfo, int argno);
const Layout* layout_if_known(const char* name, size_t len, Oid nsp); // nullptr: no such layout
// idseq_uuidv7()'s generator: the layout idseq::uuidv7_layout() with the state sequences
// idseq_sf_state_uuidv7 and idseq_sf_last_uuidv7 of schema nsp. Its entry (and shared-memory
// slot) is named kUuidv7Entry, which no layout can be named, so that no custom layout shares it.
constexpr const char* kUuidv7Entry = "(uuidv7)";
Entry* uuidv7_entry(Oid nsp);
std::string& scratch_text();
text* canonical_fields(text* name_text, TimestampTz epoch_ts, text* fields_text, Interval* unit_iv, bool generator);
void create_layout(const char* name, TimestampTz epoch, text* canonical, Interval* unit, Oid nsp);
Oid seq_owner(Oid relid); // a relation's owner (InvalidOid when it is gone)

// ---- Time predicates (sf_time_quals.cpp, sf_local_time.cpp) ---------------------

// The end of the range of e's ids whose time is >= ts (lower; exclusive: > ts) or <= ts (<
// ts), in id; false when no id qualifies. 22023 for a layout that is not time-first.
bool time_bound(Entry* e, TimestampTz ts, bool lower, bool exclusive, int64& id);

// The units of date_trunc whose predicates get bounds.
enum class TruncUnit { None, Microsecond, Millisecond, Second, Minute, Hour, Day, Week, Month, Quarter, Year };
TruncUnit trunc_unit_of(text* unit); // as date_trunc reads it; None for any other unit
int64 trunc_unit_us(TruncUnit unit); // units under a day; 0 for the others

// ---- The layout's sequences (sf_store.cpp) ---------------------------------------------

void check_state_relations(const Entry* e);
Form_pg_sequence_data lock_seq_tuple(Relation rel, int mode, Buffer* buf);
void write_last_locked(Buffer buf, Form_pg_sequence_data seq, int64 value, bool is_called, int64 anchor);
// Makes the slow path's last id unknown; returns it (-1 when it was unknown already).
int64 forget_last(const Entry* e);
// P as idseq wrote it: known (set by idseq, not by setval or a crash), the last id, the
// anchor (0: none). See write_last_locked.
struct LastId {
    bool known;
    int64 value;
    int64 anchor;
};
constexpr int64 kLastNoAnchor = PG_INT64_MIN;
LastId last_id_state(const FormData_pg_sequence_data* seq);
idseq::Mark read_mark(const Entry* e, XLogRecPtr& lsn);
// The guard of a state sequence: the sequence named as it is with "guard" for "state", in its
// schema (InvalidOid when there is none).
Oid guard_of(Oid state_relid);

// ---- Databases of one server (sf_claims.cpp) --------------------------------------------

void define_node_id_by_database();
void node_ids_defined(); // the module's initialisation is done with the node-id settings
// The node id this database issues ids with: its own from idseq.node_id_by_database, or
// idseq.node_id (-1: unset).
int32 effective_node_id();
// Claims (the layout's definition, node) for this database server-wide, or refuses with an
// error when another database of the server holds the claim. Cheap once checked.
void claim_layout(Entry* e, int32 node);
// claim_layout again, reading the claim file even when this backend checked it before.
void recheck_claim(Entry* e, int32 node);
// For the set-up of the server's shared stream of (e's definition, node) after a start, what
// the claims say of the pair: never issued on this server (no claim file names it, and the
// claims' record shows none was lost); issued by this database's layout e alone (its claim,
// written without preload on this timeline: its ids are above every other database's, and
// its last id, when known, is the pair's last); or anything else (the fence decides). The
// pair's claim file is then written as the stream's (kStreamClaim), so that a later start
// knows the pair may have been issued by any database. A damaged claim file is an error
// (XX001).
// multi is set when the pair may have been issued by more than this database (the claim is
// then written as kStreamsClaim's); note_stream_shared writes that claim when a second
// database joins a stream that one database had.
enum class StreamHistory { Never, Mine, Unknown };
StreamHistory stream_history(const Entry* e, int32 node, bool& multi);
void note_stream_shared(const Entry* e, int32 node);

// ---- The server's fence (sf_fence.cpp) ---------------------------------------------------

// The fence of layouts with that time unit in Unix microseconds (idseq::fence_mark), and its
// raise to at least us, WAL-logged: the LSN to flush with the mark it covers
// (InvalidXLogRecPtr when it was that high already). Both fail with 55000 when the server has
// no fence.
int64 fence_read(int64 unit_us);
XLogRecPtr fence_raise(int64 unit_us, int64 us);

// ---- The generator (sf_generator.cpp) --------------------------------------------------

int64 now_unix_us();
// Raises H to the server's fence for node and makes both paths restart from it (a claim
// taken over).
void restart_above_fence(Entry* e, int32 node);
int64 nextval_fast(Entry* e, int32 node);
int64 nextval_slow(Entry* e, int32 node);
// A new id of e's layout for this node, by either path (sf_sql.cpp); caller names the
// SQL function in the errors of a read-only transaction or parallel mode.
int64 issue_id(Entry* e, const char* caller);

} // namespace snowflake
