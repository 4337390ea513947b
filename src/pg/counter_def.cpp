// Counters per key: definitions (idseq_create_counter, idseq_drop_counter), the backend's
// cache of them, periods and rendering.
//
// A definition lives in idseq_counter_def (one row per counter, never changed once written)
// and is anchored by the sequence <name>_counter, which carries the counter's owner and
// privileges. This backend caches definitions by name in a hash table bounded by the number
// of counters it used (never by keys): an entry is good while its anchor exists (a dropped
// counter's anchor is gone; a re-created counter has a new anchor), which every call checks
// after locking the anchor (the lock reads pending invalidations first).
#include "counter_internal.h"

#include <cstring>

#include "core_call.h"
#include "quoted_text_pg.h"
#include "internal_sql.h"
#include "charset_registry.h"

extern "C" {
#include "access/genam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "access/xact.h"
#include "catalog/namespace.h"
#include "catalog/pg_class.h"
#include "catalog/pg_collation.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "nodes/makefuncs.h"
#include "storage/lmgr.h"
#include "utils/acl.h"
#include "utils/datetime.h"
#include "utils/fmgroids.h"
#include "utils/hsearch.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"
}

extern "C" {
PG_FUNCTION_INFO_V1(idseq_create_counter);
PG_FUNCTION_INFO_V1(idseq_drop_counter);
}

namespace idseq::pg::counter {

namespace {

constexpr size_t kMaxNameBytes = 48;
constexpr size_t kMaxKeyBytes = 1000;

HTAB* cache;

void ensure_cache()
{
    if (likely(cache))
        return;
    HASHCTL ctl;
    memset(&ctl, 0, sizeof ctl);
    ctl.keysize = sizeof(((CounterDef*) nullptr)->name);
    ctl.entrysize = sizeof(CounterDef);
    ctl.hcxt = CacheMemoryContext;
    cache = hash_create("idseq counters", 16, &ctl, HASH_ELEM | HASH_STRINGS | HASH_CONTEXT);
}

// The definition table and its primary key.
struct DefTable {
    Oid rel;
    Oid pk;
    Oid pk_collation;
    Oid owner;
};

DefTable def_table()
{
    DefTable t;
    Oid nsp = extension_schema_oid(false);
    t.rel = get_relname_relid("idseq_counter_def", nsp);
    if (!OidIsValid(t.rel))
        ereport(ERROR, (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
                        errmsg("extension \"idseq\" has no counters in this database"),
                        errhint("Run ALTER EXTENSION idseq UPDATE.")));
    Relation r = table_open(t.rel, AccessShareLock);
    t.owner = r->rd_rel->relowner;
    t.pk = unique_index_on(r, 1, t.pk_collation);
    table_close(r, AccessShareLock);
    return t;
}

Period period_of(const char* text)
{
    Period p = Period::None;
    run([&] { p = idseq::counter::parse_period(text); });
    return p;
}

pg_tz* zone_of(const char* name)
{
    pg_tz* tz = pg_tzset(name);
    if (!tz)
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("time zone \"%s\" not recognized", shown(name)),
                        errhint("Use a zone name of pg_timezone_names, such as \"UTC\" or \"Europe/Paris\".")));
    return tz;
}

// Reads the row of counter `name` into def; false if there is none. With the catalog
// snapshot: every committed row and this transaction's own.
bool load(const char* name, CounterDef& def)
{
    DefTable t = def_table();
    Relation rel = table_open(t.rel, AccessShareLock);
    ScanKeyData skey;
    ScanKeyEntryInitialize(&skey, 0, 1, BTEqualStrategyNumber, InvalidOid,
                           OidIsValid(t.pk_collation) ? t.pk_collation : C_COLLATION_OID, F_TEXTEQ,
                           CStringGetTextDatum(name));
    SysScanDesc scan = systable_beginscan(rel, t.pk, OidIsValid(t.pk), NULL, 1, &skey);
    HeapTuple tup = systable_getnext(scan);
    const bool found = HeapTupleIsValid(tup);
    if (found) {
        TupleDesc d = RelationGetDescr(rel);
        bool isnull;
        def.anchor = DatumGetObjectId(heap_getattr(tup, 2, d, &isnull));
        def.gapless = DatumGetBool(heap_getattr(tup, 3, d, &isnull));
        Datum p = heap_getattr(tup, 4, d, &isnull);
        char* period = isnull ? nullptr : TextDatumGetCString(p);
        char* zone = TextDatumGetCString(heap_getattr(tup, 5, d, &isnull));
        def.start = DatumGetInt64(heap_getattr(tup, 6, d, &isnull));
        char* format = TextDatumGetCString(heap_getattr(tup, 7, d, &isnull));
        systable_endscan(scan);
        table_close(rel, AccessShareLock);
        def.period = period ? period_of(period) : Period::None;
        def.tz = zone_of(zone);
        def.format = MemoryContextStrdup(CacheMemoryContext, format);
        return true;
    }
    systable_endscan(scan);
    table_close(rel, AccessShareLock);
    return false;
}

Oid rel_owner(Oid relid)
{
    HeapTuple tup = SearchSysCache1(RELOID, ObjectIdGetDatum(relid));
    if (!HeapTupleIsValid(tup))
        elog(ERROR, "cache lookup failed for relation %u", relid);
    Oid owner = ((Form_pg_class) GETSTRUCT(tup))->relowner;
    ReleaseSysCache(tup);
    return owner;
}

[[noreturn]] void fail_unknown(const char* name)
{
    ereport(ERROR, (errcode(ERRCODE_UNDEFINED_OBJECT), errmsg("counter \"%s\" does not exist", shown(name)),
                    errhint("The view idseq_counters lists the counters of this database.")));
    pg_unreachable();
}

// A checked counter name: [a-z_][a-z0-9_]*, 1 to 48 bytes.
void check_name(const char* name, size_t len)
{
    bool ok = len >= 1 && len <= kMaxNameBytes && (name[0] == '_' || (name[0] >= 'a' && name[0] <= 'z'));
    for (size_t i = 1; ok && i < len; i++)
        ok = name[i] == '_' || (name[i] >= 'a' && name[i] <= 'z') || (name[i] >= '0' && name[i] <= '9');
    if (!ok)
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("invalid counter name \"%s\"", shown(name, len)),
                        errdetail("A counter name has 1 to %zu bytes of lowercase ASCII letters, digits and "
                                  "underscores, and does not start with a digit.",
                                  kMaxNameBytes)));
}

// The charsets a template names, resolved and checked against it. The vector is static (its
// elements plain pointers), so that an error raised while resolving a name skips no C++
// destructor; it is good until the next call.
const idseq::counter::Charsets& charsets_of(const idseq::counter::Template& t)
{
    static idseq::counter::Charsets* cs = nullptr;
    size_t n = 0;
    run([&] {
        if (!cs)
            cs = new idseq::counter::Charsets();
        n = t.charset_names().size();
        cs->assign(n, nullptr);
    });
    for (size_t i = 0; i < n; i++) {
        const char* p = nullptr;
        size_t len = 0;
        run([&] {
            p = t.charset_names()[i].data();
            len = t.charset_names()[i].size();
        });
        char* name = pnstrdup(p, len);
        (*cs)[i] = charset_by_name(name);
        pfree(name);
    }
    run([&] { idseq::counter::check_charsets(t, *cs); });
    return *cs;
}

// A template parsed and checked (charsets and period), kept until the next call: a static
// pointer, so that no error unwinds past a C++ object that owns it.
const idseq::counter::Template& checked_template(const char* format, Period period)
{
    static idseq::counter::Template* parsed = nullptr;
    static char* parsed_source = nullptr;
    static Period parsed_period = Period::None;
    if (!parsed_source || parsed_period != period || strcmp(parsed_source, format) != 0) {
        if (parsed_source) {
            pfree(parsed_source);
            parsed_source = nullptr;
        }
        run([&] {
            delete parsed;
            parsed = nullptr;
            parsed = new idseq::counter::Template(idseq::counter::parse_template(format));
            idseq::counter::check_template_period(*parsed, period);
        });
        (void) charsets_of(*parsed);
        parsed_source = MemoryContextStrdup(TopMemoryContext, format);
        parsed_period = period;
    }
    return *parsed;
}

} // namespace

text* name_arg(FunctionCallInfo fcinfo, int argno)
{
    if (PG_ARGISNULL(argno))
        ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED), errmsg("counter name must not be null")));
    return PG_GETARG_TEXT_PP(argno);
}

void check_key(const char* name, const char* key, size_t len)
{
    if (len > kMaxKeyBytes)
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("key \"%s\" of counter \"%s\" is too long", shown(key, len), shown(name)),
                        errdetail("A key has at most %zu bytes; this one has %zu.", kMaxKeyBytes, len)));
}

text* key_arg(FunctionCallInfo fcinfo, int argno)
{
    if (PG_ARGISNULL(argno))
        ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED), errmsg("counter key must not be null"),
                        errhint("Use the empty string for a counter without keys.")));
    return PG_GETARG_TEXT_PP(argno);
}

const CounterDef& find_counter(text* name_text, AclMode mode, LOCKMODE lockmode)
{
    ensure_cache();
    char name[sizeof(((CounterDef*) nullptr)->name)];
    const size_t len = VARSIZE_ANY_EXHDR(name_text);
    if (len > kMaxNameBytes)
        fail_unknown(text_to_cstring(name_text));
    memset(name, 0, sizeof name);
    memcpy(name, VARDATA_ANY(name_text), len);
    bool found;
    CounterDef* def = (CounterDef*) hash_search(cache, name, HASH_ENTER, &found);
    if (!found) {
        def->valid = false;
        def->format = nullptr;
    }
    for (int attempt = 0;; attempt++) {
        if (!def->valid) {
            CounterDef fresh;
            memcpy(fresh.name, name, sizeof name);
            if (!load(name, fresh)) {
                hash_search(cache, name, HASH_REMOVE, nullptr);
                fail_unknown(name);
            }
            if (def->format)
                pfree(def->format);
            fresh.valid = true;
            *def = fresh;
        }
        LockRelationOid(def->anchor, lockmode);
        if (SearchSysCacheExists1(RELOID, ObjectIdGetDatum(def->anchor)))
            break;
        UnlockRelationOid(def->anchor, lockmode);
        def->valid = false;
        if (attempt > 0)
            fail_unknown(name);
    }
    if (mode != kNoCheck) {
        const Oid user = GetUserId();
        const bool ok = mode == kAnyRead
                            ? pg_class_aclcheck(def->anchor, user, ACL_SELECT | ACL_USAGE) == ACLCHECK_OK ||
                                  pg_class_aclcheck(def->anchor, user, ACL_USAGE) == ACLCHECK_OK
                            : pg_class_aclcheck(def->anchor, user, mode) == ACLCHECK_OK;
        if (!ok) {
            const char* what = mode == ACL_USAGE    ? "USAGE"
                               : mode == ACL_UPDATE ? "UPDATE"
                               : mode == ACL_SELECT ? "SELECT"
                                                    : "SELECT or USAGE";
            ereport(ERROR, (errcode(ERRCODE_INSUFFICIENT_PRIVILEGE), errmsg("permission denied for counter \"%s\"", name),
                            errdetail("This takes %s on its sequence %s.", what,
                                      quote_qualified_identifier(get_namespace_name(get_rel_namespace(def->anchor)),
                                                                 get_rel_name(def->anchor))),
                            errhint("The counter's owner can GRANT %s ON SEQUENCE to a role.", what)));
        }
    }
    return *def;
}

int32 period_at(const CounterDef& def, TimestampTz at)
{
    if (def.period == Period::None)
        return 0;
    if (TIMESTAMP_NOT_FINITE(at))
        ereport(ERROR, (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE), errmsg("timestamp out of range"),
                        errdetail("An infinite time has no period.")));
    struct pg_tm tm;
    fsec_t fsec;
    int tzoff;
    if (timestamp2tm(at, &tzoff, &tm, &fsec, nullptr, def.tz) != 0)
        ereport(ERROR, (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE), errmsg("timestamp out of range")));
    int32 n = 0;
    run([&] { n = idseq::counter::period_number(def.period, tm.tm_year, tm.tm_mon, tm.tm_mday); });
    return n;
}

text* render(const CounterDef& def, int64 n, const char* key, size_t key_len, int32 period)
{
    // The template is parsed once per format (the last one used is kept); the cache of
    // definitions holds plain data only.
    const idseq::counter::Template& t = checked_template(def.format, def.period);
    const idseq::counter::Charsets& cs = charsets_of(t);
    static std::string* out = nullptr; // plain data out of the core, copied below
    run([&] {
        if (!out)
            out = new std::string();
        std::string ptext = idseq::counter::period_text(def.period, period);
        *out = idseq::counter::render(t, n, ptext, std::string_view(key, key_len), cs);
    });
    return cstring_to_text_with_len(out->data(), (int) out->size());
}

} // namespace idseq::pg::counter

using namespace idseq::pg;
using namespace idseq::pg::counter;

extern "C" {

// idseq_create_counter(name, gapless, period, time_zone, start, format) RETURNS void
Datum idseq_create_counter(PG_FUNCTION_ARGS)
{
    text* name_t = name_arg(fcinfo, 0);
    const char* name = text_to_cstring(name_t);
    check_name(name, strlen(name));
    for (int i = 1; i <= 5; i++)
        if (i != 2 && PG_ARGISNULL(i))
            ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
                            errmsg("%s of counter \"%s\" must not be null",
                                   i == 1 ? "gapless" : i == 3 ? "time zone" : i == 4 ? "start" : "format", name)));
    const bool gapless = PG_GETARG_BOOL(1);
    const char* period_text = PG_ARGISNULL(2) ? nullptr : text_to_cstring(PG_GETARG_TEXT_PP(2));
    const char* zone = text_to_cstring(PG_GETARG_TEXT_PP(3));
    const int64 start = PG_GETARG_INT64(4);
    const char* format = text_to_cstring(PG_GETARG_TEXT_PP(5));

    Period period = period_text ? period_of(period_text) : Period::None;
    (void) zone_of(zone);
    (void) checked_template(format, period);
    if (start < 0 || start == PG_INT64_MAX)
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                        errmsg("start " INT64_FORMAT " of counter \"%s\" is out of range", start, name),
                        errdetail("A counter starts at 0 or above, below " INT64_FORMAT ".", PG_INT64_MAX)));

    CounterDef existing;
    existing.format = nullptr;
    if (load(name, existing))
        ereport(ERROR, (errcode(ERRCODE_DUPLICATE_OBJECT), errmsg("counter \"%s\" already exists", name)));

    // The anchor: a sequence in the current schema, made by the caller (CREATE on the schema).
    char* relname = psprintf("%s_counter", name);
    Oid nsp = RangeVarGetCreationNamespace(makeRangeVar(NULL, relname, -1));
    char* qualified = quote_qualified_identifier(get_namespace_name(nsp), relname);
    internal_sql_connect();
    internal_sql_run(psprintf("CREATE SEQUENCE %s", qualified), 0, nullptr, nullptr, nullptr, false, SPI_OK_UTILITY);
    internal_sql_run(psprintf("COMMENT ON SEQUENCE %s IS %s", qualified,
                              quote_literal_cstr(psprintf("anchor of the idseq counter \"%s\": GRANT USAGE (take "
                                                          "numbers), UPDATE (raise keys), SELECT (read state)",
                                                          name))),
                     0, nullptr, nullptr, nullptr, false, SPI_OK_UTILITY);
    internal_sql_finish();
    Oid anchor = get_relname_relid(relname, nsp);
    if (!OidIsValid(anchor))
        elog(ERROR, "sequence %s was not created", qualified);

    DefTable t2 = def_table();
    Oid types[7] = {TEXTOID, OIDOID, BOOLOID, TEXTOID, TEXTOID, INT8OID, TEXTOID};
    Datum values[7] = {CStringGetTextDatum(name),
                       ObjectIdGetDatum(anchor),
                       BoolGetDatum(gapless),
                       period == Period::None ? (Datum) 0 : CStringGetTextDatum(std::string(idseq::counter::period_name(period)).c_str()),
                       CStringGetTextDatum(zone),
                       Int64GetDatum(start),
                       CStringGetTextDatum(format)};
    char nulls[7] = {' ', ' ', ' ', period == Period::None ? 'n' : ' ', ' ', ' ', ' '};
    InternalSqlSaved saved;
    internal_sql_connect_as(t2.owner, true, saved);
    internal_sql_run(psprintf("INSERT INTO %s (name, anchor, gapless, period, time_zone, start, format) "
                              "VALUES ($1, $2::pg_catalog.regclass, $3, $4, $5, $6, $7)",
                              extension_relation("idseq_counter_def")),
                     7, types, values, nulls, false, SPI_OK_INSERT);
    internal_sql_finish_as(saved);
    PG_RETURN_VOID();
}

// idseq_drop_counter(name) RETURNS void: the owner only. The numbers go with it.
Datum idseq_drop_counter(PG_FUNCTION_ARGS)
{
    text* name_t = name_arg(fcinfo, 0);
    const char* name = text_to_cstring(name_t);
    const CounterDef& def = find_counter(name_t, kNoCheck, AccessShareLock);
    const Oid anchor = def.anchor;
    if (!has_privs_of_role(GetUserId(), rel_owner(anchor)))
        ereport(ERROR, (errcode(ERRCODE_INSUFFICIENT_PRIVILEGE), errmsg("must be owner of counter \"%s\"", shown(name)),
                        errdetail("Its owner is the owner of its sequence %s.", get_rel_name(anchor))));
    // Wait for every user of the counter (they hold RowExclusiveLock on the anchor), so that
    // no row is being updated in place while it is deleted.
    LockRelationOid(anchor, AccessExclusiveLock);
    char* qualified = quote_qualified_identifier(get_namespace_name(get_rel_namespace(anchor)), get_rel_name(anchor));
    DefTable t = def_table();
    Oid types[1] = {OIDOID};
    Datum values[1] = {ObjectIdGetDatum(anchor)};
    InternalSqlSaved saved;
    internal_sql_connect_as(t.owner, true, saved);
    internal_sql_run(psprintf("DELETE FROM %s WHERE counter OPERATOR(pg_catalog.=) $1::pg_catalog.regclass",
                              extension_relation("idseq_counter_state")),
                     1, types, values, nullptr, false, SPI_OK_DELETE);
    internal_sql_run(psprintf("DELETE FROM %s WHERE anchor OPERATOR(pg_catalog.=) $1::pg_catalog.regclass",
                              extension_relation("idseq_counter_def")),
                     1, types, values, nullptr, false, SPI_OK_DELETE);
    internal_sql_finish_as(saved);
    internal_sql_connect();
    internal_sql_run(psprintf("DROP SEQUENCE %s", qualified), 0, nullptr, nullptr, nullptr, false, SPI_OK_UTILITY);
    internal_sql_finish();
    PG_RETURN_VOID();
}

} // extern "C"
