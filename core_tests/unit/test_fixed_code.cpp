// Unit tests for fixed-width positional codes (src/core/code.h).
#include "cpp_only.h"
#include "charset.h"
#include "fixed_code.h"
#include "error.h"
#include "lexid.h"

#include "test_util.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <set>
#include <string>

using namespace idseq;
using unit::error_of;
using unit::kind_of;

namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

const Charset& cs(const char* name)
{
    const Charset* c = builtin_charset(std::string_view(name));
    EXPECT_NE(c, nullptr) << name;
    return *c;
}


} // namespace

TEST(Code, MaxWidth)
{
    EXPECT_EQ(code::max_width(2), 62);
    EXPECT_EQ(code::max_width(10), 18);
    EXPECT_EQ(code::max_width(16), 15);
    EXPECT_EQ(code::max_width(26), 13);
    EXPECT_EQ(code::max_width(36), 12);
    EXPECT_EQ(code::max_width(62), 10);
    EXPECT_EQ(code::max_width(64), 10);
    EXPECT_EQ(code::max_width(256), 7);
    for (int b = 2; b <= 256; b++) {
        int w = code::max_width(b);
        // b^w fits, b^(w+1) does not
        int64_t p = code::capacity(b, w);
        EXPECT_GT(p, 0);
        EXPECT_GT(p, kMax / b) << b;
    }
}

TEST(Code, SeedExamples)
{
    const Charset& up = cs("upper");
    EXPECT_EQ(code::format(up, 0, 3), "AAA");
    EXPECT_EQ(code::format(up, 1, 3), "AAB");
    EXPECT_EQ(code::format(up, 25, 3), "AAZ");
    EXPECT_EQ(code::format(up, 26, 3), "ABA");
    EXPECT_EQ(code::format(up, 17575, 3), "ZZZ");
    EXPECT_EQ(code::parse(up, "AAA"), 0);
    EXPECT_EQ(code::parse(up, "ABB"), 27);
    EXPECT_EQ(code::parse(up, "ZZZ"), 17575);
    // the letter-sequence article's own T-SQL arithmetic
    for (int64_t n : {0, 1, 27, 675, 676, 9999, 17575}) {
        std::string s = code::format(up, n, 3);
        int64_t back = (s[0] - 65) * 26 * 26 + (s[1] - 65) * 26 + (s[2] - 65);
        EXPECT_EQ(back, n);
    }
}

TEST(Code, FullCycleWidth3IsABijectionInOrder)
{
    const Charset& up = cs("upper");
    std::string prev;
    for (int64_t n = 0; n < 17576; n++) {
        std::string s = code::format(up, n, 3);
        ASSERT_EQ(s.size(), 3u);
        if (n > 0) {
            ASSERT_LT(prev, s); // byte order is numeric order for upper
        }
        ASSERT_EQ(code::parse(up, s), n);
        prev = s;
    }
}

TEST(Code, RoundTripEveryBuiltinAtEveryWidth)
{
    std::mt19937_64 rng(42);
    for (const Charset& c : builtin_charsets()) {
        for (int w = 1; w <= code::max_width(c.base()); w++) {
            int64_t cap = code::capacity(c.base(), w);
            for (int64_t n : {int64_t(0), int64_t(1), cap / 2, cap - 1,
                              static_cast<int64_t>(rng() % static_cast<uint64_t>(cap))}) {
                std::string s = code::format(c, n, w);
                ASSERT_EQ(s.size(), static_cast<size_t>(w)) << c.name();
                ASSERT_EQ(code::parse(c, s), n) << c.name() << " " << s;
            }
        }
    }
}

TEST(Code, LargestValues)
{
    EXPECT_EQ(code::format(cs("digits"), 999999999999999999, 18), "999999999999999999");
    EXPECT_EQ(code::format(cs("hex"), 0x0fffffffffffffff, 15), "fffffffffffffff");
    EXPECT_EQ(code::parse(cs("upper"), "ZZZZZZZZZZZZZ"), code::capacity(26, 13) - 1);
    EXPECT_EQ(code::format(cs("upper"), code::capacity(26, 13) - 1, 13), "ZZZZZZZZZZZZZ");
}

// Widths beyond the charset's bigint range pad with the zero symbol, up to 64 symbols, and
// read back; the value range is then bigint's.
TEST(Code, WidthsBeyondTheSequenceRange)
{
    const int64_t max = std::numeric_limits<int64_t>::max();
    EXPECT_EQ(code::format(cs("hex"), 1, 16), "0000000000000001");
    EXPECT_EQ(code::format(cs("hex"), max, 16), "7fffffffffffffff");
    EXPECT_EQ(code::parse(cs("hex"), "7fffffffffffffff"), max);
    EXPECT_EQ(code::format(cs("digits"), max, 19), "9223372036854775807");
    EXPECT_EQ(code::parse(cs("digits"), "0000000000000000000001"), 1);
    EXPECT_EQ(code::format(cs("upper"), 0, 64), std::string(64, 'A'));
    EXPECT_EQ(error_of([] { code::parse(cs("hex"), "8000000000000000"); }).kind(), ErrorKind::OutOfRange);
    EXPECT_EQ(error_of([] { code::parse(cs("digits"), "9223372036854775808"); }).kind(), ErrorKind::OutOfRange);
    const Charset greek = Charset::make(5001, "greek", "αβγδ", false);
    for (const Charset* c : {&cs("digits"), &cs("upper"), &cs("base62"), &cs("base64url"), &greek}) {
        for (int w = code::max_width(c->base()) + 1; w <= code::kMaxWidth; w++) {
            for (int64_t n : {int64_t(0), int64_t(1), max / 3, max}) {
                std::string s = code::format(*c, n, w);
                ASSERT_EQ(code::parse(*c, s), n) << c->name() << " width " << w;
                // the same code one symbol longer, padded with the zero symbol, is the same value
                if (w < code::kMaxWidth) {
                    ASSERT_EQ(code::format(*c, n, w + 1), std::string(c->symbol(0)) + s) << c->name();
                }
            }
        }
    }
}

TEST(Code, CaseInsensitiveInput)
{
    EXPECT_EQ(code::parse(cs("alpha"), "abc"), code::parse(cs("alpha"), "ABC"));
    EXPECT_EQ(code::parse(cs("base36"), "zz"), 1295);
    EXPECT_EQ(code::parse(cs("hex"), "FF"), 255);
    EXPECT_EQ(code::format(cs("hex"), 255, 2), "ff");
    EXPECT_EQ(code::parse(cs("crockford32"), "O1"), code::parse(cs("crockford32"), "01"));
    EXPECT_EQ(code::parse(cs("crockford32"), "il"), 33);
    // upper is case-sensitive
    Error e = error_of([] { code::parse(cs("upper"), "AbC"); });
    EXPECT_EQ(e.kind(), ErrorKind::Syntax);
    EXPECT_STREQ(e.what(), "invalid character \"b\" at position 2 in code \"AbC\"");
}

TEST(Code, CustomUtf8Charset)
{
    Charset greek = Charset::make(5000, "greek", "αβγδ", false);
    std::string s = code::format(greek, 27, 3); // 27 = 1*16 + 2*4 + 3
    EXPECT_EQ(s, "βγδ");
    EXPECT_EQ(code::parse(greek, s), 27);
    char buf[code::kMaxCodeBytes];
    EXPECT_EQ(code::format_to(greek, 0, 2, buf), 4u);
    EXPECT_EQ(std::string(buf, 4), "αα");
}

TEST(Code, Errors)
{
    const Charset& up = cs("upper");
    Error e = error_of([&] { code::format(up, 17576, 3); });
    EXPECT_EQ(e.kind(), ErrorKind::OutOfRange);
    EXPECT_STREQ(e.what(), "value 17576 is out of range for a code of width 3");
    EXPECT_EQ(e.detail(), "Codes of width 3 over charset \"upper\" stand for 0 to 17575.");
    EXPECT_EQ(error_of([&] { code::format(up, -1, 3); }).kind(), ErrorKind::OutOfRange);

    e = error_of([&] { code::format(up, 0, 0); });
    EXPECT_EQ(e.kind(), ErrorKind::InvalidParameter);
    EXPECT_STREQ(e.what(), "invalid code width 0 for charset \"upper\"");
    EXPECT_EQ(e.detail(), "Codes have a width of 1 to 64 symbols.");
    EXPECT_EQ(error_of([&] { code::format(up, 0, 65); }).kind(), ErrorKind::InvalidParameter);
    EXPECT_EQ(error_of([&] { code::format(up, 0, -3); }).kind(), ErrorKind::InvalidParameter);
    EXPECT_EQ(error_of([&] { code::check_width(up, int64_t(1) << 40); }).kind(), ErrorKind::InvalidParameter);
    EXPECT_NO_THROW(code::check_width(up, 64));
    e = error_of([&] { code::format(up, -1, 20); });
    EXPECT_EQ(e.kind(), ErrorKind::OutOfRange);
    EXPECT_EQ(e.detail(), "Codes of width 20 over charset \"upper\" stand for 0 to 9223372036854775807.");

    // a code sequence's width: its MAXVALUE base^width - 1 must be a bigint
    EXPECT_NO_THROW(code::check_sequence_width(up, 13));
    e = error_of([&] { code::check_sequence_width(up, 14); });
    EXPECT_EQ(e.kind(), ErrorKind::InvalidParameter);
    EXPECT_STREQ(e.what(), "invalid code width 14 for a code sequence over charset \"upper\"");
    EXPECT_EQ(e.detail(),
              "Code sequences over \"upper\" (26 symbols) have a width of 1 to 13, so that their MAXVALUE 26^width - 1 fits in bigint.");
    EXPECT_EQ(error_of([&] { code::check_sequence_width(up, 0); }).kind(), ErrorKind::InvalidParameter);

    e = error_of([&] { code::parse(up, ""); });
    EXPECT_EQ(e.kind(), ErrorKind::Syntax);
    EXPECT_STREQ(e.what(), "invalid code \"\"");
    e = error_of([&] { code::parse(up, "AB1"); });
    EXPECT_EQ(e.kind(), ErrorKind::Syntax);
    EXPECT_STREQ(e.what(), "invalid character \"1\" at position 3 in code \"AB1\"");
    e = error_of([&] { code::parse(up, std::string(65, 'A')); });
    EXPECT_EQ(e.kind(), ErrorKind::Syntax);
    EXPECT_NE(std::string(e.what()).find("\" is too long"), std::string::npos);
    EXPECT_EQ(e.detail(), "Codes have at most 64 symbols.");
    e = error_of([&] { code::parse(up, "ZZZZZZZZZZZZZZ"); });
    EXPECT_EQ(e.kind(), ErrorKind::OutOfRange);
    EXPECT_STREQ(e.what(), "code \"ZZZZZZZZZZZZZZ\" is out of range for type bigint");
    // a bad symbol after the value left bigint's range is still the error reported
    EXPECT_EQ(error_of([&] { code::parse(up, "ZZZZZZZZZZZZZZ1"); }).kind(), ErrorKind::Syntax);
    e = error_of([&] { code::parse(up, std::string("A\x01", 2)); });
    EXPECT_STREQ(e.what(), "invalid character \"\\x01\" at position 2 in code \"A\\x01\"");
    e = error_of([&] { code::parse(up, "AAA\n"); });
    EXPECT_STREQ(e.what(), "invalid character \"\\x0A\" at position 4 in code \"AAA\\x0A\"");
    // long codes are cut on a character boundary
    std::string long_code;
    for (int i = 0; i < 40; i++)
        long_code += "\xC3\xA9"; // é, two bytes each
    e = error_of([&] { code::parse(up, long_code); });
    std::string msg = e.what();
    EXPECT_NE(msg.find("...\""), std::string::npos);
    EXPECT_EQ(msg.find("\xC3..."), std::string::npos); // no half character before the cut
}

TEST(Code, SequenceShapes)
{
    EXPECT_EQ(code::width_of_max(26, 17575), 3);
    EXPECT_EQ(code::width_of_max(26, 25), 1);
    EXPECT_EQ(code::width_of_max(26, 675), 2);
    EXPECT_EQ(code::width_of_max(26, 17576), 0);
    EXPECT_EQ(code::width_of_max(26, 17574), 0);
    EXPECT_EQ(code::width_of_max(26, 0), 0);
    EXPECT_EQ(code::width_of_max(26, -1), 0);
    EXPECT_EQ(code::width_of_max(26, kMax), 0);
    EXPECT_EQ(code::width_of_max(2, (int64_t(1) << 62) - 1), 62);
    EXPECT_EQ(code::width_of_max(10, 999999999999999999), 18);

    EXPECT_EQ(code::covering_width(26, 17575), 3);
    EXPECT_EQ(code::covering_width(26, 1000), 3);
    EXPECT_EQ(code::covering_width(26, 0), 1);
    EXPECT_EQ(code::covering_width(26, kMax), 0);
}

TEST(Code, DistinctCodesForDistinctNumbers)
{
    std::set<std::string> seen;
    for (int64_t n = 0; n < 1296; n++)
        ASSERT_TRUE(seen.insert(code::format(cs("base36"), n, 2)).second);
}

TEST(Code, AddSameLengthAgreesWithShortlexAdd)
{
    std::mt19937_64 rng(7);
    for (const Charset& c : builtin_charsets()) {
        for (int trial = 0; trial < 3000; trial++) {
            size_t len = 1 + rng() % 12;
            lex::Digits d(len);
            for (auto& x : d)
                x = static_cast<uint8_t>(rng() % static_cast<uint64_t>(c.base()));
            uint64_t n;
            switch (trial % 4) {
            case 0: n = rng() % 4; break;
            case 1: n = rng() % 100000; break;
            case 2: n = rng() % (uint64_t(1) << 40); break;
            default: n = rng() >> 1; break; // up to INT64_MAX
            }
            lex::Digits expect = d;
            lex::add(expect, c.base(), static_cast<int64_t>(n));
            lex::Digits got = d;
            bool same = code::add_same_length(got.data(), got.size(), c.base(), n);
            ASSERT_EQ(same, expect.size() == d.size()) << c.name() << " n=" << n;
            if (same) {
                ASSERT_EQ(got, expect) << c.name() << " n=" << n;
            }
        }
    }
    // a custom base goes through the generic loop
    lex::Digits d = {2, 2};
    EXPECT_FALSE(code::add_same_length(d.data(), d.size(), 3, 1)); // "SS" + 1 = "RRR" over RPS
    d = {0, 2};
    EXPECT_TRUE(code::add_same_length(d.data(), d.size(), 3, 1));
    EXPECT_EQ(d, (lex::Digits{1, 0}));
}
