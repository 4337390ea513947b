// lexid core: charsets, parsing, shortlex arithmetic, checked against an independent model
// (decimal strings with schoolbook arithmetic; nothing shared with BigNat).
#include "charset.h"
#include "error.h"
#include "lexid.h"

#include "test_util.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

using namespace idseq;

namespace {

// ---- the independent model: non-negative decimal strings ----
std::string dec_mul_add(const std::string& a, int m, int add)
{
    std::string out;
    int carry = add;
    for (size_t i = a.size(); i-- > 0;) {
        int t = (a[i] - '0') * m + carry;
        out.push_back(static_cast<char>('0' + t % 10));
        carry = t / 10;
    }
    while (carry) {
        out.push_back(static_cast<char>('0' + carry % 10));
        carry /= 10;
    }
    while (out.size() > 1 && out.back() == '0')
        out.pop_back();
    return std::string(out.rbegin(), out.rend());
}

std::string dec_add(const std::string& a, uint64_t n)
{
    std::string b = std::to_string(n), out;
    int carry = 0;
    for (size_t i = 0; i < std::max(a.size(), b.size()) || carry; i++) {
        int t = carry + (i < a.size() ? a[a.size() - 1 - i] - '0' : 0) + (i < b.size() ? b[b.size() - 1 - i] - '0' : 0);
        out.push_back(static_cast<char>('0' + t % 10));
        carry = t / 10;
    }
    return std::string(out.rbegin(), out.rend());
}

int dec_cmp(const std::string& a, const std::string& b)
{
    if (a.size() != b.size())
        return a.size() < b.size() ? -1 : 1;
    return a.compare(b) < 0 ? -1 : a.compare(b) > 0 ? 1 : 0;
}

std::string model_rank(const lex::Digits& d, int base)
{
    std::string r = "0";
    for (uint8_t x : d)
        r = dec_mul_add(r, base, x + 1);
    return r;
}

lex::Digits random_digits(std::mt19937_64& rng, int base, size_t len)
{
    lex::Digits d(len);
    for (auto& x : d)
        x = static_cast<uint8_t>(rng() % static_cast<uint64_t>(base));
    return d;
}

} // namespace

TEST(Charset, BuiltinsMatchTheContract)
{
    ASSERT_EQ(builtin_charsets().size(), 10u);
    EXPECT_EQ(builtin_charset("digits")->base(), 10);
    EXPECT_EQ(builtin_charset("base36")->base(), 36);
    EXPECT_EQ(builtin_charset("base62")->base(), 62);
    EXPECT_EQ(builtin_charset("crockford32")->base(), 32);
    EXPECT_EQ(builtin_charset("base58")->base(), 58);
    EXPECT_EQ(builtin_charset("base64url")->base(), 64);
    EXPECT_EQ(builtin_charset("hex")->symbols(), "0123456789abcdef");
    EXPECT_EQ(builtin_charset(5)->name(), "base36");
    EXPECT_EQ(builtin_charset("nope"), nullptr);
}

TEST(Charset, CaseAndAliases)
{
    const Charset& c = *builtin_charset("crockford32");
    lex::Digits d;
    lex::parse(c, "oIlL", d);
    EXPECT_EQ(d, (lex::Digits{0, 1, 1, 1}));
    lex::parse(*builtin_charset("base36"), "zZ", d);
    EXPECT_EQ(d, (lex::Digits{35, 35}));
    EXPECT_THROW(lex::parse(*builtin_charset("upper"), "a", d), Error);
    std::string out;
    lex::format(*builtin_charset("hex"), lex::Digits{15, 10}.data(), 2, out);
    EXPECT_EQ(out, "fa");
}

// A new charset's symbols are printable: format characters (Cf) are refused at creation (a
// stored charset still loads); combining marks are printable symbols.
TEST(Charset, NewSymbolsArePrintable)
{
    EXPECT_NO_THROW(check_new_symbols("ok", "AB\xCE\xB1\xE2\x98\x85")); // A B α ★
    EXPECT_NO_THROW(check_new_symbols("ok", "e\xCC\x81x"));              // U+0301 combining acute
    const char* refused[] = {
        "A\xC2\xAD" "B",       // U+00AD soft hyphen
        "A\xE2\x80\x8E" "B",   // U+200E left-to-right mark
        "A\xE2\x81\xA0" "B",   // U+2060 word joiner
        "A\xD8\x80" "B",       // U+0600 Arabic number sign
        "A\xF3\xA0\x80\x81",  // U+E0001 language tag
    };
    for (const char* syms : refused) {
        Error e = unit::error_of([&] { check_new_symbols("cs", syms); });
        EXPECT_EQ(e.kind(), ErrorKind::InvalidParameter) << syms;
        EXPECT_NE(std::string(e.what()).find("contains the format character"), std::string::npos) << e.what();
    }
    EXPECT_STREQ(unit::error_of([] { check_new_symbols("cs", "A\xC2\xAD" "B"); }).what(),
                 "charset \"cs\" contains the format character \"U+00AD\"");
    // the same symbols still make a charset, as a stored one is read
    EXPECT_NO_THROW(Charset::make(4242, "stored", "A\xC2\xAD" "B", false));
    // the ends of the ranges
    EXPECT_TRUE(printable_code_point(0x00AC));
    EXPECT_FALSE(printable_code_point(0x00AD));
    EXPECT_TRUE(printable_code_point(0x00AE));
    EXPECT_FALSE(printable_code_point(0xE007F));
    EXPECT_TRUE(printable_code_point(0xE0080));
}

TEST(Charset, CustomDefinitions)
{
    Charset s = Charset::make(2000, "stars", "★☆✦", false);
    EXPECT_EQ(s.base(), 3);
    EXPECT_FALSE(s.ascii());
    lex::Digits d;
    lex::parse(s, "✦★", d);
    EXPECT_EQ(d, (lex::Digits{2, 0}));
    auto kind = [](auto f) { return unit::kind_of(f); };
    EXPECT_EQ(kind([] { Charset::make(1, "x", "A", false); }), ErrorKind::InvalidParameter);
    EXPECT_EQ(kind([] { Charset::make(1, "x", "ABA", false); }), ErrorKind::InvalidParameter);
    EXPECT_EQ(kind([] { Charset::make(1, "x", "aA", true); }), ErrorKind::InvalidParameter);
    EXPECT_EQ(kind([] { Charset::make(1, "x", "a b", false); }), ErrorKind::InvalidParameter);
    EXPECT_EQ(kind([] { Charset::make(1, "x", "ab\xff", false); }), ErrorKind::InvalidParameter);
    EXPECT_EQ(kind([] { validate_charset_name("Bad-Name"); }), ErrorKind::InvalidParameter);
    EXPECT_NO_THROW(Charset::make(1, "x", "aA", false));
    std::string all;
    for (int i = 0; i < 257; i++) {
        char32_t cp = 0x100 + static_cast<char32_t>(i);
        all += static_cast<char>(0xC0 | (cp >> 6));
        all += static_cast<char>(0x80 | (cp & 0x3F));
    }
    EXPECT_EQ(kind([&] { Charset::make(1, "x", all, false); }), ErrorKind::InvalidParameter);
    EXPECT_GE(custom_charset_id("stars"), 1024);
    EXPECT_EQ(custom_charset_id("stars"), custom_charset_id("stars"));
}

TEST(Lexid, ContractExamples)
{
    const Charset& b36 = *builtin_charset("base36");
    const Charset& dg = *builtin_charset("digits");
    lex::Digits d;
    std::string out;
    auto add = [&](const Charset& cs, const char* s, int64_t n) {
        lex::parse(cs, s, d);
        lex::add(d, cs.base(), n);
        out.clear();
        lex::format(cs, d.data(), d.size(), out);
        return out;
    };
    EXPECT_EQ(add(b36, "ZZ", 1), "000");
    EXPECT_EQ(add(dg, "0", 1), "1");
    EXPECT_EQ(add(dg, "9", 1), "00");
    EXPECT_EQ(add(dg, "99", 1), "000");
    EXPECT_EQ(add(*builtin_charset("upper"), "Z", 1), "AA");
    EXPECT_EQ(add(b36, std::string(40, 'Z').c_str(), 1), std::string(41, '0'));
    EXPECT_EQ(add(dg, "00", -1), "9");
    EXPECT_EQ(add(dg, "000", -1), "99");
    lex::parse(dg, "0", d);
    EXPECT_THROW(lex::add(d, 10, -1), Error);
    lex::parse(dg, "0", d);
    EXPECT_EQ(lex::rank(d.data(), d.size(), 10), "1");
    EXPECT_EQ(lex::add_text(dg, "", 1, true), "0");
    EXPECT_EQ(lex::add_text(dg, "", 11, true), "00");
    EXPECT_THROW(lex::add_text(dg, "", -1, true), Error);
    EXPECT_EQ(lex::add_text(dg, "0", -1, true), "");
}

TEST(Lexid, IgnoreCaseFollowsTheMajorityCase)
{
    const Charset& b62 = *builtin_charset("base62");
    EXPECT_EQ(lex::add_text(b62, "aB1", 1, true), "aB2");   // unchanged characters keep their case
    EXPECT_EQ(lex::add_text(b62, "az", 1, true), "b0");     // lower majority
    EXPECT_EQ(lex::add_text(b62, "Az", 1, true), "B0");     // tie: upper
    EXPECT_EQ(lex::add_text(b62, "zz", 1, true), "000");
    EXPECT_EQ(lex::add_text(b62, "zz", 1, false), "000");   // case-sensitive: z is the last of 62 digits
    EXPECT_EQ(lex::add_text(b62, "zy", 1, false), "zz");
    EXPECT_EQ(lex::add_text(b62, "Zz", 1, false), "a0");
    EXPECT_EQ(lex::add_text(b62, "9", 1, true), "A");
    EXPECT_EQ(lex::add_text(b62, "9", 1, false), "A");
    EXPECT_EQ(lex::add_text(*builtin_charset("base36"), "az", 1, true), "B0"); // canonical case
}

TEST(Lexid, LengthLimit)
{
    const Charset& dg = *builtin_charset("digits");
    lex::Digits d;
    EXPECT_NO_THROW(lex::parse(dg, std::string(1024, '5'), d));
    EXPECT_THROW(lex::parse(dg, std::string(1025, '5'), d), Error);
    lex::parse(dg, std::string(1024, '9'), d);
    EXPECT_EQ(unit::kind_of([&] { lex::add(d, 10, 1); }), ErrorKind::OutOfRange);
    EXPECT_THROW(lex::from_rank("1" + std::string(1100, '0'), 10, d), Error);
    EXPECT_THROW(lex::from_rank("0", 10, d), Error);
    EXPECT_THROW(lex::from_rank("1.5", 10, d), Error);
    EXPECT_NO_THROW(lex::from_rank("15.000", 10, d));
}

// The property test the issue asks for: for every built-in charset and lengths 1..300,
// (a + n) - n = a, rank(a + n) = rank(a) + n, and comparison agrees with rank.
TEST(Lexid, PropertiesAgainstTheModel)
{
    std::mt19937_64 rng(20261122);
    for (const Charset& cs : builtin_charsets()) {
        const int k = cs.base();
        for (size_t len = 1; len <= 300; len += (len < 20 ? 1 : 7)) {
            for (int rep = 0; rep < 3; rep++) {
                lex::Digits a = random_digits(rng, k, len), b = random_digits(rng, k, 1 + rng() % 300);
                int64_t n;
                switch (rep) {
                case 0: n = static_cast<int64_t>(rng() % 1000); break;
                case 1: n = static_cast<int64_t>(rng() >> 1); break;
                default: n = static_cast<int64_t>(rng() % 100000) * k; break;
                }
                std::string ra = model_rank(a, k);
                ASSERT_EQ(lex::rank(a.data(), a.size(), k), ra);
                lex::Digits s = a;
                lex::add(s, k, n);
                ASSERT_EQ(model_rank(s, k), dec_add(ra, static_cast<uint64_t>(n))) << cs.name() << " len " << len;
                lex::add(s, k, -n);
                ASSERT_EQ(s, a) << cs.name() << " len " << len << " n " << n;
                std::string rb = model_rank(b, k);
                int c = lex::compare(a.data(), a.size(), b.data(), b.size());
                ASSERT_EQ(c, dec_cmp(ra, rb));
                lex::Digits back;
                lex::from_rank(ra, k, back);
                ASSERT_EQ(back, a);
                // distance: (a + n) - a = n and a - (a + n) = -n
                lex::Digits an = a;
                lex::add(an, k, n);
                ASSERT_EQ(lex::distance(an.data(), an.size(), a.data(), a.size(), k), std::to_string(n));
                ASSERT_EQ(lex::distance(a.data(), a.size(), an.data(), an.size(), k), n ? "-" + std::to_string(n) : "0");
                // text round trip
                std::string text;
                lex::format(cs, a.data(), a.size(), text);
                lex::Digits p;
                lex::parse(cs, text, p);
                ASSERT_EQ(p, a);
            }
        }
    }
}

TEST(Lexid, SubtractionCrossingLengths)
{
    // exhaustive over small values: walking down by n from rank r lands on rank r - n
    for (int k : {2, 3, 10}) {
        for (uint64_t r = 1; r < 400; r++) {
            lex::Digits a;
            lex::from_rank(std::to_string(r), k, a);
            for (uint64_t n = 0; n < r; n += 1 + n / 3) {
                lex::Digits s = a;
                lex::add(s, k, -static_cast<int64_t>(n));
                ASSERT_EQ(lex::rank(s.data(), s.size(), k), std::to_string(r - n)) << k << " " << r << " " << n;
            }
            lex::Digits s = a;
            EXPECT_THROW(lex::add(s, k, -static_cast<int64_t>(r)), Error);
            s = a;
            lex::add(s, k, -static_cast<int64_t>(r), true);
            EXPECT_TRUE(s.empty());
        }
    }
    lex::Digits a;
    lex::from_rank("5", 10, a);
    EXPECT_THROW(lex::add(a, 10, INT64_MIN), Error);
}

// Abbreviated keys order like the values for every length up to 1024
// (the old key capped the length at 255), in every base from 2 to 256.
TEST(Lexid, AbbreviatedKeysRespectTheOrder)
{
    std::mt19937_64 rng(9);
    for (int base : {2, 3, 10, 16, 32, 36, 58, 62, 64, 255, 256}) {
        int m = lex::abbrev_digits(base);
        EXPECT_GE(m, 6);
        for (int i = 0; i < 4000; i++) {
            size_t la = 1 + rng() % 1024, lb = rng() % 4 ? la : 1 + rng() % 1024;
            if (rng() % 3 == 0)
                la = 255 + rng() % 4, lb = 255 + rng() % 4;
            lex::Digits a = random_digits(rng, base, la), b = random_digits(rng, base, lb);
            if (rng() % 2) // long common prefixes
                std::copy(a.begin(), a.begin() + static_cast<long>(std::min(a.size(), b.size()) / 2), b.begin());
            int full = lex::compare(a.data(), a.size(), b.data(), b.size());
            int abbr = lex::abbrev_compare(lex::abbrev_key(a.data(), a.size(), base, m),
                                           lex::abbrev_key(b.data(), b.size(), base, m));
            ASSERT_TRUE(abbr == 0 || abbr == full) << "base " << base << " lengths " << la << ", " << lb;
            // a length-only key decides only by length
            int lo = lex::abbrev_compare(lex::abbrev_length_key(a.size()), lex::abbrev_key(b.data(), b.size(), base, m));
            ASSERT_TRUE(lo == 0 || lo == full);
            ASSERT_EQ(lo == 0, a.size() == b.size());
        }
    }
    // the repro: 300 zeros sort after 256 Z's
    lex::Digits zeros(300, 0), zs(256, 35);
    int m = lex::abbrev_digits(36);
    EXPECT_GT(lex::abbrev_compare(lex::abbrev_key(zeros.data(), 300, 36, m), lex::abbrev_key(zs.data(), 256, 36, m)), 0);
}

// A stored digit >= base is found, and formatting refuses it.
TEST(Lexid, DigitsOutsideTheBaseAreRefused)
{
    const Charset& b36 = *builtin_charset("base36");
    lex::Digits d{1, 2, 36};
    EXPECT_EQ(lex::first_bad_digit(d.data(), d.size(), 36), 2u);
    EXPECT_EQ(lex::first_bad_digit(d.data(), d.size(), 37), 3u);
    std::string out;
    EXPECT_EQ(unit::kind_of([&] { lex::format(b36, d.data(), d.size(), out); }), ErrorKind::Internal);
    Charset s = Charset::make(2000, "stars", "★☆", false);
    lex::Digits big{0, 255};
    EXPECT_EQ(unit::kind_of([&] { lex::format(s, big.data(), big.size(), out); }), ErrorKind::Internal);
}

// No charset makes the arithmetic count in base 1.
TEST(Lexid, NoArithmeticInBaseOne)
{
    Charset xx = Charset::make(3000, "xx", "xX", false);
    EXPECT_EQ(unit::kind_of([&] { lex::add_text(xx, "x", 200000000, true); }), ErrorKind::InvalidParameter);
    EXPECT_EQ(lex::add_text(xx, "x", 1, false), "X");
    lex::Digits d{0};
    EXPECT_EQ(unit::kind_of([&] { lex::add(d, 1, 200000000); }), ErrorKind::InvalidParameter);
    EXPECT_EQ(unit::kind_of([&] { lex::add(d, 0, 1); }), ErrorKind::InvalidParameter);
    EXPECT_EQ(unit::kind_of([&] { lex::from_rank("5", 1, d); }), ErrorKind::InvalidParameter);
    EXPECT_EQ(unit::kind_of([] { lex::rank(nullptr, 0, 1); }), ErrorKind::InvalidParameter);
    // base 2 with the largest count stays short
    d = {0};
    lex::add(d, 2, INT64_MAX);
    EXPECT_LE(d.size(), 64u);
}

// The length bound comes before the (quadratic) parse; zeros after the
// point are fine whatever their number; messages quote a bounded excerpt.
TEST(Lexid, FromRankBoundsFirst)
{
    lex::Digits d;
    std::string huge(131000, '7');
    Error e = unit::error_of([&] { lex::from_rank(huge, 36, d); });
    EXPECT_EQ(e.kind(), ErrorKind::OutOfRange);
    EXPECT_LT(std::string(e.what()).size(), 200u);
    lex::from_rank("1." + std::string(100000, '0'), 36, d);
    EXPECT_EQ(d, lex::Digits{0});
    e = unit::error_of([&] { lex::from_rank("-" + huge, 36, d); });
    EXPECT_EQ(e.kind(), ErrorKind::OutOfRange);
    EXPECT_LT(std::string(e.what()).size(), 200u);
    e = unit::error_of([&] { lex::from_rank("1." + std::string(100000, '0') + "1", 36, d); });
    EXPECT_EQ(e.kind(), ErrorKind::InvalidParameter);
    EXPECT_LT(std::string(e.what()).size(), 200u);
}

// An untyped spelling is checked by rules no charset can change: whatever any charset could
// read passes, whatever none could is a Syntax error.
TEST(Lexid, CheckSpellingIsLexical)
{
    using idseq::unit::error_of;
    EXPECT_NO_THROW(lex::check_spelling("AB!\"★"));
    EXPECT_NO_THROW(lex::check_spelling(std::string(lex::kMaxLength, 'x')));
    std::string stars;
    for (size_t i = 0; i < lex::kMaxLength; i++)
        stars += "★";
    EXPECT_NO_THROW(lex::check_spelling(stars)); // 1024 characters, 3072 bytes
    EXPECT_EQ(error_of([] { lex::check_spelling(""); }).kind(), ErrorKind::Syntax);
    EXPECT_EQ(error_of([&] { lex::check_spelling(stars + "x"); }).kind(), ErrorKind::Syntax);
    Error sp = error_of([] { lex::check_spelling("ab c"); });
    EXPECT_STREQ(sp.what(), "invalid character \" \" at position 3 in \"ab c\"");
    Error nl = error_of([] { lex::check_spelling("a\n"); });
    EXPECT_STREQ(nl.what(), "invalid character \"\\x0A\" at position 2 in \"a\\x0A\"");
    Error zw = error_of([] { lex::check_spelling("a\xE2\x80\x8B"); }); // U+200B
    EXPECT_STREQ(zw.what(), "invalid character \"U+200B\" at position 2 in \"a\xE2\x80\x8B\"");
    Error bad = error_of([] { lex::check_spelling("a\xFF"); });
    EXPECT_STREQ(bad.what(), "invalid byte \"\\xFF\" at position 2 in \"a\\xFF\"");
    // the same rule as charset definitions: no charset can hold what the spelling refuses
    for (int32_t cp : {0x09, 0x20, 0x7F, 0x85, 0xA0, 0x2028, 0x3000, 0xFEFF})
        EXPECT_FALSE(symbol_code_point(cp));
    EXPECT_TRUE(symbol_code_point('!'));
}

// Outside UTF-8 databases only ASCII reads the same: ascii_only refuses any other character.
TEST(Lexid, CheckSpellingAsciiOnly)
{
    using idseq::unit::error_of;
    EXPECT_NO_THROW(lex::check_spelling("AB!~", true));
    Error e = error_of([] { lex::check_spelling("a\xC3\xA9", true); });
    EXPECT_EQ(e.kind(), ErrorKind::Syntax);
    EXPECT_NE(std::string(e.what()).find("at position 2"), std::string::npos);
    EXPECT_NO_THROW(lex::check_spelling("a\xC3\xA9"));
}

// Callers tell errors apart by their reason, never by their message text.
TEST(Lexid, InvalidSymbolHasItsReason)
{
    using idseq::unit::error_of;
    const Charset& b36 = *builtin_charset("base36");
    lex::Digits d;
    Error e = error_of([&] { lex::parse(b36, "AB!", d); });
    EXPECT_EQ(e.kind(), ErrorKind::Syntax);
    EXPECT_EQ(e.reason(), ErrorReason::InvalidSymbol);
    EXPECT_EQ(error_of([&] { lex::parse(b36, "", d); }).reason(), ErrorReason::Unspecified);
    EXPECT_EQ(error_of([&] { lex::parse(b36, std::string(1025, 'A'), d); }).reason(), ErrorReason::Unspecified);
    EXPECT_EQ(error_of([&] { lex::add_text(b36, "A!", 1, false); }).reason(), ErrorReason::InvalidSymbol);
}
