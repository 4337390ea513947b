// Snowflake ids: the SQL entry points -- snowflake_nextval, pack, unpack, timestamp, min_id,
// snowflake_create_layout and the functions behind the catalog views and the registry's CHECK.
#include "sf_internal.h"

extern "C" {
#include "access/htup_details.h"
#include "access/xact.h"
#include "utils/lsyscache.h"

PG_FUNCTION_INFO_V1(snowflake_nextval);
PG_FUNCTION_INFO_V1(idseq_node_id);
PG_FUNCTION_INFO_V1(snowflake_pack);
PG_FUNCTION_INFO_V1(snowflake_unpack);
PG_FUNCTION_INFO_V1(snowflake_timestamp);
PG_FUNCTION_INFO_V1(snowflake_min_id);
PG_FUNCTION_INFO_V1(idseq_snowflake_check);
PG_FUNCTION_INFO_V1(idseq_snowflake_check_new);
PG_FUNCTION_INFO_V1(snowflake_create_layout);
PG_FUNCTION_INFO_V1(idseq_snowflake_builtin_layouts);
PG_FUNCTION_INFO_V1(idseq_snowflake_describe);
}

using namespace snowflake;

namespace {

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

int32 field_int(int64 v)
{
    return (int32) v; // fields reachable from SQL have at most 31 bits (validate_sql_field_widths)
}

} // namespace

// ---- SQL entry points --------------------------------------------------------------------------------

int64 snowflake::issue_id(Entry* e, const char* caller)
{
    PreventCommandIfReadOnly(caller);
    PreventCommandIfParallelMode(caller);
    // idseq_uuidv7()'s layout and display60 have no node field: no node id is read for them
    const int32 node = e->has_node ? effective_node_id() : -1;
    if (e->has_node && (node < 0 || node > e->max_node))
        run([&] { idseq::check_node_id(e->layout, node); });
    if (!e->relations_checked) {
        check_state_relations(e); // again after any change to them (the relcache callback)
        // A layout created before the rule (1.1 accepted any order) still packs and unpacks.
        run([&] { idseq::validate_generator_order(e->layout, idseq::ErrorKind::Prerequisite); });
        e->relations_checked = true;
    }
    if (shared && (!e->slot_checked || e->slot_node != node)) {
        // the server's stream of (definition, node), shared by its databases; nullptr when
        // all slots are taken: the slow path, for good (for that pair and this run)
        e->slot = find_slot(e->name, definition_of(e->layout), node);
        e->slot_checked = true;
        e->slot_node = node;
        e->stream = shared_stream(e->slot);
        e->joined = false;
        // no lock-free id before the join: another slot's set-up generation may be this one's
        // too (the word is kept: the join goes above this session's last id)
        e->issuer.setup = 0;
    }
    // A shared stream needs no claim: its databases issue its ids together. Otherwise one
    // database of the server issues the pair's ids (sf_claims.cpp).
    if (!e->stream && e->claim_node != (e->has_node ? node : -1)) // once per layout and node id
        claim_layout(e, node); // after the slot is known: a claim taken over sets it up again
    return e->slot ? nextval_fast(e, node) : nextval_slow(e, node);
}

extern "C" {

// The node id this database issues snowflake ids with: its own from
// idseq.node_id_by_database, else idseq.node_id; NULL when neither gives one. What SHOW
// idseq.node_id cannot tell for a database listed in idseq.node_id_by_database.
Datum idseq_node_id(PG_FUNCTION_ARGS)
{
    const int32 node = effective_node_id();
    if (node < 0)
        PG_RETURN_NULL();
    PG_RETURN_INT32(node);
}

Datum snowflake_nextval(PG_FUNCTION_ARGS)
{
    PG_RETURN_INT64(issue_id(entry_for(fcinfo, 0), "snowflake_nextval()"));
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

// A time predicate evaluates this on every row its index range holds: the common case is
// unpack's arithmetic inline; anything unpack would refuse takes unpack's path, for its error.
Datum snowflake_timestamp(PG_FUNCTION_ARGS)
{
    int64 id = PG_GETARG_INT64(0);
    Entry* e = entry_for(fcinfo, 1);
    int64 offset, us, ts;
    if (id >= 0 && id <= e->max_id &&
        !pg_mul_s64_overflow((id >> e->time_shift) & e->time_mask, e->layout.unit_us, &offset) &&
        !pg_add_s64_overflow(e->layout.epoch_us, offset, &us) && !pg_sub_s64_overflow(us, kUnixToPgEpochUs, &ts) &&
        IS_VALID_TIMESTAMP(ts))
        PG_RETURN_TIMESTAMPTZ(ts);
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

} // extern "C"

namespace {

// (name, epoch, fields, time_unit) -> the canonical field list, or the definition's error;
// with generator, also the error of a field order whose ids cannot increase.
Datum check_definition(FunctionCallInfo fcinfo, bool generator)
{
    PG_RETURN_TEXT_P(canonical_fields(PG_GETARG_TEXT_PP(0), PG_GETARG_TIMESTAMPTZ(1), PG_GETARG_TEXT_PP(2),
                                      PG_GETARG_INTERVAL_P(3), generator));
}

} // namespace

extern "C" {

// Creates a custom layout: the registry row and its two state sequences. In C, so that the
// extension's own calls cannot be captured by objects another role plants in its schema (an
// overload of idseq_snowflake_check, a relation named like a state sequence): the definition
// is checked by a direct call, every statement names schema-qualified relations and
// pg_catalog operators only, and the state sequences get names that are free when they are
// created (CREATE SEQUENCE without IF NOT EXISTS fails rather than adopt another's relation).
Datum snowflake_create_layout(PG_FUNCTION_ARGS)
{
    for (int i = 0; i < 4; i++)
        if (PG_ARGISNULL(i))
            ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
                            errmsg("a snowflake layout definition cannot contain null values")));
    text* name_text = PG_GETARG_TEXT_PP(0);
    TimestampTz epoch = PG_GETARG_TIMESTAMPTZ(1);
    Interval* unit = PG_GETARG_INTERVAL_P(3);
    text* canonical = canonical_fields(name_text, epoch, PG_GETARG_TEXT_PP(2), unit, true);
    create_layout(text_to_cstring(name_text), epoch, canonical, unit, get_func_namespace(fcinfo->flinfo->fn_oid));
    PG_RETURN_VOID();
}

// The registry's CHECK: any field order, so that layouts created before 1.2 still restore.
Datum idseq_snowflake_check(PG_FUNCTION_ARGS) { return check_definition(fcinfo, false); }

// snowflake_create_layout's check: only field orders whose ids increase.
Datum idseq_snowflake_check_new(PG_FUNCTION_ARGS) { return check_definition(fcinfo, true); }

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
    // A time field that outlasts int64 microseconds since 1970 ends where they do, at
    // 294247-01-10 04:00:54.775807+00 (last_ts_us saturates): the last time pack accepts and
    // its errors name, still a valid timestamptz. Infinity only for what the type cannot show.
    int64 pg_last;
    bool past = pg_sub_s64_overflow(last, kUnixToPgEpochUs, &pg_last) || !IS_VALID_TIMESTAMP(pg_last);
    Datum values[5] = {Int32GetDatum(bits[0]), Int32GetDatum(bits[1]), Int32GetDatum(bits[2]), Int32GetDatum(bits[3]),
                       TimestampTzGetDatum(past ? DT_NOEND : pg_last)};
    bool nulls[5] = {false, false, false, false, false};
    PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(desc, values, nulls)));
}

} // extern "C"
