// libFuzzer target for counter format templates and periods (src/core/counter_format.h).
// Input: bytes 0..7 are n (big-endian int64); byte 8 picks the period text and byte 9 the
// key; the rest is the template.
// Properties:
// - parse_template, check_charsets and render throw only idseq::Error of the documented
//   kinds (InvalidParameter for a template or width, OutOfRange for a number a code cannot
//   show), never Internal, with messages valid UTF-8 for valid UTF-8 input;
// - what renders parses back: parse_number(render(n)) == n, and parse_number of the
//   rendering with one byte appended, removed or changed is nothing or a number whose
//   rendering is that text;
// - parse_number of the raw input text never throws and, when it gives a number, that
//   number renders as the text.
//
//   make build/fuzz_counter_format && mkdir -p build/corpus/counter_format
//   build/fuzz_counter_format -max_total_time=60 build/corpus/counter_format core_tests/fuzz/corpus/counter_format
#include "cpp_only.h"
#include "charset.h"
#include "counter_format.h"
#include "error.h"

#include "fuzz_util.h"

#include <string>
#include <vector>

using namespace idseq;
using fuzz::check;

namespace {

const Charset* resolve(const std::string& name)
{
    static const Charset greek = Charset::make(2000, "greek", "αβγδεζηθ", false);
    static const Charset mixed = Charset::make(2001, "mixed", "a€b😀c", true);
    if (name == "greek")
        return &greek;
    if (name == "mixed")
        return &mixed;
    return builtin_charset(std::string_view(name));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    static const char* periods[] = {"", "2026", "2026-11", "2026-11-28", "{n}", "9"};
    static const char* keys[] = {"", "k", "12", "{", "αβ", "-", "tenant-42"};
    fuzz::Reader in(data, size);
    const int64_t n = in.i64();
    const std::string period = periods[in.byte() % 6];
    const std::string key = keys[in.byte() % 7];
    const std::string text(in.rest());
    const bool utf8 = fuzz::valid_utf8(text);

    counter::Template t;
    try {
        t = counter::parse_template(text);
    } catch (const Error& e) {
        fuzz::check_error(e, utf8);
        check(e.kind() == ErrorKind::InvalidParameter, "parse_template failed with a kind other than InvalidParameter");
        return 0;
    }
    check(text.size() <= counter::kMaxTemplateBytes, "a template longer than the limit was accepted");
    counter::Charsets cs;
    for (const std::string& name : t.charset_names()) {
        const Charset* c = resolve(name);
        if (!c)
            return 0; // the adapter reports an unknown charset
        cs.push_back(c);
    }
    try {
        counter::check_charsets(t, cs);
    } catch (const Error& e) {
        fuzz::check_error(e, utf8);
        check(e.kind() == ErrorKind::InvalidParameter, "check_charsets failed with a kind other than InvalidParameter");
        return 0;
    }

    // Whatever the text, parse_number answers without throwing, and only with the truth.
    if (auto m = counter::parse_number(t, text, period, key, cs))
        check(counter::render(t, *m, period, key, cs) == text, "parse_number gave a number that renders otherwise");

    std::string r;
    try {
        r = counter::render(t, n, period, key, cs);
    } catch (const Error& e) {
        fuzz::check_error(e, true);
        check(e.kind() == ErrorKind::OutOfRange, "render failed with a kind other than OutOfRange");
        return 0;
    }
    check(counter::parse_number(t, r, period, key, cs) == n, "parse_number(render(n)) != n");
    const size_t at = static_cast<size_t>(static_cast<uint64_t>(n) % (r.size() + 1));
    std::string variants[3] = {r, r, r};
    variants[0].insert(at, 1, '0');
    if (at < r.size()) {
        variants[1].erase(at, 1);
        variants[2][at] = static_cast<char>(variants[2][at] ^ 1);
    }
    for (const std::string& v : variants)
        if (auto m = counter::parse_number(t, v, period, key, cs))
            check(counter::render(t, *m, period, key, cs) == v, "a changed rendering parses to a number that renders otherwise");
    return 0;
}
