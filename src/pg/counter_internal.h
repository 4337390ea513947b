// Counters per key (API section 7): what the counter_*.cpp files share.
//
//   counter_def.cpp     definitions: create, drop, the per-backend cache, periods, rendering
//   counter_state.cpp   the state of keys: fast counters in place, gap-free ones through MVCC
//   counter_sql.cpp     the SQL functions that take, raise, read and render numbers
//   counter_fill.cpp    the trigger helper and its companion that binds numbers at commit
//   counter_hints.cpp   hints of where a fast counter key's row lies
//
// The design, and why: docs/design.md, "Counters per key".
#pragma once

#include "counter_format.h"

#include "pg_headers.h"

extern "C" {
#include "access/xact.h"
#include "pgtime.h"
#include "storage/itemptr.h"
#include "storage/lockdefs.h"
#include "utils/acl.h"
}

namespace idseq::pg::counter {

using idseq::counter::Period;

// A counter's definition as cached by this backend (immutable for its anchor). The pointer
// stays good until the next call of find_counter.
struct CounterDef {
    char name[64];   // hash key: the name, NUL-padded (names have at most 48 bytes)
    bool valid;
    Oid anchor;      // the anchor sequence <name>_counter
    bool gapless;
    Period period;
    pg_tz* tz;       // the counter's time zone (pg_tzset's, never freed)
    int64 start;
    char* format;    // in CacheMemoryContext
};

// The definition of counter `name` (a text argument), the anchor locked as nextval locks a
// sequence (RowExclusiveLock) and `mode` (ACL_USAGE, ACL_UPDATE, ACL_SELECT, or kNoCheck)
// checked on it; 42704 for an unknown counter, 42501 without the privilege, 22004 for NULL.
constexpr AclMode kAnyRead = (AclMode) 1 << 30; // SELECT or USAGE, as currval asks
constexpr AclMode kNoCheck = 0;                 // no privilege checked (the caller checks ownership)
// lockmode: RowExclusiveLock to change a key, AccessShareLock to read.
const CounterDef& find_counter(text* name, AclMode mode, LOCKMODE lockmode);
// The name argument argno, checked (not NULL: 22004).
text* name_arg(FunctionCallInfo fcinfo, int argno);
// The key argument argno, checked: not NULL (22004), at most 1000 bytes (22023).
text* key_arg(FunctionCallInfo fcinfo, int argno);
void check_key(const char* name, const char* key, size_t len);

// The period number (0 for a counter that never restarts) of an instant in the counter's
// time zone.
int32 period_at(const CounterDef& def, TimestampTz at);
// The period of the current transaction: its start time (now()), so that every number one
// transaction takes lies in one period, even across midnight of 31 December.
inline int32 current_period(const CounterDef& def)
{
    return period_at(def, GetCurrentTransactionStartTimestamp());
}
// n rendered through the counter's format, for key in period number `period`.
text* render(const CounterDef& def, int64 n, const char* key, size_t key_len, int32 period);

// What a change of a key's state does.
enum class Op {
    Add,     // last += arg (a number: 1; a block: n); returns the new last
    AtLeast, // last = max(last, arg); returns the new last
};
// Applies op to (counter, key, period); a key without a row starts from start - 1. flush:
// the change's WAL is flushed before returning (a block handed to an application node).
int64 apply(const CounterDef& def, const char* key, size_t key_len, int32 period, Op op, int64 arg, bool flush);
// The last number of (counter, key, period), or false when the key has none.
bool current(const CounterDef& def, const char* key, size_t key_len, int32 period, int64& last);

// The 64-bit hash of (database, counter, key, period): the hints' and the key locks'.
uint64 key_hash(Oid counter, const text* key, int32 period);
// Hints of where a key's row lies (a place to look first, never trusted): the place last
// seen for a key's hash.
void hints_init();
bool hint_get(uint64 h, ItemPointer tid);
void hint_put(uint64 h, ItemPointer tid);

// The next number of a key in the current period (the whole of idseq_counter_next).
int64 next_number(const CounterDef& def, const char* key, size_t key_len, int32 period);

} // namespace idseq::pg::counter
