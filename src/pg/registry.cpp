#include "charset.h"
#include "error.h"
#include "lexid.h"

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "boundary.h"
#include "registry.h"

extern "C" {
#include "access/genam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "access/xact.h"
#include "catalog/indexing.h"
#include "catalog/pg_extension.h"
#include "catalog/pg_type.h"
#include "commands/extension.h"
#include "executor/spi.h"
#include "mb/pg_wchar.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
}

namespace idseq::pg {

namespace {

// Backend-lifetime cache, never destroyed (so no destructor can be skipped by a longjmp).
struct Cache {
    std::unordered_map<int32_t, std::unique_ptr<Charset>> by_id;
    std::unordered_map<std::string, int32_t> by_name;
    // Forgotten entries are kept, never freed: a call site may still hold a pointer in fn_extra.
    std::vector<std::unique_ptr<Charset>> retired;

    void forget()
    {
        for (auto& e : by_id)
            retired.push_back(std::move(e.second));
        by_id.clear();
        by_name.clear();
    }
};
Cache* cache;
bool dirty; // entries added by the current transaction
bool callback_registered;

void on_xact(XactEvent event, void*)
{
    if (event == XACT_EVENT_ABORT || event == XACT_EVENT_PARALLEL_ABORT) {
        if (dirty && cache)
            run([&] { cache->forget(); });
        dirty = false;
    } else if (event == XACT_EVENT_COMMIT || event == XACT_EVENT_PARALLEL_COMMIT || event == XACT_EVENT_PREPARE) {
        dirty = false;
    }
}

void on_subxact(SubXactEvent event, SubTransactionId, SubTransactionId, void*)
{
    if (event == SUBXACT_EVENT_ABORT_SUB && dirty && cache)
        run([&] { cache->forget(); });
}

void ensure_cache()
{
    if (!callback_registered) {
        RegisterXactCallback(on_xact, nullptr);
        RegisterSubXactCallback(on_subxact, nullptr);
        callback_registered = true;
    }
    if (!cache)
        run([&] { cache = new Cache(); });
}

const Charset* cached_by_name(const char* name)
{
    const Charset* found = nullptr;
    run([&] {
        if (const Charset* b = builtin_charset(std::string_view(name))) {
            found = b;
            return;
        }
        auto it = cache->by_name.find(name);
        if (it != cache->by_name.end())
            found = cache->by_id.at(it->second).get();
    });
    return found;
}

const Charset* cache_insert(int32 id, const char* name, const char* symbols, bool ci)
{
    const Charset* out = nullptr;
    run([&] {
        auto cs = std::make_unique<Charset>(Charset::make(id, name, symbols, ci));
        out = cs.get();
        cache->by_name[name] = id;
        cache->by_id[id] = std::move(cs);
    });
    dirty = dirty || IsTransactionState();
    return out;
}

Oid extension_schema_oid()
{
    Oid ext = get_extension_oid("idseq", true);
    if (!OidIsValid(ext))
        ereport(ERROR, (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
                        errmsg("extension \"idseq\" is not installed in this database"),
                        errhint("Run CREATE EXTENSION idseq.")));
    Relation rel = table_open(ExtensionRelationId, AccessShareLock);
    ScanKeyData key;
    ScanKeyInit(&key, Anum_pg_extension_oid, BTEqualStrategyNumber, F_OIDEQ, ObjectIdGetDatum(ext));
    SysScanDesc scan = systable_beginscan(rel, ExtensionOidIndexId, true, NULL, 1, &key);
    HeapTuple tuple = systable_getnext(scan);
    Oid nsp = HeapTupleIsValid(tuple) ? ((Form_pg_extension) GETSTRUCT(tuple))->extnamespace : InvalidOid;
    systable_endscan(scan);
    table_close(rel, AccessShareLock);
    if (!OidIsValid(nsp))
        elog(ERROR, "could not find the schema of extension \"idseq\"");
    return nsp;
}

// Loads one registry row into the cache; returns nullptr if there is none.
const Charset* load(const char* condition, const char* value)
{
    char* sql = psprintf("SELECT id::pg_catalog.text, name, symbols, case_insensitive::pg_catalog.text FROM %s WHERE %s",
                         extension_relation("idseq_charset_registry"), condition);
    const char* args[1] = {value};
    const Charset* out = nullptr;
    if (spi_query(sql, 1, args, true) == 1) {
        HeapTuple t = SPI_tuptable->vals[0];
        TupleDesc d = SPI_tuptable->tupdesc;
        int32 id = pg_strtoint32(SPI_getvalue(t, d, 1));
        char* name = SPI_getvalue(t, d, 2);
        char* symbols = SPI_getvalue(t, d, 3);
        bool ci = strcmp(SPI_getvalue(t, d, 4), "true") == 0;
        out = cache_insert(id, name, symbols, ci);
    }
    spi_end();
    return out;
}

// A name quoted in a message: at most 64 bytes, cut on a character boundary.
const char* shown_name(const char* name)
{
    size_t len = strlen(name);
    if (len <= 64)
        return name;
    return psprintf("%s...", pnstrdup(name, pg_mbcliplen(name, (int) len, 61)));
}

} // namespace

uint64 spi_query(const char* sql, int nargs, const char* const* args, bool read_only)
{
    if (SPI_connect() != SPI_OK_CONNECT)
        elog(ERROR, "SPI_connect failed");
    Oid types[4];
    Datum values[4];
    Assert(nargs <= 4);
    for (int i = 0; i < nargs; i++) {
        types[i] = TEXTOID;
        values[i] = CStringGetTextDatum(args[i]);
    }
    int rc = SPI_execute_with_args(sql, nargs, types, values, NULL, read_only, 0);
    if (rc < 0)
        elog(ERROR, "SPI_execute_with_args failed: %s", SPI_result_code_string(rc));
    return SPI_processed;
}

void spi_end()
{
    SPI_finish();
}

char* extension_relation(const char* relname)
{
    Oid nsp = extension_schema_oid();
    return quote_qualified_identifier(get_namespace_name(nsp), relname);
}

const Charset* charset_by_name(const char* name)
{
    if (const Charset* cs = charset_by_name_or_null(name))
        return cs;
    // Unknown: list the known names in the hint.
    StringInfoData known;
    initStringInfo(&known);
    run([&] {
        for (const Charset& c : builtin_charsets()) {
            if (known.len)
                appendStringInfoString(&known, ", ");
            appendStringInfoString(&known, c.name().c_str());
        }
    });
    char* sql = psprintf("SELECT pg_catalog.string_agg(name, ', ' ORDER BY name) FROM %s",
                         extension_relation("idseq_charset_registry"));
    if (spi_query(sql, 0, nullptr, true) == 1) {
        char* custom = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1);
        if (custom)
            appendStringInfo(&known, ", %s", custom);
    }
    spi_end();
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("unknown charset \"%s\"", shown_name(name)),
                    errhint("Known charsets: %s. Create one with idseq_create_charset().", known.data)));
    pg_unreachable();
}

const Charset* charset_by_text(text* name)
{
    return charset_by_name(text_to_cstring(name));
}

const Charset* charset_by_text_cached(FunctionCallInfo fcinfo, text* name)
{
    struct Slot {
        const Charset* cs;
        int len;
        char name[NAMEDATALEN + 1];
    };
    const char* str = VARDATA_ANY(name);
    int len = VARSIZE_ANY_EXHDR(name);
    Slot* slot = fcinfo->flinfo ? (Slot*) fcinfo->flinfo->fn_extra : nullptr;
    if (slot && slot->len == len && memcmp(slot->name, str, len) == 0)
        return slot->cs;
    const Charset* cs = charset_by_name(text_to_cstring(name));
    if (fcinfo->flinfo && len <= NAMEDATALEN) {
        if (!slot)
            fcinfo->flinfo->fn_extra = slot = (Slot*) MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(Slot));
        slot->cs = cs;
        slot->len = len;
        memcpy(slot->name, str, len);
    }
    return cs;
}

const Charset* charset_by_id(int32 id)
{
    if (const Charset* b = builtin_charset(id))
        return b;
    ensure_cache();
    const Charset* found = nullptr;
    run([&] {
        auto it = cache->by_id.find(id);
        if (it != cache->by_id.end())
            found = it->second.get();
    });
    if (found)
        return found;
    char idtext[16];
    pg_ltoa(id, idtext);
    if (const Charset* cs = load("id OPERATOR(pg_catalog.=) $1::pg_catalog.int4", idtext))
        return cs;
    ereport(ERROR, (errcode(ERRCODE_UNDEFINED_OBJECT), errmsg("charset with id %d does not exist", id),
                    errdetail("A lexid value refers to a custom charset that is not in the registry."),
                    errhint("Restore the charset's row in idseq_charset_registry.")));
    pg_unreachable();
}

const Charset* register_charset(const char* name, const char* symbols, bool case_insensitive, bool if_absent)
{
    ensure_cache();
    int32 id = 0;
    bool builtin = false;
    run([&] {
        validate_charset_name(name);
        builtin = builtin_charset(std::string_view(name)) != nullptr;
        if (!builtin) {
            id = custom_charset_id(name);
            // validates the definition and gives the canonical symbols
            (void) Charset::make(id, name, symbols, case_insensitive);
        }
    });
    if (builtin)
        ereport(ERROR, (errcode(ERRCODE_DUPLICATE_OBJECT), errmsg("charset \"%s\" is built in", name),
                        errhint("Choose another name for the custom charset.")));
    if (const Charset* existing = charset_by_name_or_null(name)) {
        if (if_absent && strcmp(existing->symbols().c_str(), symbols) == 0 &&
            existing->case_insensitive() == case_insensitive)
            return existing;
        ereport(ERROR, (errcode(ERRCODE_DUPLICATE_OBJECT), errmsg("charset \"%s\" already exists", name),
                        errdetail("Its symbols are \"%s\"%s.", existing->symbols().c_str(),
                                  existing->case_insensitive() ? ", case-insensitive" : ""),
                        errhint("Charsets cannot be redefined; create one under another name.")));
    }
    char idtext[16];
    pg_ltoa(id, idtext);
    if (const Charset* clash = load("id OPERATOR(pg_catalog.=) $1::pg_catalog.int4", idtext))
        ereport(ERROR, (errcode(ERRCODE_DUPLICATE_OBJECT),
                        errmsg("charset name \"%s\" collides with the charset \"%s\"", name, clash->name().c_str()),
                        errdetail("Both names hash to the charset id %d.", id),
                        errhint("Choose another name.")));
    const char* args[4] = {idtext, name, symbols, case_insensitive ? "true" : "false"};
    char* sql = psprintf("INSERT INTO %s (id, name, symbols, case_insensitive) VALUES ($1::pg_catalog.int4, $2, $3, $4::pg_catalog.bool)",
                         extension_relation("idseq_charset_registry"));
    spi_query(sql, 4, args, false);
    spi_end();
    return cache_insert(id, name, symbols, case_insensitive);
}

bool some_charset_accepts(const char* str, size_t len)
{
    ensure_cache();
    bool ok = false;
    run([&] {
        for (const Charset& c : builtin_charsets())
            ok = ok || lex::valid(c, std::string_view(str, len));
    });
    if (ok)
        return true;
    char* sql = psprintf("SELECT id, name, symbols, case_insensitive FROM %s", extension_relation("idseq_charset_registry"));
    uint64 n = spi_query(sql, 0, nullptr, true);
    for (uint64 i = 0; i < n && !ok; i++) {
        HeapTuple t = SPI_tuptable->vals[i];
        TupleDesc d = SPI_tuptable->tupdesc;
        const Charset* cs = cache_insert(pg_strtoint32(SPI_getvalue(t, d, 1)), SPI_getvalue(t, d, 2),
                                         SPI_getvalue(t, d, 3), strcmp(SPI_getvalue(t, d, 4), "t") == 0);
        run([&] { ok = lex::valid(*cs, std::string_view(str, len)); });
    }
    spi_end();
    return ok;
}

const Charset* charset_by_name_or_null(const char* name)
{
    ensure_cache();
    if (const Charset* cs = cached_by_name(name))
        return cs;
    return load("name OPERATOR(pg_catalog.=) $1", name);
}

} // namespace idseq::pg
