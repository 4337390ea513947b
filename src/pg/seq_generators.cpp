// Generators on native sequences: seeded lexid sequences, id blocks for
// application nodes, and cycling fixed-width codes (AAA, AAB, ..., ZZZ, AAA, ...).
//
// Every generator but nextval_block takes exactly one nextval() per call (nextval_internal
// with the privilege check, the function behind nextval(regclass)), so it inherits
// what a native sequence guarantees: privileges are checked, the value is WAL-logged before
// it is handed out (a crash never hands it out again), nothing waits for the caller's
// transaction (non-blocking, gap-allowing), and standbys and pg_dump carry the position.
// nextval_block moves an INCREMENT BY 1 sequence on by a whole block in one step, which no
// function of sequence.c does: it writes the sequence's page as nextval does (see
// nextval_block and src/pg/seq_page.h), with the same checks, lock and WAL record.
//
// What a call needs to know about the sequence (START, INCREMENT, MINVALUE, MAXVALUE, CYCLE)
// comes from the pg_sequence syscache and is kept per backend in a small hash table keyed
// by the sequence's OID. A syscache callback on SEQRELID marks entries stale, so ALTER
// SEQUENCE (committed by anyone, or earlier in our own transaction) and DROP are seen: the
// lock nextval takes processes pending invalidations, and a generator re-checks its entry
// after nextval before using it.
//
// Citus (docs/citus.md, "Sequence-based defaults on distributed tables"): a sequence that
// a distributed table's column default depends on lives on the coordinator, and Citus gives
// every worker a copy with a range of its own, [(group << 48) + 1, (group << 48) + 1 + 2^48]
// for bigint (AlterSequenceMinMax in Citus's worker_data_fetch_protocol.c; a smallint or
// integer copy is set to its MAXVALUE instead). A shape load recognises such copies
// precisely (Citus's catalogs name the node's group and the distributed objects) and
// nextval_lexid / lexid_block map a worker's value v to seed + (v - 1), so that every node's
// ids are distinct: the coordinator's offsets stay below 2^48, worker g's lie in
// [g * 2^48, (g + 1) * 2^48). nextval_code refuses a worker's copy. Without Citus's catalogs
// nothing changes.
#include "charset.h"
#include "fixed_code.h"
#include "error.h"
#include "sequence_block.h"

#include <cstdint>
#include <cstring>

#include "core_call.h"
#include "citus.h"
#include "internal_sql.h"
#include "charset_registry.h"
#include "seq_page.h"

extern "C" {
#include "access/genam.h"
#include "access/htup_details.h"
#include "access/relation.h"
#include "access/table.h"
#include "access/xlog.h"
#include "catalog/dependency.h"
#include "catalog/indexing.h"
#include "utils/builtins.h"
#include "utils/rel.h"
#include "catalog/namespace.h"
#include "catalog/pg_class.h"
#include "catalog/pg_namespace.h"
#include "catalog/pg_sequence.h"
#include "commands/defrem.h"
#include "commands/event_trigger.h"
#include "commands/sequence.h"
#include "commands/tablecmds.h"
#include "executor/spi.h"
#include "lib/stringinfo.h"
#include "nodes/makefuncs.h"
#include "storage/lmgr.h"
#include "tcop/utility.h"
#include "parser/scansup.h"
#include "utils/acl.h"
#include "utils/fmgroids.h"
#include "utils/fmgrprotos.h"
#include "utils/hsearch.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/rangetypes.h"
#include "utils/syscache.h"
#include "utils/varlena.h"

PG_FUNCTION_INFO_V1(nextval_lexid);
PG_FUNCTION_INFO_V1(lexid_block);
PG_FUNCTION_INFO_V1(nextval_block);
PG_FUNCTION_INFO_V1(idseq_sequence_step_guard);
PG_FUNCTION_INFO_V1(code_format);
PG_FUNCTION_INFO_V1(code_parse);
PG_FUNCTION_INFO_V1(create_code_sequence);
PG_FUNCTION_INFO_V1(nextval_code);
}

#include "lexid_type.h"

using idseq::Charset;
using idseq::pg::run;
namespace code = idseq::code;

namespace {

// ---- the per-backend cache of sequence shapes (plain data in a dynahash table) ----

// What Citus made of a sequence (see the top of this file).
enum class CitusRole : uint8 {
    none,         // no Citus, or a sequence no distributed table uses: the plain contract
    coordinator,  // the coordinator's original of a distributed bigint sequence
    worker_range, // a worker's copy with the range Citus gave it
    worker_other, // a worker's copy without a range of its own (smallint, integer, or altered)
};

// Citus's worker ranges are 2^48 values wide (valueBitLength in AlterSequenceMinMax).
constexpr int kCitusRangeBits = 48;

struct SeqShape {
    Oid relid; // hash key
    bool valid;
    uint32 hashvalue; // syscache hash of relid, to match invalidations
    int64 start;
    int64 increment;
    int64 min;
    int64 max;
    bool cycle;
    CitusRole citus;
    int32 citus_group; // the node's Citus group (worker_* roles)
    // nextval_lexid and lexid_block map a value v to seed + (v - origin) and hand out
    // values up to last only: the plain contract is origin = START, last = MAXVALUE.
    int64 origin;
    int64 last;
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

// Citus's catalogs as last found (InvalidOid: not there). Citus's triggers on them send a
// relcache invalidation for the catalog on every change (a sequence becoming distributed,
// the node joining a group), and that makes every shape reload its role. Until they exist,
// any relcache invalidation does (CREATE EXTENSION citus sends some; a reload costs two
// syscache lookups).
Oid citus_group_rel = InvalidOid;
Oid citus_object_rel = InvalidOid;

void on_rel_inval(Datum, Oid relid)
{
    if (!OidIsValid(citus_group_rel) || !OidIsValid(relid) || relid == citus_group_rel || relid == citus_object_rel)
        on_seq_inval((Datum) 0, SEQRELID, 0);
}

char* seq_name(Oid relid)
{
    return DatumGetCString(DirectFunctionCall1(regclassout, ObjectIdGetDatum(relid)));
}

inline int64 take_nextval(Oid relid)
{
    return nextval_internal(relid, true); // what nextval(regclass) does: checks privileges
}

int32 citus_local_group() { return idseq::pg::citus_local_group(&citus_group_rel); }

// Whether Citus lists the relation as a distributed object: a sequence that a distributed
// table depends on (on the coordinator and, metadata being synced, on every worker).
bool citus_distributed(Oid relid)
{
    Oid rel = get_relname_relid("pg_dist_object", PG_CATALOG_NAMESPACE);
    citus_object_rel = rel;
    if (!OidIsValid(rel))
        return false;
    AttrNumber classid = get_attnum(rel, "classid");
    AttrNumber objid = get_attnum(rel, "objid");
    if (classid == InvalidAttrNumber || objid == InvalidAttrNumber)
        return false;
    ScanKeyData key[2];
    ScanKeyInit(&key[0], classid, BTEqualStrategyNumber, F_OIDEQ, ObjectIdGetDatum(RelationRelationId));
    ScanKeyInit(&key[1], objid, BTEqualStrategyNumber, F_OIDEQ, ObjectIdGetDatum(relid));
    Relation r = table_open(rel, AccessShareLock);
    SysScanDesc scan = systable_beginscan(r, InvalidOid, false, NULL, 2, key);
    bool found = HeapTupleIsValid(systable_getnext(scan));
    systable_endscan(scan);
    table_close(r, AccessShareLock);
    return found;
}

// Sets e->citus, origin and last (e's pg_sequence fields are filled in).
void set_citus_role(SeqShape* e, Oid relid, Oid seqtype)
{
    e->citus = CitusRole::none;
    e->citus_group = 0;
    e->origin = e->start;
    e->last = e->max;
    // Cheap first: a plain server has no Citus catalogs (one syscache lookup).
    int32 group = citus_local_group();
    if (group < 0 || !citus_distributed(relid))
        return;
    e->citus_group = group;
    const int64 width = (int64) 1 << kCitusRangeBits;
    if (group == 0) {
        // The original. Citus changes nothing here, but worker g's ids start at offset
        // g * 2^48: keep this node's offsets below 2^48 (negative ones are below too).
        if (seqtype != INT8OID)
            return; // workers cannot draw from a smallint or integer sequence
        e->citus = CitusRole::coordinator;
        __int128 last = (__int128) e->start + width - 1;
        if (last < e->max)
            e->last = (int64) last;
        return;
    }
    // A worker. Exactly the range AlterSequenceMinMax gives group g's copy of a bigint
    // sequence: START = MINVALUE = (g << 48) + 1, MAXVALUE = START + 2^48.
    __int128 lo = ((__int128) group << kCitusRangeBits) + 1;
    if (seqtype == INT8OID && group < (1 << (63 - kCitusRangeBits)) && e->start == lo && e->min == lo &&
        (__int128) e->max == lo + width) {
        e->citus = CitusRole::worker_range;
        // v maps to offset v - 1, in [g * 2^48, (g + 1) * 2^48 - 1]: MAXVALUE itself is the
        // next group's first value, so it is never used.
        e->origin = 1;
        e->last = e->max - 1;
        return;
    }
    e->citus = CitusRole::worker_other;
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
        CacheRegisterRelcacheCallback(on_rel_inval, (Datum) 0);
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
        Oid seqtype = f->seqtypid;
        e->code_base = 0;
        e->code_width = 0;
        e->hashvalue = GetSysCacheHashValue1(SEQRELID, ObjectIdGetDatum(relid));
        ReleaseSysCache(tup);
        set_citus_role(e, relid, seqtype);
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

char* remembered_code_charset(FunctionCallInfo fcinfo, Oid seq);

// Validates the shape of s for codes over cs: MINVALUE 0, MAXVALUE base^width - 1,
// INCREMENT 1, CYCLE. Sets code_base/code_width, or raises 55000 with the right shape (or,
// for a sequence create_code_sequence made for another charset, with that charset).
void check_code_shape(FunctionCallInfo fcinfo, Oid relid, SeqShape* s, const Charset* cs)
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
    char* made_for = remembered_code_charset(fcinfo, relid);
    if (made_for && strcmp(made_for, cs->name().c_str()) != 0)
        ereport(ERROR,
                (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
                 errmsg("sequence \"%s\" is not a code sequence for charset \"%s\"", get_rel_name(relid),
                        cs->name().c_str()),
                 errdetail("create_code_sequence made it for charset \"%s\".", made_for),
                 errhint("Call nextval_code(%s) without a charset, or with %s.", quote_literal_cstr(name),
                         quote_literal_cstr(made_for))));
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

// nextval_lexid and lexid_block on a worker's copy without a range of its own.
void reject_worker_copy(Oid relid, const SeqShape* s)
{
    check_usage(relid);
    ereport(ERROR,
            (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
             errmsg("sequence \"%s\" is a Citus worker's copy without a range of its own", get_rel_name(relid)),
             errdetail("The sequence lives on the Citus coordinator. Citus gives each worker's copy of a bigint "
                       "sequence a range of its own, but this copy (group %d) has none, so ids drawn here could "
                       "repeat those of other nodes.",
                       s->citus_group),
             errhint("Insert these rows through the coordinator, or use a bigint sequence.")));
}

// A value past the part of the sequence that the ids of this node may use under Citus.
void reject_past_citus_range(Oid relid, const SeqShape* s)
{
    check_usage(relid);
    if (s->citus == CitusRole::coordinator)
        ereport(ERROR,
                (errcode(ERRCODE_SEQUENCE_GENERATOR_LIMIT_EXCEEDED),
                 errmsg("sequence \"%s\" has handed out every id the Citus coordinator may use", get_rel_name(relid)),
                 errdetail("On the coordinator the ids of a distributed sequence stay within 2^48 values from its "
                           "START (up to value " INT64_FORMAT "), because the ids drawn on the workers follow them.",
                           s->last)));
    ereport(ERROR,
            (errcode(ERRCODE_SEQUENCE_GENERATOR_LIMIT_EXCEEDED),
             errmsg("sequence \"%s\" has reached the end of this Citus worker's range", get_rel_name(relid)),
             errdetail("Citus gave this worker's copy (group %d) the values " INT64_FORMAT " to " INT64_FORMAT
                       "; the last one is the first of the next group, so its ids end at value " INT64_FORMAT ".",
                       s->citus_group, s->min, s->max, s->last)));
}

// nextval_code on a worker's copy: the codes would not continue the coordinator's cycle.
void reject_code_on_worker(Oid relid, const SeqShape* s)
{
    check_usage(relid);
    ereport(ERROR,
            (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
             errmsg("cannot draw codes from sequence \"%s\" on a Citus worker", get_rel_name(relid)),
             errdetail("The sequence lives on the Citus coordinator. This worker (group %d) holds a copy that Citus "
                       "gave a range of its own, so codes drawn here would repeat the coordinator's.",
                       s->citus_group),
             errhint("Insert rows whose default calls nextval_code() through the coordinator, or use "
                     "nextval_lexid(), whose ids are distinct on every node.")));
}

// ---- nextval_block: a run of consecutive values of an INCREMENT BY 1 sequence ----

// nextval_block's blocks are runs of consecutive values, which a sequence hands out only when
// it counts by 1 (lexid_block is for the others), and they must never come round again.
void check_block_shape(Oid relid, const SeqShape* s)
{
    if (s->increment != 1) {
        check_usage(relid);
        char* name = seq_name(relid);
        ereport(ERROR,
                (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
                 errmsg("sequence \"%s\" does not count by 1", get_rel_name(relid)),
                 errdetail("Its INCREMENT is " INT64_FORMAT ", and a block is a run of consecutive values.",
                           s->increment),
                 errhint("Reserve blocks of a sequence with INCREMENT BY 1, or take blocks of INCREMENT ids from this "
                         "one with lexid_block(%s, seed).",
                         quote_literal_cstr(name))));
    }
    if (s->cycle)
        reject_cycling(relid);
    if (unlikely(s->citus == CitusRole::worker_other))
        reject_worker_copy(relid, s);
}

// A block of n values that does not fit below hi, the largest value a block of this sequence
// may hold (left values are left). Nothing was taken.
void reject_block_past_end(Oid relid, const SeqShape* s, int32 n, int64 hi, int64 left)
{
    StringInfoData why;
    initStringInfo(&why);
    if (s->last < s->max && s->last == hi)
        appendStringInfo(&why, " On this Citus node the ids drawn from it end at value " INT64_FORMAT ".", hi);
    else if (s->max > idseq::block::kLastBlockValue)
        appendStringInfo(&why, " A block ends at " INT64_FORMAT " at the latest: an int8range ends one past its last "
                               "value, and nothing lies past the largest bigint.",
                         hi);
    const char* name = get_rel_name(relid);
    if (left == 0 && why.len == 0)
        ereport(ERROR, (errcode(ERRCODE_SEQUENCE_GENERATOR_LIMIT_EXCEEDED),
                        errmsg("reached maximum value of sequence \"%s\" (" INT64_FORMAT ")", name, hi)));
    if (left == 0)
        ereport(ERROR, (errcode(ERRCODE_SEQUENCE_GENERATOR_LIMIT_EXCEEDED),
                        errmsg("sequence \"%s\" has no values left for a block", name), errdetail("%s", why.data + 1)));
    ereport(ERROR, (errcode(ERRCODE_SEQUENCE_GENERATOR_LIMIT_EXCEEDED),
                    errmsg("sequence \"%s\" has fewer than %d values left", name, n),
                    errdetail("Only " INT64_FORMAT " values are left, up to value " INT64_FORMAT
                              ", and none was taken.%s",
                              left, hi, why.data),
                    errhint("Reserve at most " INT64_FORMAT " values.", left)));
}

// [first, last + 1) as int8range; the range type's cache entry is kept in fn_extra.
Datum block_range(FunctionCallInfo fcinfo, int64 first, int64 last)
{
    TypeCacheEntry* typcache = range_get_typcache(fcinfo, INT8RANGEOID);
    RangeBound lower, upper;
    lower.val = Int64GetDatum(first);
    lower.infinite = false;
    lower.inclusive = true;
    lower.lower = true;
    upper.val = Int64GetDatum(last + 1); // last <= kLastBlockValue
    upper.infinite = false;
    upper.inclusive = false;
    upper.lower = false;
    return RangeTypePGetDatum(IDSEQ_MAKE_RANGE(typcache, &lower, &upper));
}

inline int code_width_for(FunctionCallInfo fcinfo, Oid relid, SeqShape* s, const Charset* cs)
{
    if (s->code_base != cs->base())
        check_code_shape(fcinfo, relid, s, cs);
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

// ---- ALTER SEQUENCE ... INCREMENT BY and lexid_block's blocks ----

// The options of an ALTER SEQUENCE (or of an identity column) that matter to the step guard.
struct StepChange {
    DefElem* increment; // NULL: the step does not change, or the statement places the sequence itself
    DefElem* maxvalue;
    DefElem* minvalue;
};

StepChange step_change(List* options)
{
    StepChange c = {NULL, NULL, NULL};
    ListCell* lc;
    foreach (lc, options) {
        DefElem* d = (DefElem*) lfirst(lc);
        if (strcmp(d->defname, "increment") == 0)
            c.increment = d->arg ? d : NULL;
        else if (strcmp(d->defname, "maxvalue") == 0)
            c.maxvalue = d;
        else if (strcmp(d->defname, "minvalue") == 0)
            c.minvalue = d;
        else if (strcmp(d->defname, "restart") == 0 || strcmp(d->defname, "as") == 0)
            return StepChange{NULL, NULL, NULL}; // RESTART places the sequence; AS re-derives the bounds
    }
    return c;
}

// The identity sequence of column attnum of table (InvalidOid: none).
Oid identity_sequence(Oid table, AttrNumber attnum)
{
    if (attnum <= 0)
        return InvalidOid;
    ListCell* lc;
    foreach (lc, getOwnedSequences(table)) {
        Oid seq = lfirst_oid(lc);
        Oid owner;
        int32 col;
        if (sequenceIsOwned(seq, DEPENDENCY_INTERNAL, &owner, &col) && owner == table && col == attnum)
            return seq;
    }
    return InvalidOid;
}

// Before the step of sequence relid (locked ShareRowExclusiveLock, owned by the caller)
// becomes smaller in the same direction, moves last_value on so that the next value is past
// the last block (see idseq_sequence_step_guard).
void move_past_last_block(Oid relid, const StepChange& change)
{
    int64 step = defGetInt64(change.increment); // ALTER reports a bad value itself
    HeapTuple tup = SearchSysCache1(SEQRELID, ObjectIdGetDatum(relid));
    if (!HeapTupleIsValid(tup))
        return;
    Form_pg_sequence f = (Form_pg_sequence) GETSTRUCT(tup);
    const int64 old_step = f->seqincrement;
    int64 lo = f->seqmin;
    int64 hi = f->seqmax;
    const bool cycle = f->seqcycle;
    ReleaseSysCache(tup);
    // Only a smaller step in the same direction can reach back into the last block.
    if (cycle || step == 0 || (step > 0) != (old_step > 0) || (step > 0 ? step >= old_step : step <= old_step))
        return;
    // last_value, or NULL when nextval has not handed it out yet (a new or restarted
    // sequence: no block starts there).
    LOCAL_FCINFO(lv, 1);
    InitFunctionCallInfoData(*lv, NULL, 1, InvalidOid, NULL, NULL);
    lv->args[0].value = ObjectIdGetDatum(relid);
    lv->args[0].isnull = false;
    Datum last_d = pg_sequence_last_value(lv);
    if (lv->isnull)
        return;
    int64 last = DatumGetInt64(last_d);
    // Stay within the bounds now in force and those the statement sets, or the ALTER would
    // refuse the moved value; a value clamped to the bound makes the next nextval fail as it
    // does at the end of a sequence (the last block reached the bound).
    if (change.maxvalue && change.maxvalue->arg)
        hi = Min(hi, defGetInt64(change.maxvalue));
    if (change.minvalue && change.minvalue->arg)
        lo = Max(lo, defGetInt64(change.minvalue));
    __int128 target = (__int128) last + old_step - step;
    if (target > hi)
        target = hi;
    if (target < lo)
        target = lo;
    if ((step > 0 && target <= last) || (step < 0 && target >= last))
        return;
    DirectFunctionCall2(setval_oid, ObjectIdGetDatum(relid), Int64GetDatum((int64) target));
}

// ---- the charset a code sequence was made for ----
//
// create_code_sequence(name, width, charset) records (sequence, charset name) in the
// extension's table idseq_code_sequences, so that nextval_code(seq) without a charset reads
// the codes of the charset the sequence was made for. A table, because it travels with the
// data: pg_dump writes its rows (a configuration table, the sequence by name) and a restore
// maps them to the new sequence; the event trigger idseq_code_sequence_forget deletes the row
// of a dropped sequence, so that a later sequence that reuses the OID starts unremembered.
// The extension writes and reads the table like a catalog (no SPI, no ACL check on it: the
// caller has just created the sequence; nextval_code's caller needs only the sequence's
// privileges).

constexpr const char* kCodeSequences = "idseq_code_sequences";

// The table and its primary key index, in the schema of the calling function.
bool code_sequences_rel(FunctionCallInfo fcinfo, Oid* rel, Oid* index)
{
    Oid nsp = get_func_namespace(fcinfo->flinfo->fn_oid);
    *rel = get_relname_relid(kCodeSequences, nsp);
    if (!OidIsValid(*rel))
        return false; // an extension being upgraded, before its script created the table
    char* index_name = psprintf("%s_pkey", kCodeSequences);
    *index = get_relname_relid(index_name, nsp);
    pfree(index_name);
    return OidIsValid(*index);
}

// A temporary sequence is not recorded: it goes away at session end, DISCARD TEMP or ON
// COMMIT DROP without the sql_drop event that deletes a row, and its row would stay as a
// bare OID that a later sequence could inherit (nextval_code(seq, charset) names it).
void remember_code_charset(FunctionCallInfo fcinfo, Oid seq, const Charset* cs)
{
    Oid relid, indexid;
    if (get_rel_persistence(seq) == RELPERSISTENCE_TEMP)
        return;
    if (!code_sequences_rel(fcinfo, &relid, &indexid))
        return;
    Relation rel = table_open(relid, RowExclusiveLock);
    Datum values[2] = {ObjectIdGetDatum(seq), CStringGetTextDatum(cs->name().c_str())};
    bool nulls[2] = {false, false};
    HeapTuple tup = heap_form_tuple(RelationGetDescr(rel), values, nulls);
    CatalogTupleInsert(rel, tup);
    heap_freetuple(tup);
    table_close(rel, RowExclusiveLock);
    CommandCounterIncrement();
}

// The charset name recorded for seq (palloc'd), or null.
char* remembered_code_charset(FunctionCallInfo fcinfo, Oid seq)
{
    Oid relid, indexid;
    if (!code_sequences_rel(fcinfo, &relid, &indexid))
        return nullptr;
    Relation rel = table_open(relid, AccessShareLock);
    ScanKeyData key;
    ScanKeyInit(&key, 1, BTEqualStrategyNumber, F_OIDEQ, ObjectIdGetDatum(seq));
    SysScanDesc scan = systable_beginscan(rel, indexid, true, NULL, 1, &key);
    HeapTuple tup = systable_getnext(scan);
    char* name = nullptr;
    if (HeapTupleIsValid(tup)) {
        bool isnull;
        Datum d = heap_getattr(tup, 2, RelationGetDescr(rel), &isnull);
        if (!isnull)
            name = TextDatumGetCString(d);
    }
    systable_endscan(scan);
    table_close(rel, AccessShareLock);
    return name;
}

// nextval_code's charset: the argument, or (null, the default) the one recorded for the
// sequence, else upper. fn_extra holds this struct for the call site: the charset read from
// the argument (charset_by_text_cached's own fn_extra, kept in text_cache) and the last
// sequence's recorded one. That lives for the query (or a PL/pgSQL expression's
// transaction), and a sequence cannot be dropped while a query uses it.
struct CodeCharsetCache {
    void* text_cache;
    Oid seq;
    uint64 generation;
    const Charset* cs;
};

const Charset* code_charset(FunctionCallInfo fcinfo, Oid seq)
{
    CodeCharsetCache* volatile c = (CodeCharsetCache*) fcinfo->flinfo->fn_extra;
    if (!c) {
        c = (CodeCharsetCache*) MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(CodeCharsetCache));
        fcinfo->flinfo->fn_extra = c;
    }
    if (!PG_ARGISNULL(1)) {
        // charset_by_text_cached keeps its slot in fn_extra: lend it ours, and take ours
        // back also when it raises (an unknown name), since the call site may be called
        // again after the error is caught.
        const Charset* volatile cs = nullptr;
        fcinfo->flinfo->fn_extra = c->text_cache;
        PG_TRY();
        {
            cs = idseq::pg::charset_by_text_cached(fcinfo, PG_GETARG_TEXT_PP(1));
        }
        PG_FINALLY();
        {
            c->text_cache = fcinfo->flinfo->fn_extra;
            fcinfo->flinfo->fn_extra = c;
        }
        PG_END_TRY();
        return cs;
    }
    if (c->cs && c->seq == seq && c->generation == idseq::pg::charset_generation())
        return c->cs;
    char* name = remembered_code_charset(fcinfo, seq);
    c->cs = idseq::pg::charset_by_name(name ? name : "upper");
    c->seq = seq;
    c->generation = idseq::pg::charset_generation();
    return c->cs;
}

} // namespace

extern "C" {

// seed + (nextval(seq) - start_value of seq)
Datum nextval_lexid(PG_FUNCTION_ARGS)
{
    Oid relid = PG_GETARG_OID(0);
    Seed seed = seed_parts(PG_GETARG_LEXID_PP(1)); // a bad seed fails before nextval
    SeqShape* s = get_shape(relid);                // so does a relation that is not a sequence
    if (unlikely(s->citus == CitusRole::worker_other))
        reject_worker_copy(relid, s);
    int64 v = take_nextval(relid);
    s = get_shape(relid);
    if (unlikely(v > s->last)) // only under Citus: the plain last is MAXVALUE
        reject_past_citus_range(relid, s);
    PG_RETURN_POINTER(seed_plus(seed, v, s->origin));
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
    if (unlikely(s->citus == CitusRole::worker_other))
        reject_worker_copy(relid, s);
    int64 v = take_nextval(relid);
    s = get_shape(relid); // ALTER SEQUENCE may have committed while we waited for the lock
    if (s->cycle)
        reject_cycling(relid);
    if (unlikely(v > s->last))
        reject_past_citus_range(relid, s);
    // The block is v .. v + increment - 1 (descending: v + increment + 1 .. v), clamped to
    // the sequence's bounds: the last block before MAXVALUE (MINVALUE) is shorter, and its
    // last_id (first_id) says where it ends. The next call fails as nextval does. Under
    // Citus the upper bound is this node's last usable value (s->last).
    const int64 inc = s->increment;
    Lexid* first;
    Lexid* last;
    if (inc > 0) {
        __int128 end = (__int128) v + inc - 1;
        int64 span = (int64) ((end > s->last ? (__int128) s->last : end) - v);
        first = seed_plus(seed, v, s->origin);
        last = lexid_add(first, span < 0 ? 0 : span);
    } else {
        __int128 end = (__int128) v + inc + 1;
        int64 span = (int64) ((end < s->min ? (__int128) s->min : end) - v);
        last = seed_plus(seed, v, s->origin);
        first = lexid_add(last, span > 0 ? 0 : span);
    }
    ReturnSetInfo* rsinfo = (ReturnSetInfo*) fcinfo->resultinfo;
    InitMaterializedSRF(fcinfo, MAT_SRF_USE_EXPECTED_DESC); // no new descriptor per call
    Datum values[2] = {PointerGetDatum(first), PointerGetDatum(last)};
    bool nulls[2] = {false, false};
    tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
    return (Datum) 0;
}

// n consecutive values [first, first + n) of an INCREMENT BY 1 sequence, taken in one step:
// under the sequence page's buffer lock, the block starts after last_value (every value
// handed out or cached by any session lies at or below it) and last_value moves to its end,
// as nextval moves it by a cache's worth of values. So no nextval, and no other block,
// ever hands out a value of the block, and nothing waits for another transaction: the
// relation lock is nextval's own (RowExclusiveLock, which does not conflict with itself),
// the buffer lock is held for the update only. The change is WAL-logged as nextval's and
// flushed before the block is returned, so a crash never hands the block out again, also
// when its transaction rolls back, never commits, or commits with synchronous_commit off; a
// rollback leaves the gap. The transaction gets an xid, as nextval's does, so that its
// commit waits for synchronous standbys. Unlike nextval it leaves currval and lastval alone.
Datum nextval_block(PG_FUNCTION_ARGS)
{
    Oid relid = PG_GETARG_OID(0);
    int32 n = PG_GETARG_INT32(1);
    run([&] { idseq::block::check_size(n); });
    SeqShape* s = get_shape(relid); // a relation that is not a sequence fails here
    check_block_shape(relid, s);
    check_usage(relid);
    Relation rel = relation_open(relid, RowExclusiveLock); // the lock nextval takes
    s = get_shape(relid); // ALTER SEQUENCE may have committed while we waited for the lock
    check_block_shape(relid, s);
    if (!rel->rd_islocaltemp)
        PreventCommandIfReadOnly("nextval_block()");
    PreventCommandIfParallelMode("nextval_block()");
    const int64 hi = Min(s->last, idseq::block::kLastBlockValue);
    if (RelationNeedsWAL(rel))
        (void) GetTopTransactionId();
    idseq::pg::SequencePage page = idseq::pg::lock_sequence_page(rel, BUFFER_LOCK_EXCLUSIVE);
    idseq::block::Span span;
    const int64 last_value = page.data->last_value;
    const bool is_called = page.data->is_called;
    run([&] { span = idseq::block::next_span(last_value, is_called, n, hi); });
    if (!span.fits) {
        UnlockReleaseBuffer(page.buf);
        relation_close(rel, NoLock);
        reject_block_past_end(relid, s, n, hi, span.left);
    }
    XLogRecPtr lsn = idseq::pg::write_sequence_page(rel, page, span.last, 0, true);
    UnlockReleaseBuffer(page.buf);
    relation_close(rel, NoLock);
    if (!XLogRecPtrIsInvalid(lsn))
        XLogFlush(lsn);
    PG_RETURN_DATUM(block_range(fcinfo, span.first, span.last));
}

// Event trigger on ALTER SEQUENCE and ALTER TABLE (ddl_command_start): a smaller step moves
// the sequence on (ALTER TABLE: the identity columns' SET INCREMENT BY).
//
// A block is v .. v + INCREMENT - 1, v the value nextval returned, so the sequence's
// last_value L bounds every block handed out so far: each one ends at most at L + inc - 1
// (values handed out or cached are at most L). nextval goes on from L by the increment in
// force, so a larger step (same direction) starts past L + inc - 1 by itself, but a smaller
// one, inc' < inc, would start at L + inc' and land inside the last block. Before such an
// ALTER runs, this sets last_value to L + inc - inc', so that the next value, L + inc, is
// past every earlier block; the bound holds again with inc' (every block ends at most at
// (L + inc - inc') + inc' - 1). Descending sequences are the mirror image, with the same
// formula. A change of direction, RESTART, setval back and CYCLE are outside this promise
// (they hand earlier values out again by design).
//
// The sequence is locked as ALTER SEQUENCE locks it (ShareRowExclusiveLock, after the same
// ownership check), before last_value is read: no nextval runs between the read and the
// ALTER's commit. Values other sessions cached under the old step are never handed out:
// changing INCREMENT rewrites the sequence, and nextval drops cached values of a sequence
// whose file changed. The skipped values are a gap, as a rolled-back nextval leaves.
Datum idseq_sequence_step_guard(PG_FUNCTION_ARGS)
{
    if (!CALLED_AS_EVENT_TRIGGER(fcinfo))
        ereport(ERROR, (errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
                        errmsg("idseq_sequence_step_guard() must be called as an event trigger")));
    Node* parsetree = ((EventTriggerData*) fcinfo->context)->parsetree;
    if (IsA(parsetree, AlterSeqStmt)) {
        AlterSeqStmt* stmt = (AlterSeqStmt*) parsetree;
        StepChange change = step_change(stmt->options);
        if (!change.increment)
            PG_RETURN_VOID();
        // Looked up and locked as ALTER SEQUENCE does it.
        Oid relid = RangeVarGetRelidExtended(stmt->sequence, ShareRowExclusiveLock,
                                             stmt->missing_ok ? RVR_MISSING_OK : 0, RangeVarCallbackOwnsRelation, NULL);
        if (OidIsValid(relid) && get_rel_relkind(relid) == RELKIND_SEQUENCE)
            move_past_last_block(relid, change);
        PG_RETURN_VOID();
    }
    // ALTER TABLE ... ALTER COLUMN ... SET INCREMENT BY on an identity column: ALTER TABLE
    // runs the sequence's ALTER as a subcommand, for which no ddl_command_start fires.
    if (!IsA(parsetree, AlterTableStmt))
        PG_RETURN_VOID();
    AlterTableStmt* stmt = (AlterTableStmt*) parsetree;
    Oid table = InvalidOid;
    ListCell* lc;
    foreach (lc, stmt->cmds) {
        AlterTableCmd* cmd = (AlterTableCmd*) lfirst(lc);
        if (cmd->subtype != AT_SetIdentity || !cmd->name || !cmd->def || !IsA(cmd->def, List))
            continue;
        StepChange change = step_change((List*) cmd->def);
        if (!change.increment)
            continue;
        // AccessExclusiveLock is what ALTER TABLE takes for identity options: taking it first
        // means ALTER TABLE never has to upgrade a lock taken here.
        if (!OidIsValid(table))
            table = RangeVarGetRelidExtended(stmt->relation, AccessExclusiveLock,
                                             stmt->missing_ok ? RVR_MISSING_OK : 0, RangeVarCallbackOwnsRelation, NULL);
        if (!OidIsValid(table))
            PG_RETURN_VOID();
        Oid seq = identity_sequence(table, get_attnum(table, cmd->name));
        if (!OidIsValid(seq))
            continue; // not an identity column: ALTER TABLE reports it
        LockRelationOid(seq, ShareRowExclusiveLock);
        move_past_last_block(seq, change);
    }
    PG_RETURN_VOID();
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
        code::check_sequence_width(*cs, width);
        cap = code::capacity(cs->base(), width);
    });
    Oid nspid;
    char* relname = creation_target(name_arg, &nspid);
    char* qualified = quote_qualified_identifier(get_namespace_name(nspid), relname);
    char* sql = psprintf("CREATE SEQUENCE %s MINVALUE 0 MAXVALUE " INT64_FORMAT " START 0 CYCLE", qualified, cap - 1);
    idseq::pg::internal_sql_connect();
    idseq::pg::internal_sql_run(sql, 0, nullptr, nullptr, nullptr, false, SPI_OK_UTILITY);
    idseq::pg::internal_sql_finish();
    Oid relid = get_relname_relid(relname, nspid);
    if (!OidIsValid(relid) || get_rel_relkind(relid) != RELKIND_SEQUENCE)
        elog(ERROR, "sequence %s was not created", qualified);
    remember_code_charset(fcinfo, relid, cs);
    PG_RETURN_OID(relid);
}

// The next code of a cycling sequence MINVALUE 0 MAXVALUE base^width - 1 INCREMENT 1 CYCLE.
// Called on null input: a null charset (the default) is the sequence's own (see above).
Datum nextval_code(PG_FUNCTION_ARGS)
{
    if (PG_ARGISNULL(0))
        PG_RETURN_NULL();
    Oid relid = PG_GETARG_OID(0);
    const Charset* cs = code_charset(fcinfo, relid);
    SeqShape* s = get_shape(relid);
    if (unlikely(s->citus == CitusRole::worker_range || s->citus == CitusRole::worker_other))
        reject_code_on_worker(relid, s);
    int width = code_width_for(fcinfo, relid, s, cs);
    int64 v = take_nextval(relid);
    if (unlikely(!s->valid)) { // altered while we waited for nextval's lock
        s = get_shape(relid);
        width = code_width_for(fcinfo, relid, s, cs);
    }
    if (unlikely(v < 0 || v > s->max)) // cannot happen: the shape was checked under nextval's lock
        elog(ERROR, "sequence value " INT64_FORMAT " is outside the code range", v);
    PG_RETURN_TEXT_P(code_text(cs, v, width));
}

} // extern "C"
