// Counters per key: the SQL functions that take, raise, read and render numbers
// (idseq_counter_next, _next_text, _block, _set, _current, _format, and _render for
// idseq_counter_gaps). Privileges are those of the counter's anchor sequence, as nextval's:
// USAGE takes numbers, UPDATE raises keys, SELECT reads a key's state.
#include "counter_internal.h"

#include "quoted_text_pg.h"

extern "C" {
#include "catalog/pg_type.h"
#include "utils/rangetypes.h"
#include "utils/timestamp.h"
#include "utils/typcache.h"
}

extern "C" {
PG_FUNCTION_INFO_V1(idseq_counter_next);
PG_FUNCTION_INFO_V1(idseq_counter_next_text);
PG_FUNCTION_INFO_V1(idseq_counter_block);
PG_FUNCTION_INFO_V1(idseq_counter_set);
PG_FUNCTION_INFO_V1(idseq_counter_current);
PG_FUNCTION_INFO_V1(idseq_counter_format);
PG_FUNCTION_INFO_V1(idseq_counter_render);
}

using namespace idseq::pg;
using namespace idseq::pg::counter;

namespace {

// The counter and key arguments (0 and 1), checked.
struct Call {
    CounterDef def;
    const char* key;
    size_t key_len;
};

Call call_of(FunctionCallInfo fcinfo, AclMode mode, LOCKMODE lockmode)
{
    text* name = name_arg(fcinfo, 0);
    text* key = key_arg(fcinfo, 1);
    Call c;
    c.def = find_counter(name, mode, lockmode);
    c.key = VARDATA_ANY(key);
    c.key_len = VARSIZE_ANY_EXHDR(key);
    check_key(c.def.name, c.key, c.key_len);
    return c;
}

} // namespace

extern "C" {

// idseq_counter_next(name text, key text DEFAULT '') RETURNS bigint
Datum idseq_counter_next(PG_FUNCTION_ARGS)
{
    Call c = call_of(fcinfo, ACL_USAGE, RowExclusiveLock);
    PG_RETURN_INT64(next_number(c.def, c.key, c.key_len, current_period(c.def)));
}

// idseq_counter_next_text(name text, key text DEFAULT '') RETURNS text
Datum idseq_counter_next_text(PG_FUNCTION_ARGS)
{
    Call c = call_of(fcinfo, ACL_USAGE, RowExclusiveLock);
    const int32 period = current_period(c.def);
    const int64 n = next_number(c.def, c.key, c.key_len, period);
    PG_RETURN_TEXT_P(render(c.def, n, c.key, c.key_len, period));
}

// idseq_counter_block(name text, key text, n integer) RETURNS int8range: [first, last+1).
// The change is flushed to WAL before the block is returned, as nextval_block's: an
// application node may hand its numbers out whatever becomes of this transaction.
Datum idseq_counter_block(PG_FUNCTION_ARGS)
{
    Call c = call_of(fcinfo, ACL_USAGE, RowExclusiveLock);
    if (PG_ARGISNULL(2))
        ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED), errmsg("block size must not be null")));
    const int32 n = PG_GETARG_INT32(2);
    if (c.def.gapless)
        ereport(ERROR, (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
                        errmsg("counter \"%s\" is gap-free and hands out no blocks", c.def.name),
                        errdetail("A block's unused numbers would be gaps."),
                        errhint("Take each number with idseq_counter_next() in the transaction that uses it.")));
    if (n < 1)
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("block size %d is out of range", n),
                        errdetail("A block holds 1 number or more.")));
    PreventCommandIfReadOnly("idseq_counter_block()");
    PreventCommandIfParallelMode("idseq_counter_block()");
    const int32 period = current_period(c.def);
    const int64 last = apply(c.def, c.key, c.key_len, period, Op::Add, n, true);
    if (last == PG_INT64_MAX)
        ereport(ERROR, (errcode(ERRCODE_SEQUENCE_GENERATOR_LIMIT_EXCEEDED),
                        errmsg("key \"%s\" of counter \"%s\" reached its maximum value (" INT64_FORMAT ")",
                               shown(c.key, c.key_len), c.def.name, PG_INT64_MAX),
                        errdetail("A block's end must be below the maximum of bigint.")));
    TypeCacheEntry* typcache = range_get_typcache(fcinfo, INT8RANGEOID);
    RangeBound lower, upper;
    lower.val = Int64GetDatum(last - n + 1);
    lower.infinite = false;
    lower.inclusive = true;
    lower.lower = true;
    upper.val = Int64GetDatum(last + 1);
    upper.infinite = false;
    upper.inclusive = false;
    upper.lower = false;
    PG_RETURN_DATUM(RangeTypePGetDatum(IDSEQ_MAKE_RANGE(typcache, &lower, &upper)));
}

// idseq_counter_set(name text, key text, at_least bigint) RETURNS bigint
Datum idseq_counter_set(PG_FUNCTION_ARGS)
{
    Call c = call_of(fcinfo, ACL_UPDATE, RowExclusiveLock);
    if (PG_ARGISNULL(2))
        ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
                        errmsg("value to raise key \"%s\" of counter \"%s\" to must not be null", shown(c.key, c.key_len),
                               c.def.name)));
    PreventCommandIfReadOnly("idseq_counter_set()");
    PreventCommandIfParallelMode("idseq_counter_set()");
    PG_RETURN_INT64(apply(c.def, c.key, c.key_len, current_period(c.def), Op::AtLeast, PG_GETARG_INT64(2), false));
}

// idseq_counter_current(name text, key text DEFAULT '') RETURNS bigint: NULL if the key
// has no number in the current period.
Datum idseq_counter_current(PG_FUNCTION_ARGS)
{
    Call c = call_of(fcinfo, ACL_SELECT, AccessShareLock);
    int64 last;
    if (!current(c.def, c.key, c.key_len, current_period(c.def), last))
        PG_RETURN_NULL();
    PG_RETURN_INT64(last);
}

// idseq_counter_format(name text, n bigint, key text DEFAULT '', at timestamptz DEFAULT
// now()) RETURNS text: the definition is public (the view idseq_counters), so no privilege.
Datum idseq_counter_format(PG_FUNCTION_ARGS)
{
    text* name = name_arg(fcinfo, 0);
    if (PG_ARGISNULL(2))
        (void) key_arg(fcinfo, 2);
    // an unknown counter is 42704 whatever the other arguments
    CounterDef def = find_counter(name, kNoCheck, AccessShareLock);
    text* key = PG_GETARG_TEXT_PP(2);
    check_key(def.name, VARDATA_ANY(key), VARSIZE_ANY_EXHDR(key));
    if (PG_ARGISNULL(1) || PG_ARGISNULL(3))
        PG_RETURN_NULL();
    const int32 period = period_at(def, PG_GETARG_TIMESTAMPTZ(3));
    PG_RETURN_TEXT_P(render(def, PG_GETARG_INT64(1), VARDATA_ANY(key), VARSIZE_ANY_EXHDR(key), period));
}

// idseq_counter_render(name text, n bigint, key text, period integer) RETURNS text: the
// period given by its number (NULL for a counter that never restarts).
Datum idseq_counter_render(PG_FUNCTION_ARGS)
{
    text* name = name_arg(fcinfo, 0);
    if (PG_ARGISNULL(2))
        (void) key_arg(fcinfo, 2);
    CounterDef def = find_counter(name, kNoCheck, AccessShareLock);
    if (PG_ARGISNULL(1))
        PG_RETURN_NULL();
    text* key = PG_GETARG_TEXT_PP(2);
    const int32 period = PG_ARGISNULL(3) ? 0 : PG_GETARG_INT32(3);
    PG_RETURN_TEXT_P(render(def, PG_GETARG_INT64(1), VARDATA_ANY(key), VARSIZE_ANY_EXHDR(key), period));
}

} // extern "C"
