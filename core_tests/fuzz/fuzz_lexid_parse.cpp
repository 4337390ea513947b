// libFuzzer target for the lexid text parser and shortlex arithmetic (src/core/lexid.h).
// Input: byte 0 picks the charset; byte 1 holds flags (bit 0: allow_empty, bit 1:
// ignore_case for add_text); bytes 2..9 are n (big-endian int64); the rest is the text.
// Properties:
// - parse throws only idseq::Error (never Internal; messages valid UTF-8 for valid UTF-8
//   input), and exactly when valid() says the text is not a lexid;
// - what parses re-prints: format gives a text that parses to equal digits, and format is a
//   fixed point (format(parse(format(d))) == format(d));
// - arithmetic round-trips: a + n either fails (before the first value, or too long) or
//   gives b with distance(b, a) == n, (a + n) - n == a, and compare(b, a) has the sign of n;
// - rank and from_rank are inverse: from_rank(rank(a)) == a;
// - add_text (lexical_add on plain text) fails cleanly or gives a text that parses, and
//   without ignore_case subtracting n again gives back the canonical spelling.
//
//   make build/fuzz_lexid_parse && mkdir -p build/corpus/lexid_parse
//   build/fuzz_lexid_parse -max_total_time=60 build/corpus/lexid_parse core_tests/fuzz/corpus/lexid_parse
#include "cpp_only.h"
#include "charset.h"
#include "error.h"
#include "lexid.h"

#include "fuzz_util.h"

#include <string>
#include <vector>

using namespace idseq;
using fuzz::check;

namespace {

const std::vector<Charset>& charsets()
{
    static const std::vector<Charset> all = [] {
        std::vector<Charset> v = builtin_charsets();
        v.push_back(Charset::make(2000, "greek", "αβγδεζηθ", false));
        v.push_back(Charset::make(2001, "mixed", "a€b😀c", true));
        v.push_back(Charset::make(2002, "bits", "01", false));
        return v;
    }();
    return all;
}

std::string text_of(const Charset& cs, const lex::Digits& d)
{
    std::string s;
    lex::format(cs, d.data(), d.size(), s);
    return s;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    fuzz::Reader in(data, size);
    const Charset& cs = charsets()[in.byte() % charsets().size()];
    const uint8_t flags = in.byte();
    const bool allow_empty = flags & 1, ignore_case = flags & 2;
    const int64_t n = in.i64();
    const std::string text(in.rest());
    // Error messages quote valid UTF-8 input without splitting a character.
    const bool utf8 = fuzz::valid_utf8(text);

    // add_text parses too (the empty string is its zero).
    try {
        std::string r = lex::add_text(cs, text, n, ignore_case);
        lex::Digits rd;
        lex::parse(cs, r, rd, true);
        if (!ignore_case || cs.case_insensitive()) {
            lex::Digits src;
            lex::parse(cs, text, src, true);
            if (n != INT64_MIN)
                check(lex::add_text(cs, r, -n, false) == text_of(cs, src), "add_text(add_text(s, n), -n) != s");
        }
    } catch (const Error& e) {
        fuzz::check_error(e, utf8);
    }

    lex::Digits a;
    try {
        lex::parse(cs, text, a, allow_empty);
    } catch (const Error& e) {
        fuzz::check_error(e, utf8);
        check(e.kind() == ErrorKind::Syntax, "parse failed with a kind other than Syntax");
        check(!lex::valid(cs, text) || allow_empty, "valid() accepts what parse rejects");
        return 0;
    }
    check(text.empty() || lex::valid(cs, text), "valid() rejects what parse accepts");
    check(a.size() <= lex::kMaxLength, "parsed value longer than the limit");
    for (uint8_t d : a)
        check(d < cs.base(), "digit out of range");

    // Re-printing.
    const std::string printed = text_of(cs, a);
    lex::Digits again;
    lex::parse(cs, printed, again, true);
    check(again == a, "parse(format(parse(text))) != parse(text)");
    check(text_of(cs, again) == printed, "format is not a fixed point");
    if (!cs.case_insensitive() && cs.name() != "crockford32")
        check(printed == text, "a case-sensitive charset re-prints a different spelling");
    if (a.empty())
        return 0;

    // rank / from_rank.
    const std::string rank = lex::rank(a.data(), a.size(), cs.base());
    lex::Digits from;
    lex::from_rank(rank, cs.base(), from);
    check(from == a, "from_rank(rank(a)) != a");

    // a + n, then - n.
    lex::Digits b = a;
    try {
        lex::add(b, cs.base(), n);
    } catch (const Error& e) {
        fuzz::check_error(e, true);
        check(e.kind() == ErrorKind::OutOfRange, "add failed with a kind other than OutOfRange");
        return 0;
    }
    check(lex::distance(b.data(), b.size(), a.data(), a.size(), cs.base()) == std::to_string(n),
          "distance(a + n, a) != n");
    const int c = lex::compare(b.data(), b.size(), a.data(), a.size());
    check(c == (n > 0) - (n < 0), "compare(a + n, a) has not the sign of n");
    if (n != INT64_MIN) {
        lex::Digits back = b;
        lex::add(back, cs.base(), -n);
        check(back == a, "(a + n) - n != a");
    }
    return 0;
}
