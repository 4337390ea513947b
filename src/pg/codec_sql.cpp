// Display codecs and keyed public ids: idseq_encode, idseq_decode,
// idseq_scramble, idseq_unscramble, and idseq_public_id, idseq_from_public_id and
// idseq_try_from_public_id with named keys (src/pg/codec_named_keys.h).
//
// These run once per row, so the per-call work is kept to the codec itself:
// - the charset argument is resolved once per call site: fn_extra holds a CodecTable (the
//   core's plain-data copy of the charset) keyed by the charset text and the registry
//   cache's generation, rebuilt only when either differs. Being a copy, it stays valid
//   memory whatever the registry cache does with its own Charset objects; the generation
//   drops a copy of a definition that a rollback undid;
// - the scramble key is derived once per call site: fn_extra holds the derived 128-bit key
//   keyed by the key's bytes (a named key: by its name, the user and the key registry's
//   generation, with the USAGE check done once);
// - codes are built in a stack buffer and copied once into the result text.
// fn_extra memory is palloc'd in fn_mcxt and holds plain data only.
#include "charset.h"
#include "display_codec.h"
#include "uuidv7.h"

#include <algorithm>
#include <cstring>
#include <string_view>

#include "core_call.h"
#include "codec_named_keys.h"
#include "charset_registry.h"

extern "C" {
#include "utils/uuid.h"
}

extern "C" {
PG_FUNCTION_INFO_V1(idseq_encode);
PG_FUNCTION_INFO_V1(idseq_decode);
PG_FUNCTION_INFO_V1(idseq_scramble);
PG_FUNCTION_INFO_V1(idseq_unscramble);
PG_FUNCTION_INFO_V1(idseq_encode_uuid);
PG_FUNCTION_INFO_V1(idseq_decode_uuid);
PG_FUNCTION_INFO_V1(idseq_public_id);
PG_FUNCTION_INFO_V1(idseq_from_public_id);
PG_FUNCTION_INFO_V1(idseq_try_from_public_id);
}

using idseq::CodecTable;
using idseq::pg::run;

namespace {

// fn_extra of idseq_encode / idseq_decode.
struct CharsetSlot {
    int name_len; // -1: the table is not keyed (being built, or the name is too long to keep)
    uint64 generation; // idseq::pg::charset_generation() when the table was built
    char name[NAMEDATALEN];
    CodecTable table;
};

// fn_extra of idseq_public_id and its inverses: the named key's slot and the charset's.
struct PublicIdSlot {
    idseq::pg::NamedKeySlot key;
    CharsetSlot* charset;
};

// fn_extra of idseq_scramble / idseq_unscramble.
struct KeySlot {
    idseq::ScrambleKey key;
    size_t len; // length of the key text kept at bytes
    size_t cap; // room at bytes
    char* bytes; // points just past the slot, in the same allocation
};

// PG_GETARG_TEXT_PP with the common case (a plain or short-header value) inline.
inline text* arg_text(FunctionCallInfo fcinfo, int argno)
{
    struct varlena* p = (struct varlena*) DatumGetPointer(PG_GETARG_DATUM(argno));
    if (unlikely(VARATT_IS_COMPRESSED(p) || VARATT_IS_EXTERNAL(p)))
        p = pg_detoast_datum_packed(p);
    return (text*) p;
}

inline bool same_bytes(const char* a, const char* b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i])
            return false;
    return true;
}

template <class T>
T* alloc_in_fn_mcxt(FunctionCallInfo fcinfo, size_t size)
{
    MemoryContext cxt = fcinfo->flinfo ? fcinfo->flinfo->fn_mcxt : CurrentMemoryContext;
    return static_cast<T*>(MemoryContextAlloc(cxt, size));
}

const CodecTable& resolve_codec_table(FunctionCallInfo fcinfo, text* arg, CharsetSlot** where);

// The compiled charset named by arg, cached in *where (nullptr: not cached).
inline const CodecTable& codec_table_at(FunctionCallInfo fcinfo, text* arg, CharsetSlot** where)
{
    CharsetSlot* slot = where ? *where : nullptr;
    if (likely(slot != nullptr) && slot->name_len == (int) VARSIZE_ANY_EXHDR(arg) &&
        slot->generation == idseq::pg::charset_generation() && same_bytes(slot->name, VARDATA_ANY(arg), (size_t) slot->name_len))
        return slot->table;
    return resolve_codec_table(fcinfo, arg, where);
}

// The compiled charset named by argument argno, cached per call site (in fn_extra).
inline const CodecTable& codec_table(FunctionCallInfo fcinfo, int argno)
{
    return codec_table_at(fcinfo, arg_text(fcinfo, argno),
                          fcinfo->flinfo ? reinterpret_cast<CharsetSlot**>(&fcinfo->flinfo->fn_extra) : nullptr);
}

__attribute__((noinline)) const CodecTable& resolve_codec_table(FunctionCallInfo fcinfo, text* arg, CharsetSlot** where)
{
    const char* name = VARDATA_ANY(arg);
    const int len = (int) VARSIZE_ANY_EXHDR(arg);
    const idseq::Charset* cs = idseq::pg::charset_by_text(arg); // 22023 for an unknown name
    CharsetSlot* slot = where ? *where : nullptr;
    if (slot == nullptr) {
        slot = alloc_in_fn_mcxt<CharsetSlot>(fcinfo, sizeof(CharsetSlot));
        if (where)
            *where = slot;
    }
    slot->name_len = -1;
    run([&] { CodecTable::build(*cs, slot->table); });
    slot->generation = idseq::pg::charset_generation();
    if (len < NAMEDATALEN) {
        memcpy(slot->name, name, (size_t) len);
        slot->name_len = len;
    }
    return slot->table;
}

// The derived key of argument argno, cached per call site.
const idseq::ScrambleKey& scramble_key(FunctionCallInfo fcinfo, int argno)
{
    text* arg = arg_text(fcinfo, argno);
    const char* key = VARDATA_ANY(arg);
    const size_t len = VARSIZE_ANY_EXHDR(arg);
    KeySlot* slot = fcinfo->flinfo ? static_cast<KeySlot*>(fcinfo->flinfo->fn_extra) : nullptr;
    if (likely(slot != nullptr) && slot->len == len && memcmp(slot->bytes, key, len) == 0)
        return slot->key;
    idseq::ScrambleKey derived;
    run([&] { derived = idseq::derive_key(std::string_view(key, len)); }); // 22023 for an empty key
    if (slot == nullptr || slot->cap < len) {
        if (slot != nullptr)
            pfree(slot);
        const size_t cap = len < 64 ? 64 : len;
        slot = alloc_in_fn_mcxt<KeySlot>(fcinfo, sizeof(KeySlot) + cap);
        slot->cap = cap;
        slot->bytes = reinterpret_cast<char*>(slot + 1);
        if (fcinfo->flinfo)
            fcinfo->flinfo->fn_extra = slot;
    }
    slot->key = derived;
    memcpy(slot->bytes, key, len);
    slot->len = len;
    return slot->key;
}

// fn_extra of the public id functions (zeroed: no key yet, no charset).
PublicIdSlot& public_id_slot(FunctionCallInfo fcinfo)
{
    PublicIdSlot* slot = fcinfo->flinfo ? static_cast<PublicIdSlot*>(fcinfo->flinfo->fn_extra) : nullptr;
    if (likely(slot != nullptr))
        return *slot;
    MemoryContext cxt = fcinfo->flinfo ? fcinfo->flinfo->fn_mcxt : CurrentMemoryContext;
    slot = static_cast<PublicIdSlot*>(MemoryContextAllocZero(cxt, sizeof(PublicIdSlot)));
    if (fcinfo->flinfo)
        fcinfo->flinfo->fn_extra = slot;
    return *slot;
}

// idseq_from_public_id and idseq_try_from_public_id: (code, key, charset, width). With
// or_null, a bad code (what the strict one refuses with 22P02 or 22003) gives NULL; every
// other error (an unknown or forbidden key, an unknown charset, a width out of range) is
// raised all the same.
Datum from_public_id(FunctionCallInfo fcinfo, bool or_null)
{
    text* code = arg_text(fcinfo, 0);
    PublicIdSlot& slot = public_id_slot(fcinfo);
    const idseq::ScrambleKey& key = idseq::pg::named_key_for_use(arg_text(fcinfo, 1), slot.key);
    const CodecTable& cs = codec_table_at(fcinfo, arg_text(fcinfo, 2), &slot.charset);
    const int32 width = PG_GETARG_INT32(3);
    const std::string_view sv(VARDATA_ANY(code), VARSIZE_ANY_EXHDR(code));
    int64_t v = 0;
    bool ok = true;
    if (or_null)
        run([&] { ok = idseq::try_from_public_id(cs, sv, key, width, v); });
    else
        run([&] { v = idseq::from_public_id(cs, sv, key, width); });
    if (!ok)
        PG_RETURN_NULL();
    PG_RETURN_INT64(v);
}

} // namespace

// idseq_scramble / idseq_unscramble: (id, key, bits) through one direction of the permutation.
static Datum permute(FunctionCallInfo fcinfo, int64_t (*direction)(int64_t, const idseq::ScrambleKey&, int))
{
    const int64 id = PG_GETARG_INT64(0);
    const idseq::ScrambleKey& key = scramble_key(fcinfo, 1);
    const int32 bits = PG_GETARG_INT32(2);
    int64 v = 0;
    run([&] { v = direction(id, key, bits); });
    PG_RETURN_INT64(v);
}

extern "C" {

// idseq_encode(id bigint, charset text DEFAULT 'base62', rotate integer DEFAULT 0,
//              width integer DEFAULT 0) RETURNS text
Datum idseq_encode(PG_FUNCTION_ARGS)
{
    const int64 id = PG_GETARG_INT64(0);
    const CodecTable& cs = codec_table(fcinfo, 1);
    const int32 rotate = PG_GETARG_INT32(2), width = PG_GETARG_INT32(3);
    char buf[idseq::kMaxCodeBytes];
    std::string_view code;
    run([&] { code = idseq::encode(cs, id, rotate, width, buf); });
    PG_RETURN_TEXT_P(cstring_to_text_with_len(code.data(), (int) code.size()));
}

// idseq_decode(code text, charset text DEFAULT 'base62', rotate integer DEFAULT 0,
//              width integer DEFAULT 0) RETURNS bigint
Datum idseq_decode(PG_FUNCTION_ARGS)
{
    text* code = arg_text(fcinfo, 0);
    const CodecTable& cs = codec_table(fcinfo, 1);
    const int32 rotate = PG_GETARG_INT32(2), width = PG_GETARG_INT32(3);
    const std::string_view sv(VARDATA_ANY(code), VARSIZE_ANY_EXHDR(code));
    int64 v = 0;
    run([&] { v = idseq::decode(cs, sv, rotate, width); });
    PG_RETURN_INT64(v);
}

// idseq_scramble(id bigint, key text, bits integer DEFAULT 63) RETURNS bigint
Datum idseq_scramble(PG_FUNCTION_ARGS)
{
    return permute(fcinfo, idseq::scramble);
}

// idseq_unscramble(id bigint, key text, bits integer DEFAULT 63) RETURNS bigint
Datum idseq_unscramble(PG_FUNCTION_ARGS)
{
    return permute(fcinfo, idseq::unscramble);
}

// idseq_encode(id uuid, charset text DEFAULT 'crockford32') RETURNS text: the 128-bit value
// left-padded to the width that holds every one (26 symbols in crockford32: ULID's text).
Datum idseq_encode_uuid(PG_FUNCTION_ARGS)
{
    const pg_uuid_t* in = PG_GETARG_UUID_P(0);
    const CodecTable& cs = codec_table(fcinfo, 1);
    idseq::Uuid u;
    memcpy(u.data(), in->data, sizeof in->data);
    char buf[128 * 4]; // 128 symbols (base 2) of at most 4 bytes
    size_t len = 0;
    run([&] {
        const std::string code = idseq::encode_uuid(cs, u);
        len = std::min(code.size(), sizeof buf);
        memcpy(buf, code.data(), len);
    });
    PG_RETURN_TEXT_P(cstring_to_text_with_len(buf, (int) len));
}

// idseq_decode_uuid(code text, charset text DEFAULT 'crockford32') RETURNS uuid
Datum idseq_decode_uuid(PG_FUNCTION_ARGS)
{
    text* code = arg_text(fcinfo, 0);
    const CodecTable& cs = codec_table(fcinfo, 1);
    const std::string_view sv(VARDATA_ANY(code), VARSIZE_ANY_EXHDR(code));
    pg_uuid_t* out = (pg_uuid_t*) palloc(sizeof(pg_uuid_t));
    run([&] {
        const idseq::Uuid u = idseq::decode_uuid(cs, sv);
        memcpy(out->data, u.data(), sizeof out->data);
    });
    PG_RETURN_UUID_P(out);
}

// idseq_public_id(id bigint, key text, charset text DEFAULT 'base58', width integer
//                 DEFAULT 11) RETURNS text
Datum idseq_public_id(PG_FUNCTION_ARGS)
{
    const int64 id = PG_GETARG_INT64(0);
    PublicIdSlot& slot = public_id_slot(fcinfo);
    const idseq::ScrambleKey& key = idseq::pg::named_key_for_use(arg_text(fcinfo, 1), slot.key);
    const CodecTable& cs = codec_table_at(fcinfo, arg_text(fcinfo, 2), &slot.charset);
    const int32 width = PG_GETARG_INT32(3);
    char buf[idseq::kMaxCodeBytes];
    std::string_view code;
    run([&] { code = idseq::public_id(cs, id, key, width, buf); });
    PG_RETURN_TEXT_P(cstring_to_text_with_len(code.data(), (int) code.size()));
}

// idseq_from_public_id(code text, key text, charset text DEFAULT 'base58', width integer
//                      DEFAULT 11) RETURNS bigint
Datum idseq_from_public_id(PG_FUNCTION_ARGS)
{
    return from_public_id(fcinfo, false);
}

// idseq_try_from_public_id(code text, key text, charset text DEFAULT 'base58', width
//                          integer DEFAULT 11) RETURNS bigint: NULL for a bad code
Datum idseq_try_from_public_id(PG_FUNCTION_ARGS)
{
    return from_public_id(fcinfo, true);
}

} // extern "C"
