// Unit tests for the display codecs and the keyed scramble (src/core/codec.h, siphash.h).
#include "cpp_only.h"
#include "display_codec.h"
#include "error.h"

#include "test_util.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

using namespace idseq;
using unit::error_of;
using unit::kind_of;

namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();



std::vector<std::string> split_symbols(const Charset& cs)
{
    std::vector<std::string> out;
    const std::string& s = cs.symbols();
    for (const char* p = s.data(); p < s.data() + s.size();) {
        const char* start = p;
        utf8_decode(p, s.data() + s.size());
        out.emplace_back(start, p);
    }
    return out;
}

// An independent, deliberately naive encoder: digits as a list of strings, padded, rotated.
std::string reference_encode(const Charset& cs, int64_t id, int rotate, int width)
{
    std::vector<std::string> sym = split_symbols(cs), code;
    uint64_t v = static_cast<uint64_t>(id), base = sym.size();
    do {
        code.insert(code.begin(), sym[v % base]);
        v /= base;
    } while (v > 0);
    while (code.size() < static_cast<size_t>(width))
        code.insert(code.begin(), sym[0]);
    for (int i = 0; i < rotate && i < static_cast<int>(code.size()); i++) {
        code.insert(code.begin(), code.back());
        code.pop_back();
    }
    std::string out;
    for (auto& s : code)
        out += s;
    return out;
}

std::string enc(const Charset& cs, int64_t id, int rotate = 0, int width = 0)
{
    std::string s;
    encode(cs, id, rotate, width, s);
    return s;
}

const Charset& named(const char* name)
{
    const Charset* cs = builtin_charset(name);
    EXPECT_NE(cs, nullptr) << name;
    return *cs;
}

Charset greek() { return Charset::make(2000, "greek", "αβγδεζηθ", false); }

} // namespace

// --- SipHash-2-4 ------------------------------------------------------------------------------

TEST(SipHash, ReferenceVectors)
{
    // Key 00 01 .. 0f, message 00 01 .. (len-1); from the SipHash paper (len 15, appendix A)
    // and the reference implementation's vectors.h.
    const SipKey key{0x0706050403020100ULL, 0x0f0e0d0c0b0a0908ULL};
    unsigned char msg[16];
    for (int i = 0; i < 16; i++)
        msg[i] = static_cast<unsigned char>(i);
    EXPECT_EQ(siphash24(key, msg, 15), 0xa129ca6149be45e5ULL);
    EXPECT_EQ(siphash24(key, msg, 0), 0x726fdb47dd0e0e31ULL);
    EXPECT_EQ(siphash24(key, msg, 1), 0x74f839c593dc67fdULL);
    EXPECT_EQ(siphash24(key, msg, 7), 0xab0200f58b01d137ULL);
    EXPECT_EQ(siphash24(key, msg, 8), 0x93f5f5799a932462ULL);
    EXPECT_EQ(siphash24(key, msg, 9), 0x9e0082df0ba9e4b0ULL);
    EXPECT_EQ(siphash24_u64(key, 0x0706050403020100ULL), 0x93f5f5799a932462ULL);
}

TEST(SipHash, OneWordFormMatchesBytes)
{
    std::mt19937_64 rng(7);
    for (int i = 0; i < 1000; i++) {
        SipKey key{rng(), rng()};
        uint64_t m = rng();
        unsigned char b[8];
        for (int j = 0; j < 8; j++)
            b[j] = static_cast<unsigned char>(m >> (8 * j));
        ASSERT_EQ(siphash24_u64(key, m), siphash24(key, b, 8));
    }
}

// --- encode / decode --------------------------------------------------------------------------

TEST(Codec, SeedExample)
{
    const Charset& b64 = named("base64url");
    EXPECT_EQ(enc(b64, 11093174944930914, 0), "naS8QBhxi");
    EXPECT_EQ(enc(b64, 11093174944930914, 2), "xinaS8QBh");
    EXPECT_EQ(decode(b64, "xinaS8QBh", 2, 0), 11093174944930914);
}

TEST(Codec, KnownAnswers)
{
    EXPECT_EQ(enc(named("digits"), kMax), "9223372036854775807");
    EXPECT_EQ(enc(named("hex"), kMax), "7fffffffffffffff");
    EXPECT_EQ(enc(named("hex"), 255, 0, 4), "00ff");
    EXPECT_EQ(enc(named("crockford32"), kMax), "7ZZZZZZZZZZZZ");
    EXPECT_EQ(enc(named("base62"), kMax), "AzL8n0Y58m7");
    EXPECT_EQ(enc(named("base58"), 0), "1");
    EXPECT_EQ(enc(named("base58"), 57), "z");
    EXPECT_EQ(enc(named("base58"), 58), "21");
    EXPECT_EQ(enc(named("upper"), 26), "BA");
    EXPECT_EQ(enc(named("base36"), 35, 0, 3), "00Z");
    EXPECT_EQ(enc(named("base36"), 35, 1, 3), "Z00");
    EXPECT_EQ(enc(named("digits"), 12345, 2), "45123");
    EXPECT_EQ(enc(named("digits"), 12345, 5), "12345"); // rotating by the length: unchanged
    EXPECT_EQ(enc(named("digits"), 7, 2), "7");         // rotate beyond the length: unchanged
    EXPECT_EQ(enc(named("digits"), 7, 2, 3), "070");
}

TEST(Codec, EveryBuiltinAgainstReference)
{
    ASSERT_EQ(builtin_charsets().size(), static_cast<size_t>(kBuiltinCharsetCount));
    for (const Charset& cs : builtin_charsets()) {
        const int64_t b = cs.base();
        for (int64_t v : {int64_t{0}, int64_t{1}, b - 1, b, b * b - 1, b * b, kMax - 1, kMax}) {
            for (int rotate : {0, 1, 2, 5, 13, 64}) {
                for (int width : {0, 1, 2, 11, 20, 64}) {
                    std::string want = reference_encode(cs, v, rotate, width);
                    std::string got = enc(cs, v, rotate, width);
                    ASSERT_EQ(got, want) << cs.name() << " v=" << v << " r=" << rotate << " w=" << width;
                    ASSERT_EQ(decode(cs, got, rotate, width), v) << cs.name() << " " << got;
                }
            }
        }
    }
}

TEST(Codec, RandomRoundTrips)
{
    std::mt19937_64 rng(42);
    std::vector<Charset> sets = builtin_charsets();
    sets.push_back(greek());
    sets.push_back(Charset::make(2001, "mixed", "a€b😀c", true));
    for (const Charset& cs : sets) {
        for (int i = 0; i < 2000; i++) {
            int64_t v = static_cast<int64_t>(rng() >> (1 + rng() % 63));
            int rotate = static_cast<int>(rng() % 65), width = static_cast<int>(rng() % 65);
            std::string code = enc(cs, v, rotate, width);
            ASSERT_EQ(code, reference_encode(cs, v, rotate, width)) << cs.name();
            ASSERT_EQ(decode(cs, code, rotate, width), v) << cs.name() << " " << code;
        }
    }
}

TEST(Codec, AppendsToOutput)
{
    std::string s = "id:";
    encode(named("hex"), 255, 0, 0, s);
    EXPECT_EQ(s, "id:ff");
}

TEST(Codec, MultiByteSymbolsRotateBySymbol)
{
    Charset g = greek(); // base 8
    EXPECT_EQ(enc(g, 8 * 8 + 2, 0), "βαγ");
    EXPECT_EQ(enc(g, 8 * 8 + 2, 1), "γβα");
    EXPECT_EQ(enc(g, 1, 1, 3), "βαα");
    EXPECT_EQ(decode(g, "γβα", 1, 0), 66);
    EXPECT_EQ(decode(g, "βαα", 1, 3), 1);
    Error e = error_of([&] { decode(g, "βxα", 0, 0); });
    EXPECT_EQ(e.kind(), ErrorKind::Syntax);
    EXPECT_STREQ(e.what(), "invalid symbol \"x\" at position 2 of code \"βxα\"");
}

TEST(Codec, CaseInsensitiveAndAliases)
{
    EXPECT_EQ(decode(named("hex"), "FF", 0, 0), 255);
    EXPECT_EQ(decode(named("hex"), "fF", 0, 0), 255);
    EXPECT_EQ(decode(named("alpha"), "ba", 0, 0), 26);
    EXPECT_EQ(decode(named("base36"), "zz", 0, 0), 35 * 36 + 35);
    const Charset& c32 = named("crockford32");
    EXPECT_EQ(decode(c32, "1O", 0, 0), 32);
    EXPECT_EQ(decode(c32, "Io", 0, 0), 32);
    EXPECT_EQ(decode(c32, "lL", 0, 0), 33);
    EXPECT_EQ(decode(c32, "7zzzzzzzzzzzz", 0, 0), kMax);
    EXPECT_EQ(kind_of([&] { decode(c32, "U", 0, 0); }), ErrorKind::Syntax);
    EXPECT_EQ(kind_of([&] { decode(c32, "O1", 0, 0); }), ErrorKind::Syntax); // alias of zero leads
    // Case-sensitive sets do not fold.
    EXPECT_EQ(kind_of([&] { decode(named("upper"), "a", 0, 0); }), ErrorKind::Syntax);
    EXPECT_NE(decode(named("base62"), "a", 0, 0), decode(named("base62"), "A", 0, 0));
}

TEST(Codec, NonCanonicalRejected)
{
    const Charset& b62 = named("base62");
    EXPECT_EQ(decode(b62, "0", 0, 0), 0);
    EXPECT_EQ(decode(b62, "01", 0, 2), 1);
    EXPECT_EQ(decode(b62, "00", 0, 2), 0);
    EXPECT_EQ(decode(b62, "10", 1, 2), 1);
    for (auto t : std::vector<std::tuple<const char*, int, int>>{
             {"00", 0, 0}, {"01", 0, 0}, {"001", 0, 2}, {"1", 0, 2}, {"10", 1, 0}, {"100", 2, 0},
             {"000", 0, 2}, {"0Z", 0, 1}, {"Z0", 1, 0}}) {
        const char* code = std::get<0>(t);
        const int rotate = std::get<1>(t), width = std::get<2>(t);
        EXPECT_EQ(kind_of([&] { decode(b62, code, rotate, width); }), ErrorKind::Syntax)
            << code << " r=" << rotate << " w=" << width;
    }
    Error e = error_of([&] { decode(b62, "Z0", 1, 0); });
    EXPECT_STREQ(e.what(), "non-canonical code \"Z0\"");
    EXPECT_EQ(e.detail(), "A code longer than its width (0) cannot start with the zero symbol \"0\" once "
                          "its rotation is undone; each value has exactly one code.");
    EXPECT_FALSE(e.hint().empty());
    e = error_of([&] { decode(b62, "1", 0, 2); });
    EXPECT_EQ(e.detail(), "Width 2 gives every code at least 2 symbols, but this one has 1.");
}

TEST(Codec, Errors)
{
    const Charset& b62 = named("base62");
    const Charset& hex = named("hex");
    Error e = error_of([&] { decode(b62, "", 0, 0); });
    EXPECT_EQ(e.kind(), ErrorKind::Syntax);
    EXPECT_STREQ(e.what(), "invalid code \"\"");

    e = error_of([&] { decode(b62, "ab!c-", 0, 0); });
    EXPECT_EQ(e.kind(), ErrorKind::Syntax);
    EXPECT_STREQ(e.what(), "invalid symbol \"!\" at position 3 of code \"ab!c-\"");
    EXPECT_EQ(e.detail(), "Charset \"base62\" consists of the symbols "
                          "\"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz\".");
    // The first bad symbol of the code as written is named, whatever the rotation.
    e = error_of([&] { decode(b62, "a!b#", 2, 0); });
    EXPECT_STREQ(e.what(), "invalid symbol \"!\" at position 2 of code \"a!b#\"");
    e = error_of([&] { decode(b62, std::string("ab\n\xff", 4), 0, 0); });
    EXPECT_STREQ(e.what(), "invalid symbol \"\\x0A\" at position 3 of code \"ab\\x0A\\xFF\"");
    e = error_of([&] { decode(hex, "é", 0, 0); });
    EXPECT_EQ(e.kind(), ErrorKind::Syntax);
    EXPECT_STREQ(e.what(), "invalid symbol \"é\" at position 1 of code \"é\"");
    // A bad symbol is reported even after an overflow, and before non-canonical form.
    EXPECT_EQ(kind_of([&] { decode(hex, "fffffffffffffffffffx", 0, 0); }), ErrorKind::Syntax);
    EXPECT_EQ(kind_of([&] { decode(hex, "0x", 0, 0); }), ErrorKind::Syntax);

    // Range: 2^63-1 decodes, 2^63 does not.
    EXPECT_EQ(decode(hex, "7fffffffffffffff", 0, 0), kMax);
    e = error_of([&] { decode(hex, "8000000000000000", 0, 0); });
    EXPECT_EQ(e.kind(), ErrorKind::OutOfRange);
    EXPECT_STREQ(e.what(), "code \"8000000000000000\" is out of range for type bigint");
    EXPECT_EQ(kind_of([&] { decode(named("digits"), "9223372036854775808", 0, 0); }), ErrorKind::OutOfRange);
    EXPECT_EQ(kind_of([&] { decode(hex, std::string(1000, 'f'), 0, 0); }), ErrorKind::OutOfRange);
    e = error_of([&] { decode(hex, std::string(100, 'f'), 0, 0); });
    EXPECT_EQ(std::string(e.what()), "code \"" + std::string(61, 'f') + "...\" is out of range for type bigint");

    e = error_of([&] { enc(b62, -5); });
    EXPECT_EQ(e.kind(), ErrorKind::OutOfRange);
    EXPECT_STREQ(e.what(), "cannot encode negative value \"-5\"");
    EXPECT_FALSE(e.hint().empty());
    EXPECT_EQ(kind_of([&] { enc(b62, std::numeric_limits<int64_t>::min()); }), ErrorKind::OutOfRange);

    for (auto rw : std::vector<std::pair<int, int>>{{-1, 0}, {65, 0}, {0, -1}, {0, 65}}) {
        const int rotate = rw.first, width = rw.second;
        EXPECT_EQ(kind_of([&] { enc(b62, 1, rotate, width); }), ErrorKind::InvalidParameter);
        EXPECT_EQ(kind_of([&] { decode(b62, "1", rotate, width); }), ErrorKind::InvalidParameter);
    }
    e = error_of([&] { enc(b62, 1, 0, 65); });
    EXPECT_STREQ(e.what(), "width \"65\" is out of range");
    EXPECT_EQ(e.detail(), "The width must be between 0 and 64.");
    e = error_of([&] { decode(b62, "1", -1, 0); });
    EXPECT_STREQ(e.what(), "rotate \"-1\" is out of range");
    // The extremes of the ranges work.
    EXPECT_EQ(enc(named("digits"), 0, 64, 64), std::string(64, '0'));
    EXPECT_EQ(decode(named("digits"), std::string(64, '0'), 64, 64), 0);
}

// --- CodecTable: the adapter's plain-data copy of a charset ------------------------------------

namespace {

// The outcome of a decode as text: the value, or the error's kind, message, detail and hint.
template <class Set>
std::string decode_outcome(const Set& cs, std::string_view code, int rotate, int width)
{
    try {
        return std::to_string(decode(cs, code, rotate, width));
    } catch (const Error& e) {
        return "error " + std::to_string(static_cast<int>(e.kind())) + ": " + e.what() + " | " + e.detail() +
               " | " + e.hint();
    }
}

std::unique_ptr<CodecTable> table_of(const Charset& cs)
{
    auto t = std::make_unique<CodecTable>();
    CodecTable::build(cs, *t);
    return t;
}

} // namespace

TEST(CodecTable, MirrorsTheCharset)
{
    std::vector<Charset> sets = builtin_charsets();
    sets.push_back(greek());
    sets.push_back(Charset::make(2001, "mixed", "a€b😀c", true));
    for (const Charset& cs : sets) {
        auto t = table_of(cs);
        EXPECT_EQ(t->base(), cs.base());
        EXPECT_EQ(t->ascii(), cs.ascii());
        EXPECT_EQ(t->charset_id(), cs.id());
        EXPECT_EQ(t->name(), cs.name());
        EXPECT_EQ(t->symbols(), cs.symbols());
        for (int d = 0; d < cs.base(); d++)
            EXPECT_EQ(t->symbol(d), cs.symbol(d));
        for (int c = 0; c < 256; c++) {
            const char b = static_cast<char>(c);
            const char *p = &b, *q = &b;
            EXPECT_EQ(t->read_digit(p, &b + 1), cs.read_digit(q, &b + 1)) << cs.name() << " byte " << c;
            EXPECT_EQ(p, q);
        }
    }
}

TEST(CodecTable, SameCodesAndErrorsAsTheCharset)
{
    std::mt19937_64 rng(5);
    std::vector<Charset> sets = builtin_charsets();
    sets.push_back(greek());
    sets.push_back(Charset::make(2001, "mixed", "a€b😀c", true));
    for (const Charset& cs : sets) {
        auto t = table_of(cs);
        for (int i = 0; i < 2000; i++) {
            int64_t v = static_cast<int64_t>(rng() >> (1 + rng() % 63));
            int rotate = static_cast<int>(rng() % 65), width = static_cast<int>(rng() % 65);
            char buf[kMaxCodeBytes];
            std::string code(encode(*t, v, rotate, width, buf));
            ASSERT_EQ(code, enc(cs, v, rotate, width));
            ASSERT_EQ(decode(*t, code, rotate, width), v);
        }
        for (const char* code : {"", "0", "00", "zz", "1O", "!", "a!b", "βxα", "\xff", "a\xe2\x82", "😀😀", "7ZZZZZZZZZZZZ",
                                 "ffffffffffffffffffffffffff", "αβγδεζηθ"}) {
            for (int rotate : {0, 1, 65})
                for (int width : {0, 2, -1})
                    ASSERT_EQ(decode_outcome(*t, code, rotate, width), decode_outcome(cs, code, rotate, width))
                        << cs.name() << " " << code;
        }
        EXPECT_EQ(kind_of([&] {
                      char buf[kMaxCodeBytes];
                      encode(*t, -1, 0, 0, buf);
                  }),
                  ErrorKind::OutOfRange);
    }
    // The longest code fits the buffer: 64 four-byte symbols.
    Charset wide = Charset::make(2002, "emoji", "😀😁😂🤣", false);
    auto t = table_of(wide);
    char buf[kMaxCodeBytes];
    std::string_view code = encode(*t, 0, 64, 64, buf);
    EXPECT_EQ(code.size(), kMaxCodeBytes);
    EXPECT_EQ(decode(*t, code, 64, 64), 0);
    // And the longest ASCII code, rotated as far as it goes.
    auto d = table_of(named("digits"));
    EXPECT_EQ(encode(*d, 7, 64, 64, buf), std::string(63, '0') + "7"); // rotating by the length
    EXPECT_EQ(encode(*d, 7, 1, 64, buf), "7" + std::string(63, '0'));
    EXPECT_EQ(encode(*d, 7, 63, 64, buf), std::string(62, '0') + "70");
    EXPECT_EQ(encode(*d, kMax, 64, 0, buf), "9223372036854775807");
    EXPECT_EQ(encode(*d, kMax, 18, 0, buf), "2233720368547758079");
}

// --- scramble ---------------------------------------------------------------------------------

TEST(Scramble, ExhaustiveBijectionSmallBits)
{
    const ScrambleKey key = derive_key("correct horse battery staple");
    for (int bits = 1; bits <= 16; bits++) {
        const uint64_t size = uint64_t{1} << bits;
        std::vector<bool> seen(size);
        uint64_t fixed_points = 0;
        for (uint64_t x = 0; x < size; x++) {
            int64_t y = scramble(static_cast<int64_t>(x), key, bits);
            ASSERT_GE(y, 0);
            ASSERT_LT(static_cast<uint64_t>(y), size) << bits;
            ASSERT_FALSE(seen[static_cast<size_t>(y)]) << "bits=" << bits << " x=" << x;
            seen[static_cast<size_t>(y)] = true;
            ASSERT_EQ(unscramble(y, key, bits), static_cast<int64_t>(x));
            fixed_points += static_cast<uint64_t>(y) == x;
        }
        if (bits >= 8) { // a random permutation has about one fixed point
            EXPECT_LT(fixed_points, 10u) << bits;
        }
    }
}

TEST(Scramble, RoundTripLargeBits)
{
    std::mt19937_64 rng(1);
    const ScrambleKey key = derive_key("k");
    for (int bits = 17; bits <= kMaxScrambleBits; bits++) {
        for (int i = 0; i < 2000; i++) {
            int64_t x = static_cast<int64_t>(rng() >> (64 - bits));
            int64_t y = scramble(x, key, bits);
            ASSERT_GE(y, 0);
            ASSERT_EQ(static_cast<uint64_t>(y) >> bits, 0u);
            ASSERT_EQ(unscramble(y, key, bits), x);
        }
    }
    EXPECT_EQ(unscramble(scramble(kMax, key, 63), key, 63), kMax);
    EXPECT_EQ(unscramble(scramble(0, key, 63), key, 63), 0);
}

TEST(Scramble, KeysGiveDifferentPermutations)
{
    const ScrambleKey a = derive_key("key-a"), b = derive_key("key-b");
    EXPECT_NE(a.k0, b.k0);
    EXPECT_NE(a.k1, b.k1);
    const ScrambleKey a2 = derive_key("key-a");
    EXPECT_EQ(a.k0, a2.k0);
    EXPECT_EQ(a.k1, a2.k1);
    int same = 0;
    for (int64_t x = 0; x < 65536; x++)
        same += scramble(x, a, 16) == scramble(x, b, 16);
    EXPECT_LT(same, 10);
    // Consecutive ids land far apart.
    EXPECT_GT(std::llabs(scramble(1000, a, 63) - scramble(1001, a, 63)), int64_t{1} << 40);
    // bits = 1 has two permutations; some keys pick each.
    bool flips[2] = {false, false};
    for (int i = 0; i < 64; i++)
        flips[scramble(0, derive_key("k" + std::to_string(i)), 1)] = true;
    EXPECT_TRUE(flips[0] && flips[1]);
    // bits is part of the permutation: the 16-bit one is not the 17-bit one restricted.
    same = 0;
    for (int64_t x = 0; x < 1000; x++)
        same += scramble(x, a, 16) == scramble(x, a, 17);
    EXPECT_LT(same, 10);
}

TEST(Scramble, StableOutput)
{
    // Public codes are stored and shared, so the permutation is part of the format.
    const ScrambleKey key = derive_key("idseq");
    EXPECT_EQ(scramble(0, key, 63), int64_t{5145093427418230227});
    EXPECT_EQ(scramble(1, key, 63), int64_t{4185158022620687992});
    EXPECT_EQ(scramble(12345, key, 32), int64_t{3600052365});
}

TEST(Scramble, Errors)
{
    const ScrambleKey key = derive_key("k");
    Error e = error_of([] { derive_key(""); });
    EXPECT_EQ(e.kind(), ErrorKind::InvalidParameter);
    EXPECT_FALSE(e.hint().empty());
    for (int bits : {0, -1, 64, 1000}) {
        EXPECT_EQ(kind_of([&] { scramble(0, key, bits); }), ErrorKind::InvalidParameter);
        EXPECT_EQ(kind_of([&] { unscramble(0, key, bits); }), ErrorKind::InvalidParameter);
    }
    e = error_of([&] { scramble(65536, key, 16); });
    EXPECT_EQ(e.kind(), ErrorKind::OutOfRange);
    EXPECT_STREQ(e.what(), "value \"65536\" is out of range for a 16-bit scramble");
    EXPECT_EQ(e.detail(), "The scramble permutes the values from 0 to 65535.");
    EXPECT_EQ(kind_of([&] { unscramble(-1, key, 63); }), ErrorKind::OutOfRange);
    EXPECT_EQ(kind_of([&] { scramble(2, key, 1); }), ErrorKind::OutOfRange);
    EXPECT_EQ(kind_of([&] { scramble(std::numeric_limits<int64_t>::min(), key, 63); }), ErrorKind::OutOfRange);
}

// A code longer than any bigint's code is refused before it is scanned; a huge scramble key
// is a program limit, not an allocation failure.
TEST(Codec, OverlongCodeAndKeyRefusedAtOnce)
{
    using idseq::unit::error_of;
    const Charset& b62 = *builtin_charset("base62");
    std::string huge(100u << 20, 'z'); // 100 MB
    Error e = error_of([&] { decode(b62, huge, 0, 0); });
    EXPECT_EQ(e.kind(), ErrorKind::OutOfRange);
    EXPECT_EQ(std::string(e.what()).substr(0, 6), "code \"");
    EXPECT_EQ(error_of([&] { decode(b62, std::string(kMaxCodeBytes + 1, '1'), 0, 0); }).kind(), ErrorKind::OutOfRange);
    // the longest legal code still decodes: width 64, all zero symbols but the last
    EXPECT_EQ(decode(b62, std::string(63, '0') + "1", 0, 64), 1);
    EXPECT_EQ(error_of([&] { derive_key(std::string(kMaxScrambleKeyBytes + 1, 'k')); }).kind(), ErrorKind::Limit);
    EXPECT_NO_THROW(derive_key(std::string(kMaxScrambleKeyBytes, 'k')));
}

// --- public ids: a 64-bit block under a named key --------------------------------------------

namespace {

const unsigned char kTestKey[kPublicIdKeyBytes] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15,
                                                   16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31};

const CodecTable& table_of(const char* name)
{
    static std::vector<std::unique_ptr<CodecTable>> tables;
    auto t = std::make_unique<CodecTable>();
    CodecTable::build(*builtin_charset(name), *t);
    tables.push_back(std::move(t));
    return *tables.back();
}

std::string pid(const CodecTable& cs, int64_t id, const ScrambleKey& key, int width)
{
    char buf[kMaxCodeBytes];
    return std::string(public_id(cs, id, key, width, buf));
}

} // namespace

TEST(PublicId, Block64RoundTripsEveryKindOfValue)
{
    const ScrambleKey key = public_id_key(kTestKey);
    std::mt19937_64 rng(7);
    std::vector<uint64_t> xs = {0, 1, 2, UINT64_MAX, UINT64_MAX - 1, uint64_t{1} << 63, (uint64_t{1} << 63) - 1};
    for (int i = 0; i < 200000; i++)
        xs.push_back(rng() >> (rng() % 64)); // every magnitude
    size_t below_2_63 = 0;
    for (uint64_t x : xs) {
        const uint64_t y = scramble_block64(x, key);
        ASSERT_EQ(unscramble_block64(y, key), x);
        below_2_63 += y >> 63 == 0;
    }
    // the block is the whole 64 bits: about half the images have the top bit set
    EXPECT_GT(below_2_63, xs.size() * 45 / 100);
    EXPECT_LT(below_2_63, xs.size() * 55 / 100);
}

TEST(PublicId, NotTheSixtyThreeBitScramble)
{
    const ScrambleKey key = public_id_key(kTestKey);
    int same = 0;
    for (int64_t x = 0; x < 1000; x++)
        same += scramble_block64(static_cast<uint64_t>(x), key) == static_cast<uint64_t>(scramble(x, key, 63));
    EXPECT_LT(same, 3);
    // the named key's scramble key is that of its bytes as a text key
    const ScrambleKey text = derive_key(std::string(reinterpret_cast<const char*>(kTestKey), kPublicIdKeyBytes));
    EXPECT_EQ(key.k0, text.k0);
    EXPECT_EQ(key.k1, text.k1);
}

TEST(PublicId, RoundTripsAndFixedWidth)
{
    const ScrambleKey key = public_id_key(kTestKey);
    std::mt19937_64 rng(11);
    // the widths that hold every 64-bit value: every public id then has exactly that length
    const std::pair<const char*, int> fixed[] = {{"base58", 11}, {"base62", 11}, {"base64url", 11}, {"base36", 13},
                                                 {"crockford32", 13}, {"hex", 16}, {"digits", 20}, {"upper", 14}};
    for (const auto& [name, width] : fixed) {
        const CodecTable& cs = table_of(name);
        for (int i = 0; i < 20000; i++) {
            const int64_t id = static_cast<int64_t>(rng());
            const std::string code = pid(cs, id, key, width);
            ASSERT_EQ(code.size(), static_cast<size_t>(width)) << name << " " << id;
            ASSERT_EQ(from_public_id(cs, code, key, width), id) << name << " " << code;
        }
        for (int64_t id : {int64_t{0}, int64_t{-1}, kMax, std::numeric_limits<int64_t>::min()})
            ASSERT_EQ(from_public_id(cs, pid(cs, id, key, width), key, width), id);
    }
    // a width below that is a minimum, as idseq_encode's: codes then vary in length
    const CodecTable& b36 = table_of("base36");
    for (int i = 0; i < 2000; i++) {
        const int64_t id = static_cast<int64_t>(rng());
        const std::string code = pid(b36, id, key, 11);
        ASSERT_GE(code.size(), 11u);
        ASSERT_LE(code.size(), 13u);
        ASSERT_EQ(from_public_id(b36, code, key, 11), id);
    }
}

TEST(PublicId, StableOutput)
{
    // Public ids are printed and linked to: the permutation and the encoding are the format.
    const ScrambleKey key = public_id_key(kTestKey);
    const CodecTable& b58 = table_of("base58");
    EXPECT_EQ(pid(b58, 0, key, 11), "EgFM4fUojkZ");
    EXPECT_EQ(pid(b58, 1, key, 11), "4WzCVqdWK5k");
    EXPECT_EQ(pid(b58, -1, key, 11), "UgmH9cR6234");
    EXPECT_EQ(pid(b58, kMax, key, 11), "RHYp8HHEPzV");
    EXPECT_EQ(scramble_block64(12345, key), uint64_t{2367956987610714128});
}

TEST(PublicId, BadCodesAreSyntaxOrOutOfRangeWithoutKeyMaterial)
{
    const ScrambleKey key = public_id_key(kTestKey);
    const CodecTable& b58 = table_of("base58");
    auto check = [&](const std::string& code, ErrorKind kind, const std::string& message) {
        Error e = error_of([&] { from_public_id(b58, code, key, 11); });
        EXPECT_EQ(e.kind(), kind) << code;
        EXPECT_EQ(e.what(), message) << code;
    };
    check("", ErrorKind::Syntax, "invalid code \"\"");
    check("0OIl1111111", ErrorKind::Syntax, "invalid symbol \"0\" at position 1 of code \"0OIl1111111\"");
    check("2222", ErrorKind::Syntax, "non-canonical code \"2222\"");              // shorter than width
    check("122222222222", ErrorKind::Syntax, "non-canonical code \"122222222222\""); // a leading zero symbol
    check("zzzzzzzzzzz", ErrorKind::OutOfRange, "code \"zzzzzzzzzzz\" is out of range for a public id");
    check("222222222222", ErrorKind::OutOfRange, "code \"222222222222\" is out of range for a public id");
    EXPECT_EQ(kind_of([&] { from_public_id(b58, std::string(300, 'z'), key, 11); }), ErrorKind::OutOfRange);
    // 2^64 - 1 is the largest value a code may hold (it is the public id of some id); 2^64 is not
    const int64_t top = from_public_id(b58, "jpXCZedGfVQ", key, 11);
    EXPECT_EQ(pid(b58, top, key, 11), "jpXCZedGfVQ");
    check("jpXCZedGfVR", ErrorKind::OutOfRange, "code \"jpXCZedGfVR\" is out of range for a public id");
    // no message holds the key's bytes or the derived key (the texts are pinned above; the
    // detail of the range error names only the limit)
    Error e = error_of([&] { from_public_id(b58, "jpXCZedGfVR", key, 11); });
    EXPECT_EQ(e.detail(), "Its value exceeds 18446744073709551615, the largest 64-bit value.");
    // width out of range is the caller's mistake, not a bad code
    EXPECT_EQ(kind_of([&] { from_public_id(b58, "22222222222", key, 65); }), ErrorKind::InvalidParameter);
    EXPECT_EQ(kind_of([&] { from_public_id(b58, "22222222222", key, -1); }), ErrorKind::InvalidParameter);
    EXPECT_EQ(kind_of([&] { pid(b58, 5, key, 65); }), ErrorKind::InvalidParameter);
    int64_t id = 0;
    EXPECT_EQ(kind_of([&] { try_from_public_id(b58, "22222222222", key, 65, id); }), ErrorKind::InvalidParameter);
    EXPECT_FALSE(try_from_public_id(b58, "jpXCZedGfVR", key, 11, id));
    EXPECT_FALSE(try_from_public_id(b58, "", key, 11, id));
    EXPECT_FALSE(try_from_public_id(b58, std::string(300, 'z'), key, 11, id));
    EXPECT_TRUE(try_from_public_id(b58, "EgFM4fUojkZ", key, 11, id));
    EXPECT_EQ(id, 0);
}

// Random texts never decode to an error of another kind, and what decodes is canonical: its
// public id is the text itself (in the charset's output case).
TEST(PublicId, RandomCodesAreRejectedOrCanonical)
{
    const ScrambleKey key = public_id_key(kTestKey);
    std::mt19937_64 rng(3);
    const Charset greek = Charset::make(2000, "greek", "αβγδεζηθ", false); // multi-byte symbols
    CodecTable greek_table;
    CodecTable::build(greek, greek_table);
    for (const char* name : {"base58", "crockford32", "hex", "greek"}) {
        const CodecTable& cs = std::string(name) == "greek" ? greek_table : table_of(name);
        const std::string sym(cs.symbols());
        for (int i = 0; i < 100000; i++) {
            std::string code;
            const int len = static_cast<int>(rng() % 16);
            for (int j = 0; j < len; j++) {
                if (rng() % 50 == 0) {
                    code += static_cast<char>(rng() % 256);
                } else {
                    const int d = static_cast<int>(rng() % static_cast<uint64_t>(cs.base()));
                    code += std::string(cs.symbol(d));
                }
            }
            if (rng() % 1000 == 0)
                code = std::string(300, sym[1]); // too long to be a code
            const int width = static_cast<int>(rng() % 14);
            int64_t tried = 0;
            const bool try_ok = try_from_public_id(cs, code, key, width, tried);
            try {
                const int64_t id = from_public_id(cs, code, key, width);
                ASSERT_TRUE(try_ok) << code;
                ASSERT_EQ(tried, id);
                std::string again = pid(cs, id, key, width);
                if (std::string(name) == "base58" || std::string(name) == "greek")
                    ASSERT_EQ(again, code);
                else // case-insensitive: the same code in the output case
                    ASSERT_EQ(again.size(), code.size());
            } catch (const Error& e) {
                ASSERT_TRUE(e.kind() == ErrorKind::Syntax || e.kind() == ErrorKind::OutOfRange) << e.what();
                ASSERT_FALSE(try_ok) << code;
            }
        }
    }
}
