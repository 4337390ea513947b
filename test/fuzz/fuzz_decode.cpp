// libFuzzer target for idseq::decode. Input: byte 0 picks the charset, byte 1 the rotation,
// byte 2 the width (each range includes one invalid value); the rest is the code.
// Properties: decode throws only idseq::Error (never of kind Internal), and when it succeeds
// the value encodes back to the input spelled canonically (case and aliases folded), so
// decode and encode are exact inverses and every value has one code.
//
//   clang++ -std=c++17 -g -O1 -fsanitize=fuzzer,address,undefined -Isrc/core \
//       src/core/*.cpp test/fuzz/fuzz_decode.cpp -o /tmp/fuzz_decode
//   mkdir -p /tmp/corpus_decode   # new inputs go to the first directory, not the repo
//   /tmp/fuzz_decode -max_total_time=60 /tmp/corpus_decode test/fuzz/corpus/decode
#include "cpp_only.h"
#include "codec.h"
#include "error.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace idseq;

static const std::vector<Charset>& charsets()
{
    static const std::vector<Charset> all = [] {
        std::vector<Charset> v = builtin_charsets();
        v.push_back(Charset::make(2000, "greek", "αβγδεζηθ", false));
        v.push_back(Charset::make(2001, "mixed", "a€b😀c", true));
        return v;
    }();
    return all;
}

static void check(bool ok, const char* what, const std::string& code)
{
    if (!ok) {
        std::fprintf(stderr, "property violated: %s (code of %zu bytes)\n", what, code.size());
        std::abort();
    }
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size < 3)
        return 0;
    const Charset& cs = charsets()[data[0] % charsets().size()];
    const int rotate = data[1] % (kMaxCodeRotate + 2), width = data[2] % (kMaxCodeWidth + 2);
    const std::string code(reinterpret_cast<const char*>(data + 3), size - 3);
    int64_t v;
    try {
        v = decode(cs, code, rotate, width);
    } catch (const Error& e) {
        check(e.kind() != ErrorKind::Internal, e.what(), code);
        return 0;
    }
    check(v >= 0, "negative value decoded", code);
    std::string canonical;
    for (const char* p = code.data(); p < code.data() + code.size();)
        canonical += cs.symbol(cs.read_digit(p, code.data() + code.size()));
    std::string again;
    encode(cs, v, rotate, width, again);
    check(again == canonical, "encode(decode(code)) differs from the canonical code", code);
    check(decode(cs, again, rotate, width) == v, "decode(encode(v)) != v", code);
    return 0;
}
