// The charset registry cache.
//
// No pointer outlives its entry, and memory stays bounded, because of two facts about the
// registry: a charset's id is a hash of its name, and a committed row is final (it can be
// neither changed nor deleted: src/sql/12_registry_final.sql). So the cache has two tiers:
//
// - committed: definitions from rows whose inserting transaction has committed (any row we can
//   see that this transaction did not insert). Such a definition can never change, so its entry
//   is created once, never replaced and never freed: a pointer to it is good for the backend's
//   life. At most kMaxCommitted of them; past that, they go to the other tier.
// - xact: definitions from rows this transaction inserted itself, which a rollback (also of a
//   subtransaction, also ROLLBACK PREPARED) can undo, after which the same name, hence the same
//   id, may be created with other symbols. Each entry remembers the subtransaction that loaded
//   it; it is freed when that subtransaction aborts (handed to the parent when it commits), and
//   all of them at the end of the top-level transaction (commit, abort or PREPARE). No C frame
//   that may hold such a pointer survives those events: the frames of an aborted subtransaction
//   are gone, and a top-level transaction ends outside any SQL function.
//
// A pointer kept beyond the current call (fn_extra) is kept with the generation it was found
// in; every free bumps the generation, so a stale slot re-resolves instead of reading freed
// memory. If the registry relation itself is replaced (DROP EXTENSION, CREATE EXTENSION; seen
// through a relcache callback), every entry is retired: unlinked at once, freed at the end of
// the transaction, since callers up the stack may still hold one.
#include "charset.h"
#include "error.h"
#include "lexid.h"

#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "boundary.h"
#include "errors.h"
#include "internal_sql.h"
#include "registry.h"

extern "C" {
#include "access/genam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "access/transam.h"
#include "access/xact.h"
#include "catalog/indexing.h"
#include "catalog/namespace.h"
#include "catalog/pg_extension.h"
#include "catalog/pg_type.h"
#include "commands/extension.h"
#include "executor/spi.h"
#include "utils/fmgroids.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
}

namespace idseq::pg {

namespace detail {
uint64 charset_generation = 1; // fn_extra slots start zeroed, so 0 never matches
}

namespace {

constexpr size_t kMaxCommitted = 1024;

using CharsetPtr = std::unique_ptr<const Charset>;

struct XactEntry {
    CharsetPtr cs;
    SubTransactionId subid; // the open (sub)transaction that loaded it
};

// Backend-lifetime cache, never destroyed (so no destructor can be skipped by a longjmp).
// The name maps' keys view the names inside their entries.
struct Cache {
    std::unordered_map<int32_t, CharsetPtr> committed;
    std::unordered_map<std::string_view, const Charset*> committed_names;
    std::unordered_map<int32_t, XactEntry> xact;
    std::unordered_map<std::string_view, const Charset*> xact_names;
    std::vector<CharsetPtr> retired; // of a replaced registry; freed at the end of the transaction
    Oid registry = InvalidOid;       // the registry relation the entries were read from
    bool recheck = true;             // a relcache invalidation may have replaced it
};
Cache* cache;
bool callbacks_registered;

// Frees the xact entries of one subtransaction (InvalidSubTransactionId: all of them).
// Runs in transaction callbacks: nothing here throws.
void free_xact_entries(SubTransactionId subid)
{
    bool freed = false;
    for (auto it = cache->xact.begin(); it != cache->xact.end();) {
        if (subid == InvalidSubTransactionId || it->second.subid == subid) {
            cache->xact_names.erase(std::string_view(it->second.cs->name()));
            it = cache->xact.erase(it);
            freed = true;
        } else {
            ++it;
        }
    }
    if (freed)
        detail::charset_generation++;
}

void on_xact(XactEvent event, void*)
{
    if (!cache)
        return;
    switch (event) {
    case XACT_EVENT_COMMIT:
    case XACT_EVENT_PARALLEL_COMMIT:
    case XACT_EVENT_ABORT:
    case XACT_EVENT_PARALLEL_ABORT:
    case XACT_EVENT_PREPARE: // the rows are no longer ours; a ROLLBACK PREPARED may undo them
        free_xact_entries(InvalidSubTransactionId);
        if (!cache->retired.empty()) {
            cache->retired.clear();
            detail::charset_generation++;
        }
        break;
    default:
        break;
    }
}

void on_subxact(SubXactEvent event, SubTransactionId mySubid, SubTransactionId parentSubid, void*)
{
    if (!cache || cache->xact.empty())
        return;
    if (event == SUBXACT_EVENT_ABORT_SUB) {
        free_xact_entries(mySubid);
    } else if (event == SUBXACT_EVENT_COMMIT_SUB) {
        for (auto& e : cache->xact)
            if (e.second.subid == mySubid)
                e.second.subid = parentSubid;
    }
}

void on_relcache(Datum, Oid relid)
{
    if (cache && (relid == InvalidOid || relid == cache->registry || !OidIsValid(cache->registry)))
        cache->recheck = true;
}

void ensure_cache()
{
    if (unlikely(!callbacks_registered)) {
        RegisterXactCallback(on_xact, nullptr);
        RegisterSubXactCallback(on_subxact, nullptr);
        CacheRegisterRelcacheCallback(on_relcache, (Datum) 0);
        callbacks_registered = true;
    }
    if (unlikely(!cache))
        run([&] { cache = new Cache(); });
}

Oid extension_schema_oid(bool missing_ok)
{
    Oid ext = get_extension_oid("idseq", true);
    if (!OidIsValid(ext)) {
        if (missing_ok)
            return InvalidOid;
        ereport(ERROR, (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
                        errmsg("extension \"idseq\" is not installed in this database"),
                        errhint("Run CREATE EXTENSION idseq.")));
    }
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

// Called before every lookup of a custom charset: cheap unless a relcache invalidation came.
void check_registry()
{
    if (likely(!cache->recheck))
        return;
    Oid nsp = extension_schema_oid(true);
    Oid rel = OidIsValid(nsp) ? get_relname_relid("idseq_charset_registry", nsp) : InvalidOid;
    if (rel != cache->registry) {
        // Another registry: none of the definitions read from the old one applies. They are
        // unlinked now and freed at the end of the transaction. The room is reserved first,
        // so that the moves cannot fail half-way.
        run([&] { cache->retired.reserve(cache->retired.size() + cache->committed.size() + cache->xact.size()); });
        for (auto& e : cache->committed)
            cache->retired.push_back(std::move(e.second));
        for (auto& e : cache->xact)
            cache->retired.push_back(std::move(e.second.cs));
        cache->committed.clear();
        cache->committed_names.clear();
        cache->xact.clear();
        cache->xact_names.clear();
        cache->registry = rel;
        detail::charset_generation++;
    }
    cache->recheck = false;
}

const Charset* cached(int32 id)
{
    auto c = cache->committed.find(id);
    if (c != cache->committed.end())
        return c->second.get();
    if (cache->xact.empty())
        return nullptr;
    auto x = cache->xact.find(id);
    return x != cache->xact.end() ? x->second.cs.get() : nullptr;
}

const Charset* cached(std::string_view name)
{
    auto c = cache->committed_names.find(name);
    if (c != cache->committed_names.end())
        return c->second;
    if (cache->xact_names.empty())
        return nullptr;
    auto x = cache->xact_names.find(name);
    return x != cache->xact_names.end() ? x->second : nullptr;
}

// The cached definition of a registry row this transaction can see, cached first if it is
// new. An entry is never replaced: a cached id's row is the one we read (committed rows are
// final, and an entry of a row of ours is freed when the row may go away).
const Charset* adopt(int32 id, const char* name, const char* symbols, bool ci, bool committed)
{
    const Charset* out = cached(id);
    if (out)
        return out;
    SubTransactionId subid = GetCurrentSubTransactionId();
    run([&] {
        auto cs = std::make_unique<const Charset>(Charset::make(id, name, symbols, ci));
        const Charset* p = cs.get();
        std::string_view key(p->name());
        if (committed && cache->committed.size() < kMaxCommitted) {
            cache->committed.emplace(id, std::move(cs));
            cache->committed_names.emplace(key, p);
        } else {
            cache->xact.emplace(id, XactEntry{std::move(cs), subid});
            cache->xact_names.emplace(key, p);
        }
        out = p;
    });
    return out;
}

// The cached definition of an SPI row (id, name, symbols, case_insensitive, xmin).
const Charset* adopt_row(HeapTuple t, TupleDesc d)
{
    bool isnull;
    int32 id = DatumGetInt32(SPI_getbinval(t, d, 1, &isnull));
    char* name = TextDatumGetCString(SPI_getbinval(t, d, 2, &isnull));
    char* symbols = TextDatumGetCString(SPI_getbinval(t, d, 3, &isnull));
    bool ci = DatumGetBool(SPI_getbinval(t, d, 4, &isnull));
    TransactionId xmin = DatumGetTransactionId(SPI_getbinval(t, d, 5, &isnull));
    // A row we can see was inserted either by this transaction (a rollback may undo it) or
    // by one that has committed. A prepared transaction is neither: its rows are invisible,
    // also to the session that prepared it.
    return adopt(id, name, symbols, ci, !TransactionIdIsCurrentTransactionId(xmin));
}

const char* registry_select()
{
    return psprintf("SELECT id, name, symbols, case_insensitive, xmin FROM %s",
                    extension_relation("idseq_charset_registry"));
}

// Loads one registry row into the cache; returns nullptr if there is none.
const Charset* load(const char* condition, const char* value)
{
    char* sql = psprintf("%s WHERE %s", registry_select(), condition);
    const char* args[1] = {value};
    const Charset* out = nullptr;
    if (spi_query(sql, 1, args, true) == 1)
        out = adopt_row(SPI_tuptable->vals[0], SPI_tuptable->tupdesc);
    spi_end();
    return out;
}

// Longer than any charset name: rejected before any lookup, whatever its size.
void check_name_length(const char* name, size_t len)
{
    if (likely(len <= (size_t) kMaxCharsetNameLength))
        return;
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("charset name \"%s\" is too long", shown(name, len)),
                    errdetail("A charset name has at most %d bytes; this one has %zu.", kMaxCharsetNameLength, len)));
}

} // namespace

uint64 spi_query(const char* sql, int nargs, const char* const* args, bool read_only)
{
    internal_sql_connect();
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
    internal_sql_finish();
}

char* extension_relation(const char* relname)
{
    Oid nsp = extension_schema_oid(false);
    return quote_qualified_identifier(get_namespace_name(nsp), relname);
}

const Charset* charset_by_name(const char* name)
{
    check_name_length(name, strlen(name));
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
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("unknown charset \"%s\"", shown(name)),
                    errhint("Known charsets: %s. Create one with idseq_create_charset().", known.data)));
    pg_unreachable();
}

const Charset* charset_by_text(text* name)
{
    check_name_length(VARDATA_ANY(name), VARSIZE_ANY_EXHDR(name));
    return charset_by_name(text_to_cstring(name));
}

const Charset* charset_by_text_cached(FunctionCallInfo fcinfo, text* name)
{
    struct Slot {
        const Charset* cs;
        uint64 generation; // the cache's generation when cs was found
        int len;
        char name[NAMEDATALEN];
    };
    const char* str = VARDATA_ANY(name);
    int len = VARSIZE_ANY_EXHDR(name);
    Slot* slot = fcinfo->flinfo ? (Slot*) fcinfo->flinfo->fn_extra : nullptr;
    if (slot && slot->generation == detail::charset_generation && slot->len == len && memcmp(slot->name, str, len) == 0)
        return slot->cs;
    const Charset* cs = charset_by_text(name); // may bump the generation: read it after
    if (fcinfo->flinfo && len <= kMaxCharsetNameLength) {
        if (!slot)
            fcinfo->flinfo->fn_extra = slot = (Slot*) MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(Slot));
        slot->cs = cs;
        slot->generation = detail::charset_generation;
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
    check_registry();
    const Charset* found = nullptr;
    run([&] { found = cached(id); });
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
    check_name_length(name, strlen(name));
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
    // Also reached from the type modifier lexid(name, 'symbols'): a read-only transaction
    // (or a hot standby) can use a registered charset that way, but cannot register one.
    if (XactReadOnly)
        ereport(ERROR, (errcode(ERRCODE_READ_ONLY_SQL_TRANSACTION),
                        errmsg("cannot create charset \"%s\" in a read-only transaction", name),
                        errdetail("Creating a charset adds a row to idseq_charset_registry."),
                        errhint("Create the charset in a read-write transaction first.")));
    const char* args[4] = {idtext, name, symbols, case_insensitive ? "true" : "false"};
    char* sql = psprintf("INSERT INTO %s (id, name, symbols, case_insensitive) VALUES ($1::pg_catalog.int4, $2, $3, $4::pg_catalog.bool)",
                         extension_relation("idseq_charset_registry"));
    spi_query(sql, 4, args, false);
    spi_end();
    // Ours until this transaction commits: kept with the subtransaction that inserted it.
    return adopt(id, name, symbols, case_insensitive, false);
}

bool some_charset_accepts(const char* str, size_t len)
{
    bool ok = false;
    run([&] {
        for (const Charset& c : builtin_charsets())
            ok = ok || lex::valid(c, std::string_view(str, len));
    });
    if (ok)
        return true;
    ensure_cache();
    check_registry();
    uint64 n = spi_query(registry_select(), 0, nullptr, true);
    for (uint64 i = 0; i < n && !ok; i++) {
        // Rows already cached keep their entries (a call site may point to them).
        const Charset* cs = adopt_row(SPI_tuptable->vals[i], SPI_tuptable->tupdesc);
        run([&] { ok = lex::valid(*cs, std::string_view(str, len)); });
    }
    spi_end();
    return ok;
}

const Charset* charset_by_name_or_null(const char* name)
{
    size_t len = strlen(name);
    if (len > (size_t) kMaxCharsetNameLength)
        return nullptr;
    const Charset* found = nullptr;
    run([&] { found = builtin_charset(std::string_view(name, len)); });
    if (found)
        return found;
    ensure_cache();
    check_registry();
    run([&] { found = cached(std::string_view(name, len)); });
    if (found)
        return found;
    return load("name OPERATOR(pg_catalog.=) $1", name);
}

} // namespace idseq::pg
