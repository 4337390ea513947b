// libFuzzer target for idseq::decode and idseq::encode (src/core/codec.h).
// Input: byte 0 picks the charset, byte 1 the rotation, byte 2 the width (each range includes
// one invalid value); the rest is the code.
// Properties:
// - decode throws only idseq::Error, never of kind Internal, with valid UTF-8 messages;
// - when it succeeds, the value is >= 0 and encodes back to the input spelled canonically
//   (case and aliases folded): decode and encode are exact inverses, one code per value;
// - the CodecTable the PostgreSQL adapter caches gives the same value or the same error
//   (kind, message, detail, hint) as the Charset, and the same code;
// - the same code read as a public id (from_public_id, under a fixed key) is refused with
//   Syntax or OutOfRange only (InvalidParameter for the one invalid width), exactly when
//   try_from_public_id returns false; when it is accepted, both give the same id, and
//   public_id of the id gives the code back, spelled canonically.
//
//   make build/fuzz_decode && mkdir -p build/corpus/decode
//   build/fuzz_decode -max_total_time=60 build/corpus/decode core_tests/fuzz/corpus/decode
// (new inputs go to the first directory, so the repository's seed corpus is never written)
#include "cpp_only.h"
#include "display_codec.h"
#include "error.h"

#include "fuzz_util.h"

#include <memory>
#include <string>
#include <vector>

using namespace idseq;
using fuzz::check;

namespace {

struct Set {
    Charset cs;
    std::unique_ptr<CodecTable> table;
};

const std::vector<Set>& charsets()
{
    static const std::vector<Set> all = [] {
        std::vector<Charset> v = builtin_charsets();
        v.push_back(Charset::make(2000, "greek", "αβγδεζηθ", false));
        v.push_back(Charset::make(2001, "mixed", "a€b😀c", true));
        v.push_back(Charset::make(2002, "bits", "01", false));
        std::vector<Set> out;
        for (Charset& c : v) {
            auto t = std::make_unique<CodecTable>();
            CodecTable::build(c, *t);
            out.push_back({std::move(c), std::move(t)});
        }
        return out;
    }();
    return all;
}

// The outcome of a decode as text: the value, or the error's kind and texts.
template <class S>
std::string outcome(const S& cs, const std::string& code, int rotate, int width, bool valid_input)
{
    try {
        return std::to_string(decode(cs, code, rotate, width));
    } catch (const Error& e) {
        fuzz::check_error(e, valid_input);
        return "error " + std::to_string(static_cast<int>(e.kind())) + "|" + e.what() + "|" + e.detail() + "|" + e.hint();
    }
}

// The code as a public id of the table's charset at width (rotation 0).
void check_public_id(const CodecTable& cs, const std::string& code, int width)
{
    static const unsigned char key_bytes[kPublicIdKeyBytes] = {7, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3,
                                                               2, 3, 8, 4, 6, 2, 6, 4, 3, 3, 8, 3, 2, 7, 9, 5};
    static const ScrambleKey key = public_id_key(key_bytes);
    int64_t id;
    int64_t tried = 0;
    bool try_ok = false;
    try {
        try_ok = try_from_public_id(cs, code, key, width, tried);
    } catch (const Error& e) {
        check(e.kind() == ErrorKind::InvalidParameter && width > kMaxCodeWidth, "try_from_public_id threw");
    }
    try {
        id = from_public_id(cs, code, key, width);
    } catch (const Error& e) {
        fuzz::check_error(e, true);
        check(e.kind() == ErrorKind::Syntax || e.kind() == ErrorKind::OutOfRange ||
                  (e.kind() == ErrorKind::InvalidParameter && width > kMaxCodeWidth),
              "a bad public id raised an error of another kind");
        check(!try_ok, "try_from_public_id accepted a code from_public_id refuses");
        return;
    }
    check(width <= kMaxCodeWidth, "a public id decoded at an invalid width");
    check(try_ok && tried == id, "try_from_public_id and from_public_id disagree");
    std::string canonical;
    for (const char* p = code.data(); p < code.data() + code.size();)
        canonical += cs.symbol(cs.read_digit(p, code.data() + code.size()));
    char buf[kMaxCodeBytes];
    check(public_id(cs, id, key, width, buf) == canonical, "public_id(from_public_id(code)) differs from the code");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size < 3)
        return 0;
    const Set& set = charsets()[data[0] % charsets().size()];
    const Charset& cs = set.cs;
    const int rotate = data[1] % (kMaxCodeRotate + 2), width = data[2] % (kMaxCodeWidth + 2);
    const std::string code(reinterpret_cast<const char*>(data + 3), size - 3);

    check_public_id(*set.table, code, width);

    // Error messages are valid UTF-8 whatever the input: the code is quoted with escapes.
    const std::string by_charset = outcome(cs, code, rotate, width, true);
    check(outcome(*set.table, code, rotate, width, true) == by_charset, "CodecTable and Charset decode differently");
    if (by_charset.rfind("error ", 0) == 0)
        return 0;

    const int64_t v = decode(cs, code, rotate, width);
    check(v >= 0, "negative value decoded");
    std::string canonical;
    for (const char* p = code.data(); p < code.data() + code.size();)
        canonical += cs.symbol(cs.read_digit(p, code.data() + code.size()));
    std::string again;
    encode(cs, v, rotate, width, again);
    check(again == canonical, "encode(decode(code)) differs from the canonical code");
    char buf[kMaxCodeBytes];
    check(encode(*set.table, v, rotate, width, buf) == again, "CodecTable and Charset encode differently");
    check(decode(cs, again, rotate, width) == v, "decode(encode(v)) != v");
    return 0;
}
