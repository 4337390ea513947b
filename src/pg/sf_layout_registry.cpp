// Snowflake ids: layouts -- the built-in ones and the registry's, found by name through a
// per-backend cache that relcache and transaction callbacks invalidate -- and the creation of
// custom layouts with their two state sequences.
#include "sf_internal.h"

#include <cstring>
#include <unordered_map>

#include "internal_sql.h"
#include "charset_registry.h"
#include "uuidv7.h"

extern "C" {
#include "access/xact.h"
#include "catalog/pg_class.h"
#include "catalog/pg_type.h"
#include "common/md5.h"
#include "common/pg_prng.h"
#include "executor/spi.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"
}

namespace snowflake {
namespace {

// ---- Layouts and the per-backend cache ------------------------------------------------------

// Never destroyed, so no destructor can be skipped by a longjmp; entries are never freed
// (an invalidated entry is reloaded in place), so pointers to them stay good.
std::unordered_map<std::string, Entry*>* cache;
bool loaded_in_xact;
bool callbacks_registered;

void invalidate(Oid relid)
{
    if (!cache)
        return;
    for (auto& kv : *cache) {
        Entry* e = kv.second;
        if (relid == InvalidOid || e->state_relid == relid || e->last_relid == relid || e->guard_relid == relid)
            e->valid = false;
    }
}

void on_relcache(Datum, Oid relid) { invalidate(relid); }

void on_xact(XactEvent event, void*)
{
    if (event == XACT_EVENT_ABORT || event == XACT_EVENT_PARALLEL_ABORT) {
        if (loaded_in_xact) // forget what an aborted transaction may have created
            invalidate(InvalidOid);
        loaded_in_xact = false;
    } else if (event == XACT_EVENT_COMMIT || event == XACT_EVENT_PARALLEL_COMMIT || event == XACT_EVENT_PREPARE) {
        loaded_in_xact = false;
    }
}

void on_subxact(SubXactEvent event, SubTransactionId, SubTransactionId, void*)
{
    if (event == SUBXACT_EVENT_ABORT_SUB && loaded_in_xact)
        invalidate(InvalidOid);
}

void ensure_cache()
{
    if (!callbacks_registered) {
        CacheRegisterRelcacheCallback(on_relcache, (Datum) 0);
        RegisterXactCallback(on_xact, nullptr);
        RegisterSubXactCallback(on_subxact, nullptr);
        callbacks_registered = true;
    }
    if (!cache)
        run([&] { cache = new std::unordered_map<std::string, Entry*>(); });
}


} // namespace

Oid seq_owner(Oid relid)
{
    HeapTuple tp = SearchSysCache1(RELOID, ObjectIdGetDatum(relid));
    if (!HeapTupleIsValid(tp))
        return InvalidOid;
    Oid owner = ((Form_pg_class) GETSTRUCT(tp))->relowner;
    ReleaseSysCache(tp);
    return owner;
}

// Converts a timestamptz to microseconds since the Unix epoch; false if it is infinite or
// does not fit.
bool unix_us_from_pg(TimestampTz ts, int64& out)
{
    return !TIMESTAMP_NOT_FINITE(ts) && !pg_add_s64_overflow(ts, kUnixToPgEpochUs, &out);
}

TimestampTz pg_from_unix_us(int64 us)
{
    int64 ts;
    if (pg_sub_s64_overflow(us, kUnixToPgEpochUs, &ts) || !IS_VALID_TIMESTAMP(ts))
        ereport(ERROR, (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE), errmsg("timestamp out of range")));
    return ts;
}

// A layout's epoch; 22023 when it is infinite or past the microsecond range.
int64 epoch_us_of(TimestampTz epoch)
{
    int64 us;
    if (!unix_us_from_pg(epoch, us))
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                        errmsg("invalid snowflake layout epoch \"%s\"", timestamptz_to_str(epoch)),
                        errdetail("The epoch must be a finite timestamp.")));
    return us;
}

// A time unit in microseconds; 22023 for months (their length varies) or a huge interval.
int64 unit_us_of(const Interval* unit)
{
    __extension__ __int128 us = (__int128) unit->day * USECS_PER_DAY + unit->time;
    if (unit->month != 0 || us > INT64_MAX || us < INT64_MIN)
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                        errmsg("invalid snowflake time unit \"%s\"",
                               DatumGetCString(DirectFunctionCall1(interval_out, IntervalPGetDatum(unit)))),
                        errdetail(!IDSEQ_INTERVAL_IS_FINITE(unit) ? "A time unit must be finite."
                                  : unit->month != 0 ? "A time unit must have a fixed length, so it cannot count months or years."
                                                     : "The time unit is too long.")));
    return (int64) us;
}

Interval* interval_from_us(int64 us)
{
    Interval* iv = (Interval*) palloc0(sizeof(Interval));
    iv->time = us;
    return iv;
}

Definition definition_of(const Layout& l)
{
    Definition d;
    memset(&d, 0, sizeof d);
    d.epoch_us = l.epoch_us;
    d.unit_us = l.unit_us;
    for (size_t i = 0; i < l.fields.size(); i++) {
        d.width[i] = (uint8) l.fields[i].width; // at most 63
        d.shift[i] = (uint8) l.fields[i].shift;
    }
    return d;
}

namespace {

char* registry_relation(Oid nsp)
{
    return quote_qualified_identifier(get_namespace_name(nsp), "idseq_layout_registry");
}

// name need not be NUL-terminated: len bytes are shown, cut to a short prefix.
[[noreturn]] void unknown_layout(const char* name, size_t len, Oid nsp)
{
    StringInfoData known;
    initStringInfo(&known);
    run([&] {
        for (const Layout& l : idseq::builtin_layouts()) {
            if (known.len)
                appendStringInfoString(&known, ", ");
            appendStringInfoString(&known, l.name.c_str());
        }
    });
    char* sql = psprintf("SELECT pg_catalog.string_agg(name, ', ' ORDER BY name) FROM %s", registry_relation(nsp));
    if (idseq::pg::spi_query(sql, 0, nullptr, true) == 1) {
        char* custom = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1);
        if (custom)
            appendStringInfo(&known, ", %s", custom);
    }
    idseq::pg::spi_end();
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("unknown snowflake layout \"%s\"", idseq::pg::shown(name, len)),
                    errhint("Known layouts: %s. Create one with snowflake_create_layout().", known.data)));
    pg_unreachable();
}

// Fills e from the built-ins or the registry; false if there is no such layout.
bool load_entry(Entry* e, const char* name, Oid nsp)
{
    const Layout* builtin = nullptr;
    const bool internal = strcmp(name, kUuidv7Entry) == 0;
    run([&] { builtin = internal ? &idseq::uuidv7_layout() : idseq::builtin_layout(name); });
    if (builtin) {
        run([&] { e->layout = *builtin; });
        const char* base = internal ? builtin->name.c_str() : name;
        char* state_name = psprintf("idseq_sf_state_%s", base);
        char* last_name = psprintf("idseq_sf_last_%s", base);
        e->state_relid = get_relname_relid(state_name, nsp);
        e->last_relid = get_relname_relid(last_name, nsp);
    } else {
        char* sql = psprintf("SELECT epoch, fields, time_unit, state_seq::pg_catalog.oid, last_id_seq::pg_catalog.oid"
                             " FROM %s WHERE name OPERATOR(pg_catalog.=) $1",
                             registry_relation(nsp));
        const char* args[1] = {name};
        // Not read-only: a fresh snapshot sees a layout created earlier in this transaction.
        if (idseq::pg::spi_query(sql, 1, args, false) != 1) {
            idseq::pg::spi_end();
            return false;
        }
        HeapTuple t = SPI_tuptable->vals[0];
        TupleDesc d = SPI_tuptable->tupdesc;
        bool isnull;
        int64 epoch = epoch_us_of(DatumGetTimestampTz(SPI_getbinval(t, d, 1, &isnull)));
        char* fields = SPI_getvalue(t, d, 2);
        fields = (char*) SPI_palloc(strlen(fields) + 1);
        strcpy(fields, SPI_getvalue(t, d, 2));
        int64 unit = unit_us_of(DatumGetIntervalP(SPI_getbinval(t, d, 3, &isnull)));
        e->state_relid = DatumGetObjectId(SPI_getbinval(t, d, 4, &isnull));
        e->last_relid = DatumGetObjectId(SPI_getbinval(t, d, 5, &isnull));
        idseq::pg::spi_end();
        run([&] { e->layout = idseq::parse_layout(name, epoch, fields, unit); });
    }
    e->builtin = builtin != nullptr;
    strlcpy(e->name, name, NAMEDATALEN);
    e->state_owner = OidIsValid(e->state_relid) ? seq_owner(e->state_relid) : InvalidOid;
    e->guard_relid = guard_of(e->state_relid);
    e->has_node = e->layout.has(Field::Node);
    e->has_rand = e->layout.has(Field::Rand);
    e->max_node = e->layout.max_value(Field::Node);
    run([&] {
        e->word_step = idseq::word_step(e->layout);
        e->max_id = e->layout.max_id();
    });
    e->time_mask = e->layout.max_value(Field::Time);
    e->time_shift = e->layout[Field::Time].shift;
    e->mark_read = false;
    e->res_value = PG_INT64_MIN; // the fast path's decoded mark is this definition's
    e->slot_checked = false; // the slot of this definition, joined again (join_stream)
    e->slot = nullptr;
    e->stream = false;
    e->joined = false;
    e->issuer.setup = 0; // the lock-free step only after the join
    e->own_reserved = e->own_sync_reserved = -1;
    e->last_locked_lxid = InvalidLocalTransactionId;
    e->relations_checked = false;
    e->claim_node = INT32_MIN;
    e->valid = true;
    loaded_in_xact = loaded_in_xact || IsTransactionState();
    return true;
}

// Whether a layout could have this name: built-in names and the registry's (its CHECK runs
// validate_layout_name) all pass. Reads at most NAMEDATALEN bytes of a name of any size.
bool possible_layout_name(const char* name, size_t len)
{
    if (len >= NAMEDATALEN)
        return false;
    bool ok = true;
    run([&] {
        try {
            idseq::validate_layout_name(std::string_view(name, len));
        } catch (const idseq::Error&) {
            ok = false;
        }
    });
    return ok;
}

// The cache holds an entry only for a name that was found: an unknown name is looked up in
// this spare, kept for the next miss, so a stream of unknown names allocates nothing.
Entry* spare;

// The entry of a name (a layout's, or kUuidv7Entry), loaded or reloaded as needed; nullptr
// when there is no such layout.
Entry* cached_entry(const char* name, size_t len, Oid nsp)
{
    ensure_cache();
    char key[NAMEDATALEN];
    memcpy(key, name, len);
    key[len] = '\0';
    Entry* e = nullptr;
    run([&] {
        auto it = cache->find(std::string(key, len));
        e = it == cache->end() ? nullptr : it->second;
    });
    if (e && e->valid)
        return e;
    if (e) // known before: reload in place, so the pointers to it stay good
        return load_entry(e, key, nsp) ? e : nullptr;
    if (!spare)
        run([&] { spare = new Entry(); });
    if (!load_entry(spare, key, nsp))
        return nullptr;
    Entry* fresh = spare;
    run([&] { cache->emplace(std::string(key, len), fresh); });
    spare = nullptr;
    return fresh;
}

// The entry of that name, or nullptr when there is no such layout.
Entry* find_entry(const char* name, size_t len, Oid nsp)
{
    if (!possible_layout_name(name, len)) // cheap: no lookup, no copy of a huge name
        return nullptr;
    return cached_entry(name, len, nsp);
}

Entry* entry_by_name(const char* name, size_t len, Oid nsp)
{
    Entry* e = find_entry(name, len, nsp);
    if (!e)
        unknown_layout(name, len, nsp);
    return e;
}

} // namespace

const Layout* layout_if_known(const char* name, size_t len, Oid nsp)
{
    Entry* e = find_entry(name, len, nsp);
    return e ? &e->layout : nullptr;
}

FnCache* fn_cache(FunctionCallInfo fcinfo)
{
    if (!fcinfo->flinfo->fn_extra)
        fcinfo->flinfo->fn_extra = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(FnCache));
    return (FnCache*) fcinfo->flinfo->fn_extra;
}

namespace {

// Whether the call's argument is a Const (as written, or a default filled in by the planner):
// then it is the same datum, unchanged, on every call through this FmgrInfo. Not a Param,
// unlike get_fn_expr_arg_stable: PL/pgSQL reuses a simple expression's state while the
// variable behind a Param changes, and a new value may sit at the old one's address.
bool arg_is_const(FmgrInfo* flinfo, int argno)
{
    Node* expr = flinfo->fn_expr;
    if (!expr || !IsA(expr, FuncExpr))
        return false;
    List* args = ((FuncExpr*) expr)->args;
    return argno < list_length(args) && IsA(list_nth(args, argno), Const);
}

} // namespace

Entry* entry_for(FunctionCallInfo fcinfo, int argno)
{
    FnCache* fc = fn_cache(fcinfo);
    // A Const argument (the layout name written in the call, or the default) is the same
    // datum on every call: then no need to read the name again.
    const Datum raw = PG_GETARG_DATUM(argno);
    if (fc->arg_stable && fc->arg == raw && fc->entry && fc->entry->valid)
        return fc->entry;
    if (!fc->arg_checked) {
        fc->arg_stable = arg_is_const(fcinfo->flinfo, argno);
        fc->arg_checked = true;
    }
    text* t = PG_GETARG_TEXT_PP(argno);
    const char* name = VARDATA_ANY(t);
    int len = VARSIZE_ANY_EXHDR(t);
    if (!(fc->entry && fc->len == len && memcmp(fc->name, name, len) == 0 && fc->entry->valid)) {
        fc->entry = entry_by_name(name, len, get_func_namespace(fcinfo->flinfo->fn_oid));
        fc->len = len;
        memcpy(fc->name, name, len);
    }
    fc->arg = raw;
    return fc->entry;
}

Entry* uuidv7_entry(Oid nsp)
{
    Entry* e = cached_entry(kUuidv7Entry, strlen(kUuidv7Entry), nsp);
    if (!e)
        unknown_layout(kUuidv7Entry, strlen(kUuidv7Entry), nsp);
    return e;
}

// Function-static scratch: lives forever, so a longjmp can never skip its destructor.
std::string& scratch_text()
{
    static std::string* s = new std::string();
    return *s;
}

// ---- Layout definitions and their creation ------------------------------------------------------

// The canonical field list of a definition, or the definition's error (22023, or 42710 for a
// built-in name); with generator, also the error of a field order whose ids cannot increase.
// A name too long to be valid is judged by its first bytes, never copied whole.
text* canonical_fields(text* name_text, TimestampTz epoch_ts, text* fields_text, Interval* unit_iv, bool generator)
{
    const size_t len = VARSIZE_ANY_EXHDR(name_text);
    const std::string_view name(VARDATA_ANY(name_text), len <= NAMEDATALEN ? len : NAMEDATALEN + 1);
    int64 epoch = epoch_us_of(epoch_ts);
    char* fields = text_to_cstring(fields_text);
    int64 unit = unit_us_of(unit_iv);
    std::string& out = scratch_text();
    bool builtin = false;
    run([&] {
        idseq::validate_layout_name(name);
        builtin = idseq::builtin_layout(std::string(name)) != nullptr;
        if (builtin)
            return;
        Layout l = idseq::parse_layout(std::string(name), epoch, fields, unit);
        idseq::validate_sql_field_widths(l);
        if (generator)
            idseq::validate_generator_order(l, idseq::ErrorKind::InvalidParameter);
        out = idseq::format_fields(l);
    });
    if (builtin)
        ereport(ERROR, (errcode(ERRCODE_DUPLICATE_OBJECT),
                        errmsg("snowflake layout \"%s\" is built in", pnstrdup(name.data(), name.size())),
                        errhint("Choose another name for the custom layout.")));
    return cstring_to_text_with_len(out.data(), (int) out.size());
}

namespace {

void spi_run(const char* sql, int nargs, Oid* types, Datum* values, int expected)
{
    idseq::pg::internal_sql_run(sql, nargs, types, values, nullptr, false, expected);
}

// The names of a new layout's two sequences: idseq_sf_state_<base> and idseq_sf_last_<base>,
// base being the name (or, past 48 bytes, its first 39 and 8 hex digits of its md5). When a
// relation of either name, or of its guard's (idseq_sf_guard_<base>), already exists in the
// schema, base is its first 31 bytes and 16
// random hex digits instead:
// nobody can keep a layout from being created by planting relations with the names it would use.
void sequence_names(const char* name, Oid nsp, char* state_name, char* last_name)
{
    char base[NAMEDATALEN];
    const size_t len = strlen(name);
    if (len <= 48) {
        strlcpy(base, name, sizeof base);
    } else {
        char md5[33];
        const char* errstr = nullptr;
        if (!pg_md5_hash(name, len, md5, &errstr))
            elog(ERROR, "could not compute an MD5 hash: %s", errstr);
        snprintf(base, sizeof base, "%.39s_%.8s", name, md5);
    }
    for (int attempt = 0;; attempt++) {
        snprintf(state_name, NAMEDATALEN, "idseq_sf_state_%.48s", base);
        snprintf(last_name, NAMEDATALEN, "idseq_sf_last_%.48s", base);
        char guard_name[NAMEDATALEN]; // made by the registry's adopting trigger (42_snowflake_guard.sql)
        snprintf(guard_name, NAMEDATALEN, "idseq_sf_guard_%.48s", base);
        if (!OidIsValid(get_relname_relid(state_name, nsp)) && !OidIsValid(get_relname_relid(last_name, nsp)) &&
            !OidIsValid(get_relname_relid(guard_name, nsp)))
            return;
        if (attempt == 100)
            ereport(ERROR, (errcode(ERRCODE_DUPLICATE_TABLE),
                            errmsg("could not find free names for the state sequences of snowflake layout \"%s\"",
                                   name)));
        uint64 r = pg_prng_uint64(&pg_global_prng_state);
        snprintf(base, sizeof base, "%.31s_%016llx", name, (unsigned long long) r);
    }
}

// The sequence just created under this name in nsp, checked to be the caller's own.
Oid created_sequence(const char* relname, Oid nsp)
{
    Oid relid = get_relname_relid(relname, nsp);
    if (!OidIsValid(relid) || get_rel_relkind(relid) != RELKIND_SEQUENCE || seq_owner(relid) != GetUserId())
        elog(ERROR, "sequence \"%s\" was not created as expected", relname);
    return relid;
}

} // namespace

void create_layout(const char* name, TimestampTz epoch, text* canonical, Interval* unit, Oid nsp)
{
    Oid registry = get_relname_relid("idseq_layout_registry", nsp);
    if (!OidIsValid(registry))
        elog(ERROR, "the snowflake layout registry is missing");
    const char* schema = quote_identifier(get_namespace_name(nsp));
    char* registry_name = quote_qualified_identifier(get_namespace_name(nsp), "idseq_layout_registry");
    // (the LOCK TABLE below takes UPDATE, DELETE or TRUNCATE: the database's owner, who may
    // insert layout rows the way a restore does, cannot create layouts)
    idseq::pg::require_insert(registry, nullptr, 0, ACL_UPDATE | ACL_DELETE | ACL_TRUNCATE, "snowflake layout", name,
                              "Layouts are created by the extension's owner (normally a superuser), whose role "
                              "owns their state sequences.");
    idseq::pg::internal_sql_connect();
    // One creator at a time, so that the duplicate check below is reliable (and the caller's
    // privileges on the registry are checked as LOCK TABLE checks them).
    spi_run(psprintf("LOCK TABLE %s IN SHARE ROW EXCLUSIVE MODE", registry_name), 0, nullptr, nullptr, SPI_OK_UTILITY);
    {
        Oid types[1] = {TEXTOID};
        Datum values[1] = {CStringGetTextDatum(name)};
        spi_run(psprintf("SELECT r.fields, r.epoch::pg_catalog.text, r.time_unit::pg_catalog.text FROM %s r"
                         " WHERE r.name OPERATOR(pg_catalog.=) $1",
                         registry_name),
                1, types, values, SPI_OK_SELECT);
        if (SPI_processed > 0) {
            HeapTuple t = SPI_tuptable->vals[0];
            TupleDesc d = SPI_tuptable->tupdesc;
            ereport(ERROR, (errcode(ERRCODE_DUPLICATE_OBJECT), errmsg("snowflake layout \"%s\" already exists", name),
                            errdetail("Its fields are \"%s\", its epoch is %s and its time unit is %s.",
                                      SPI_getvalue(t, d, 1), SPI_getvalue(t, d, 2), SPI_getvalue(t, d, 3)),
                            errhint("Layouts cannot be redefined; create one under another name.")));
        }
    }
    {
        // A twin (same epoch, fields and time unit under another name) would have its own
        // generator and issue the same ids as the other on one node. Refused here only: a
        // registry row (a restore of a database that has twins already) is accepted.
        Oid types[3] = {TIMESTAMPTZOID, TEXTOID, INTERVALOID};
        Datum values[3] = {TimestampTzGetDatum(epoch), PointerGetDatum(canonical), IntervalPGetDatum(unit)};
        const char* same = "l.epoch OPERATOR(pg_catalog.=) $1 AND l.fields OPERATOR(pg_catalog.=) $2"
                           " AND l.time_unit OPERATOR(pg_catalog.=) $3";
        spi_run(psprintf("SELECT l.name FROM %s.idseq_snowflake_builtin_layouts() l WHERE %s"
                         " UNION ALL SELECT l.name FROM %s l WHERE %s LIMIT 1",
                         schema, same, registry_name, same),
                3, types, values, SPI_OK_SELECT);
        if (SPI_processed > 0) {
            const char* twin = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1);
            ereport(ERROR, (errcode(ERRCODE_DUPLICATE_OBJECT),
                            errmsg("snowflake layout \"%s\" would be identical to layout \"%s\"", name, twin),
                            errdetail("Both would have the epoch, fields and time unit given; layouts with separate "
                                      "generators issue the same ids on one node."),
                            errhint("Use layout \"%s\", or give the new layout another epoch, fields or time unit.",
                                    twin)));
        }
    }
    char state_name[NAMEDATALEN], last_name[NAMEDATALEN];
    sequence_names(name, nsp, state_name, last_name);
    const char* state_q = psprintf("%s.%s", schema, quote_identifier(state_name));
    const char* last_q = psprintf("%s.%s", schema, quote_identifier(last_name));
    spi_run(psprintf("CREATE SEQUENCE %s MINVALUE -1 START -1", state_q), 0, nullptr, nullptr, SPI_OK_UTILITY);
    spi_run(psprintf("CREATE UNLOGGED SEQUENCE %s MINVALUE -1 START -1", last_q), 0, nullptr, nullptr, SPI_OK_UTILITY);
    Oid state_relid = created_sequence(state_name, nsp);
    Oid last_relid = created_sequence(last_name, nsp);
    // The sequences go with the registry (DROP EXTENSION drops them), which needs one owner.
    Oid registry_owner = seq_owner(registry);
    if (registry_owner != GetUserId()) {
        const char* owner = quote_identifier(GetUserNameFromId(registry_owner, false));
        spi_run(psprintf("ALTER SEQUENCE %s OWNER TO %s", state_q, owner), 0, nullptr, nullptr, SPI_OK_UTILITY);
        spi_run(psprintf("ALTER SEQUENCE %s OWNER TO %s", last_q, owner), 0, nullptr, nullptr, SPI_OK_UTILITY);
    }
    spi_run(psprintf("ALTER SEQUENCE %s OWNED BY %s.name", state_q, registry_name), 0, nullptr, nullptr, SPI_OK_UTILITY);
    spi_run(psprintf("ALTER SEQUENCE %s OWNED BY %s.name", last_q, registry_name), 0, nullptr, nullptr, SPI_OK_UTILITY);
    Oid types[6] = {TEXTOID, TIMESTAMPTZOID, TEXTOID, INTERVALOID, OIDOID, OIDOID};
    Datum values[6] = {CStringGetTextDatum(name),         TimestampTzGetDatum(epoch),
                       PointerGetDatum(canonical),        IntervalPGetDatum(unit),
                       ObjectIdGetDatum(state_relid),     ObjectIdGetDatum(last_relid)};
    spi_run(psprintf("INSERT INTO %s (name, epoch, fields, time_unit, state_seq, last_id_seq)"
                     " VALUES ($1, $2, $3, $4, $5::pg_catalog.regclass, $6::pg_catalog.regclass)",
                     registry_name),
            6, types, values, SPI_OK_INSERT);
    idseq::pg::internal_sql_finish();
    // Plans that folded a layout's time bounds depend on the registry (snowflake_time_quals):
    // this invalidates them when the layout comes, and locally when its creation rolls back.
    CacheInvalidateRelcacheByRelid(registry);
}

} // namespace snowflake
