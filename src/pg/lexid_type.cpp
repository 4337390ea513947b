// The lexid base type: I/O, type modifier, operators, btree/hash support, arithmetic.
//
// Stored form (varlena): int32 charset id, then one byte per symbol holding its digit
// value. Digits, not spellings, are stored, so case-insensitive input is canonical and
// comparing two values never consults the charset: shortlex order is "length first, then
// memcmp of the digits".
//
// Untyped values. PostgreSQL calls a type's input function with typmod -1 for a literal
// such as '-_'::lexid(base64url) or WHERE code = 'aB', and applies the type modifier
// afterwards. So input without a charset keeps the text as written (charset id 0, the
// payload is the spelling) after lexical checks only (see literal_to_datum). Such a value
// takes its charset from its context: the column type it is assigned to, or the typed
// value it is compared with (lexid_untyped.cpp makes that explicit in plans); used on its
// own (+, lexid_rank, ...) it is read as base36, as documented. Two untyped values are never
// compared with each other here (42804, see untyped_pair_error): the planner hook types
// those it sees as base36 first, and the others may be serving a typed comparison. Its
// output is the spelling exactly as written, so that anything that prints a query or a
// value and reads it back (views, pg_dump, postgres_fdw, Citus, logical decoding) gets
// the same untyped value, to be read in the same context.
//
// Tables never store untyped values: the event trigger idseq_lexid_column_guard refuses a
// stored attribute of type lexid without a charset. Every stored value is therefore typed,
// in canonical digits, and all the values of one column have one charset: two of them are
// equal exactly when their bytes are, which is what btequalimage (deduplication) relies on.
#include "charset.h"
#include "lexid.h"

#include <string>
#include <vector>

#include "core_call.h"
#include "quoted_text_pg.h"
#include "charset_registry.h"

extern "C" {
#include "access/hash.h"
#include "catalog/pg_type.h"
#include "common/hashfn.h"
#include "lib/hyperloglog.h"
#include "lib/stringinfo.h"
#include "libpq/pqformat.h"
#include "mb/pg_wchar.h"
#include "utils/array.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/numeric.h"
#include "utils/sortsupport.h"

PG_FUNCTION_INFO_V1(lexid_in);
PG_FUNCTION_INFO_V1(lexid_out);
PG_FUNCTION_INFO_V1(lexid_recv);
PG_FUNCTION_INFO_V1(lexid_send);
PG_FUNCTION_INFO_V1(lexid_typmod_in);
PG_FUNCTION_INFO_V1(lexid_typmod_out);
PG_FUNCTION_INFO_V1(lexid_coerce);
PG_FUNCTION_INFO_V1(lexid_from_text);
PG_FUNCTION_INFO_V1(lexid_to_text);
PG_FUNCTION_INFO_V1(lexid_eq);
PG_FUNCTION_INFO_V1(lexid_ne);
PG_FUNCTION_INFO_V1(lexid_lt);
PG_FUNCTION_INFO_V1(lexid_le);
PG_FUNCTION_INFO_V1(lexid_gt);
PG_FUNCTION_INFO_V1(lexid_ge);
PG_FUNCTION_INFO_V1(lexid_eq_text);
PG_FUNCTION_INFO_V1(text_eq_lexid);
PG_FUNCTION_INFO_V1(lexid_ne_text);
PG_FUNCTION_INFO_V1(text_ne_lexid);
PG_FUNCTION_INFO_V1(lexid_lt_text);
PG_FUNCTION_INFO_V1(text_lt_lexid);
PG_FUNCTION_INFO_V1(lexid_le_text);
PG_FUNCTION_INFO_V1(text_le_lexid);
PG_FUNCTION_INFO_V1(lexid_gt_text);
PG_FUNCTION_INFO_V1(text_gt_lexid);
PG_FUNCTION_INFO_V1(lexid_ge_text);
PG_FUNCTION_INFO_V1(text_ge_lexid);
PG_FUNCTION_INFO_V1(lexid_cmp);
PG_FUNCTION_INFO_V1(lexid_larger);
PG_FUNCTION_INFO_V1(lexid_smaller);
PG_FUNCTION_INFO_V1(lexid_smaller_as_written);
PG_FUNCTION_INFO_V1(lexid_larger_as_written);
PG_FUNCTION_INFO_V1(lexid_as_written_combine);
PG_FUNCTION_INFO_V1(lexid_as_written_serialize);
PG_FUNCTION_INFO_V1(lexid_as_written_deserialize);
PG_FUNCTION_INFO_V1(lexid_as_written_final);
PG_FUNCTION_INFO_V1(lexid_sortsupport);
PG_FUNCTION_INFO_V1(lexid_hash);
PG_FUNCTION_INFO_V1(lexid_hash_extended);
PG_FUNCTION_INFO_V1(lexid_add_int8);
PG_FUNCTION_INFO_V1(lexid_sub_int8);
PG_FUNCTION_INFO_V1(lexid_distance);
PG_FUNCTION_INFO_V1(lexical_add_text);
PG_FUNCTION_INFO_V1(lexid_rank);
PG_FUNCTION_INFO_V1(lexid_from_rank);
PG_FUNCTION_INFO_V1(lexid_charset);
PG_FUNCTION_INFO_V1(idseq_charset_check);
PG_FUNCTION_INFO_V1(idseq_create_charset);
PG_FUNCTION_INFO_V1(idseq_builtin_charsets);
}

#include "lexid_type.h"

using idseq::Charset;
using idseq::ErrorKind;
using idseq::pg::run;
namespace lex = idseq::lex;

namespace {

// Function-static scratch: lives forever, so a longjmp can never skip its destructor.
lex::Digits& scratch_digits()
{
    static lex::Digits* d = new lex::Digits();
    return *d;
}
std::string& scratch_text()
{
    static std::string* s = new std::string();
    return *s;
}

int32 default_charset_id = 5; // base36

const Charset* charset_by_typmod(int32 typmod)
{
    return idseq::pg::charset_by_id(typmod >= 0 ? typmod : default_charset_id);
}

Datum parse_to_datum(const Charset* cs, const char* str, size_t len)
{
    lex::Digits& d = scratch_digits();
    run([&] { lex::parse(*cs, std::string_view(str, len), d); });
    return PointerGetDatum(lexid_make(cs->id(), d.data(), d.size()));
}

// Input without a charset: an untyped literal, kept as written. Only what no charset's
// definition can change is checked here (lex::check_spelling), so the result of this
// IMMUTABLE input function never depends on the registry's contents and costs O(length);
// the symbols are checked where the value meets a charset (resolve), whose error names the
// charset and the symbol it refused.
// Symbols are read as UTF-8 characters. In a database of another encoding (LATIN1,
// EUC_JP, SQL_ASCII, ...) only ASCII means the same there and in UTF-8, so a charset with a
// non-ASCII symbol is refused when it is created (every path: idseq_create_charset, a
// self-describing type modifier, a row restored into the registry, whose CHECK calls
// this). Stored values, codes and messages of such a database are then ASCII throughout.
void check_symbols_encoding(const char* name, const char* symbols)
{
    if (GetDatabaseEncoding() == PG_UTF8)
        return;
    for (const char* p = symbols; *p; p++)
        if ((unsigned char) *p >= 0x80)
            ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                            errmsg("charset \"%s\" has a non-ASCII symbol, which idseq supports only in UTF8 databases",
                                   idseq::pg::shown(name)),
                            errdetail("This database's encoding is %s; idseq reads charset symbols as UTF-8 "
                                      "characters, and only ASCII characters are the same in both.",
                                      GetDatabaseEncodingName()),
                            errhint("Use ASCII symbols, or create the database with ENCODING 'UTF8'.")));
}

Datum literal_to_datum(const char* str, size_t len)
{
    // Outside UTF8 databases only ASCII reads the same as in UTF-8 (and no charset has
    // another symbol there): SQL_ASCII would otherwise keep any bytes that happen to be UTF-8.
    const bool ascii_only = GetDatabaseEncoding() != PG_UTF8;
    run([&] { lex::check_spelling(std::string_view(str, len), ascii_only); });
    Lexid* v = (Lexid*) palloc0(LEXID_HDRSZ + len);
    SET_VARSIZE(v, LEXID_HDRSZ + len);
    memcpy(VARDATA(v) + sizeof(int32), str, len);
    return PointerGetDatum(v);
}

// A typed value: v itself, or the untyped literal v read in charset_id (base36 if 0). A
// symbol the charset refuses is 22P02 naming the charset and the symbol; read as base36 for
// want of a charset, the error also says how to name one.
Lexid* resolve(Lexid* v, int32 charset_id)
{
    if (lexid_charset_id(v) != 0)
        return v;
    if (charset_id != 0)
        return (Lexid*) DatumGetPointer(
            parse_to_datum(idseq::pg::charset_by_id(charset_id), (const char*) lexid_digits(v), lexid_length(v)));
    const Charset* cs = idseq::pg::charset_by_id(default_charset_id);
    lex::Digits& d = scratch_digits();
    run([&] {
        try {
            lex::parse(*cs, std::string_view((const char*) lexid_digits(v), lexid_length(v)), d);
        } catch (const idseq::Error& e) {
            if (e.reason() != idseq::ErrorReason::InvalidSymbol)
                throw;
            throw idseq::Error(e.kind(), e.reason(), e.what(),
                               e.detail() + " A lexid written without a charset is read as base36 where nothing gives it one.",
                               "Name the charset with a type modifier, for example lexid(base62).");
        }
    });
    return lexid_make(cs->id(), d.data(), d.size());
}

const Charset* charset_of(const Lexid* v)
{
    return idseq::pg::charset_by_id(lexid_charset_id(v));
}

// The charset of a typed value, its digits checked against the base. A digit >= base (a
// value written under another definition of its charset id, or damaged on disk) is a clean
// XX001 error here, before any path indexes the charset's symbols with it.
const Charset* checked_charset(const Lexid* v)
{
    const Charset* cs = charset_of(v);
    size_t n = lexid_length(v);
    size_t bad = lex::first_bad_digit(lexid_digits(v), n, cs->base());
    if (bad < n)
        ereport(ERROR, (errcode(ERRCODE_DATA_CORRUPTED),
                        errmsg("lexid value holds digit %d at position %d, but charset \"%s\" has %d symbols",
                               lexid_digits(v)[bad], (int) bad + 1, cs->name().c_str(), cs->base()),
                        errdetail("The value was written under another definition of the charset id %d, or it is damaged.",
                                  cs->id()),
                        errhint("Find the row and rewrite the value, or restore it from a backup.")));
    return cs;
}

char* format_cstring(Lexid* v)
{
    if (lexid_charset_id(v) == 0) // untyped: the spelling as written
        return pnstrdup((const char*) lexid_digits(v), lexid_length(v));
    const Charset* cs = checked_charset(v);
    std::string& s = scratch_text();
    run([&] {
        s.clear();
        lex::format(*cs, lexid_digits(v), lexid_length(v), s);
    });
    char* out = (char*) palloc(s.size() + 1);
    memcpy(out, s.data(), s.size() + 1);
    return out;
}

void check_same_charset_ids(int32 a, int32 b)
{
    if (a != b) {
        const char* na = pstrdup(idseq::pg::charset_by_id(a)->name().c_str());
        ereport(ERROR, (errcode(ERRCODE_DATATYPE_MISMATCH),
                        errmsg("cannot compare lexid values of charsets \"%s\" and \"%s\"", na,
                               idseq::pg::charset_by_id(b)->name().c_str()),
                        errhint("Convert one value with lexid_from_rank(lexid_rank(v), '%s').", na)));
    }
}

void check_same_charset(const Lexid* a, const Lexid* b)
{
    check_same_charset_ids(lexid_charset_id(a), lexid_charset_id(b));
}

// Both values typed, in the same charset; an untyped literal takes the other's charset.
void resolve_pair(Lexid*& a, Lexid*& b)
{
    a = resolve(a, lexid_charset_id(b));
    b = resolve(b, lexid_charset_id(a));
    check_same_charset(a, b);
}

// Two untyped values have no charset to be compared in: their order depends on the charset
// of the typed value they serve (under base62 'a' < 'B', under base36 'a' = 'A' < 'B'). The
// planner hook (lexid_untyped.cpp) types every untyped value it can see: compared with a
// typed one, in that one's charset; compared with each other or free-standing, in base36.
// Two untyped values that still meet at run time meet inside machinery the hook did not see
// (an inlined SQL function, a plan made before the library was loaded, the elements of an
// IN list beside an expression without a type modifier), which may be serving a typed
// comparison: reading them as base36 there gave wrong rows, so it is an error.
[[noreturn]] void untyped_pair_error(const Lexid* a, const Lexid* b)
{
    ereport(ERROR, (errcode(ERRCODE_DATATYPE_MISMATCH),
                    errmsg("cannot compare lexid values \"%s\" and \"%s\" without a charset",
                           idseq::pg::shown((const char*) lexid_digits(a), lexid_length(a)),
                           idseq::pg::shown((const char*) lexid_digits(b), lexid_length(b))),
                    errdetail("Neither value names a charset, and their order depends on the charset."),
                    errhint("Cast one of them, for example 'Ab'::lexid(base62), or preload idseq "
                            "(session_preload_libraries or shared_preload_libraries) so that stored queries are "
                            "typed when they are planned.")));
}

int compare_datums(Datum a, Datum b)
{
    Lexid* x = (Lexid*) PG_DETOAST_DATUM_PACKED(a);
    Lexid* y = (Lexid*) PG_DETOAST_DATUM_PACKED(b);
    if (lexid_charset_id(x) == 0 && lexid_charset_id(y) == 0)
        untyped_pair_error(x, y);
    resolve_pair(x, y);
    return lex::compare(lexid_digits(x), lexid_length(x), lexid_digits(y), lexid_length(y));
}

// lexid_larger/lexid_smaller (min() and max()): two untyped values are the error of
// compare_datums. The planner hook replaces min() and max() of values without a charset
// written in a query (lexid_min_as_written, below); values that reach the transition function
// untyped came from elsewhere (a Citus coordinator combining its workers' results, which
// arrive as text), and comparing them as base36 would give a wrong answer for any other
// charset.
int compare_for_aggregate(FunctionCallInfo fcinfo)
{
    return compare_datums(PG_GETARG_DATUM(0), PG_GETARG_DATUM(1));
}

// The hash key is the spelling folded so that spellings any charset calls equal agree:
// ASCII letters lowered, Crockford's o, i, l read as 0, 1, 1. Equal values then hash alike,
// typed or untyped (hashed IN lists and hash joins compare typed columns with literals).
const std::string& hash_key(Lexid* v)
{
    std::string& s = scratch_text();
    const Charset* cs = lexid_charset_id(v) ? checked_charset(v) : nullptr;
    run([&] {
        s.clear();
        if (cs)
            lex::format(*cs, lexid_digits(v), lexid_length(v), s);
        else
            s.assign((const char*) lexid_digits(v), lexid_length(v));
        for (char& c : s) {
            if (c >= 'A' && c <= 'Z')
                c = (char) (c + 32);
            if (c == 'o')
                c = '0';
            else if (c == 'i' || c == 'l')
                c = '1';
        }
    });
    return s;
}

// The last text an operator function read, and its digits, in flinfo->fn_extra: a scan
// filter compares every row with the same text; reading it again for
// each row made `code >= 'A'::text` cost three times `code >= 'A'::lexid(base62)`.
struct TextKeyCache {
    int32 charset_id;
    size_t len;
    Lexid* value;
    char text[FLEXIBLE_ARRAY_MEMBER];
};

Lexid* text_in_charset(const Charset* cs, text* t, FmgrInfo* flinfo)
{
    const char* s = VARDATA_ANY(t);
    size_t n = VARSIZE_ANY_EXHDR(t);
    TextKeyCache* c = flinfo ? (TextKeyCache*) flinfo->fn_extra : nullptr;
    if (c && c->charset_id == cs->id() && c->len == n && memcmp(c->text, s, n) == 0)
        return c->value;
    Lexid* w = (Lexid*) DatumGetPointer(parse_to_datum(cs, s, n)); // 22P02 before the cache changes
    if (flinfo == nullptr)
        return w;
    Size wsize = VARSIZE(w);
    TextKeyCache* fresh =
        (TextKeyCache*) MemoryContextAlloc(flinfo->fn_mcxt, offsetof(TextKeyCache, text) + MAXALIGN(n) + wsize);
    fresh->charset_id = cs->id();
    fresh->len = n;
    memcpy(fresh->text, s, n);
    fresh->value = (Lexid*) (fresh->text + MAXALIGN(n));
    memcpy((char*) fresh->value, w, wsize);
    pfree(w);
    if (c)
        pfree(c);
    flinfo->fn_extra = fresh;
    return fresh->value;
}

int compare_with_text(Lexid* v, text* t, FmgrInfo* flinfo = nullptr)
{
    v = resolve(v, 0);
    Lexid* w = text_in_charset(charset_of(v), t, flinfo);
    return lex::compare(lexid_digits(v), lexid_length(v), lexid_digits(w), lexid_length(w));
}

Datum numeric_from_cstring(const char* s)
{
    return DirectFunctionCall3(numeric_in, CStringGetDatum(s), ObjectIdGetDatum(InvalidOid), Int32GetDatum(-1));
}

Datum add_datum(Lexid* v, int64 n)
{
    v = resolve(v, 0);
    const Charset* cs = checked_charset(v);
    lex::Digits& d = scratch_digits();
    run([&] {
        d.assign(lexid_digits(v), lexid_digits(v) + lexid_length(v));
        lex::add(d, cs->base(), n);
    });
    return PointerGetDatum(lexid_make(cs->id(), d.data(), d.size()));
}

// Abbreviated keys (lex::abbrev_key): the full length (11 bits), then the first digits
// packed in the charset's base, so two keys of one charset order like their values whenever
// they differ, at every length up to 1024. An untyped value's digits depend on the value it
// meets, so its key holds only its length in symbols (one symbol is one character in every
// charset): it decides against a key of another length, and leaves equal lengths to the
// full comparator.
struct AbbrevState {
    int32 charset_id; // of the typed values seen so far, 0 before the first
    int base;
    int ndigits;
    int64 input_count;
    bool estimating;
    hyperLogLogState cardinality; // of the keys, to give up when they do not discriminate
};

size_t utf8_length(const uint8* s, size_t n)
{
    size_t chars = 0;
    for (size_t i = 0; i < n; i++)
        chars += (s[i] & 0xC0) != 0x80;
    return chars;
}

Datum abbrev_convert(Datum original, SortSupport ssup)
{
    AbbrevState* st = (AbbrevState*) ssup->ssup_extra;
    Lexid* v = (Lexid*) PG_DETOAST_DATUM_PACKED(original);
    int32 id = lexid_charset_id(v);
    uint64 key;
    if (id == 0) {
        key = lex::abbrev_length_key(utf8_length(lexid_digits(v), lexid_length(v)));
    } else {
        // The key leaves the charset out, so check here what the comparator would: one charset.
        if (st->charset_id == 0) {
            const Charset* cs = charset_of(v);
            st->charset_id = id;
            st->base = cs->base();
            run([&] { st->ndigits = lex::abbrev_digits(st->base); });
        } else if (st->charset_id != id)
            check_same_charset_ids(id, st->charset_id);
        size_t n = lexid_length(v);
        const uint8* d = lexid_digits(v);
        size_t used = Min(n, (size_t) st->ndigits);
        if (lex::first_bad_digit(d, used, st->base) < used)
            (void) checked_charset(v); // reports the bad digit
        key = lex::abbrev_key(d, n, st->base, st->ndigits);
    }
    if ((Pointer) v != DatumGetPointer(original)) // detoasted for the key only
        pfree(v);
    st->input_count++;
    if (st->estimating)
        addHyperLogLog(&st->cardinality, DatumGetUInt32(hash_uint32((uint32) (key ^ (key >> 32)))));
    return UInt64GetDatum(key);
}

int abbrev_cmp(Datum x, Datum y, SortSupport)
{
    return lex::abbrev_compare(DatumGetUInt64(x), DatumGetUInt64(y));
}

// As core's uuid_abbrev_abort: give up when the keys stop telling values apart (long
// common prefixes), once enough rows were seen to tell.
bool abbrev_abort(int memtupcount, SortSupport ssup)
{
    AbbrevState* st = (AbbrevState*) ssup->ssup_extra;
    if (memtupcount < 10000 || st->input_count < 10000 || !st->estimating)
        return false;
    double card = estimateHyperLogLog(&st->cardinality);
    if (card > 100000.0) { // discriminating enough: stop estimating
        st->estimating = false;
        return false;
    }
    double threshold = st->input_count / 2000.0 + 0.5;
    if (card >= threshold)
        return false;
    if (trace_sort)
        elog(LOG, "lexid_abbrev: aborting abbreviation at cardinality %f below threshold %f after " INT64_FORMAT
                  " values (%d rows)",
             card, threshold, st->input_count, memtupcount);
    return true;
}

int fast_cmp(Datum x, Datum y, SortSupport)
{
    return compare_datums(x, y);
}

} // namespace

Lexid* lexid_resolve(Lexid* v, int32 charset_id)
{
    return resolve(v, charset_id);
}

Lexid* lexid_add(Lexid* v, int64 n)
{
    return (Lexid*) DatumGetPointer(add_datum(v, n));
}

Lexid* lexid_make(int32 charset_id, const uint8* digits, size_t n)
{
    Size size = LEXID_HDRSZ + n;
    Lexid* v = (Lexid*) palloc0(size);
    SET_VARSIZE(v, size);
    memcpy(VARDATA(v), &charset_id, sizeof(int32));
    if (n > 0)
        memcpy(VARDATA(v) + sizeof(int32), digits, n);
    return v;
}

extern "C" {

Datum lexid_in(PG_FUNCTION_ARGS)
{
    char* str = PG_GETARG_CSTRING(0);
    int32 typmod = PG_NARGS() > 2 ? PG_GETARG_INT32(2) : -1;
    if (typmod < 0)
        return literal_to_datum(str, strlen(str));
    return parse_to_datum(charset_by_typmod(typmod), str, strlen(str));
}

Datum lexid_out(PG_FUNCTION_ARGS)
{
    PG_RETURN_CSTRING(format_cstring(PG_GETARG_LEXID_PP(0)));
}

// Binary form. Version 2, for values of custom charsets: int8 version, text charset name,
// the charset's 16-byte fingerprint (Charset::fingerprint: its symbols and case folding),
// int4 length, length digit bytes. Version 1 (idseq 1.1), for built-in charsets and untyped
// values: the same without the fingerprint; an untyped value has the empty charset name and
// its spelling (UTF-8 bytes) for digits.
//
// Digits mean something only under one definition of the charset: the receiver checks the
// fingerprint against its own charset of that name, so a value never arrives re-spelled in a
// differently defined same-named charset (42804, as array_recv and record_recv report a
// binary value whose embedded type is not the one expected). A built-in charset has one
// definition in every release, so its values keep version 1, which an idseq 1.1 receiver
// (a subscriber or a Citus worker not yet updated) still reads; a 1.1 receiver refuses a
// custom charset's version 2 value rather than re-spelling it.
//
// A version-1 value of a custom charset (a 1.1 publisher in binary logical replication, an
// old binary dump) is refused: nothing in it tells which definition its digits were written
// under.
namespace {

constexpr int kBinaryVersion = 2;

[[noreturn]] void binary_definition_error(const char* name, int version)
{
    if (version == 1)
        ereport(ERROR, (errcode(ERRCODE_DATATYPE_MISMATCH),
                        errmsg("binary lexid value of custom charset \"%s\" does not identify the charset's definition",
                               name),
                        errdetail("The value is in binary format version 1 (idseq 1.1), which carries the charset's "
                                  "name but not its symbols; its digits cannot be checked against this database's "
                                  "definition of \"%s\".",
                                  name),
                        errhint("Copy the data in text format (for a subscription: ALTER SUBSCRIPTION ... SET "
                                "(binary = false)), or update idseq on the sending server to 1.2.")));
    ereport(ERROR, (errcode(ERRCODE_DATATYPE_MISMATCH),
                    errmsg("binary lexid value of charset \"%s\" was written under another definition of the charset",
                           name),
                    errdetail("The sending database defines \"%s\" with other symbols or other case folding than this "
                              "one; its digits would be read as other symbols here.",
                              name),
                    errhint("Define the charset identically in both databases (compare idseq_charsets), or convert "
                            "the values: text format reads them back by spelling.")));
}

} // namespace

Datum lexid_recv(PG_FUNCTION_ARGS)
{
    StringInfo buf = (StringInfo) PG_GETARG_POINTER(0);
    int32 typmod = PG_NARGS() > 2 ? PG_GETARG_INT32(2) : -1;
    int version = pq_getmsgbyte(buf);
    if (version != 1 && version != kBinaryVersion)
        ereport(ERROR, (errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
                        errmsg("unsupported binary lexid format version %d", version),
                        errhint("This server reads versions 1 and 2.")));
    const char* name = pq_getmsgstring(buf);
    if (name[0] == '\0') {
        int32 n = pq_getmsgint(buf, 4);
        if (n < 1 || (size_t) n > 4 * lex::kMaxLength)
            ereport(ERROR, (errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
                            errmsg("invalid binary length %d of an untyped lexid value", n)));
        const char* spelling = pq_getmsgbytes(buf, n);
        if (memchr(spelling, '\0', n))
            ereport(ERROR, (errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
                            errmsg("untyped binary lexid value contains a zero byte")));
        if (typmod < 0)
            return literal_to_datum(spelling, n);
        return parse_to_datum(charset_by_typmod(typmod), spelling, n);
    }
    const Charset* cs = idseq::pg::charset_by_name(name);
    if (typmod >= 0 && typmod != cs->id())
        ereport(ERROR, (errcode(ERRCODE_DATATYPE_MISMATCH),
                        errmsg("binary lexid value of charset \"%s\" does not match lexid(%s)", name,
                               charset_by_typmod(typmod)->name().c_str())));
    if (version == 1) {
        if (!cs->builtin())
            binary_definition_error(name, version);
    } else {
        const char* fp = pq_getmsgbytes(buf, (int) Charset::kFingerprintBytes);
        if (memcmp(fp, cs->fingerprint().data(), Charset::kFingerprintBytes) != 0)
            binary_definition_error(name, version);
    }
    int32 n = pq_getmsgint(buf, 4);
    if (n < 1 || (size_t) n > lex::kMaxLength)
        ereport(ERROR, (errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
                        errmsg("invalid binary lexid length %d", n),
                        errdetail("A lexid value has 1 to 1024 symbols.")));
    const uint8* digits = (const uint8*) pq_getmsgbytes(buf, n);
    for (int i = 0; i < n; i++)
        if (digits[i] >= cs->base())
            ereport(ERROR, (errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
                            errmsg("invalid digit %d at position %d in binary lexid value", digits[i], i + 1),
                            errdetail("The charset \"%s\" has %d symbols.", name, cs->base())));
    PG_RETURN_POINTER(lexid_make(cs->id(), digits, n));
}

Datum lexid_send(PG_FUNCTION_ARGS)
{
    Lexid* v = PG_GETARG_LEXID_PP(0);
    const Charset* cs = lexid_charset_id(v) == 0 ? nullptr : checked_charset(v);
    StringInfoData buf;
    pq_begintypsend(&buf);
    const bool fingerprinted = cs != nullptr && !cs->builtin();
    pq_sendbyte(&buf, fingerprinted ? kBinaryVersion : 1);
    pq_sendstring(&buf, cs ? cs->name().c_str() : "");
    if (fingerprinted)
        pq_sendbytes(&buf, (const char*) cs->fingerprint().data(), (int) Charset::kFingerprintBytes);
    pq_sendint32(&buf, (int32) lexid_length(v));
    pq_sendbytes(&buf, (const char*) lexid_digits(v), (int) lexid_length(v));
    PG_RETURN_BYTEA_P(pq_endtypsend(&buf));
}

// lexid(name) or the self-describing lexid(name, 'symbols' [, ci]) that pg_dump writes for
// custom charsets, so that a restore can create tables before the registry's rows arrive.
Datum lexid_typmod_in(PG_FUNCTION_ARGS)
{
    ArrayType* arr = PG_GETARG_ARRAYTYPE_P(0);
    Datum* elems;
    int n;
    deconstruct_array(arr, CSTRINGOID, -2, false, TYPALIGN_CHAR, &elems, NULL, &n);
    if (n < 1 || n > 3)
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("invalid type modifier for lexid"),
                        errhint("Write lexid(charset_name), for example lexid(crockford32).")));
    const char* name = DatumGetCString(elems[0]);
    const Charset* cs;
    if (n == 1)
        cs = idseq::pg::charset_by_name(name);
    else {
        const char* flag = n == 3 ? DatumGetCString(elems[2]) : "cs";
        if (strcmp(flag, "ci") != 0 && strcmp(flag, "cs") != 0)
            ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                            errmsg("invalid case flag \"%s\" in lexid type modifier", flag),
                            errhint("Use ci for a case-insensitive charset or cs for a case-sensitive one.")));
        const char* symbols = DatumGetCString(elems[1]);
        const bool ci = strcmp(flag, "ci") == 0;
        check_symbols_encoding(name, symbols);
        // pg_upgrade: its schema restore may create a table before the registry table exists,
        // and it then moves the registry's rows with their data files. The type modifier
        // only has to be the id the name calls for, of a valid definition.
        if (IsBinaryUpgrade) {
            int32 id = 0;
            run([&] {
                idseq::validate_charset_name(name);
                if (!idseq::builtin_charset(std::string_view(name))) {
                    id = idseq::custom_charset_id(name);
                    (void) Charset::make(id, name, symbols, ci);
                }
            });
            if (id != 0)
                PG_RETURN_INT32(id);
        }
        cs = idseq::pg::register_charset(name, symbols, ci, true);
    }
    PG_RETURN_INT32(cs->id());
}

Datum lexid_typmod_out(PG_FUNCTION_ARGS)
{
    int32 typmod = PG_GETARG_INT32(0);
    if (typmod < 0)
        PG_RETURN_CSTRING(pstrdup(""));
    const Charset* cs = idseq::pg::charset_by_id(typmod);
    // The name as an identifier, quoted where the grammar needs it (a charset may be named
    // select): the parser dequotes it before lexid_typmod_in sees it.
    const char* name = quote_identifier(cs->name().c_str());
    if (cs->builtin())
        PG_RETURN_CSTRING(psprintf("(%s)", name));
    PG_RETURN_CSTRING(psprintf("(%s,%s%s)", name, quote_literal_cstr(cs->symbols().c_str()),
                               cs->case_insensitive() ? ",ci" : ""));
}

// The length coercion to lexid(charset), applied by assignments, casts and PL/pgSQL alike:
// the value must already be of that charset. The message says "cast", true in every one of
// those contexts, and quotes at most 64 bytes of the value.
Datum lexid_coerce(PG_FUNCTION_ARGS)
{
    Lexid* v = PG_GETARG_LEXID_PP(0);
    int32 typmod = PG_GETARG_INT32(1);
    if (typmod < 0)
        PG_RETURN_POINTER(v);
    v = resolve(v, typmod);
    (void) checked_charset(v);
    if (lexid_charset_id(v) != typmod) {
        const char* target = charset_by_typmod(typmod)->name().c_str();
        const char* value = format_cstring(v);
        ereport(ERROR, (errcode(ERRCODE_DATATYPE_MISMATCH),
                        errmsg("lexid value \"%s\" of charset \"%s\" cannot be cast to lexid(%s)",
                               idseq::pg::shown(value), charset_of(v)->name().c_str(), target),
                        errdetail("A lexid value keeps its charset; a type modifier does not convert it."),
                        errhint("Write a literal or a generator's seed with the charset meant, for example "
                                "'...'::lexid(%s); to keep the value's rank in the other charset instead, convert it "
                                "with lexid_from_rank(lexid_rank(value), '%s').",
                                target, target)));
    }
    PG_RETURN_POINTER(v);
}

Datum lexid_from_text(PG_FUNCTION_ARGS)
{
    text* t = PG_GETARG_TEXT_PP(0);
    int32 typmod = PG_NARGS() > 1 ? PG_GETARG_INT32(1) : -1;
    if (typmod < 0)
        return literal_to_datum(VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t));
    return parse_to_datum(charset_by_typmod(typmod), VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t));
}

Datum lexid_to_text(PG_FUNCTION_ARGS)
{
    PG_RETURN_TEXT_P(cstring_to_text(format_cstring(PG_GETARG_LEXID_PP(0))));
}

#define LEXID_CMP_FN(fname, expr)                                                                                      \
    Datum fname(PG_FUNCTION_ARGS)                                                                                      \
    {                                                                                                                  \
        int c = compare_datums(PG_GETARG_DATUM(0), PG_GETARG_DATUM(1));                                                \
        PG_RETURN_BOOL(expr);                                                                                          \
    }
LEXID_CMP_FN(lexid_eq, c == 0)
LEXID_CMP_FN(lexid_ne, c != 0)
LEXID_CMP_FN(lexid_lt, c < 0)
LEXID_CMP_FN(lexid_le, c <= 0)
LEXID_CMP_FN(lexid_gt, c > 0)
LEXID_CMP_FN(lexid_ge, c >= 0)

// lexid compared with text: the text is read in the lexid's charset (22P02 if it does not
// read), and the comparison is shortlex, never text order.
#define LEXID_TEXT_CMP_FN(fname, rname, expr)                                                                          \
    Datum fname(PG_FUNCTION_ARGS)                                                                                      \
    {                                                                                                                  \
        int c = compare_with_text(PG_GETARG_LEXID_PP(0), PG_GETARG_TEXT_PP(1), fcinfo->flinfo);                        \
        PG_RETURN_BOOL(expr);                                                                                          \
    }                                                                                                                  \
    Datum rname(PG_FUNCTION_ARGS)                                                                                      \
    {                                                                                                                  \
        int c = -compare_with_text(PG_GETARG_LEXID_PP(1), PG_GETARG_TEXT_PP(0), fcinfo->flinfo);                       \
        PG_RETURN_BOOL(expr);                                                                                          \
    }
LEXID_TEXT_CMP_FN(lexid_eq_text, text_eq_lexid, c == 0)
LEXID_TEXT_CMP_FN(lexid_ne_text, text_ne_lexid, c != 0)
LEXID_TEXT_CMP_FN(lexid_lt_text, text_lt_lexid, c < 0)
LEXID_TEXT_CMP_FN(lexid_le_text, text_le_lexid, c <= 0)
LEXID_TEXT_CMP_FN(lexid_gt_text, text_gt_lexid, c > 0)
LEXID_TEXT_CMP_FN(lexid_ge_text, text_ge_lexid, c >= 0)

Datum lexid_cmp(PG_FUNCTION_ARGS)
{
    PG_RETURN_INT32(compare_datums(PG_GETARG_DATUM(0), PG_GETARG_DATUM(1)));
}

Datum lexid_larger(PG_FUNCTION_ARGS)
{
    PG_RETURN_DATUM(compare_for_aggregate(fcinfo) >= 0 ? PG_GETARG_DATUM(0) : PG_GETARG_DATUM(1));
}

Datum lexid_smaller(PG_FUNCTION_ARGS)
{
    PG_RETURN_DATUM(compare_for_aggregate(fcinfo) <= 0 ? PG_GETARG_DATUM(0) : PG_GETARG_DATUM(1));
}

// lexid_min_as_written(key, value) and lexid_max_as_written(key, value): min() and max() of
// values without a charset, which the planner hook (lexid_untyped.cpp) calls in their place
// with key = the value read as base36 unless typed (lexical_add(value, 0)). The keys are
// compared, the value kept as it came: an untyped value prints as written, a typed one in
// its charset. The state is internal, so that
// - parallel workers hand it on serialized (raw datums: one server, one registry), and the
//   combine function compares the keys as the transition function does;
// - Citus never combines it through a text form that drops the charset (it does so only for
//   aggregates whose state is a real type): it brings the rows to the coordinator, where a
//   key arrives as text, untyped, and two untyped keys are the 42804 error of
//   compare_datums, never a guess.
struct AsWritten {
    int sign; // +1: max, -1: min
    Lexid* key;
    Lexid* value;
};

static Lexid* copy_lexid(const Lexid* v)
{
    Size n = VARSIZE_ANY(v);
    Lexid* c = (Lexid*) palloc(n);
    memcpy(c, v, n);
    return c;
}

// st takes copies of key and value, in st's memory context; the old ones are freed.
static void as_written_take(AsWritten* st, const Lexid* key, const Lexid* value)
{
    MemoryContext old = MemoryContextSwitchTo(GetMemoryChunkContext(st));
    Lexid* k = copy_lexid(key);
    Lexid* v = copy_lexid(value);
    MemoryContextSwitchTo(old);
    if (st->key)
        pfree(st->key);
    if (st->value)
        pfree(st->value);
    st->key = k;
    st->value = v;
}

static AsWritten* as_written_new(MemoryContext cxt, int sign, const Lexid* key, const Lexid* value)
{
    AsWritten* st = (AsWritten*) MemoryContextAllocZero(cxt, sizeof(AsWritten));
    st->sign = sign;
    as_written_take(st, key, value);
    return st;
}

// Keeps the first of equal keys, as lexid_larger and lexid_smaller do.
static void as_written_offer(AsWritten* st, const Lexid* key, const Lexid* value)
{
    if (compare_datums(PointerGetDatum(st->key), PointerGetDatum(key)) * st->sign < 0)
        as_written_take(st, key, value);
}

static MemoryContext as_written_context(FunctionCallInfo fcinfo)
{
    MemoryContext cxt;
    if (!AggCheckCallContext(fcinfo, &cxt))
        ereport(ERROR, (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                        errmsg("%s can only be called as part of an aggregate", get_func_name(fcinfo->flinfo->fn_oid))));
    return cxt;
}

static Datum as_written_transition(FunctionCallInfo fcinfo, int sign)
{
    MemoryContext cxt = as_written_context(fcinfo);
    AsWritten* st = PG_ARGISNULL(0) ? nullptr : (AsWritten*) PG_GETARG_POINTER(0);
    if (!PG_ARGISNULL(1) && !PG_ARGISNULL(2)) {
        Lexid* key = PG_GETARG_LEXID_PP(1);
        Lexid* value = PG_GETARG_LEXID_PP(2);
        if (st == nullptr)
            st = as_written_new(cxt, sign, key, value);
        else
            as_written_offer(st, key, value);
    }
    if (st == nullptr)
        PG_RETURN_NULL();
    PG_RETURN_POINTER(st);
}

Datum lexid_smaller_as_written(PG_FUNCTION_ARGS)
{
    return as_written_transition(fcinfo, -1);
}

Datum lexid_larger_as_written(PG_FUNCTION_ARGS)
{
    return as_written_transition(fcinfo, 1);
}

Datum lexid_as_written_combine(PG_FUNCTION_ARGS)
{
    MemoryContext cxt = as_written_context(fcinfo);
    AsWritten* a = PG_ARGISNULL(0) ? nullptr : (AsWritten*) PG_GETARG_POINTER(0);
    AsWritten* b = PG_ARGISNULL(1) ? nullptr : (AsWritten*) PG_GETARG_POINTER(1);
    if (b == nullptr) {
        if (a == nullptr)
            PG_RETURN_NULL();
        PG_RETURN_POINTER(a);
    }
    if (a == nullptr)
        PG_RETURN_POINTER(as_written_new(cxt, b->sign, b->key, b->value));
    as_written_offer(a, b->key, b->value);
    PG_RETURN_POINTER(a);
}

// sign, then each datum as its length and its bytes (header included).
Datum lexid_as_written_serialize(PG_FUNCTION_ARGS)
{
    (void) as_written_context(fcinfo);
    AsWritten* st = (AsWritten*) PG_GETARG_POINTER(0);
    StringInfoData buf;
    pq_begintypsend(&buf);
    pq_sendint32(&buf, st->sign);
    for (const Lexid* v : {st->key, st->value}) {
        pq_sendint32(&buf, (int32) VARSIZE_ANY(v));
        pq_sendbytes(&buf, (const char*) v, (int) VARSIZE_ANY(v));
    }
    PG_RETURN_BYTEA_P(pq_endtypsend(&buf));
}

Datum lexid_as_written_deserialize(PG_FUNCTION_ARGS)
{
    MemoryContext cxt = as_written_context(fcinfo);
    bytea* b = PG_GETARG_BYTEA_PP(0);
    StringInfoData buf;
    initStringInfo(&buf);
    appendBinaryStringInfo(&buf, VARDATA_ANY(b), (int) VARSIZE_ANY_EXHDR(b));
    AsWritten* st = (AsWritten*) MemoryContextAllocZero(cxt, sizeof(AsWritten));
    st->sign = pq_getmsgint(&buf, 4);
    for (Lexid** v : {&st->key, &st->value}) {
        int32 n = pq_getmsgint(&buf, 4);
        *v = (Lexid*) MemoryContextAlloc(cxt, n);
        memcpy(*v, pq_getmsgbytes(&buf, n), n);
    }
    pq_getmsgend(&buf);
    pfree(buf.data);
    PG_RETURN_POINTER(st);
}

// A copy: the state belongs to the aggregate.
Datum lexid_as_written_final(PG_FUNCTION_ARGS)
{
    (void) as_written_context(fcinfo);
    AsWritten* st = (AsWritten*) PG_GETARG_POINTER(0);
    PG_RETURN_POINTER(copy_lexid(st->value));
}

Datum lexid_sortsupport(PG_FUNCTION_ARGS)
{
    SortSupport ssup = (SortSupport) PG_GETARG_POINTER(0);
    ssup->comparator = fast_cmp;
    if (ssup->abbreviate && SIZEOF_DATUM == 8) {
        MemoryContext old = MemoryContextSwitchTo(ssup->ssup_cxt);
        AbbrevState* st = (AbbrevState*) palloc0(sizeof(AbbrevState));
        st->estimating = true;
        initHyperLogLog(&st->cardinality, 10);
        MemoryContextSwitchTo(old);
        ssup->ssup_extra = st;
        ssup->abbrev_converter = abbrev_convert;
        ssup->abbrev_abort = abbrev_abort;
        ssup->abbrev_full_comparator = fast_cmp;
        ssup->comparator = abbrev_cmp;
    }
    PG_RETURN_VOID();
}

Datum lexid_hash(PG_FUNCTION_ARGS)
{
    const std::string& key = hash_key(PG_GETARG_LEXID_PP(0));
    PG_RETURN_DATUM(hash_any((const unsigned char*) key.data(), (int) key.size()));
}

Datum lexid_hash_extended(PG_FUNCTION_ARGS)
{
    const std::string& key = hash_key(PG_GETARG_LEXID_PP(0));
    PG_RETURN_DATUM(hash_any_extended((const unsigned char*) key.data(), (int) key.size(), PG_GETARG_INT64(1)));
}

Datum lexid_add_int8(PG_FUNCTION_ARGS)
{
    return add_datum(PG_GETARG_LEXID_PP(0), PG_GETARG_INT64(1));
}

Datum lexid_sub_int8(PG_FUNCTION_ARGS)
{
    int64 n = PG_GETARG_INT64(1);
    Lexid* v = PG_GETARG_LEXID_PP(0);
    if (n == PG_INT64_MIN) // -n overflows: subtract in two steps
        return add_datum((Lexid*) DatumGetPointer(add_datum(v, PG_INT64_MAX)), 1);
    return add_datum(v, -n);
}

Datum lexid_distance(PG_FUNCTION_ARGS)
{
    Lexid* a = PG_GETARG_LEXID_PP(0);
    Lexid* b = PG_GETARG_LEXID_PP(1);
    resolve_pair(a, b);
    const Charset* cs = checked_charset(a);
    (void) checked_charset(b);
    std::string& s = scratch_text();
    run([&] { s = lex::distance(lexid_digits(a), lexid_length(a), lexid_digits(b), lexid_length(b), cs->base()); });
    return numeric_from_cstring(s.c_str());
}

Datum lexical_add_text(PG_FUNCTION_ARGS)
{
    text* src = PG_GETARG_TEXT_PP(0);
    const Charset* cs = idseq::pg::charset_by_text_cached(fcinfo, PG_GETARG_TEXT_PP(1));
    int64 n = PG_GETARG_INT64(2);
    bool ignore_case = PG_GETARG_BOOL(3);
    std::string& s = scratch_text();
    run([&] { s = lex::add_text(*cs, std::string_view(VARDATA_ANY(src), VARSIZE_ANY_EXHDR(src)), n, ignore_case); });
    PG_RETURN_TEXT_P(cstring_to_text_with_len(s.data(), (int) s.size()));
}

Datum lexid_rank(PG_FUNCTION_ARGS)
{
    Lexid* v = resolve(PG_GETARG_LEXID_PP(0), 0);
    const Charset* cs = checked_charset(v);
    std::string& s = scratch_text();
    run([&] { s = lex::rank(lexid_digits(v), lexid_length(v), cs->base()); });
    return numeric_from_cstring(s.c_str());
}

Datum lexid_from_rank(PG_FUNCTION_ARGS)
{
    Numeric num = PG_GETARG_NUMERIC(0);
    const Charset* cs = idseq::pg::charset_by_text(PG_GETARG_TEXT_PP(1));
    if (numeric_is_nan(num) || numeric_is_inf(num))
        ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE), errmsg("lexid rank %s is out of range",
                                                                              numeric_is_nan(num) ? "NaN" : "infinity"),
                        errhint("Ranks are positive integers.")));
    // Bound first, in O(1) (numeric_cmp compares weights first): the largest rank of 1024
    // symbols is below 1e2472, and printing and parsing a huge number costs time.
    Datum bound = DirectFunctionCall3(numeric_in, CStringGetDatum("1e2600"), ObjectIdGetDatum(InvalidOid), Int32GetDatum(-1));
    if (DatumGetInt32(DirectFunctionCall2(numeric_cmp, NumericGetDatum(num), bound)) >= 0)
        ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE), errmsg("lexid rank is out of range"),
                        errdetail("The rank has more than 2600 digits; a lexid value has at most 1024 symbols.")));
    char* dec = DatumGetCString(DirectFunctionCall1(numeric_out, NumericGetDatum(num)));
    lex::Digits& d = scratch_digits();
    run([&] { lex::from_rank(dec, cs->base(), d); });
    PG_RETURN_POINTER(lexid_make(cs->id(), d.data(), d.size()));
}

Datum lexid_charset(PG_FUNCTION_ARGS)
{
    Lexid* v = resolve(PG_GETARG_LEXID_PP(0), 0);
    PG_RETURN_TEXT_P(cstring_to_text(charset_of(v)->name().c_str()));
}

// CHECK constraint of idseq_charset_registry: every row is a valid definition whose id is
// the one its name calls for.
Datum idseq_charset_check(PG_FUNCTION_ARGS)
{
    int32 id = PG_GETARG_INT32(0);
    char* name = text_to_cstring(PG_GETARG_TEXT_PP(1));
    char* symbols = text_to_cstring(PG_GETARG_TEXT_PP(2));
    bool ci = PG_GETARG_BOOL(3);
    bool ok = false;
    check_symbols_encoding(name, symbols);
    run([&] {
        idseq::validate_charset_name(name);
        (void) Charset::make(id, name, symbols, ci);
        ok = id == idseq::custom_charset_id(name) && !idseq::builtin_charset(std::string_view(name));
    });
    PG_RETURN_BOOL(ok);
}

Datum idseq_create_charset(PG_FUNCTION_ARGS)
{
    if (PG_ARGISNULL(0) || PG_ARGISNULL(1) || PG_ARGISNULL(2))
        ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED), errmsg("charset name, symbols and case flag must not be null")));
    const char* name = text_to_cstring(PG_GETARG_TEXT_PP(0));
    const char* symbols = text_to_cstring(PG_GETARG_TEXT_PP(1));
    check_symbols_encoding(name, symbols);
    idseq::pg::register_charset(name, symbols, PG_GETARG_BOOL(2), false);
    PG_RETURN_VOID();
}

// SETOF (name, symbols, base, case_insensitive) of the built-in charsets, for the view.
Datum idseq_builtin_charsets(PG_FUNCTION_ARGS)
{
    ReturnSetInfo* rsinfo = (ReturnSetInfo*) fcinfo->resultinfo;
    InitMaterializedSRF(fcinfo, 0);
    for (int id = 1; id <= idseq::kBuiltinCharsetCount; id++) {
        const Charset* cs = idseq::builtin_charset(id);
        Datum values[4] = {CStringGetTextDatum(cs->name().c_str()), CStringGetTextDatum(cs->symbols().c_str()),
                           Int32GetDatum(cs->base()), BoolGetDatum(cs->case_insensitive())};
        bool nulls[4] = {false, false, false, false};
        tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
    }
    return (Datum) 0;
}

} // extern "C"
