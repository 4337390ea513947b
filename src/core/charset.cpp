#include "cpp_only.h"
#include "charset.h"
#include "error.h"
#include "sha256.h"
#include "quoted_text.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace idseq {

int32_t utf8_decode(const char*& p, const char* end)
{
    auto b = [&](int i) { return static_cast<unsigned char>(p[i]); };
    unsigned char c = b(0);
    int len;
    int32_t cp;
    if (c < 0x80) {
        ++p;
        return c;
    } else if ((c & 0xE0) == 0xC0) {
        len = 2;
        cp = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
        len = 3;
        cp = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
        len = 4;
        cp = c & 0x07;
    } else {
        ++p;
        return -1;
    }
    if (end - p < len) {
        ++p;
        return -1;
    }
    for (int i = 1; i < len; i++) {
        if ((b(i) & 0xC0) != 0x80) {
            ++p;
            return -1;
        }
        cp = (cp << 6) | (b(i) & 0x3F);
    }
    static const int32_t min_for_len[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < min_for_len[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
        ++p;
        return -1;
    }
    p += len;
    return cp;
}

std::string describe_char(std::string_view ch)
{
    std::string out;
    for (char b : ch) {
        unsigned char c = static_cast<unsigned char>(b);
        // a control byte, a lone byte that is not UTF-8, or any non-ASCII byte where
        // messages must be ASCII (messages_utf8)
        if (c < 0x20 || c == 0x7F || (c >= 0x80 && (ch.size() == 1 || !messages_utf8()))) {
            char buf[16];
            std::snprintf(buf, sizeof buf, "\\x%02X", c);
            out += buf;
        } else {
            out += b;
        }
    }
    return out;
}

// A character rejected as white space or control, as a message shows it: ASCII as
// describe_char does, anything else by code point ("U+200B"), since it prints as nothing.
std::string describe_blank(int32_t cp, std::string_view ch)
{
    if (cp < 0x80)
        return describe_char(ch);
    char buf[16];
    std::snprintf(buf, sizeof buf, "U+%04X", static_cast<unsigned>(cp));
    return buf;
}

bool symbol_code_point(int32_t cp)
{
    return !(cp <= 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0xA0) || cp == 0x2028 || cp == 0x2029 || cp == 0x3000 ||
             cp == 0xFEFF || (cp >= 0x2000 && cp <= 0x200F));
}

namespace {

struct CodeRange {
    int32_t first, last;
};
// The format characters (Unicode category Cf, 15.1), in code point order.
constexpr CodeRange kFormatCharacters[] = {
    {0x00AD, 0x00AD},   {0x0600, 0x0605},   {0x061C, 0x061C},   {0x06DD, 0x06DD},   {0x070F, 0x070F},
    {0x0890, 0x0891},   {0x08E2, 0x08E2},   {0x180E, 0x180E},   {0x200B, 0x200F},   {0x202A, 0x202E},
    {0x2060, 0x2064},   {0x2066, 0x206F},   {0xFEFF, 0xFEFF},   {0xFFF9, 0xFFFB},   {0x110BD, 0x110BD},
    {0x110CD, 0x110CD}, {0x13430, 0x1343F}, {0x1BCA0, 0x1BCA3}, {0x1D173, 0x1D17A}, {0xE0001, 0xE0001},
    {0xE0020, 0xE007F},
};

} // namespace

bool printable_code_point(int32_t cp)
{
    if (!symbol_code_point(cp))
        return false;
    for (const CodeRange& r : kFormatCharacters)
        if (cp >= r.first && cp <= r.last)
            return false;
    return true;
}

void check_new_symbols(std::string_view name, std::string_view symbols)
{
    const char* p = symbols.data();
    const char* end = p + symbols.size();
    while (p < end) {
        const char* start = p;
        const int32_t cp = utf8_decode(p, end);
        if (cp >= 0 && !printable_code_point(cp))
            fail(ErrorKind::InvalidParameter,
                 "charset \"" + shown(name) + "\" contains the format character \"" +
                     describe_blank(cp, std::string_view(start, static_cast<size_t>(p - start))) + "\"",
                 "Symbols must be printable characters other than white space; a format character such as the "
                 "soft hyphen prints nothing.");
    }
}

static bool is_ascii_letter(unsigned char c) { return (c | 0x20) >= 'a' && (c | 0x20) <= 'z'; }
static unsigned char ascii_upper(unsigned char c) { return (c >= 'a' && c <= 'z') ? c - 32 : c; }
static unsigned char ascii_lower(unsigned char c) { return (c >= 'A' && c <= 'Z') ? c + 32 : c; }

Charset Charset::make(int32_t id, std::string name, std::string_view symbols, bool case_insensitive,
                      bool builtin)
{
    Charset cs;
    cs.id_ = id;
    cs.name_ = std::move(name);
    cs.case_insensitive_ = case_insensitive;
    cs.builtin_ = builtin;
    for (auto& m : cs.ascii_map_)
        m = -1;
    const char* p = symbols.data();
    const char* end = p + symbols.size();
    const std::string quoted = "\"" + shown(cs.name_) + "\"";
    while (p < end) {
        const char* start = p;
        int32_t cp = utf8_decode(p, end);
        std::string sym(start, static_cast<size_t>(p - start));
        if (cp < 0)
            fail(ErrorKind::InvalidParameter, "invalid UTF-8 in the symbols of charset " + quoted);
        if (!symbol_code_point(cp))
            fail(ErrorKind::InvalidParameter,
                 "charset " + quoted + " contains the space or control character \"" + describe_blank(cp, sym) + "\"",
                 "Symbols must be printable characters other than white space.");
        int d = static_cast<int>(cs.syms_.size());
        if (d >= kMaxCharsetSymbols)
            fail(ErrorKind::InvalidParameter, "charset " + quoted + " has more than 256 symbols",
                 "", "Use between 2 and 256 distinct symbols.");
        // Duplicate check (exact, and by ASCII case for case-insensitive sets).
        const char* q = sym.data();
        int existing = cs.read_digit(q, sym.data() + sym.size());
        if (existing >= 0)
            fail(ErrorKind::InvalidParameter,
                 case_insensitive && sym != cs.syms_[static_cast<size_t>(existing)]
                     ? "case-insensitive charset " + quoted + " contains both \"" + cs.syms_[static_cast<size_t>(existing)] +
                           "\" and \"" + sym + "\""
                     : "charset " + quoted + " contains the symbol \"" + sym + "\" more than once",
                 "", "Each symbol may appear only once.");
        if (cp < 0x80) {
            unsigned char c = static_cast<unsigned char>(cp);
            if (case_insensitive && is_ascii_letter(c)) {
                cs.ascii_map_[ascii_upper(c)] = static_cast<int16_t>(d);
                cs.ascii_map_[ascii_lower(c)] = static_cast<int16_t>(d);
            } else {
                cs.ascii_map_[c] = static_cast<int16_t>(d);
            }
        } else {
            cs.ascii_ = false;
            cs.wide_map_[static_cast<uint32_t>(cp)] = d;
            cs.max_bytes_ = std::max(cs.max_bytes_, static_cast<int>(sym.size()));
        }
        cs.syms_.push_back(std::move(sym));
    }
    if (cs.syms_.size() < 2)
        fail(ErrorKind::InvalidParameter, "charset " + quoted + " has fewer than 2 symbols", "",
             "Use between 2 and 256 distinct symbols.");
    // Canonical spelling: case-insensitive sets are stored in their canonical case, which is
    // the case the symbols were given in.
    for (auto& s : cs.syms_)
        cs.symbols_ += s;
    // folded digit: first digit whose symbol equals this one ignoring ASCII case
    cs.folded_.resize(cs.syms_.size());
    for (size_t d = 0; d < cs.syms_.size(); d++) {
        cs.folded_[d] = static_cast<int>(d);
        const std::string& s = cs.syms_[d];
        if (s.size() == 1 && is_ascii_letter(static_cast<unsigned char>(s[0]))) {
            for (size_t e = 0; e < d; e++) {
                const std::string& t = cs.syms_[e];
                if (t.size() == 1 && ascii_upper(static_cast<unsigned char>(t[0])) ==
                                         ascii_upper(static_cast<unsigned char>(s[0]))) {
                    cs.folded_[d] = static_cast<int>(e);
                    break;
                }
            }
        }
    }
    // Crockford's aliases (add_alias) are left out: they add spellings that read, never
    // change what a digit means.
    std::string def = std::string("idseq charset\0", 14) + (case_insensitive ? "ci" : "cs") + '\0' + cs.symbols_;
    std::array<uint8_t, 32> h = sha256(def);
    for (size_t i = 0; i < kFingerprintBytes; i++)
        cs.fingerprint_[i] = h[i];
    return cs;
}

int Charset::read_digit_slow(const char*& p, const char* end) const
{
    int32_t cp = utf8_decode(p, end);
    if (cp < 0 || wide_map_.empty())
        return -1;
    auto it = wide_map_.find(static_cast<uint32_t>(cp));
    return it == wide_map_.end() ? -1 : it->second;
}

namespace {

std::vector<Charset> make_builtins()
{
    struct Def {
        const char* name;
        const char* symbols;
        bool ci;
    };
    static const Def defs[kBuiltinCharsetCount] = {
        {"digits", "0123456789", false},
        {"upper", "ABCDEFGHIJKLMNOPQRSTUVWXYZ", false},
        {"lower", "abcdefghijklmnopqrstuvwxyz", false},
        {"alpha", "ABCDEFGHIJKLMNOPQRSTUVWXYZ", true},
        {"base36", "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ", true},
        {"base62", "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz", false},
        {"crockford32", "0123456789ABCDEFGHJKMNPQRSTVWXYZ", true},
        {"base58", "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz", false},
        {"base64url", "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_", false},
        {"hex", "0123456789abcdef", true},
    };
    std::vector<Charset> v;
    v.reserve(kBuiltinCharsetCount);
    for (int i = 0; i < kBuiltinCharsetCount; i++)
        v.push_back(Charset::make(i + 1, defs[i].name, defs[i].symbols, defs[i].ci, true));
    // Crockford's base32 reads O as 0 and I, L as 1.
    Charset& c = v[6];
    c.add_alias('O', 0);
    c.add_alias('I', 1);
    c.add_alias('L', 1);
    return v;
}

} // namespace

void Charset::add_alias(char c, int digit)
{
    ascii_map_[ascii_upper(static_cast<unsigned char>(c))] = static_cast<int16_t>(digit);
    ascii_map_[ascii_lower(static_cast<unsigned char>(c))] = static_cast<int16_t>(digit);
}

const std::vector<Charset>& builtin_charsets()
{
    static const std::vector<Charset> all = make_builtins();
    return all;
}

const Charset* builtin_charset(std::string_view name)
{
    for (const Charset& c : builtin_charsets())
        if (c.name() == name)
            return &c;
    return nullptr;
}

const Charset* builtin_charset(int32_t id)
{
    if (id < 1 || id > kBuiltinCharsetCount)
        return nullptr;
    return &builtin_charsets()[static_cast<size_t>(id - 1)];
}

void validate_charset_name(std::string_view name)
{
    bool ok = !name.empty() && name.size() <= kMaxCharsetNameLength &&
              ((name[0] >= 'a' && name[0] <= 'z') || name[0] == '_');
    for (char c : name)
        ok = ok && ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_');
    if (!ok)
        fail(ErrorKind::InvalidParameter, "invalid charset name \"" + shown(name) + "\"",
             "A charset name is a lowercase letter or underscore followed by up to 62 lowercase letters, digits or underscores.",
             "Choose a name such as \"order_code\".");
}

int32_t custom_charset_id(std::string_view name)
{
    // FNV-1a, 32-bit, folded into 1024 .. 2^31-1. Stable across releases: part of the format.
    uint32_t h = 2166136261u;
    for (unsigned char c : name) {
        h ^= c;
        h *= 16777619u;
    }
    h &= 0x7FFFFFFFu;
    if (h < 1024)
        h += 1024;
    return static_cast<int32_t>(h);
}

} // namespace idseq
