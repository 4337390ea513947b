// The charset registry cache.
//
// No pointer outlives its entry, and memory stays bounded, because of two facts about the
// registry: a charset's id is a hash of its name, and a committed row is final (it can be
// neither changed nor deleted: src/sql/12_registry_final.sql). So the cache has two tiers:
//
// - committed: definitions from rows whose inserting transaction has committed (any row we can
//   see that this transaction did not insert). Such a definition can never change, so its entry
//   is created once, never replaced and never freed: a pointer to it is good for the backend's
//   life. At most kMaxCommitted of them; past that, they go to the other tier, and are also
//   freed as soon as the memory context they were looked up in is reset or deleted (for a
//   value printed or computed row by row, the per-row context): a pointer is only promised
//   for the current SQL function call, whose memory context outlives the call, and a slot kept
//   longer checks the generation. So a backend never holds more than kMaxCommitted committed
//   definitions plus those in use by the rows being processed, however many charsets one
//   transaction touches.
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
//
// Reads. The registry is read the way PostgreSQL reads its catalogs: systable_beginscan on
// the primary key (by id) or the unique index on name, with the catalog snapshot, never SQL.
// So a value can be printed or sent wherever PostgreSQL can run an output function: in a
// walsender decoding with a historic snapshot (the table is a user_catalog_table, so decoding
// sees the registry as of the change it decodes), in a parallel worker, in FETCH from a WITH
// HOLD cursor after its transaction ended. The catalog snapshot of a relation that has no
// syscache is taken afresh for every scan: it sees every committed row and this transaction's
// rows of earlier commands. Which tier a row goes to is told by its xmin: a row this
// transaction inserted (TransactionIdIsCurrentTransactionId, also in a parallel worker, which
// shares the leader's transaction) goes to the xact tier. A historic snapshot also shows the
// rows of the transaction being decoded, which may not have committed (a streamed or prepared
// transaction): such a row goes to the xact tier too, freed when decoding of it ends.
//
// Writes (register_charset) go through internal SQL: the INSERT must run the table's CHECK
// constraint, its triggers, privilege checks and row security exactly as a user's INSERT would,
// and no decoding or parallel context ever writes a charset.
#include "charset.h"
#include "error.h"
#include "lexid.h"

#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core_call.h"
#include "quoted_text_pg.h"
#include "internal_sql.h"
#include "charset_registry.h"

extern "C" {
#include "access/genam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "access/transam.h"
#include "access/xact.h"
#include "catalog/indexing.h"
#include "catalog/namespace.h"
#include "catalog/pg_am.h"
#include "catalog/pg_collation.h"
#include "catalog/pg_index.h"
#include "catalog/pg_extension.h"
#include "catalog/pg_type.h"
#include "commands/extension.h"
#include "executor/spi.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "utils/fmgroids.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"
#include "utils/varlena.h"
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
    uint64 overflow;        // non-zero: a committed definition past the cap; its serial number
};

// Handed to the reset callback of the memory context an overflow entry was looked up in.
struct OverflowToken {
    int32 id;
    uint64 serial;
};
uint64 overflow_serial;

// Backend-lifetime cache, never destroyed (so no destructor can be skipped by a longjmp).
// The name maps' keys view the names inside their entries.
struct Cache {
    std::unordered_map<int32_t, CharsetPtr> committed;
    std::unordered_map<std::string_view, const Charset*> committed_names;
    std::unordered_map<int32_t, XactEntry> xact;
    std::unordered_map<std::string_view, const Charset*> xact_names;
    std::vector<CharsetPtr> retired; // of a replaced registry; freed at the end of the transaction
    Oid registry = InvalidOid;       // the registry relation the entries were read from
    Oid id_index = InvalidOid;       // its unique index on id alone
    Oid name_index = InvalidOid;     // its unique index on name alone
    Oid name_collation = InvalidOid; // the collation that index orders name by
    // Relcache invalidations that may concern the registry, counted; checked_at is the count
    // the last complete check_registry() started from. An invalidation that arrives while a
    // check runs (opening the relation processes them), or a check cut short by an error,
    // leaves them different, so the next lookup checks again.
    uint64 invalidations = 1;
    uint64 checked_at = 0;
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

// Frees an overflow entry when the memory context it was looked up in goes away, unless the
// entry is already gone (the transaction ended, the registry was replaced) or the id now has
// another entry (told by the serial number, never by the address). Nothing here throws.
void free_overflow(void* arg)
{
    const OverflowToken* token = (const OverflowToken*) arg;
    if (!cache)
        return;
    auto it = cache->xact.find(token->id);
    if (it == cache->xact.end() || it->second.overflow != token->serial)
        return;
    cache->xact_names.erase(std::string_view(it->second.cs->name()));
    cache->xact.erase(it);
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
        cache->invalidations++;
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

} // namespace

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

namespace {

// The registry's unique single-column indexes on id (column 1) and name (column 2), found by
// their shape, not their names.
void find_indexes(Oid relid)
{
    cache->id_index = cache->name_index = cache->name_collation = InvalidOid;
    if (!OidIsValid(relid))
        return;
    Relation rel = table_open(relid, AccessShareLock);
    Oid unused;
    cache->id_index = unique_index_on(rel, 1, unused);
    cache->name_index = unique_index_on(rel, 2, cache->name_collation);
    table_close(rel, AccessShareLock);
}

// Called before every lookup of a custom charset: cheap unless a relcache invalidation came.
void check_registry()
{
    if (likely(cache->checked_at == cache->invalidations))
        return;
    uint64 start = cache->invalidations;
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
    // An index of the same registry may have been rebuilt (REINDEX) or replaced.
    find_indexes(rel);
    cache->checked_at = start;
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
    bool overflow = committed && cache->committed.size() >= kMaxCommitted;
    // Allocated before the entry exists, so that no allocation can fail after it does.
    OverflowToken* token = nullptr;
    MemoryContextCallback* callback = nullptr;
    if (overflow) {
        token = (OverflowToken*) palloc(sizeof(OverflowToken));
        callback = (MemoryContextCallback*) palloc(sizeof(MemoryContextCallback));
        token->id = id;
        token->serial = ++overflow_serial;
    }
    run([&] {
        auto cs = std::make_unique<const Charset>(Charset::make(id, name, symbols, ci));
        const Charset* p = cs.get();
        std::string_view key(p->name());
        if (committed && !overflow) {
            cache->committed.emplace(id, std::move(cs));
            cache->committed_names.emplace(key, p);
        } else {
            cache->xact.emplace(id, XactEntry{std::move(cs), subid, overflow ? token->serial : 0});
            cache->xact_names.emplace(key, p);
        }
        out = p;
    });
    if (overflow) {
        callback->func = free_overflow;
        callback->arg = token;
        MemoryContextRegisterResetCallback(CurrentMemoryContext, callback);
    }
    return out;
}

// Whether the transaction that inserted a registry row we can see has committed. An MVCC
// snapshot shows only committed rows of other transactions; this transaction's own rows (a
// rollback may undo them) are told by their xmin. A prepared transaction's rows are
// invisible, also to the session that prepared it. A historic snapshot (logical decoding)
// also shows the rows of the transaction being decoded, which may still be in progress or
// prepared when it is streamed or decoded at PREPARE.
bool row_committed(HeapTuple t)
{
    TransactionId xmin = HeapTupleHeaderGetXmin(t->t_data);
    if (TransactionIdIsCurrentTransactionId(xmin))
        return false;
    if (likely(!HistoricSnapshotActive()))
        return true;
    return HeapTupleHeaderXminCommitted(t->t_data) || TransactionIdDidCommit(xmin);
}

// One registry row, deformed (id, name, symbols, case_insensitive); name and symbols palloc'd.
struct Row {
    int32 id;
    char* name;
    char* symbols;
    bool ci;
};

Row deform(HeapTuple t, TupleDesc d)
{
    bool isnull;
    Row r;
    r.id = DatumGetInt32(heap_getattr(t, 1, d, &isnull));
    r.name = TextDatumGetCString(heap_getattr(t, 2, d, &isnull));
    r.symbols = TextDatumGetCString(heap_getattr(t, 3, d, &isnull));
    r.ci = DatumGetBool(heap_getattr(t, 4, d, &isnull));
    return r;
}

// Loads the registry row whose id (by_id) or name equals key into the cache; nullptr if
// there is none. One index probe with the catalog snapshot (the historic one when decoding).
const Charset* load(bool by_id, Datum key)
{
    if (!OidIsValid(cache->registry))
        return nullptr;
    Relation rel = table_open(cache->registry, AccessShareLock);
    ScanKeyData skey;
    Oid index;
    if (by_id) {
        index = cache->id_index;
        ScanKeyInit(&skey, 1, BTEqualStrategyNumber, F_INT4EQ, key);
    } else {
        // The index orders names by its own collation; the key must compare by the same one.
        index = cache->name_index;
        ScanKeyEntryInitialize(&skey, 0, 2, BTEqualStrategyNumber, InvalidOid,
                               OidIsValid(cache->name_collation) ? cache->name_collation : C_COLLATION_OID, F_TEXTEQ,
                               key);
    }
    // Without its index (a superuser dropped it) the scan still answers, sequentially. So it
    // does while decoding: a historic snapshot sees the pg_class row of the index as of the
    // decoded change, and a REINDEX, VACUUM FULL or CLUSTER of the registry since then has
    // truncated the file that row names. PostgreSQL redirects the table itself to its current
    // file (RelationInitPhysicalAddr, for user catalog tables) but not its indexes. Lookups
    // are cached, so decoding scans the (small) table once per charset and backend.
    const bool use_index = OidIsValid(index) && !HistoricSnapshotActive();
    SysScanDesc scan = systable_beginscan(rel, index, use_index, NULL, 1, &skey);
    HeapTuple t = systable_getnext(scan);
    const Charset* out = nullptr;
    if (HeapTupleIsValid(t)) {
        Row r = deform(t, RelationGetDescr(rel));
        out = adopt(r.id, r.name, r.symbols, r.ci, row_committed(t));
    }
    systable_endscan(scan);
    table_close(rel, AccessShareLock);
    return out;
}

const Charset* load_id(int32 id)
{
    return load(true, Int32GetDatum(id));
}

const Charset* load_name(const char* name)
{
    return load(false, CStringGetTextDatum(name));
}

// Calls f(row) for every registry row this transaction can see, checking for interrupts
// between rows; f returns false to stop. Rows are not cached.
template <class F>
void scan_all(F&& f)
{
    if (!OidIsValid(cache->registry))
        return;
    Relation rel = table_open(cache->registry, AccessShareLock);
    SysScanDesc scan = systable_beginscan(rel, InvalidOid, false, NULL, 0, NULL);
    HeapTuple t;
    MemoryContext rows = AllocSetContextCreate(CurrentMemoryContext, "idseq registry scan", ALLOCSET_SMALL_SIZES);
    while (HeapTupleIsValid(t = systable_getnext(scan))) {
        CHECK_FOR_INTERRUPTS();
        MemoryContext old = MemoryContextSwitchTo(rows);
        Row r = deform(t, RelationGetDescr(rel));
        MemoryContextSwitchTo(old);
        bool more = f(r);
        MemoryContextReset(rows);
        if (!more)
            break;
    }
    MemoryContextDelete(rows);
    systable_endscan(scan);
    table_close(rel, AccessShareLock);
}

// Up to kMaxCandidates known names close to an unknown one, for a hint: the nearest by edit
// distance (a name that starts with the unknown one, a truncated spelling, counts as one edit
// away), ties by name. Never the whole list: the registry may hold any number of rows.
constexpr int kMaxCandidates = 5;

struct Candidates {
    const char* wanted;
    int wanted_len;
    int max_d;
    int n = 0;
    int d[kMaxCandidates];
    char names[kMaxCandidates][NAMEDATALEN];

    Candidates(const char* w)
        : wanted(w), wanted_len((int) strlen(w))
    {
        // Farther than this is no longer a misspelling of the name (an empty name has none):
        // a third of its characters, counted as characters (the distance counts them so).
        const int chars = pg_mbstrlen_with_len(w, wanted_len);
        max_d = chars == 0 ? -1 : chars / 3 + 1;
    }

    void consider(const char* name)
    {
        int len = (int) strlen(name);
        if (max_d < 0 || len >= NAMEDATALEN)
            return;
        int dist;
        if (wanted_len > 0 && len > wanted_len && strncmp(name, wanted, wanted_len) == 0)
            dist = 1;
        else
            dist = varstr_levenshtein_less_equal(wanted, wanted_len, name, len, 1, 1, 1, max_d, true);
        if (dist > max_d)
            return;
        int pos = n;
        while (pos > 0 && (dist < d[pos - 1] || (dist == d[pos - 1] && strcmp(name, names[pos - 1]) < 0)))
            pos--;
        if (pos >= kMaxCandidates)
            return;
        int last = Min(n, kMaxCandidates - 1);
        for (int i = last; i > pos; i--) {
            d[i] = d[i - 1];
            memcpy(names[i], names[i - 1], NAMEDATALEN);
        }
        d[pos] = dist;
        strlcpy(names[pos], name, NAMEDATALEN);
        n = Min(n + 1, kMaxCandidates);
    }
};

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

Oid unique_index_on(Relation rel, AttrNumber attnum, Oid& collation)
{
    Oid found = InvalidOid;
    collation = InvalidOid;
    List* indexes = RelationGetIndexList(rel);
    ListCell* lc;
    foreach (lc, indexes) {
        Relation index = index_open(lfirst_oid(lc), AccessShareLock);
        Form_pg_index form = index->rd_index;
        bool plain = heap_attisnull(index->rd_indextuple, Anum_pg_index_indpred, NULL) &&
                     heap_attisnull(index->rd_indextuple, Anum_pg_index_indexprs, NULL);
        if (form->indisunique && form->indisvalid && form->indnatts == 1 && plain &&
            form->indkey.values[0] == attnum && index->rd_rel->relam == BTREE_AM_OID) {
            found = RelationGetRelid(index);
            collation = index->rd_indcollation[0];
        }
        index_close(index, AccessShareLock);
    }
    list_free(indexes);
    return found;
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
    // Unknown: name a few close candidates (the registry may hold any number of names; reading
    // them all is done only here, on the way to an error, and can be cancelled).
    // The hint lists the known charsets: the built-in ones, then the first kListedCustom
    // custom names in alphabetical order and how many more there are.
    constexpr int kListedCustom = 20;
    Candidates near(name);
    ensure_cache();
    check_registry();
    const std::vector<Charset>* builtins = nullptr;
    run([&] { builtins = &builtin_charsets(); });
    for (const Charset& c : *builtins)
        near.consider(c.name().c_str());
    char listed[kListedCustom][NAMEDATALEN];
    int n_listed = 0;
    int64 n_custom = 0;
    scan_all([&](const Row& r) {
        near.consider(r.name);
        n_custom++;
        int pos = n_listed;
        while (pos > 0 && strcmp(r.name, listed[pos - 1]) < 0)
            pos--;
        if (pos < kListedCustom) {
            const int last = n_listed < kListedCustom ? n_listed : kListedCustom - 1;
            memmove(listed[pos + 1], listed[pos], (size_t) (last - pos) * NAMEDATALEN);
            strlcpy(listed[pos], r.name, NAMEDATALEN);
            if (n_listed < kListedCustom)
                n_listed++;
        }
        return true;
    });
    StringInfoData hint;
    initStringInfo(&hint);
    if (near.n > 0) {
        appendStringInfoString(&hint,
                               near.n == 1 ? "Perhaps you meant the charset " : "Perhaps you meant one of the charsets ");
        for (int i = 0; i < near.n; i++)
            appendStringInfo(&hint, "%s%s", i == 0 ? "" : ", ", quote_identifier(near.names[i]));
        appendStringInfoString(&hint, ". ");
    }
    appendStringInfoString(&hint, "Known charsets: ");
    for (size_t i = 0; i < builtins->size(); i++)
        appendStringInfo(&hint, "%s%s", i == 0 ? "" : ", ", (*builtins)[i].name().c_str());
    for (int i = 0; i < n_listed; i++)
        appendStringInfo(&hint, ", %s", quote_identifier(listed[i]));
    if (n_custom > n_listed)
        appendStringInfo(&hint, " and " INT64_FORMAT " more", n_custom - n_listed);
    appendStringInfoString(&hint,
                           ". The view idseq_charsets lists every charset; create one with idseq_create_charset().");
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("unknown charset \"%s\"", shown(name)),
                    errhint("%s", hint.data)));
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
    if (const Charset* cs = load_id(id))
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
    check_registry();
    if (const Charset* clash = load_id(id))
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
    // A new charset's symbols are printable. Not for a self-describing type modifier
    // (if_absent): pg_dump writes a column's type that way, and a restore creates its charset
    // from it before the registry's rows arrive, with the symbols as they were made.
    if (!if_absent)
        run([&] { idseq::check_new_symbols(name, symbols); });
    {
        static const char* const columns[] = {"id", "name", "symbols", "case_insensitive"};
        Oid relid = get_relname_relid("idseq_charset_registry", extension_schema_oid(false));
        if (OidIsValid(relid))
            idseq::pg::require_insert(
                relid, columns, 4, 0, "charset", name,
                psprintf("The database's owner and the extension's owner can create charsets, or let this role do so: "
                         "GRANT INSERT ON %s TO %s.",
                         extension_relation("idseq_charset_registry"),
                         quote_identifier(GetUserNameFromId(GetUserId(), false))));
    }
    char idtext[16];
    pg_ltoa(id, idtext);
    const char* args[4] = {idtext, name, symbols, case_insensitive ? "true" : "false"};
    char* sql = psprintf("INSERT INTO %s (id, name, symbols, case_insensitive) VALUES ($1::pg_catalog.int4, $2, $3, $4::pg_catalog.bool)",
                         extension_relation("idseq_charset_registry"));
    spi_query(sql, 4, args, false);
    spi_end();
    // Ours until this transaction commits: kept with the subtransaction that inserted it.
    return adopt(id, name, symbols, case_insensitive, false);
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
    return load_name(name);
}

} // namespace idseq::pg
