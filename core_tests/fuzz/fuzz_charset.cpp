// libFuzzer target for charset definitions (Charset::make and validate_charset_name in
// src/core/charset.h), the parser behind idseq_create_charset and the self-describing
// lexid(name, 'symbols') type modifier.
// Input: byte 0 holds flags (bit 0: case_insensitive); byte 1 the length of the name (mod
// 80); then the name; the rest is the symbols.
// Properties:
// - make throws only idseq::Error of kind InvalidParameter (messages valid UTF-8 for valid
//   UTF-8 input), or gives a charset of 2 to 256 symbols whose symbols() is the
//   concatenation of its symbols and re-makes the same charset;
// - every symbol reads back as its digit, consuming exactly its bytes; in a case-insensitive
//   set an ASCII letter's other case reads as the same digit; no two symbols collide;
// - the CodecTable of the charset mirrors it, and codes of a few values round-trip;
// - validate_charset_name accepts exactly ^[a-z_][a-z0-9_]{0,62}$, and custom ids are >= 1024;
// - check_new_symbols refuses a made charset exactly when a symbol is a format character.
//
//   make build/fuzz_charset && mkdir -p build/corpus/charset
//   build/fuzz_charset -max_total_time=60 build/corpus/charset core_tests/fuzz/corpus/charset
#include "cpp_only.h"
#include "charset.h"
#include "display_codec.h"
#include "error.h"
#include "lexid.h"

#include "fuzz_util.h"

#include <memory>
#include <string>
#include <vector>

using namespace idseq;
using fuzz::check;
using fuzz::name_ok;

namespace {


} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    fuzz::Reader in(data, size);
    const bool ci = in.byte() & 1;
    const std::string name(in.take(in.byte() % 80));
    const std::string symbols(in.rest());
    const bool utf8 = fuzz::valid_utf8(name) && fuzz::valid_utf8(symbols);

    // Names.
    bool accepted = true;
    try {
        validate_charset_name(name);
    } catch (const Error& e) {
        fuzz::check_error(e, fuzz::valid_utf8(name));
        check(e.kind() == ErrorKind::InvalidParameter, "a bad name is not InvalidParameter");
        accepted = false;
    }
    check(accepted == name_ok(name), "validate_charset_name disagrees with the grammar");
    check(custom_charset_id(name) >= 1024, "custom charset id below 1024");

    std::unique_ptr<Charset> cs;
    try {
        cs = std::make_unique<Charset>(Charset::make(4242, name, symbols, ci));
    } catch (const Error& e) {
        fuzz::check_error(e, utf8);
        check(e.kind() == ErrorKind::InvalidParameter, "a bad definition is not InvalidParameter");
        return 0;
    }
    check(fuzz::valid_utf8(symbols), "a charset with invalid UTF-8 symbols was accepted");
    // A new charset's check refuses exactly the definitions with a format character.
    bool has_format = false;
    for (const char* p = symbols.data(); p < symbols.data() + symbols.size();)
        has_format |= !printable_code_point(utf8_decode(p, symbols.data() + symbols.size()));
    try {
        check_new_symbols(name, symbols);
        check(!has_format, "check_new_symbols accepted a format character");
    } catch (const Error& e) {
        fuzz::check_error(e, utf8);
        check(e.kind() == ErrorKind::InvalidParameter && has_format, "check_new_symbols refused printable symbols");
    }
    check(cs->base() >= 2 && cs->base() <= kMaxCharsetSymbols, "base out of range");
    check(cs->case_insensitive() == ci && cs->name() == name && cs->id() == 4242, "attributes not kept");

    std::string joined;
    bool ascii = true;
    for (int d = 0; d < cs->base(); d++) {
        const std::string_view s = cs->symbol(d);
        check(!s.empty() && s.size() <= 4, "symbol of a bad length");
        joined += s;
        ascii = ascii && s.size() == 1;
        const char* p = s.data();
        check(cs->read_digit(p, s.data() + s.size()) == d, "a symbol does not read back as its digit");
        check(p == s.data() + s.size(), "reading a symbol does not consume exactly its bytes");
        const unsigned char c = static_cast<unsigned char>(s[0]);
        if (ci && s.size() == 1 && ((c | 0x20) >= 'a' && (c | 0x20) <= 'z')) {
            const char other = static_cast<char>(c ^ 0x20);
            const char* q = &other;
            check(cs->read_digit(q, q + 1) == d, "case-insensitive set: the other case reads differently");
        }
    }
    check(joined == cs->symbols(), "symbols() is not the concatenation of the symbols");
    check(ascii == cs->ascii(), "ascii() is wrong");

    // Re-making from the canonical symbols gives the same charset.
    Charset again = Charset::make(4242, name, cs->symbols(), ci);
    check(again.symbols() == cs->symbols() && again.base() == cs->base() && again.ascii() == cs->ascii(),
          "re-making from symbols() gives another charset");

    // The symbols, read as a lexid, are the digits 0 .. base-1 in order.
    lex::Digits d;
    lex::parse(*cs, cs->symbols(), d);
    check(static_cast<int>(d.size()) == cs->base(), "symbols() parses to the wrong length");
    for (size_t i = 0; i < d.size(); i++)
        check(d[i] == i, "symbols() does not parse to 0 .. base-1");

    // The codec's compiled table mirrors the charset.
    auto t = std::make_unique<CodecTable>();
    CodecTable::build(*cs, *t);
    check(t->base() == cs->base() && t->symbols() == cs->symbols() && t->ascii() == cs->ascii(),
          "CodecTable differs from its charset");
    for (int c = 0; c < 256; c++) {
        const char b = static_cast<char>(c);
        const char *p = &b, *q = &b;
        check(t->read_digit(p, &b + 1) == cs->read_digit(q, &b + 1) && p == q, "CodecTable reads a byte differently");
    }
    for (int64_t v : {int64_t{0}, int64_t{1}, int64_t{cs->base()}, int64_t{1} << 40, INT64_MAX}) {
        std::string code;
        encode(*cs, v, 3, 5, code);
        char buf[kMaxCodeBytes];
        check(encode(*t, v, 3, 5, buf) == code, "CodecTable encodes differently");
        check(decode(*cs, code, 3, 5) == v && decode(*t, code, 3, 5) == v, "a code does not decode back");
    }
    return 0;
}
