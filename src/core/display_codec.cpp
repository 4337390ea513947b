#include "cpp_only.h"
#include "display_codec.h"
#include "error.h"
#include "quoted_text.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <type_traits>

namespace idseq {

namespace {

std::string quoted(long long v) { return "\"" + std::to_string(v) + "\""; }

// A code for an error message, in double quotes.
std::string quote_code(std::string_view code) { return "\"" + shown(code) + "\""; }

[[noreturn]] __attribute__((cold, noinline)) void fail_shape(int rotate, int width)
{
    if (width < 0 || width > kMaxCodeWidth)
        fail(ErrorKind::InvalidParameter, "width " + quoted(width) + " is out of range",
             "The width must be between 0 and " + std::to_string(kMaxCodeWidth) + ".");
    fail(ErrorKind::InvalidParameter, "rotate " + quoted(rotate) + " is out of range",
         "The rotation must be between 0 and " + std::to_string(kMaxCodeRotate) + ".");
}

inline void check_shape(int rotate, int width)
{
    if (__builtin_expect(static_cast<unsigned>(width) > kMaxCodeWidth || static_cast<unsigned>(rotate) > kMaxCodeRotate, 0))
        fail_shape(rotate, width);
}

[[noreturn]] __attribute__((cold, noinline)) void fail_negative(int64_t id)
{
    fail(ErrorKind::OutOfRange, "cannot encode negative value " + quoted(id),
         "Codes represent the values from 0 to 9223372036854775807.", "Encode a non-negative value.");
}

// Calls put(digit) for each base-B digit of v, least significant first; returns their
// number. For the built-in bases B is a compile-time constant, so the compiler divides by
// multiplying; digits then come two at a time (dividing by B*B), which halves the chain of
// dependent divisions, and 64-bit division is used only while the value needs it.
template <unsigned B, class Put>
inline int digits_by(uint64_t v, std::integral_constant<unsigned, B>, Put put)
{
    constexpr unsigned B2 = B * B;
    int n = 0;
    for (; v > UINT32_MAX; n += 2) {
        const uint64_t q = v / B2;
        const unsigned r = static_cast<unsigned>(v - q * B2);
        put(r % B);
        put(r / B);
        v = q;
    }
    uint32_t w = static_cast<uint32_t>(v);
    for (; w >= B2; n += 2) {
        const uint32_t q = w / B2;
        const unsigned r = w - q * B2;
        put(r % B);
        put(r / B);
        w = q;
    }
    put(w % B);
    n++;
    if (w >= B) {
        put(w / B);
        n++;
    }
    return n;
}

template <class Put>
inline int digits_by(uint64_t v, unsigned base, Put put)
{
    int n = 0;
    for (; v > UINT32_MAX; v /= base, n++)
        put(static_cast<unsigned>(v % base));
    uint32_t w = static_cast<uint32_t>(v);
    do {
        put(w % base);
        w /= base;
        n++;
    } while (w != 0);
    return n;
}

template <class Put>
inline int for_each_digit(uint64_t v, unsigned base, Put put)
{
    if ((base & (base - 1)) == 0) {
        const int shift = __builtin_ctz(base);
        int n = 0;
        do {
            put(static_cast<unsigned>(v & (base - 1)));
            v >>= shift;
            n++;
        } while (v != 0);
        return n;
    }
    switch (base) {
    case 10: return digits_by(v, std::integral_constant<unsigned, 10>(), put);
    case 26: return digits_by(v, std::integral_constant<unsigned, 26>(), put);
    case 36: return digits_by(v, std::integral_constant<unsigned, 36>(), put);
    case 58: return digits_by(v, std::integral_constant<unsigned, 58>(), put);
    case 62: return digits_by(v, std::integral_constant<unsigned, 62>(), put);
    default: return digits_by(v, base, put);
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

// Builds the code of any 64-bit value in buf and returns it (a view into buf); the shape is
// checked by the caller.
template <class Set>
std::string_view encode_value(const Set& cs, uint64_t v, int rotate, int width, char (&buf)[kMaxCodeBytes])
{
    const unsigned base = static_cast<unsigned>(cs.base());
    if (cs.ascii()) {
        // One byte per symbol. The code is written backwards so that it ends at e; rotating
        // right by k then copies its last k bytes to just before its start.
        static_assert(kMaxCodeBytes >= 2 * kMaxCodeWidth, "room for the rotation");
        const char* sym = cs.symbols().data();
        char* const e = buf + 2 * kMaxCodeWidth;
        char* p = e;
        for_each_digit(v, base, [&](unsigned digit) { *--p = sym[digit]; });
        const char zero = sym[0];
        while (e - p < width)
            *--p = zero;
        const size_t n = static_cast<size_t>(e - p);
        const size_t k = std::min(static_cast<size_t>(rotate), n);
        for (size_t i = 1; i <= k; i++)
            p[-static_cast<ptrdiff_t>(i)] = e[-static_cast<ptrdiff_t>(i)];
        return {p - k, n};
    }
    uint8_t d[kMaxCodeWidth]; // 64 digits at most (base 2), or width
    int n = 0;
    for_each_digit(v, base, [&](unsigned digit) { d[n++] = static_cast<uint8_t>(digit); });
    for (; n < width; n++)
        d[n] = 0;
    // The code is d[n-1] .. d[0]; rotated right by k it reads d[k-1] .. d[0] d[n-1] .. d[k].
    const int k = std::min(rotate, n);
    char* p = buf;
    auto put = [&](int digit) {
        std::string_view s = cs.symbol(digit);
        std::memcpy(p, s.data(), s.size());
        p += s.size();
    };
    for (int i = k - 1; i >= 0; i--)
        put(d[i]);
    for (int i = n - 1; i >= k; i--)
        put(d[i]);
    return {buf, static_cast<size_t>(p - buf)};
}

// Builds the code of a non-negative bigint in buf and returns it (a view into buf).
template <class Set>
std::string_view encode_impl(const Set& cs, int64_t id, int rotate, int width, char (&buf)[kMaxCodeBytes])
{
    check_shape(rotate, width);
    if (__builtin_expect(id < 0, 0))
        fail_negative(id);
    return encode_value(cs, static_cast<uint64_t>(id), rotate, width, buf);
}

// The largest value a decoder accepts: a bigint's (2^63 - 1), or a 64-bit block's (2^64 - 1).
enum class Limit { Bigint, Block64 };

constexpr uint64_t limit_value(Limit limit) { return limit == Limit::Bigint ? uint64_t{INT64_MAX} : UINT64_MAX; }

[[noreturn]] __attribute__((cold, noinline)) void fail_too_large(std::string_view code, Limit limit)
{
    if (limit == Limit::Bigint)
        fail(ErrorKind::OutOfRange, "code " + quote_code(code) + " is out of range for type bigint",
             "Its value exceeds 9223372036854775807.");
    fail(ErrorKind::OutOfRange, "code " + quote_code(code) + " is out of range for a public id",
         "Its value exceeds 18446744073709551615, the largest 64-bit value.");
}

// The general decoder: any charset, any code; throws the precise error.
template <class Set>
__attribute__((noinline)) uint64_t decode_general(const Set& cs, std::string_view code, int rotate, int width,
                                                  Limit limit)
{
    if (code.empty())
        fail(ErrorKind::Syntax, "invalid code \"\"", "A code has at least one symbol.");
    // No bigint has a code of more than kMaxCodeWidth symbols of at most 4 bytes: refused
    // before any scan, so a huge text costs nothing.
    if (code.size() > kMaxCodeBytes)
        fail(ErrorKind::OutOfRange, "code " + quote_code(code) + " is too long",
             "A code of a bigint has at most " + std::to_string(kMaxCodeWidth) + " symbols (" +
                 std::to_string(kMaxCodeBytes) + " bytes); this one has " + std::to_string(code.size()) + " bytes.");
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
    uint64_t v = 0;
    const uint64_t base = static_cast<uint64_t>(cs.base());
    bool bad = false, overflow = false;
    auto run = [&](const char* p, const char* q) {
        while (p < q) {
            int dig = cs.read_digit(p, q);
            bad |= dig < 0;
            overflow |= __builtin_mul_overflow(v, base, &v);
            overflow |= __builtin_add_overflow(v, static_cast<uint64_t>(static_cast<unsigned>(dig)), &v);
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
    if (overflow || v > limit_value(limit))
        fail_too_large(code, limit);
    return v;
}

// kSafeDigits[b]: the most base-b digits whose every value fits in an int64 (b^k <= 2^63).
constexpr std::array<uint8_t, kMaxCharsetSymbols + 1> safe_digits()
{
    std::array<uint8_t, kMaxCharsetSymbols + 1> t{};
    for (uint64_t b = 2; b <= kMaxCharsetSymbols; b++) {
        uint64_t p = 1;
        uint8_t k = 0;
        while (p <= (uint64_t{1} << 63) / b) {
            p *= b;
            k++;
        }
        t[b] = k;
    }
    return t;
}
constexpr std::array<uint8_t, kMaxCharsetSymbols + 1> kSafeDigits = safe_digits();
static_assert(kSafeDigits[2] == 63 && kSafeDigits[10] == 18 && kSafeDigits[62] == 10 && kSafeDigits[64] == 10);

inline int byte_digit(const CodecTable& t, unsigned char c) { return t.byte_digit(c); }
inline int byte_digit(const Charset& cs, unsigned char c) { return cs.ascii_digit(c); }

// What the fast path found: a valid code (its value), a code the general decoder refuses, or
// a case the fast path does not cover.
enum class Fast { Valid, Invalid, Uncovered };

// The fast path for the common case -- an ASCII charset and a code of 1 to 64 bytes. In that
// case it decides alone: Invalid exactly when the general decoder throws. Digits are taken
// two at a time while the value cannot overflow, halving the chain of dependent
// multiplications.
template <class Set>
inline Fast decode_fast(const Set& cs, std::string_view code, int rotate, int width, Limit limit, uint64_t& out)
{
    const size_t n = code.size();
    if (cs.ascii() && n - 1 < static_cast<size_t>(kMaxCodeWidth)) {
        const unsigned char* s = reinterpret_cast<const unsigned char*>(code.data());
        const size_t k = std::min(n, static_cast<size_t>(rotate));
        unsigned char buf[kMaxCodeWidth];
        if (k != 0 && k != n) { // undo the rotation: the digits are s[k..n) then s[0..k)
            size_t j = 0;
            for (size_t i = k; i < n; i++)
                buf[j++] = s[i];
            for (size_t i = 0; i < k; i++)
                buf[j++] = s[i];
            s = buf;
        }
        const uint64_t base = static_cast<uint64_t>(cs.base());
        const size_t safe = std::min<size_t>(n, kSafeDigits[base]);
        uint64_t v = 0;
        int acc = 0; // negative once some symbol is not in the set
        size_t i = 0;
        for (; i + 2 <= safe; i += 2) {
            const int d1 = byte_digit(cs, s[i]), d2 = byte_digit(cs, s[i + 1]);
            acc |= d1 | d2;
            v = v * (base * base) + static_cast<uint64_t>(static_cast<int64_t>(d1) * static_cast<int64_t>(base) + d2);
        }
        for (; i < safe; i++) {
            const int d = byte_digit(cs, s[i]);
            acc |= d;
            v = v * base + static_cast<uint64_t>(static_cast<int64_t>(d));
        }
        bool overflow = false;
        for (; i < n; i++) {
            const int d = byte_digit(cs, s[i]);
            acc |= d;
            overflow |= __builtin_mul_overflow(v, base, &v);
            overflow |= __builtin_add_overflow(v, static_cast<uint64_t>(static_cast<unsigned>(d)), &v);
        }
        overflow |= v > limit_value(limit);
        const bool canonical = n >= static_cast<size_t>(width) &&
            !(n > std::max<size_t>(1, static_cast<size_t>(width)) && byte_digit(cs, s[0]) == 0);
        if (__builtin_expect(acc >= 0 && !overflow && canonical, 1)) {
            out = v;
            return Fast::Valid;
        }
        return Fast::Invalid;
    }
    return Fast::Uncovered;
}

// decode: the fast path, and the general decoder for everything else, which also produces
// every error.
template <class Set>
uint64_t decode_impl(const Set& cs, std::string_view code, int rotate, int width, Limit limit)
{
    check_shape(rotate, width);
    uint64_t v;
    if (__builtin_expect(decode_fast(cs, code, rotate, width, limit, v) == Fast::Valid, 1))
        return v;
    return decode_general(cs, code, rotate, width, limit);
}

} // namespace

void encode(const Charset& cs, int64_t id, int rotate, int width, std::string& out)
{
    char buf[kMaxCodeBytes];
    out.append(encode_impl(cs, id, rotate, width, buf));
}

int64_t decode(const Charset& cs, std::string_view code, int rotate, int width)
{
    return static_cast<int64_t>(decode_impl(cs, code, rotate, width, Limit::Bigint));
}

std::string_view encode(const CodecTable& cs, int64_t id, int rotate, int width, char (&buf)[kMaxCodeBytes])
{
    return encode_impl(cs, id, rotate, width, buf);
}

int64_t decode(const CodecTable& cs, std::string_view code, int rotate, int width)
{
    return static_cast<int64_t>(decode_impl(cs, code, rotate, width, Limit::Bigint));
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
    for (int c = 0; c < 256; c++)
        t.byte_map_[c] = static_cast<int16_t>(cs.ascii_digit(static_cast<unsigned char>(c)));
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

// The permutation of 0 .. 2^bits-1 (1 <= bits <= 64, checked by the callers). For bits = 64
// the halves are 32 bits each, so the same rounds permute every 64-bit value.
uint64_t feistel_block(uint64_t v, const ScrambleKey& key, int bits, bool inverse)
{
    if (bits == 1) // a 1-bit permutation: keep or flip
        return v ^ (round_value(key, 0, 1, 0) & 1);
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
    return hi << lo_bits | lo;
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
    return static_cast<int64_t>(feistel_block(static_cast<uint64_t>(x), key, bits, inverse));
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
    if (key.size() > kMaxScrambleKeyBytes)
        fail(ErrorKind::Limit, "scramble key is too long",
             "A scramble key has at most " + std::to_string(kMaxScrambleKeyBytes) + " bytes; this one has " +
                 std::to_string(key.size()) + ".",
             "Use a secret of 16 to 64 random characters.");
    static const SipKey d0 = sip_key_of("idseq/scramble/0"), d1 = sip_key_of("idseq/scramble/1");
    return {siphash24(d0, key.data(), key.size()), siphash24(d1, key.data(), key.size())};
}

int64_t scramble(int64_t x, const ScrambleKey& key, int bits) { return feistel(x, key, bits, false); }

int64_t unscramble(int64_t x, const ScrambleKey& key, int bits) { return feistel(x, key, bits, true); }

uint64_t scramble_block64(uint64_t x, const ScrambleKey& key) { return feistel_block(x, key, 64, false); }

uint64_t unscramble_block64(uint64_t x, const ScrambleKey& key) { return feistel_block(x, key, 64, true); }

ScrambleKey public_id_key(const unsigned char (&key)[kPublicIdKeyBytes])
{
    return derive_key(std::string_view(reinterpret_cast<const char*>(key), kPublicIdKeyBytes));
}

std::string_view public_id(const CodecTable& cs, int64_t id, const ScrambleKey& key, int width,
                           char (&buf)[kMaxCodeBytes])
{
    check_shape(0, width);
    return encode_value(cs, scramble_block64(static_cast<uint64_t>(id), key), 0, width, buf);
}

int64_t from_public_id(const CodecTable& cs, std::string_view code, const ScrambleKey& key, int width)
{
    check_shape(0, width);
    return static_cast<int64_t>(unscramble_block64(decode_impl(cs, code, 0, width, Limit::Block64), key));
}

bool try_from_public_id(const CodecTable& cs, std::string_view code, const ScrambleKey& key, int width, int64_t& id)
{
    check_shape(0, width);
    uint64_t v = 0;
    switch (decode_fast(cs, code, 0, width, Limit::Block64, v)) {
    case Fast::Valid:
        break;
    case Fast::Invalid:
        return false;
    case Fast::Uncovered: // an empty or long code, or a charset with multi-byte symbols
        if (code.empty() || code.size() > kMaxCodeBytes)
            return false;
        try {
            v = decode_general(cs, code, 0, width, Limit::Block64);
        } catch (const Error& e) {
            if (e.kind() == ErrorKind::Syntax || e.kind() == ErrorKind::OutOfRange)
                return false;
            throw;
        }
        break;
    }
    id = static_cast<int64_t>(unscramble_block64(v, key));
    return true;
}

} // namespace idseq
