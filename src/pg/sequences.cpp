// Generators on native sequences: seeded lexid sequences, id blocks for
// application nodes, and cycling fixed-width codes (AAA, AAB, ..., ZZZ, AAA, ...).
//
// Every generator takes exactly one nextval() per call (nextval_internal with the privilege
// check, the function behind nextval(regclass)), so it inherits
// what a native sequence guarantees: privileges are checked, the value is WAL-logged before
// it is handed out (a crash never hands it out again), nothing waits for the caller's
// transaction (non-blocking, gap-allowing), and standbys and pg_dump carry the position.
//
// What a call needs to know about the sequence (START, INCREMENT, MINVALUE, MAXVALUE, CYCLE)
// comes from the pg_sequence syscache and is kept per backend in a small hash table keyed
// by the sequence's OID. A syscache callback on SEQRELID marks entries stale, so ALTER
// SEQUENCE (committed by anyone, or earlier in our own transaction) and DROP are seen: the
// lock nextval takes processes pending invalidations, and a generator re-checks its entry
// after nextval before using it.
#include "charset.h"
#include "fixed_code.h"
#include "error.h"

#include <cstdint>
#include <cstring>

#include "boundary.h"
#include "registry.h"

extern "C" {
#include "access/htup_details.h"
#include "catalog/namespace.h"
#include "catalog/pg_class.h"
#include "catalog/pg_sequence.h"
#include "commands/sequence.h"
#include "executor/spi.h"
#include "lib/stringinfo.h"
#include "nodes/makefuncs.h"
#include "parser/scansup.h"
#include "utils/acl.h"
#include "utils/fmgrprotos.h"
#include "utils/hsearch.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"
#include "utils/varlena.h"

PG_FUNCTION_INFO_V1(nextval_lexid);
PG_FUNCTION_INFO_V1(lexid_block);
PG_FUNCTION_INFO_V1(code_format);
PG_FUNCTION_INFO_V1(code_parse);
PG_FUNCTION_INFO_V1(create_code_sequence);
PG_FUNCTION_INFO_V1(nextval_code);
}

#include "lexid_pg.h"

using idseq::Charset;
using idseq::pg::run;
namespace code = idseq::code;

namespace {

// ---- the per-backend cache of sequence shapes (plain data in a dynahash table) ----

struct SeqShape {
    Oid relid; // hash key
    bool valid;
    uint32 hashvalue; // syscache hash of relid, to match invalidations
    int64 start;
    int64 increment;
    int64 min;
    int64 max;
    bool cycle;
    // nextval_code: the charset base this shape was last checked against (0: never) and
    // the resulting width (0: not a code sequence for that base).
    int code_base;
    int code_width;
};

HTAB* shapes;
SeqShape* last_shape; // entries are never removed, so this pointer stays valid
uint64 shape_invals;  // invalidations seen, to notice one arriving during a lookup

void on_seq_inval(Datum, int, uint32 hashvalue)
{
    shape_invals++;
    if (!shapes)
        return;
    HASH_SEQ_STATUS status;
    hash_seq_init(&status, shapes);
    while (SeqShape* e = (SeqShape*) hash_seq_search(&status))
        if (hashvalue == 0 || e->hashvalue == hashvalue)
            e->valid = false;
}

char* seq_name(Oid relid)
{
    return DatumGetCString(DirectFunctionCall1(regclassout, ObjectIdGetDatum(relid)));
}

inline int64 take_nextval(Oid relid)
{
    return nextval_internal(relid, true); // what nextval(regclass) does: checks privileges
}

SeqShape* load_shape(Oid relid)
{
    if (!shapes) {
        HASHCTL ctl;
        memset(&ctl, 0, sizeof ctl);
        ctl.keysize = sizeof(Oid);
        ctl.entrysize = sizeof(SeqShape);
        ctl.hcxt = TopMemoryContext;
        shapes = hash_create("idseq sequence shapes", 16, &ctl, HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
        CacheRegisterSyscacheCallback(SEQRELID, on_seq_inval, (Datum) 0);
    }
    bool found;
    SeqShape* e = (SeqShape*) hash_search(shapes, &relid, HASH_ENTER, &found);
    if (!found)
        e->valid = false;
    if (!e->valid) {
        uint64 invals_before = shape_invals;
        HeapTuple tup = SearchSysCache1(SEQRELID, ObjectIdGetDatum(relid));
        if (!HeapTupleIsValid(tup)) {
            // No relation at all: nextval itself would fail with an internal error here.
            if (!SearchSysCacheExists1(RELOID, ObjectIdGetDatum(relid)))
                ereport(ERROR, (errcode(ERRCODE_UNDEFINED_TABLE),
                                errmsg("relation with OID %u does not exist", relid)));
            // Not a sequence: the error nextval raises up to 16 (17 words it differently).
            ereport(ERROR, (errcode(ERRCODE_WRONG_OBJECT_TYPE), errmsg("\"%s\" is not a sequence", get_rel_name(relid))));
        }
        Form_pg_sequence f = (Form_pg_sequence) GETSTRUCT(tup);
        e->start = f->seqstart;
        e->increment = f->seqincrement;
        e->min = f->seqmin;
        e->max = f->seqmax;
        e->cycle = f->seqcycle;
        e->code_base = 0;
        e->code_width = 0;
        e->hashvalue = GetSysCacheHashValue1(SEQRELID, ObjectIdGetDatum(relid));
        ReleaseSysCache(tup);
        // Use what was read, but read again next time if an invalidation came in meanwhile.
        e->valid = shape_invals == invals_before;
    }
    last_shape = e;
    return e;
}

inline SeqShape* get_shape(Oid relid)
{
    SeqShape* e = last_shape;
    if (e && e->relid == relid && e->valid)
        return e;
    return load_shape(relid);
}

// The error nextval would raise for a caller without USAGE or UPDATE, raised before a
// shape error so that the shape of a sequence one may not use is not disclosed.
void check_usage(Oid relid)
{
    if (pg_class_aclcheck(relid, GetUserId(), ACL_USAGE | ACL_UPDATE) != ACLCHECK_OK)
        ereport(ERROR, (errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
                        errmsg("permission denied for sequence %s", get_rel_name(relid))));
}

// ---- lexid arithmetic ----

// seed + (a - b), exact for any a and b (|a - b| < 2^64 takes at most three steps).
Lexid* add_difference(Lexid* seed, int64 a, int64 b)
{
    __int128 d = (__int128) a - (__int128) b;
    Lexid* v = seed;
    while (d > PG_INT64_MAX) {
        v = lexid_add(v, PG_INT64_MAX);
        d -= PG_INT64_MAX;
    }
    while (d < PG_INT64_MIN) {
        v = lexid_add(v, PG_INT64_MIN);
        d -= PG_INT64_MIN;
    }
    return lexid_add(v, (int64) d);
}

// Untyped seeds of up to this many symbols are cached.
constexpr size_t kFastSeed = 64;

// The last untyped seed literal seen and what it reads as in base36 (plain data).
struct {
    int rawlen; // -1: nothing cached
    char raw[kFastSeed];
    int32 charset_id;
    int len;
    uint8 digits[kFastSeed];
} untyped_seed = {-1, {0}, 0, 0, {0}};

struct Seed {
    Lexid* value; // typed; NULL until needed for an untyped seed served from the cache
    int32 charset_id;
    const uint8* digits;
    size_t len;
};

// The seed's charset and digits. An untyped literal ('00A000' in a column default) is read
// as base36; the last one read is remembered, so a default does not parse it on every row.
Seed seed_parts(Lexid* seed)
{
    if (lexid_charset_id(seed) != 0)
        return Seed{seed, lexid_charset_id(seed), lexid_digits(seed), lexid_length(seed)};
    const char* raw = (const char*) lexid_digits(seed);
    size_t rawlen = lexid_length(seed);
    if ((int) rawlen == untyped_seed.rawlen && memcmp(raw, untyped_seed.raw, rawlen) == 0)
        return Seed{NULL, untyped_seed.charset_id, untyped_seed.digits, (size_t) untyped_seed.len};
    Lexid* typed = lexid_resolve(seed, 0);
    size_t len = lexid_length(typed);
    if (rawlen <= kFastSeed && len <= kFastSeed) {
        untyped_seed.rawlen = -1;
        memcpy(untyped_seed.raw, raw, rawlen);
        memcpy(untyped_seed.digits, lexid_digits(typed), len);
        untyped_seed.len = (int) len;
        untyped_seed.charset_id = lexid_charset_id(typed);
        untyped_seed.rawlen = (int) rawlen;
    }
    return Seed{typed, lexid_charset_id(typed), lexid_digits(typed), len};
}

// The base of a seed's charset. Built-in charsets never change, so their bases are kept
// in a plain table; custom ones are asked of the registry's cache.
int base_of(int32 charset_id)
{
    static int builtin_base[idseq::kBuiltinCharsetCount + 1];
    if (charset_id >= 1 && charset_id <= idseq::kBuiltinCharsetCount) {
        if (!builtin_base[charset_id])
            builtin_base[charset_id] = idseq::pg::charset_by_id(charset_id)->base();
        return builtin_base[charset_id];
    }
    return idseq::pg::charset_by_id(charset_id)->base();
}

// seed + (a - b). The common case (a non-negative offset that keeps the seed's length) is
// done in place in the result, with no other allocation.
Lexid* seed_plus(const Seed& seed, int64 a, int64 b)
{
    __int128 d = (__int128) a - (__int128) b;
    if (d >= 0 && d <= PG_INT64_MAX) {
        int base = base_of(seed.charset_id);
        Size size = LEXID_HDRSZ + seed.len;
        Lexid* out = (Lexid*) palloc(size); // every byte is written below
        SET_VARSIZE(out, size);
        memcpy(VARDATA(out), &seed.charset_id, sizeof(int32));
        uint8* digits = (uint8*) VARDATA(out) + sizeof(int32);
        memcpy(digits, seed.digits, seed.len);
        bool same_length = false;
        run([&] { same_length = code::add_same_length(digits, seed.len, base, (uint64) d); });
        if (same_length)
            return out;
        pfree(out);
    }
    Lexid* v = seed.value ? seed.value : lexid_make(seed.charset_id, seed.digits, seed.len);
    return add_difference(v, a, b);
}

// ---- code sequences ----

// Validates the shape of s for codes over cs: MINVALUE 0, MAXVALUE base^width - 1,
// INCREMENT 1, CYCLE. Sets code_base/code_width, or raises 55000 with the right shape.
void check_code_shape(Oid relid, SeqShape* s, const Charset* cs)
{
    int base = cs->base();
    int width = 0, suggest = 0, mw = 0;
    run([&] {
        width = code::width_of_max(base, s->max);
        suggest = width ? width : code::covering_width(base, s->max);
        mw = code::max_width(base);
    });
    if (width && s->min == 0 && s->increment == 1 && s->cycle) {
        s->code_base = base;
        s->code_width = width;
        return;
    }
    check_usage(relid);
    if (!suggest)
        suggest = mw < 3 ? mw : 3;
    int64 cap = 0;
    run([&] { cap = code::capacity(base, suggest); });
    StringInfoData detail;
    initStringInfo(&detail);
    if (s->min != 0)
        appendStringInfo(&detail, " Its MINVALUE is " INT64_FORMAT ", not 0.", s->min);
    if (!width)
        appendStringInfo(&detail, " Its MAXVALUE " INT64_FORMAT " is not %d^width - 1 for any width from 1 to %d.",
                         s->max, base, mw);
    if (s->increment != 1)
        appendStringInfo(&detail, " Its INCREMENT is " INT64_FORMAT ", not 1.", s->increment);
    if (!s->cycle)
        appendStringInfoString(&detail, " It does not CYCLE.");
    char* name = seq_name(relid);
    ereport(ERROR,
            (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
             errmsg("sequence \"%s\" is not a code sequence for charset \"%s\"", get_rel_name(relid),
                    cs->name().c_str()),
             errdetail("%s", detail.data + 1),
             errhint("A code sequence of width %d over \"%s\" is CREATE SEQUENCE %s MINVALUE 0 MAXVALUE " INT64_FORMAT
                     " START 0 CYCLE, or SELECT create_code_sequence(%s, %d, %s).",
                     suggest, cs->name().c_str(), name, cap - 1, quote_literal_cstr(name), suggest,
                     quote_literal_cstr(cs->name().c_str()))));
}

void reject_cycling(Oid relid)
{
    check_usage(relid);
    char* name = seq_name(relid);
    ereport(ERROR, (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
                    errmsg("sequence \"%s\" cycles", get_rel_name(relid)),
                    errdetail("A cycling sequence hands out its values again, so blocks would overlap."),
                    errhint("Reserve blocks from a sequence without CYCLE, for example after ALTER SEQUENCE %s NO CYCLE.",
                            name)));
}

inline int code_width_for(Oid relid, SeqShape* s, const Charset* cs)
{
    if (s->code_base != cs->base())
        check_code_shape(relid, s, cs);
    return s->code_width;
}

text* code_text(const Charset* cs, int64 n, int width)
{
    text* out = (text*) palloc(VARHDRSZ + (size_t) width * cs->max_symbol_bytes());
    size_t len = 0;
    run([&] { len = code::format_to(*cs, n, width, VARDATA(out)); });
    SET_VARSIZE(out, VARHDRSZ + len);
    return out;
}

// "schema"."name" for create_code_sequence: the text is read as regclass reads a name
// (identifier syntax, optionally schema-qualified, "quoted" parts keep their case); a text
// that is not such a name is taken verbatim as the name of a sequence in the creation
// schema. Sets *nspid and returns the (unquoted) relation name.
char* creation_target(text* arg, Oid* nspid)
{
    char* raw = text_to_cstring(arg);
    char* copy = pstrdup(raw);
    List* parts = NIL;
    RangeVar* rv;
    if (raw[0] != '\0' && SplitIdentifierString(copy, '.', &parts) && list_length(parts) >= 1 &&
        list_length(parts) <= 3) {
        List* names = NIL;
        ListCell* lc;
        foreach (lc, parts)
            names = lappend(names, makeString((char*) lfirst(lc)));
        rv = makeRangeVarFromNameList(names);
    } else {
        if (raw[0] == '\0')
            ereport(ERROR, (errcode(ERRCODE_INVALID_NAME), errmsg("sequence name must not be empty")));
        truncate_identifier(raw, strlen(raw), true);
        rv = makeRangeVar(NULL, raw, -1);
    }
    *nspid = RangeVarGetCreationNamespace(rv);
    return rv->relname;
}

} // namespace

extern "C" {

// seed + (nextval(seq) - start_value of seq)
Datum nextval_lexid(PG_FUNCTION_ARGS)
{
    Oid relid = PG_GETARG_OID(0);
    Seed seed = seed_parts(PG_GETARG_LEXID_PP(1)); // a bad seed fails before nextval
    (void) get_shape(relid);                       // so does a relation that is not a sequence
    int64 v = take_nextval(relid);
    SeqShape* s = get_shape(relid);
    PG_RETURN_POINTER(seed_plus(seed, v, s->start));
}

// One nextval v reserves the ids that the sequence values v .. v + increment - 1 (or, for a
// descending sequence, v + increment + 1 .. v) stand for under nextval_lexid's mapping, never
// past the sequence's MAXVALUE (MINVALUE).
Datum lexid_block(PG_FUNCTION_ARGS)
{
    Oid relid = PG_GETARG_OID(0);
    Seed seed = seed_parts(PG_GETARG_LEXID_PP(1));
    SeqShape* s = get_shape(relid);
    if (s->cycle)
        reject_cycling(relid);
    int64 v = take_nextval(relid);
    s = get_shape(relid); // ALTER SEQUENCE may have committed while we waited for the lock
    if (s->cycle)
        reject_cycling(relid);
    // The block is v .. v + increment - 1 (descending: v + increment + 1 .. v), clamped to
    // the sequence's bounds: the last block before MAXVALUE (MINVALUE) is shorter, and its
    // last_id (first_id) says where it ends. The next call fails as nextval does.
    const int64 inc = s->increment;
    Lexid* first;
    Lexid* last;
    if (inc > 0) {
        __int128 end = (__int128) v + inc - 1;
        int64 span = (int64) ((end > s->max ? (__int128) s->max : end) - v);
        first = seed_plus(seed, v, s->start);
        last = lexid_add(first, span < 0 ? 0 : span);
    } else {
        __int128 end = (__int128) v + inc + 1;
        int64 span = (int64) ((end < s->min ? (__int128) s->min : end) - v);
        last = seed_plus(seed, v, s->start);
        first = lexid_add(last, span > 0 ? 0 : span);
    }
    ReturnSetInfo* rsinfo = (ReturnSetInfo*) fcinfo->resultinfo;
    InitMaterializedSRF(fcinfo, MAT_SRF_USE_EXPECTED_DESC); // no new descriptor per call
    Datum values[2] = {PointerGetDatum(first), PointerGetDatum(last)};
    bool nulls[2] = {false, false};
    tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
    return (Datum) 0;
}

Datum code_format(PG_FUNCTION_ARGS)
{
    int64 n = PG_GETARG_INT64(0);
    int32 width = PG_GETARG_INT32(1);
    const Charset* cs = idseq::pg::charset_by_text_cached(fcinfo, PG_GETARG_TEXT_PP(2));
    run([&] { code::check_range(*cs, n, width); });
    PG_RETURN_TEXT_P(code_text(cs, n, width));
}

Datum code_parse(PG_FUNCTION_ARGS)
{
    text* t = PG_GETARG_TEXT_PP(0);
    const Charset* cs = idseq::pg::charset_by_text_cached(fcinfo, PG_GETARG_TEXT_PP(1));
    int64 n = 0;
    run([&] { n = code::parse(*cs, std::string_view(VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t))); });
    PG_RETURN_INT64(n);
}

Datum create_code_sequence(PG_FUNCTION_ARGS)
{
    text* name_arg = PG_GETARG_TEXT_PP(0);
    int32 width = PG_GETARG_INT32(1);
    const Charset* cs = idseq::pg::charset_by_text_cached(fcinfo, PG_GETARG_TEXT_PP(2));
    int64 cap = 0;
    run([&] {
        code::check_width(*cs, width);
        cap = code::capacity(cs->base(), width);
    });
    Oid nspid;
    char* relname = creation_target(name_arg, &nspid);
    char* qualified = quote_qualified_identifier(get_namespace_name(nspid), relname);
    char* sql = psprintf("CREATE SEQUENCE %s MINVALUE 0 MAXVALUE " INT64_FORMAT " START 0 CYCLE", qualified, cap - 1);
    if (SPI_connect() != SPI_OK_CONNECT)
        elog(ERROR, "SPI_connect failed");
    int rc = SPI_execute(sql, false, 0);
    if (rc != SPI_OK_UTILITY)
        elog(ERROR, "SPI_execute failed: %s", SPI_result_code_string(rc));
    SPI_finish();
    Oid relid = get_relname_relid(relname, nspid);
    if (!OidIsValid(relid) || get_rel_relkind(relid) != RELKIND_SEQUENCE)
        elog(ERROR, "sequence %s was not created", qualified);
    PG_RETURN_OID(relid);
}

// The next code of a cycling sequence MINVALUE 0 MAXVALUE base^width - 1 INCREMENT 1 CYCLE.
Datum nextval_code(PG_FUNCTION_ARGS)
{
    Oid relid = PG_GETARG_OID(0);
    const Charset* cs = idseq::pg::charset_by_text_cached(fcinfo, PG_GETARG_TEXT_PP(1));
    SeqShape* s = get_shape(relid);
    int width = code_width_for(relid, s, cs);
    int64 v = take_nextval(relid);
    if (unlikely(!s->valid)) { // altered while we waited for nextval's lock
        s = get_shape(relid);
        width = code_width_for(relid, s, cs);
    }
    if (unlikely(v < 0 || v > s->max)) // cannot happen: the shape was checked under nextval's lock
        elog(ERROR, "sequence value " INT64_FORMAT " is outside the code range", v);
    PG_RETURN_TEXT_P(code_text(cs, v, width));
}

} // extern "C"
