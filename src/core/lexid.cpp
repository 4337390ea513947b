#include "cpp_only.h"
#include "lexid.h"

#include "bignat.h"
#include "error.h"
#include "quoted_text.h"

#include <algorithm>

namespace idseq::lex {

namespace {

[[noreturn]] void too_long(size_t n)
{
    fail(ErrorKind::OutOfRange, "lexid result of " + std::to_string(n) + " symbols is too long",
         "A lexid value has at most 1024 symbols.");
}

void check_base(int base)
{
    if (base < 2 || base > kMaxCharsetSymbols)
        fail(ErrorKind::InvalidParameter, "lexid arithmetic in base " + std::to_string(base) + " is not possible",
             "A charset has between 2 and 256 symbols.");
}

BigNat to_big(const uint8_t* d, size_t n, int base)
{
    BigNat r;
    for (size_t i = 0; i < n; i++)
        r.mul_add(static_cast<uint32_t>(base), static_cast<uint32_t>(d[i]) + 1);
    return r;
}

// r >= 0 -> digits (empty for 0). Fails when longer than kMaxLength.
void from_big(BigNat r, int base, Digits& out)
{
    out.clear();
    while (!r.is_zero()) {
        if (out.size() == kMaxLength)
            too_long(kMaxLength + 1);
        // r - 1, then split off the lowest digit
        BigNat one(1);
        r.sub(one);
        out.push_back(static_cast<uint8_t>(r.divmod(static_cast<uint32_t>(base))));
    }
    std::reverse(out.begin(), out.end());
}

} // namespace

void parse(const Charset& cs, std::string_view text, Digits& out, bool allow_empty)
{
    out.clear();
    if (text.empty()) {
        if (allow_empty)
            return;
        fail(ErrorKind::Syntax, "invalid input syntax for type lexid: \"\"",
             "A lexid value has at least one symbol.");
    }
    const char* p = text.data();
    const char* end = p + text.size();
    size_t pos = 0;
    while (p < end) {
        const char* start = p;
        int d = cs.read_digit(p, end);
        ++pos;
        if (d < 0) {
            throw Error(ErrorKind::Syntax, ErrorReason::InvalidSymbol,
                 "invalid character \"" + describe_char(std::string_view(start, static_cast<size_t>(p - start))) +
                     "\" at position " + std::to_string(pos) + " in \"" + shown(text) + "\"",
                 "The charset \"" + cs.name() + "\" has the symbols \"" + cs.symbols() + "\".");
        }
        if (pos > kMaxLength)
            fail(ErrorKind::Syntax, "lexid value is too long",
                 "A lexid value has at most 1024 symbols; the input has more.");
        out.push_back(static_cast<uint8_t>(d));
    }
}

void check_spelling(std::string_view text, bool ascii_only)
{
    if (text.empty())
        fail(ErrorKind::Syntax, "invalid input syntax for type lexid: \"\"", "A lexid value has at least one symbol.");
    const char* p = text.data();
    const char* end = p + text.size();
    size_t pos = 0;
    while (p < end) {
        const char* start = p;
        int32_t cp = utf8_decode(p, end);
        ++pos;
        std::string_view ch(start, static_cast<size_t>(p - start));
        if (cp < 0)
            fail(ErrorKind::Syntax,
                 "invalid byte \"" + describe_char(ch) + "\" at position " + std::to_string(pos) + " in \"" + shown(text) +
                     "\"",
                 "A lexid value is UTF-8 text.");
        if (ascii_only && cp >= 0x80)
            fail(ErrorKind::Syntax,
                 "invalid character \"" + describe_char(ch) + "\" at position " + std::to_string(pos) + " in \"" +
                     shown(text) + "\"",
                 "In a database whose encoding is not UTF8, a lexid value is ASCII text.");
        if (!symbol_code_point(cp))
            fail(ErrorKind::Syntax,
                 "invalid character \"" + describe_blank(cp, ch) + "\" at position " + std::to_string(pos) + " in \"" +
                     shown(text) + "\"",
                 "No charset has white space or control characters as symbols.");
        if (pos > kMaxLength)
            fail(ErrorKind::Syntax, "lexid value is too long",
                 "A lexid value has at most 1024 symbols; the input has more.");
    }
}

bool valid(const Charset& cs, std::string_view text) noexcept
{
    const char* p = text.data();
    const char* end = p + text.size();
    size_t n = 0;
    while (p < end) {
        if (cs.read_digit(p, end) < 0 || ++n > kMaxLength)
            return false;
    }
    return n > 0;
}

void format(const Charset& cs, const uint8_t* d, size_t n, std::string& out)
{
    size_t bad = first_bad_digit(d, n, cs.base());
    if (bad < n)
        fail(ErrorKind::Internal, "lexid digit " + std::to_string(d[bad]) + " at position " + std::to_string(bad + 1) +
                                      " is not a digit of charset \"" + cs.name() + "\"");
    if (cs.ascii()) {
        size_t at = out.size();
        out.resize(at + n);
        for (size_t i = 0; i < n; i++)
            out[at + i] = cs.symbol(d[i])[0];
        return;
    }
    for (size_t i = 0; i < n; i++)
        out.append(cs.symbol(d[i]));
}

int abbrev_digits(int base)
{
    check_base(base);
    int m = 0;
    for (uint64_t p = static_cast<uint64_t>(base); p <= (uint64_t(1) << 52); p *= static_cast<uint64_t>(base))
        m++;
    return m;
}

uint64_t abbrev_key(const uint8_t* d, size_t n, int base, int ndigits)
{
    uint64_t packed = 0;
    for (int i = 0; i < ndigits; i++)
        packed = packed * static_cast<uint64_t>(base) + (static_cast<size_t>(i) < n ? d[i] : 0);
    return (static_cast<uint64_t>(n) << kAbbrevLengthShift) | packed;
}

void add(Digits& d, int base, int64_t n, bool allow_empty)
{
    check_base(base);
    const uint64_t k = static_cast<uint64_t>(base);
    if (n >= 0) {
        uint64_t m = static_cast<uint64_t>(n);
        for (size_t i = d.size(); i-- > 0 && m;) {
            uint64_t t = d[i] + 1 + m;          // < 2^63 + 257
            uint64_t v = (t - 1) % k + 1;       // new bijective digit 1..k
            m = (t - v) / k;
            d[i] = static_cast<uint8_t>(v - 1);
        }
        if (m) {
            Digits head;
            while (m) {
                uint64_t v = (m - 1) % k + 1;
                m = (m - v) / k;
                head.push_back(static_cast<uint8_t>(v - 1));
            }
            if (d.size() + head.size() > kMaxLength)
                too_long(d.size() + head.size());
            d.insert(d.begin(), head.rbegin(), head.rend());
        }
        return;
    }
    // Subtraction: borrow from the right; fall back to exact big-number arithmetic when the
    // borrow reaches the most significant symbol with more than it holds.
    uint64_t m = static_cast<uint64_t>(-(n + 1)) + 1; // |n| without overflow for INT64_MIN
    Digits orig = d;
    for (size_t i = d.size(); i-- > 0 && m;) {
        uint64_t v = d[i] + 1u;
        if (i == 0) {
            if (m < v) {
                d[0] = static_cast<uint8_t>(v - m - 1);
                m = 0;
            } else if (m == v) {
                d.erase(d.begin());
                m = 0;
            }
            break;
        }
        uint64_t r = m % k, q = m / k;
        if (v > r) {
            d[i] = static_cast<uint8_t>(v - r - 1);
            m = q;
        } else {
            d[i] = static_cast<uint8_t>(v + k - r - 1);
            m = q + 1;
        }
    }
    if (m) {
        BigNat r = to_big(orig.data(), orig.size(), base);
        BigNat mm(static_cast<uint64_t>(-(n + 1)) + 1);
        if (r.compare(mm) < 0)
            d.clear(), m = 1; // below zero
        else {
            r.sub(mm);
            from_big(r, base, d);
            m = 0;
        }
        if (m)
            fail(ErrorKind::OutOfRange, "lexid result is before the first value",
                 "Subtracting " + std::to_string(static_cast<uint64_t>(-(n + 1)) + 1) +
                     " goes below the first value of the order.");
    }
    if (d.empty() && !allow_empty)
        fail(ErrorKind::OutOfRange, "lexid result is before the first value",
             "The first value of the charset is its first symbol.");
}

std::string rank(const uint8_t* d, size_t n, int base)
{
    check_base(base);
    return to_big(d, n, base).to_decimal();
}

void from_rank(std::string_view decimal, int base, Digits& out)
{
    check_base(base);
    // Quick bound before any arithmetic (parsing is quadratic in the length): the largest
    // rank of 1024 symbols, below 257^1025, has fewer than 2472 decimal digits; from_big
    // checks exactly. The fraction, if any, is checked for zeros in linear time.
    size_t integer_digits = decimal.find('.');
    if (integer_digits == std::string_view::npos)
        integer_digits = decimal.size();
    if (!decimal.empty() && decimal[0] != '-' && integer_digits > 2600)
        too_long(kMaxLength + 1);
    BigNat r;
    if (!BigNat::from_decimal(decimal, r)) {
        if (!decimal.empty() && decimal[0] == '-')
            fail(ErrorKind::OutOfRange, "lexid rank " + shown(decimal) + " is out of range", "Ranks start at 1.");
        fail(ErrorKind::InvalidParameter, "lexid rank \"" + shown(decimal) + "\" is not an integer",
             "Ranks are positive integers.");
    }
    if (r.is_zero())
        fail(ErrorKind::OutOfRange, "lexid rank 0 is out of range", "Ranks start at 1.");
    from_big(r, base, out);
}

std::string distance(const uint8_t* a, size_t na, const uint8_t* b, size_t nb, int base)
{
    check_base(base);
    int c = compare(a, na, b, nb);
    if (c == 0)
        return "0";
    BigNat x = to_big(a, na, base), y = to_big(b, nb, base);
    if (c > 0) {
        x.sub(y);
        return x.to_decimal();
    }
    y.sub(x);
    return "-" + y.to_decimal();
}

std::string add_text(const Charset& cs, std::string_view source, int64_t n, bool ignore_case)
{
    auto is_letter = [](unsigned char c) { return (c | 0x20) >= 'a' && (c | 0x20) <= 'z'; };
    bool fold = ignore_case && !cs.case_insensitive();
    if (!fold) {
        Digits d;
        parse(cs, source, d, true);
        add(d, cs.base(), n, true);
        std::string out;
        format(cs, d.data(), d.size(), out);
        return out;
    }
    // Case-folded counting: the effective alphabet is the charset's symbols with ASCII case
    // folded, in order of first appearance (base62 becomes 0-9A-Z: base 36).
    std::vector<int> class_of(static_cast<size_t>(cs.base()), -1);
    std::vector<int> rep; // class -> representative digit
    for (int dg = 0; dg < cs.base(); dg++) {
        int f = cs.folded_digit(dg);
        if (f == dg) {
            class_of[static_cast<size_t>(dg)] = static_cast<int>(rep.size());
            rep.push_back(dg);
        } else {
            class_of[static_cast<size_t>(dg)] = class_of[static_cast<size_t>(f)];
        }
    }
    if (rep.size() < 2)
        fail(ErrorKind::InvalidParameter,
             "charset \"" + cs.name() + "\" has fewer than 2 symbols when case is ignored",
             "Its symbols \"" + cs.symbols() + "\" differ only by case.", "Call lexical_add with ignore_case => false.");
    int upper = 0, lower = 0;
    Digits d;
    std::vector<std::string_view> spelled; // original spelling per position
    const char* p = source.data();
    const char* end = p + source.size();
    size_t pos = 0;
    while (p < end) {
        const char* start = p;
        unsigned char c = static_cast<unsigned char>(*p);
        int dg = cs.read_digit(p, end);
        ++pos;
        if (dg < 0 && is_letter(c)) {
            const char other = static_cast<char>(c ^ 0x20);
            const char* op = &other;
            dg = cs.read_digit(op, op + 1);
        }
        if (dg < 0)
            throw Error(ErrorKind::Syntax, ErrorReason::InvalidSymbol,
                 "invalid character \"" + describe_char(std::string_view(start, static_cast<size_t>(p - start))) +
                     "\" at position " + std::to_string(pos) + " in \"" + shown(source) + "\"",
                 "The charset \"" + cs.name() + "\" has the symbols \"" + cs.symbols() + "\".");
        if (pos > kMaxLength)
            fail(ErrorKind::Syntax, "lexid value is too long", "A lexid value has at most 1024 symbols; the input has more.");
        if (is_letter(c))
            (c >= 'a' ? lower : upper)++;
        d.push_back(static_cast<uint8_t>(class_of[static_cast<size_t>(dg)]));
        spelled.emplace_back(start, static_cast<size_t>(p - start));
    }
    Digits before = d;
    add(d, static_cast<int>(rep.size()), n, true);
    bool to_lower = lower > upper;
    std::string out;
    const long offset = static_cast<long>(d.size()) - static_cast<long>(before.size());
    for (size_t i = 0; i < d.size(); i++) {
        // Positions are aligned on the right; an unchanged digit keeps its spelling.
        long j = static_cast<long>(i) - offset;
        if (j >= 0 && j < static_cast<long>(before.size()) && before[static_cast<size_t>(j)] == d[i]) {
            out.append(spelled[static_cast<size_t>(j)]);
            continue;
        }
        std::string_view sym = cs.symbol(rep[d[i]]);
        if (sym.size() == 1 && is_letter(static_cast<unsigned char>(sym[0])))
            out.push_back(static_cast<char>(to_lower ? (sym[0] | 0x20) : (sym[0] & ~0x20)));
        else
            out.append(sym);
    }
    return out;
}

} // namespace idseq::lex
