#include "cpp_only.h"
#include "codec.h"
#include "error.h"

#include <algorithm>
#include <cstring>
#include <type_traits>

namespace idseq {

namespace {

std::string quoted(long long v) { return "\"" + std::to_string(v) + "\""; }

// A code for an error message: at most 64 characters, invalid UTF-8 and control
// characters escaped, in double quotes.
std::string quote_code(std::string_view code)
{
    std::string s = "\"";
    const char* p = code.data();
    const char* end = p + code.size();
    for (int n = 0; p < end; n++) {
        if (n == 64) {
            s += "...";
            break;
        }
        const char* start = p;
        int32_t cp = utf8_decode(p, end);
        std::string_view ch(start, static_cast<size_t>(p - start));
        s += cp < 0x20 || cp == 0x7F ? describe_char(ch) : std::string(ch);
    }
    return s + "\"";
}

void check_shape(int rotate, int width)
{
    if (width < 0 || width > kMaxCodeWidth)
        fail(ErrorKind::InvalidParameter, "width " + quoted(width) + " is out of range",
             "The width must be between 0 and " + std::to_string(kMaxCodeWidth) + ".");
    if (rotate < 0 || rotate > kMaxCodeRotate)
        fail(ErrorKind::InvalidParameter, "rotate " + quoted(rotate) + " is out of range",
             "The rotation must be between 0 and " + std::to_string(kMaxCodeRotate) + ".");
}

// The digits of v in base B, least significant first; returns their number. B is a template
// parameter for the built-in bases so that the compiler divides by multiplying.
template <class Base>
int digits_by(uint64_t v, Base base, uint8_t* d)
{
    int n = 0;
    for (; v > UINT32_MAX; v /= base) // 64-bit division only while it is needed
        d[n++] = static_cast<uint8_t>(v % base);
    uint32_t w = static_cast<uint32_t>(v);
    do {
        d[n++] = static_cast<uint8_t>(w % base);
        w /= base;
    } while (w != 0);
    return n;
}

int to_digits(uint64_t v, unsigned base, uint8_t* d)
{
    if ((base & (base - 1)) == 0) {
        int n = 0, shift = __builtin_ctz(base);
        do {
            d[n++] = static_cast<uint8_t>(v & (base - 1));
            v >>= shift;
        } while (v != 0);
        return n;
    }
    switch (base) {
    case 10: return digits_by(v, std::integral_constant<unsigned, 10>(), d);
    case 26: return digits_by(v, std::integral_constant<unsigned, 26>(), d);
    case 36: return digits_by(v, std::integral_constant<unsigned, 36>(), d);
    case 58: return digits_by(v, std::integral_constant<unsigned, 58>(), d);
    case 62: return digits_by(v, std::integral_constant<unsigned, 62>(), d);
    default: return digits_by(v, base, d);
    }
}

template <class Set>
[[noreturn]] void fail_symbol(const Set& cs, std::string_view code)
{
    const char* p = code.data();
    const char* end = p + code.size();
    for (long long pos = 1; p < end; pos++) {
        const char* start = p;
        if (cs.read_digit(p, end) < 0)
            fail(ErrorKind::Syntax,
                 "invalid symbol \"" + describe_char({start, static_cast<size_t>(p - start)}) +
                     "\" at position " + std::to_string(pos) + " of code " + quote_code(code),
                 "Charset \"" + std::string(cs.name()) + "\" consists of the symbols \"" + std::string(cs.symbols()) +
                     "\".",
                 "Decode with the charset that the code was encoded with.");
    }
    fail(ErrorKind::Internal, "fail_symbol found no invalid symbol");
}

// Writes the code to out (at least kMaxCodeBytes bytes); returns its length in bytes.
template <class Set>
size_t encode_impl(const Set& cs, int64_t id, int rotate, int width, char* out)
{
    check_shape(rotate, width);
    if (id < 0)
        fail(ErrorKind::OutOfRange, "cannot encode negative value " + quoted(id),
             "Codes represent the values from 0 to 9223372036854775807.", "Encode a non-negative value.");
    uint8_t d[kMaxCodeWidth]; // 63 digits at most (base 2), or width
    int n = to_digits(static_cast<uint64_t>(id), static_cast<unsigned>(cs.base()), d);
    for (; n < width; n++)
        d[n] = 0;
    // The code is d[n-1] .. d[0]; rotated right by k it reads d[k-1] .. d[0] d[n-1] .. d[k].
    const int k = std::min(rotate, n);
    auto emit = [&](auto put) {
        for (int i = k - 1; i >= 0; i--)
            put(d[i]);
        for (int i = n - 1; i >= k; i--)
            put(d[i]);
    };
    char* p = out;
    if (cs.ascii()) {
        const char* sym = cs.symbols().data(); // one byte per symbol
        emit([&](int digit) { *p++ = sym[digit]; });
    } else {
        emit([&](int digit) {
            std::string_view s = cs.symbol(digit);
            std::memcpy(p, s.data(), s.size());
            p += s.size();
        });
    }
    return static_cast<size_t>(p - out);
}

template <class Set>
int64_t decode_impl(const Set& cs, std::string_view code, int rotate, int width)
{
    check_shape(rotate, width);
    if (code.empty())
        fail(ErrorKind::Syntax, "invalid code \"\"", "A code has at least one symbol.");
    const char* begin = code.data();
    const char* end = begin + code.size();
    // The digits, most significant first, are [mid, end) followed by [begin, mid), where mid
    // is after the first min(rotate, n) symbols of the n-symbol code.
    size_t n = code.size();
    const char* mid = begin + std::min(n, static_cast<size_t>(rotate));
    if (!cs.ascii()) {
        n = 0;
        mid = end;
        for (const char* p = begin; p < end; n++) {
            if (n == static_cast<size_t>(rotate))
                mid = p;
            cs.read_digit(p, end);
        }
    }
    // In one pass: the value, whether some symbol is not in the set, whether it overflows.
    // (For an ASCII set, a non-ASCII byte makes n and mid meaningless but is caught as bad.)
    int64_t v = 0;
    const int64_t base = cs.base();
    bool bad = false, overflow = false;
    auto run = [&](const char* p, const char* q) {
        while (p < q) {
            int dig = cs.read_digit(p, q);
            bad |= dig < 0;
            overflow |= __builtin_mul_overflow(v, base, &v);
            overflow |= __builtin_add_overflow(v, dig, &v);
        }
    };
    run(mid, end);
    run(begin, mid);
    if (bad)
        fail_symbol(cs, code);
    if (n < static_cast<size_t>(width))
        fail(ErrorKind::Syntax, "non-canonical code " + quote_code(code),
             "Width " + std::to_string(width) + " gives every code at least " + std::to_string(width) +
                 " symbols, but this one has " + std::to_string(n) + ".",
             "Pass the width that the code was encoded with.");
    const char* first = mid < end ? mid : begin;
    if (n > std::max<size_t>(1, static_cast<size_t>(width)) && cs.read_digit(first, end) == 0) {
        bool rotated = mid != begin && mid != end;
        fail(ErrorKind::Syntax, "non-canonical code " + quote_code(code),
             std::string("A code longer than its width (") + std::to_string(width) +
                 ") cannot start with the zero symbol \"" + std::string(cs.symbol(0)) + "\"" +
                 (rotated ? " once its rotation is undone" : "") + "; each value has exactly one code.",
             "If the code was encoded with a width, pass the same width to decode it.");
    }
    if (overflow)
        fail(ErrorKind::OutOfRange, "code " + quote_code(code) + " is out of range for type bigint",
             "Its value exceeds 9223372036854775807.");
    return v;
}

} // namespace

void encode(const Charset& cs, int64_t id, int rotate, int width, std::string& out)
{
    char buf[kMaxCodeBytes];
    out.append(buf, encode_impl(cs, id, rotate, width, buf));
}

int64_t decode(const Charset& cs, std::string_view code, int rotate, int width)
{
    return decode_impl(cs, code, rotate, width);
}

size_t encode(const CodecTable& cs, int64_t id, int rotate, int width, char* out)
{
    return encode_impl(cs, id, rotate, width, out);
}

int64_t decode(const CodecTable& cs, std::string_view code, int rotate, int width)
{
    return decode_impl(cs, code, rotate, width);
}

void CodecTable::build(const Charset& cs, CodecTable& t) noexcept
{
    std::memset(&t, 0, sizeof t);
    t.charset_id_ = cs.id();
    t.base_ = cs.base();
    t.ascii_ = cs.ascii();
    t.name_len_ = static_cast<uint8_t>(std::min(cs.name().size(), sizeof t.name_ - 1));
    std::memcpy(t.name_, cs.name().data(), t.name_len_);
    uint16_t off = 0;
    for (int d = 0; d < t.base_; d++) {
        std::string_view s = cs.symbol(d);
        t.sym_off_[d] = off;
        std::memcpy(t.symbols_ + off, s.data(), s.size());
        off = static_cast<uint16_t>(off + s.size());
        const char* p = s.data();
        int32_t cp = utf8_decode(p, s.data() + s.size());
        if (cp >= 0x80)
            t.wide_[t.wide_count_++] = {static_cast<uint32_t>(cp), d};
    }
    t.sym_off_[t.base_] = off;
    for (int c = 0; c < 128; c++)
        t.ascii_map_[c] = static_cast<int16_t>(cs.ascii_digit(static_cast<unsigned char>(c)));
    std::sort(t.wide_, t.wide_ + t.wide_count_, [](const Wide& a, const Wide& b) { return a.cp < b.cp; });
}

int CodecTable::read_digit_slow(const char*& p, const char* end) const
{
    int32_t cp = utf8_decode(p, end);
    if (cp < 0 || wide_count_ == 0)
        return -1;
    const Wide* e = wide_ + wide_count_;
    const Wide* it = std::lower_bound(wide_, e, static_cast<uint32_t>(cp),
                                      [](const Wide& w, uint32_t c) { return w.cp < c; });
    return it != e && it->cp == static_cast<uint32_t>(cp) ? it->digit : -1;
}

namespace {

constexpr int kFeistelRounds = 10;

// The round function: SipHash-2-4 of one word holding the half (at most 32 bits), bits,
// the round number and a domain tag.
inline uint64_t round_value(const ScrambleKey& key, int round, int bits, uint64_t half)
{
    return siphash24_u64(key, half | static_cast<uint64_t>(bits) << 32 | static_cast<uint64_t>(round) << 40 |
                                   uint64_t{0x5C} << 56);
}

int64_t feistel(int64_t x, const ScrambleKey& key, int bits, bool inverse)
{
    if (bits < 1 || bits > kMaxScrambleBits)
        fail(ErrorKind::InvalidParameter, "bits " + quoted(bits) + " is out of range",
             "The number of bits must be between 1 and 63.");
    if (x < 0 || static_cast<uint64_t>(x) >> bits != 0)
        fail(ErrorKind::OutOfRange,
             "value " + quoted(x) + " is out of range for a " + std::to_string(bits) + "-bit scramble",
             "The scramble permutes the values from 0 to " + std::to_string((uint64_t{1} << bits) - 1) + ".",
             x >= 0 && bits < kMaxScrambleBits ? "Raise bits to cover the value (at most 63)." : "");
    uint64_t v = static_cast<uint64_t>(x);
    if (bits == 1) // a 1-bit permutation: keep or flip
        return static_cast<int64_t>(v ^ (round_value(key, 0, 1, 0) & 1));
    const int lo_bits = bits / 2, hi_bits = bits - lo_bits;
    const uint64_t lo_mask = (uint64_t{1} << lo_bits) - 1, hi_mask = (uint64_t{1} << hi_bits) - 1;
    uint64_t hi = v >> lo_bits, lo = v & lo_mask;
    if (!inverse) {
        for (int r = 0; r < kFeistelRounds; r += 2) {
            hi ^= round_value(key, r, bits, lo) & hi_mask;
            lo ^= round_value(key, r + 1, bits, hi) & lo_mask;
        }
    } else {
        for (int r = kFeistelRounds - 2; r >= 0; r -= 2) {
            lo ^= round_value(key, r + 1, bits, hi) & lo_mask;
            hi ^= round_value(key, r, bits, lo) & hi_mask;
        }
    }
    return static_cast<int64_t>(hi << lo_bits | lo);
}

SipKey sip_key_of(const char (&text)[17])
{
    const unsigned char* p = reinterpret_cast<const unsigned char*>(text);
    return {sip_detail::load_le64(p), sip_detail::load_le64(p + 8)};
}

} // namespace

ScrambleKey derive_key(std::string_view key)
{
    if (key.empty())
        fail(ErrorKind::InvalidParameter, "scramble key must not be empty", "",
             "Use a secret of at least 16 random characters, such as the text of a gen_random_uuid() "
             "value, and keep it out of the database it protects.");
    static const SipKey d0 = sip_key_of("idseq/scramble/0"), d1 = sip_key_of("idseq/scramble/1");
    return {siphash24(d0, key.data(), key.size()), siphash24(d1, key.data(), key.size())};
}

int64_t scramble(int64_t x, const ScrambleKey& key, int bits) { return feistel(x, key, bits, false); }

int64_t unscramble(int64_t x, const ScrambleKey& key, int bits) { return feistel(x, key, bits, true); }

} // namespace idseq
