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
