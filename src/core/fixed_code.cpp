#include "cpp_only.h"
#include "fixed_code.h"

#include "error.h"
#include "quoted_text.h"

#include <cstring>
#include <limits>

namespace idseq::code {

namespace {

constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();

std::string symbols_of(const Charset& cs)
{
    return "\"" + cs.name() + "\" (" + std::to_string(cs.base()) + " symbols)";
}

} // namespace

int max_width(int base) noexcept
{
    int w = 0;
    int64_t p = 1;
    while (p <= kInt64Max / base) {
        p *= base;
        ++w;
    }
    return w;
}

int64_t capacity(int base, int width) noexcept
{
    int64_t p = 1;
    for (int i = 0; i < width; i++)
        p *= base;
    return p;
}

bool in_range(int base, int width, int64_t n) noexcept
{
    if (n < 0)
        return false;
    int64_t p = 1; // base^i, while it is a bigint
    for (int i = 0; i < width; i++) {
        if (p > kInt64Max / base)
            return true; // base^width exceeds every bigint
        p *= base;
    }
    return n <= p - 1;
}

void check_width(const Charset& cs, int64_t width)
{
    if (width < 1 || width > kMaxWidth)
        fail(ErrorKind::InvalidParameter,
             "invalid code width " + std::to_string(width) + " for charset \"" + cs.name() + "\"",
             "Codes have a width of 1 to " + std::to_string(kMaxWidth) + " symbols.");
}

void check_sequence_width(const Charset& cs, int64_t width)
{
    int mw = max_width(cs.base());
    if (width < 1 || width > mw)
        fail(ErrorKind::InvalidParameter,
             "invalid code width " + std::to_string(width) + " for a code sequence over charset \"" + cs.name() + "\"",
             "Code sequences over " + symbols_of(cs) + " have a width of 1 to " + std::to_string(mw) +
                 ", so that their MAXVALUE " + std::to_string(cs.base()) + "^width - 1 fits in bigint.");
}

int width_of_max(int base, int64_t maxvalue) noexcept
{
    int mw = max_width(base);
    int64_t p = 1;
    for (int w = 1; w <= mw; w++) {
        p *= base;
        if (p - 1 == maxvalue)
            return w;
        if (p - 1 > maxvalue)
            return 0;
    }
    return 0;
}

int covering_width(int base, int64_t maxvalue) noexcept
{
    int mw = max_width(base);
    int64_t p = 1;
    for (int w = 1; w <= mw; w++) {
        p *= base;
        if (p - 1 >= maxvalue)
            return w;
    }
    return 0;
}

namespace {

// The digits of v, least significant last. A constant divisor lets the compiler replace the
// division by a multiplication; the common bases get one each.
template <uint64_t B>
inline void split_const(uint64_t v, int width, uint8_t* digits)
{
    if (v <= 0xFFFFFFFFu) {
        uint32_t v32 = static_cast<uint32_t>(v);
        for (int i = width; i > 0;) {
            digits[--i] = static_cast<uint8_t>(v32 % static_cast<uint32_t>(B));
            v32 /= static_cast<uint32_t>(B);
        }
    } else {
        for (int i = width; i > 0;) {
            digits[--i] = static_cast<uint8_t>(v % B);
            v /= B;
        }
    }
}

inline void split(uint64_t v, int base, int width, uint8_t* digits)
{
    switch (base) {
    case 10: return split_const<10>(v, width, digits);
    case 16: return split_const<16>(v, width, digits);
    case 26: return split_const<26>(v, width, digits);
    case 32: return split_const<32>(v, width, digits);
    case 36: return split_const<36>(v, width, digits);
    case 58: return split_const<58>(v, width, digits);
    case 62: return split_const<62>(v, width, digits);
    case 64: return split_const<64>(v, width, digits);
    default: break;
    }
    const uint64_t b = static_cast<uint64_t>(base);
    for (int i = width; i > 0;) {
        digits[--i] = static_cast<uint8_t>(v % b);
        v /= b;
    }
}

template <uint64_t B>
inline bool add_const(uint8_t* d, size_t len, uint64_t n)
{
    size_t i = len;
    if (n <= 0xFFFFFF00u) { // 32-bit arithmetic while it fits: a cheaper multiply
        uint32_t m = static_cast<uint32_t>(n);
        for (; i-- > 0 && m;) {
            uint32_t t = d[i] + m;
            d[i] = static_cast<uint8_t>(t % static_cast<uint32_t>(B));
            m = t / static_cast<uint32_t>(B);
        }
        return m == 0;
    }
    for (; i-- > 0 && n;) {
        uint64_t t = d[i] + n; // n <= INT64_MAX, so no overflow
        d[i] = static_cast<uint8_t>(t % B);
        n = t / B;
    }
    return n == 0;
}

} // namespace

bool add_same_length(uint8_t* digits, size_t len, int base, uint64_t n) noexcept
{
    switch (base) {
    case 10: return add_const<10>(digits, len, n);
    case 16: return add_const<16>(digits, len, n);
    case 26: return add_const<26>(digits, len, n);
    case 32: return add_const<32>(digits, len, n);
    case 36: return add_const<36>(digits, len, n);
    case 58: return add_const<58>(digits, len, n);
    case 62: return add_const<62>(digits, len, n);
    case 64: return add_const<64>(digits, len, n);
    default: break;
    }
    const uint64_t b = static_cast<uint64_t>(base);
    for (size_t i = len; i-- > 0 && n;) {
        uint64_t t = digits[i] + n;
        digits[i] = static_cast<uint8_t>(t % b);
        n = t / b;
    }
    return n == 0;
}

namespace {

// ASCII charsets: the symbols straight into out, least significant first, no digit buffer.
template <uint64_t B>
inline void put_ascii(uint64_t v, int width, const char* sym, char* out)
{
    if (v <= 0xFFFFFFFFu) {
        uint32_t v32 = static_cast<uint32_t>(v);
        for (int i = width; i > 0;) {
            out[--i] = sym[v32 % static_cast<uint32_t>(B)];
            v32 /= static_cast<uint32_t>(B);
        }
    } else {
        for (int i = width; i > 0;) {
            out[--i] = sym[v % B];
            v /= B;
        }
    }
}

} // namespace

size_t format_to(const Charset& cs, int64_t n, int width, char* out) noexcept
{
    const uint64_t v = static_cast<uint64_t>(n);
    if (cs.ascii()) { // one byte per symbol: the canonical spelling is the symbol table
        const char* sym = cs.symbols().data();
        switch (cs.base()) {
        case 10: put_ascii<10>(v, width, sym, out); break;
        case 16: put_ascii<16>(v, width, sym, out); break;
        case 26: put_ascii<26>(v, width, sym, out); break;
        case 32: put_ascii<32>(v, width, sym, out); break;
        case 36: put_ascii<36>(v, width, sym, out); break;
        case 58: put_ascii<58>(v, width, sym, out); break;
        case 62: put_ascii<62>(v, width, sym, out); break;
        case 64: put_ascii<64>(v, width, sym, out); break;
        default: {
            const uint64_t b = static_cast<uint64_t>(cs.base());
            uint64_t r = v;
            for (int i = width; i > 0;) {
                out[--i] = sym[r % b];
                r /= b;
            }
        }
        }
        return static_cast<size_t>(width);
    }
    uint8_t digits[kMaxWidth];
    split(v, cs.base(), width, digits);
    size_t len = 0;
    for (int k = 0; k < width; k++) {
        std::string_view s = cs.symbol(digits[k]);
        std::memcpy(out + len, s.data(), s.size());
        len += s.size();
    }
    return len;
}

void check_range(const Charset& cs, int64_t n, int64_t width)
{
    check_width(cs, width);
    int w = static_cast<int>(width);
    if (!in_range(cs.base(), w, n))
        fail(ErrorKind::OutOfRange,
             "value " + std::to_string(n) + " is out of range for a code of width " + std::to_string(w),
             "Codes of width " + std::to_string(w) + " over charset \"" + cs.name() + "\" stand for 0 to " +
                 std::to_string(w > max_width(cs.base()) ? kInt64Max : capacity(cs.base(), w) - 1) + ".");
}

std::string format(const Charset& cs, int64_t n, int64_t width)
{
    check_range(cs, n, width);
    int w = static_cast<int>(width);
    char buf[kMaxCodeBytes];
    size_t len = format_to(cs, n, w, buf);
    return std::string(buf, len);
}

int64_t parse(const Charset& cs, std::string_view code)
{
    if (code.empty())
        fail(ErrorKind::Syntax, "invalid code \"\"", "A code has at least one symbol.");
    const int base = cs.base();
    const char* p = code.data();
    const char* end = p + code.size();
    int64_t n = 0;
    int pos = 0;
    bool overflow = false;
    while (p < end) {
        const char* start = p;
        int d = cs.read_digit(p, end);
        ++pos;
        if (d < 0)
            throw Error(ErrorKind::Syntax, ErrorReason::InvalidSymbol,
                 "invalid character \"" + describe_char(std::string_view(start, static_cast<size_t>(p - start))) +
                     "\" at position " + std::to_string(pos) + " in code \"" + shown(code) + "\"",
                 "The charset \"" + cs.name() + "\" has the symbols \"" + cs.symbols() + "\".");
        if (pos > kMaxWidth)
            fail(ErrorKind::Syntax, "code \"" + shown(code) + "\" is too long",
                 "Codes have at most " + std::to_string(kMaxWidth) + " symbols.");
        if (n > (kInt64Max - d) / base)
            overflow = true; // read on: a bad symbol or a code too long is the error to report
        else
            n = n * base + d;
    }
    if (overflow)
        fail(ErrorKind::OutOfRange, "code \"" + shown(code) + "\" is out of range for type bigint",
             "Codes over " + symbols_of(cs) + " stand for 0 to " + std::to_string(kInt64Max) + ".");
    return n;
}

} // namespace idseq::code
