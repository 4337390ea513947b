// libFuzzer target for idseq::decode and idseq::encode (src/core/codec.h).
// Input: byte 0 picks the charset, byte 1 the rotation, byte 2 the width (each range includes
// one invalid value); the rest is the code.
// Properties:
// - decode throws only idseq::Error, never of kind Internal, with valid UTF-8 messages;
// - when it succeeds, the value is >= 0 and encodes back to the input spelled canonically
//   (case and aliases folded): decode and encode are exact inverses, one code per value;
// - the CodecTable the PostgreSQL adapter caches gives the same value or the same error
//   (kind, message, detail, hint) as the Charset, and the same code.
//
//   make build/fuzz_decode && mkdir -p build/corpus/decode
//   build/fuzz_decode -max_total_time=60 build/corpus/decode test/fuzz/corpus/decode
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

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size < 3)
        return 0;
    const Set& set = charsets()[data[0] % charsets().size()];
    const Charset& cs = set.cs;
    const int rotate = data[1] % (kMaxCodeRotate + 2), width = data[2] % (kMaxCodeWidth + 2);
    const std::string code(reinterpret_cast<const char*>(data + 3), size - 3);

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
