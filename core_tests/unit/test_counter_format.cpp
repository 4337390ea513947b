// Unit tests for counter format templates and periods (src/core/counter_format.h).
#include "cpp_only.h"
#include "charset.h"
#include "counter_format.h"
#include "error.h"
#include "fixed_code.h"
#include "lexid.h"

#include "test_util.h"

#include <gtest/gtest.h>

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <vector>

using namespace idseq;
using namespace idseq::counter;
using unit::error_of;
using unit::kind_of;

namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();

const Charset& greek()
{
    static const Charset g = Charset::make(2000, "greek", "αβγδεζηθ", false);
    return g;
}

// Resolves the template's charset names among the built-ins and greek.
Charsets bind(const Template& t)
{
    Charsets out;
    for (const std::string& name : t.charset_names())
        out.push_back(name == "greek" ? &greek() : builtin_charset(std::string_view(name)));
    check_charsets(t, out);
    return out;
}

std::string fmt(std::string_view tmpl, int64_t n, std::string_view period = "", std::string_view key = "")
{
    Template t = parse_template(tmpl);
    return render(t, n, period, key, bind(t));
}

std::optional<int64_t> back(std::string_view tmpl, std::string_view text, std::string_view period = "",
                            std::string_view key = "")
{
    Template t = parse_template(tmpl);
    return parse_number(t, text, period, key, bind(t));
}

} // namespace

TEST(CounterFormat, Examples)
{
    EXPECT_EQ(fmt("{n}", 1), "1");
    EXPECT_EQ(fmt("ORD-{n:6}", 123), "ORD-000123");
    EXPECT_EQ(fmt("INV-{period}-{n:6}", 17, "2026"), "INV-2026-000017");
    EXPECT_EQ(fmt("{key}/{n}", 311, "", "proj"), "proj/311");
    EXPECT_EQ(fmt("{n:3}", 123456), "123456"); // never cut
    EXPECT_EQ(fmt("{n:6}", -42), "-00042");   // sign counts in the width, as printf's %06d
    EXPECT_EQ(fmt("{n}", kMin), "-9223372036854775808");
    EXPECT_EQ(fmt("{n:20}", kMax), "09223372036854775807");
    EXPECT_EQ(fmt("{n:20}", kMin), "-9223372036854775808");
    EXPECT_EQ(fmt("{n:1}", 0), "0");
    // code_format rules with a width
    EXPECT_EQ(fmt("{code:upper:3}", 0), "AAA");
    EXPECT_EQ(fmt("{code:upper:3}", 17575), "ZZZ");
    EXPECT_EQ(fmt("{code:base36:4}-{n}", 35, "", ""), "000Z-35");
    // shortlex without a width: 1 is the first symbol
    EXPECT_EQ(fmt("{code:upper}", 1), "A");
    EXPECT_EQ(fmt("{code:upper}", 26), "Z");
    EXPECT_EQ(fmt("{code:upper}", 27), "AA");
    EXPECT_EQ(fmt("{code:digits}", 10), "9");
    EXPECT_EQ(fmt("{code:digits}", 11), "00");
    EXPECT_EQ(fmt("{code:greek}", 9), "αα");
    EXPECT_EQ(fmt("{code:hex:2}", 255), "ff");
    // braces
    EXPECT_EQ(fmt("{{{n}}}", 5), "{5}");
    EXPECT_EQ(fmt("}}{n}{{", 5), "}5{");
}

TEST(CounterFormat, TemplateShape)
{
    Template t = parse_template("A{{{code:hex}-{code:upper:3}-{code:hex:2}{period}{key}}}");
    ASSERT_EQ(t.charset_names().size(), 2u);
    EXPECT_EQ(t.charset_names()[0], "hex");
    EXPECT_EQ(t.charset_names()[1], "upper");
    EXPECT_TRUE(t.uses_period());
    EXPECT_TRUE(t.uses_key());
    EXPECT_EQ(t.source(), "A{{{code:hex}-{code:upper:3}-{code:hex:2}{period}{key}}}");
    EXPECT_EQ(render(t, 10, "2026", "k", bind(t)), "A{9-AAK-0a2026k}");
    EXPECT_FALSE(parse_template("{n}").uses_period());
    EXPECT_FALSE(parse_template("{n}").uses_key());
}

TEST(CounterFormat, BadTemplates)
{
    const char* bad[] = {
        "", "ORD-", "{{n}}", "{period}", "{key}", "{", "}", "{n", "n}", "{n}}", "{{n}", "{n:}", "{n:0}",
        "{n:21}", "{n:-1}", "{n:+3}", "{n:3x}", "{n:1000}", "{N}", "{ n}", "{n }", "{number}", "{code}",
        "{code:}", "{code:Upper}", "{code:9up}", "{code:upper:}", "{code:upper:0}", "{code:upper:65}",
        "{code:upper:3:4}", "{period:2}", "{key:x}", "{n{n}}", "{}", "a}b{n}", "{n}{",
    };
    for (const char* s : bad) {
        Error e = error_of([&] { parse_template(s); });
        EXPECT_EQ(e.kind(), ErrorKind::InvalidParameter) << s;
        EXPECT_NE(std::string(e.what()).find("invalid counter format"), std::string::npos) << s;
        EXPECT_FALSE(e.detail().empty()) << s;
    }
    // Positions in characters, not bytes.
    EXPECT_NE(error_of([] { parse_template("αβ}{n}"); }).detail().find("character 3"), std::string::npos);
    // Too long.
    std::string long_tmpl = "{n}" + std::string(kMaxTemplateBytes, 'x');
    EXPECT_EQ(kind_of([&] { parse_template(long_tmpl); }), ErrorKind::InvalidParameter);
    EXPECT_NO_THROW(parse_template("{n}" + std::string(kMaxTemplateBytes - 3, 'x')));
    // A width beyond the charset's bigint range pads with its zero symbol, as code_format's.
    Template t = parse_template("{code:upper:14}");
    EXPECT_EQ(render(t, 1, "", "", bind(t)), "AAAAAAAAAAAAAB");
    EXPECT_NO_THROW(bind(parse_template("{code:digits:64}")));
}

TEST(CounterFormat, RenderErrors)
{
    EXPECT_EQ(kind_of([] { fmt("{code:upper}", 0); }), ErrorKind::OutOfRange);
    EXPECT_EQ(kind_of([] { fmt("{code:upper}", -5); }), ErrorKind::OutOfRange);
    EXPECT_EQ(kind_of([] { fmt("{n}-{code:upper:3}", 17576); }), ErrorKind::OutOfRange);
    EXPECT_EQ(kind_of([] { fmt("{code:upper:3}", -1); }), ErrorKind::OutOfRange);
    EXPECT_NE(std::string(error_of([] { fmt("{code:upper}", 0); }).what()).find("\"upper\""), std::string::npos);
    EXPECT_EQ(fmt("{code:upper}", kMax).size(), 14u);
}

TEST(CounterFormat, ParseExamples)
{
    EXPECT_EQ(back("ORD-{n:6}", "ORD-000123"), 123);
    EXPECT_EQ(back("ORD-{n:6}", "ORD-1234567"), 1234567);
    EXPECT_EQ(back("ORD-{n:6}", "ORD-123"), std::nullopt);     // not as rendered
    EXPECT_EQ(back("ORD-{n:6}", "ORD-0000123"), std::nullopt); // too many zeros
    EXPECT_EQ(back("ORD-{n:6}", "ORD-000123 "), std::nullopt);
    EXPECT_EQ(back("ORD-{n:6}", "ord-000123"), std::nullopt);
    EXPECT_EQ(back("INV-{period}-{n:6}", "INV-2026-000017", "2026"), 17);
    EXPECT_EQ(back("INV-{period}-{n:6}", "INV-2025-000017", "2026"), std::nullopt);
    EXPECT_EQ(back("{key}{n}", "ab12", "", "ab"), 12);
    EXPECT_EQ(back("{key}{n}", "ab12", "", "ab1"), 2);
    EXPECT_EQ(back("{n}{n}", "1212"), 12);
    EXPECT_EQ(back("{n}{n}", "1213"), std::nullopt);
    EXPECT_EQ(back("{n}1{n}", "111"), 1);
    EXPECT_EQ(back("{n}1{n}", "11111"), 11);
    EXPECT_EQ(back("{n}", "-9223372036854775808"), kMin);
    EXPECT_EQ(back("{n}", "9223372036854775807"), kMax);
    EXPECT_EQ(back("{n}", "9223372036854775808"), std::nullopt);
    EXPECT_EQ(back("{n}", "-0"), std::nullopt);
    EXPECT_EQ(back("{n}", ""), std::nullopt);
    EXPECT_EQ(back("{code:upper}", "AA"), 27);
    EXPECT_EQ(back("{code:base36}", "a"), std::nullopt); // rendered "A": exact spelling only
    EXPECT_EQ(back("{code:base36}", "A"), 11);
    EXPECT_EQ(back("{code:upper:3}-{n}", "AAK-10"), 10);
    EXPECT_EQ(back("{code:upper:3}-{n}", "AAK-11"), std::nullopt);
    EXPECT_EQ(back("{code:greek}", "αα"), 9);
    EXPECT_EQ(back("{code:upper}", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"), std::nullopt); // past bigint
    EXPECT_EQ(back("{{{n}}}", "{5}"), 5);
}

TEST(CounterFormat, Periods)
{
    EXPECT_EQ(parse_period("none"), Period::None);
    EXPECT_EQ(parse_period("year"), Period::Year);
    EXPECT_EQ(parse_period("Month"), Period::Month);
    EXPECT_EQ(parse_period("DAY"), Period::Day);
    for (const char* s : {"", "years", "week", "d", "yearx", "hour", "ye ar"})
        EXPECT_EQ(kind_of([&] { parse_period(s); }), ErrorKind::InvalidParameter) << s;
    for (Period p : {Period::None, Period::Year, Period::Month, Period::Day})
        EXPECT_EQ(parse_period(period_name(p)), p);

    EXPECT_EQ(period_number(Period::Year, 2026, 11, 28), 2026);
    EXPECT_EQ(period_number(Period::Month, 2026, 11, 28), 202611);
    EXPECT_EQ(period_number(Period::Day, 2026, 11, 28), 20261128);
    EXPECT_EQ(period_number(Period::None, 2026, 11, 28), 0);
    EXPECT_EQ(period_number(Period::Day, 2024, 2, 29), 20240229);
    EXPECT_EQ(period_number(Period::Day, 99999, 12, 31), 999991231);
    EXPECT_EQ(kind_of([] { period_number(Period::Day, 2026, 2, 29); }), ErrorKind::InvalidParameter);
    EXPECT_EQ(kind_of([] { period_number(Period::Day, 1900, 2, 29); }), ErrorKind::InvalidParameter);
    EXPECT_EQ(kind_of([] { period_number(Period::Month, 2026, 13, 1); }), ErrorKind::InvalidParameter);
    EXPECT_EQ(kind_of([] { period_number(Period::Year, 0, 1, 1); }), ErrorKind::OutOfRange);
    EXPECT_EQ(kind_of([] { period_number(Period::Year, 100000, 1, 1); }), ErrorKind::OutOfRange);

    EXPECT_EQ(period_text(Period::Year, 2026), "2026");
    EXPECT_EQ(period_text(Period::Month, 202611), "2026-11");
    EXPECT_EQ(period_text(Period::Day, 20261128), "2026-11-28");
    EXPECT_EQ(period_text(Period::Year, 999), "0999");
    EXPECT_EQ(period_text(Period::Day, 10101), "0001-01-01");
    EXPECT_EQ(period_text(Period::Month, 1000012), "10000-12");
    EXPECT_EQ(period_text(Period::None, 0), "");
    for (const auto& pn : std::vector<std::pair<Period, int32_t>>{{Period::Year, 0},
                                                               {Period::Year, -5},
                                                               {Period::Year, 100000},
                                                               {Period::Month, 202613},
                                                               {Period::Month, 202600},
                                                               {Period::Month, 2026},
                                                               {Period::Day, 20260230},
                                                               {Period::Day, 202611},
                                                               {Period::None, 2026}})
        EXPECT_EQ(kind_of([&] { period_text(pn.first, pn.second); }), ErrorKind::InvalidParameter) << pn.second;

    EXPECT_EQ(parse_period_text(Period::Year, "2026"), 2026);
    EXPECT_EQ(parse_period_text(Period::Month, "2026-11"), 202611);
    EXPECT_EQ(parse_period_text(Period::Day, "2026-11-28"), 20261128);
    EXPECT_EQ(parse_period_text(Period::Year, "10000"), 10000);
    EXPECT_EQ(parse_period_text(Period::None, ""), 0);
    for (const auto& ps : std::vector<std::pair<Period, const char*>>{{Period::Year, "26"},
                                                                   {Period::Year, "2026-11"},
                                                                   {Period::Year, "02026"},
                                                                   {Period::Year, "0000"},
                                                                   {Period::Year, " 2026"},
                                                                   {Period::Month, "2026"},
                                                                   {Period::Month, "2026-1"},
                                                                   {Period::Month, "2026-13"},
                                                                   {Period::Month, "2026/11"},
                                                                   {Period::Day, "2026-11-31"},
                                                                   {Period::Day, "2026-11-28x"},
                                                                   {Period::None, "2026"}})
        EXPECT_EQ(kind_of([&] { parse_period_text(ps.first, ps.second); }), ErrorKind::InvalidParameter) << ps.second;
    // Every day of a few years: number -> text -> number, and the text sorts like the number.
    for (Period p : {Period::Year, Period::Month, Period::Day})
        for (int y : {1, 999, 1999, 2000, 2024, 2100, 9999, 10000, 99999})
            for (int m = 1; m <= 12; m++)
                for (int d = 1; d <= 31; d++) {
                    bool real = d <= (m == 2 ? ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0 ? 29 : 28)
                                             : (m == 4 || m == 6 || m == 9 || m == 11) ? 30 : 31);
                    if (!real) {
                        EXPECT_ANY_THROW(period_number(p, y, m, d));
                        continue;
                    }
                    int32_t n = period_number(p, y, m, d);
                    EXPECT_EQ(parse_period_text(p, period_text(p, n)), n);
                }

    EXPECT_EQ(kind_of([] { check_template_period(parse_template("{period}-{n}"), Period::None); }),
              ErrorKind::InvalidParameter);
    EXPECT_NO_THROW(check_template_period(parse_template("{period}-{n}"), Period::Day));
    EXPECT_NO_THROW(check_template_period(parse_template("{n}"), Period::None));
}

// ---- property test against an independent oracle ----

namespace {

struct Part {
    enum Kind { Lit, Num, Code, Per, Key } kind;
    std::string lit;
    int width = 0;
    const Charset* cs = nullptr;
};

// The oracle's rendering of one number field: decimal by printf, codes through the lexid
// module (shortlex rank) and code_format; nullopt when the field cannot show n.
std::optional<std::string> oracle_field(const Part& p, int64_t n)
{
    if (p.kind == Part::Num) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%0*" PRId64, p.width, n);
        return std::string(buf);
    }
    if (p.width) {
        if (n < 0 || n > code::capacity(p.cs->base(), p.width) - 1)
            return std::nullopt;
        return code::format(*p.cs, n, p.width);
    }
    if (n < 1)
        return std::nullopt;
    lex::Digits d;
    lex::from_rank(std::to_string(n), p.cs->base(), d);
    std::string s;
    lex::format(*p.cs, d.data(), d.size(), s);
    return s;
}

std::string escape(std::string_view s)
{
    std::string out;
    for (char c : s) {
        out.push_back(c);
        if (c == '{' || c == '}')
            out.push_back(c);
    }
    return out;
}

} // namespace

TEST(CounterFormat, PropertyRenderParse)
{
    std::mt19937_64 rng(20261128);
    std::vector<const Charset*> sets;
    for (const Charset& c : builtin_charsets())
        sets.push_back(&c);
    sets.push_back(&greek());
    const std::vector<std::string> lits = {"-", "ORD-", "{", "}", "0", "1", "A", "a", "9", "-0", "αβ", "/", "x{y}"};
    const std::vector<std::string> keys = {"", "k", "tenant42", "0", "12", "A", "{key}", "-", "ζ"};
    const std::vector<std::string> periods = {"2026", "2026-11", "2026-11-28", "0999"};
    auto pick = [&](size_t n) { return static_cast<size_t>(rng() % n); };
    int rendered = 0;
    for (int iter = 0; iter < 4000; iter++) {
        std::vector<Part> parts;
        size_t nparts = 1 + pick(5);
        bool number = false;
        for (size_t i = 0; i < nparts || !number; i++) {
            Part p{Part::Lit, {}, 0, nullptr};
            switch (pick(6)) {
            case 0:
            case 1:
                p.kind = Part::Lit;
                p.lit = lits[pick(lits.size())];
                break;
            case 2:
                p.kind = Part::Num;
                p.width = pick(3) ? 0 : 1 + static_cast<int>(pick(kMaxNumberWidth));
                number = true;
                break;
            case 3:
                p.kind = Part::Code;
                p.cs = sets[pick(sets.size())];
                p.width = pick(2) ? 0 : 1 + static_cast<int>(pick(static_cast<size_t>(code::max_width(p.cs->base()))));
                number = true;
                break;
            case 4:
                p.kind = Part::Per;
                break;
            default:
                p.kind = Part::Key;
                break;
            }
            parts.push_back(p);
        }
        std::string tmpl;
        for (const Part& p : parts) {
            switch (p.kind) {
            case Part::Lit:
                tmpl += escape(p.lit);
                break;
            case Part::Num:
                tmpl += p.width ? "{n:" + std::to_string(p.width) + "}" : "{n}";
                break;
            case Part::Code:
                tmpl += "{code:" + p.cs->name() + (p.width ? ":" + std::to_string(p.width) : "") + "}";
                break;
            case Part::Per:
                tmpl += "{period}";
                break;
            case Part::Key:
                tmpl += "{key}";
                break;
            }
        }
        const std::string key = keys[pick(keys.size())];
        const std::string period = periods[pick(periods.size())];
        Template t = parse_template(tmpl);
        Charsets bound = bind(t);

        for (int k = 0; k < 8; k++) {
            int64_t n;
            switch (pick(5)) {
            case 0:
                n = static_cast<int64_t>(pick(30)) - 3;
                break;
            case 1:
                n = static_cast<int64_t>(rng() >> pick(64));
                break;
            case 2:
                n = static_cast<int64_t>(rng());
                break;
            case 3:
                n = kMax - static_cast<int64_t>(pick(3));
                break;
            default:
                n = static_cast<int64_t>(pick(100000));
                break;
            }
            std::string expect;
            bool ok = true;
            for (const Part& p : parts) {
                if (p.kind == Part::Lit)
                    expect += p.lit;
                else if (p.kind == Part::Per)
                    expect += period;
                else if (p.kind == Part::Key)
                    expect += key;
                else if (auto s = oracle_field(p, n))
                    expect += *s;
                else
                    ok = false;
            }
            SCOPED_TRACE("template " + tmpl + " n " + std::to_string(n) + " key " + key + " period " + period);
            if (!ok) {
                EXPECT_EQ(kind_of([&] { render(t, n, period, key, bound); }), ErrorKind::OutOfRange);
                continue;
            }
            rendered++;
            std::string got = render(t, n, period, key, bound);
            ASSERT_EQ(got, expect);
            // Widths never cut: every {n} field shows all digits of n.
            const std::string digits = std::to_string(n).substr(n < 0 ? 1 : 0);
            for (const Part& p : parts) {
                if (p.kind == Part::Num) {
                    EXPECT_NE(got.find(digits), std::string::npos);
                }
            }
            ASSERT_EQ(parse_number(t, got, period, key, bound), n);
            // A changed text parses to nothing, or to the number it is the rendering of.
            std::string mutated = got;
            switch (pick(4)) {
            case 0:
                mutated.push_back('0');
                break;
            case 1:
                mutated.insert(mutated.begin(), '0');
                break;
            case 2:
                mutated.erase(pick(mutated.size()), 1);
                break;
            default:
                if (!mutated.empty())
                    mutated[pick(mutated.size())] ^= 1;
                break;
            }
            if (auto m = parse_number(t, mutated, period, key, bound)) {
                std::string again;
                EXPECT_NO_THROW(again = render(t, *m, period, key, bound));
                EXPECT_EQ(again, mutated);
            }
        }
    }
    EXPECT_GT(rendered, 10000);
}

// A long text of digits against many number fields stays cheap (no backtracking blow-up).
TEST(CounterFormat, ParseCostIsBounded)
{
    std::string tmpl;
    for (int i = 0; i < 60; i++)
        tmpl += "{n}{code:digits}";
    Template t = parse_template(tmpl);
    Charsets b = bind(t);
    std::string text(100000, '1');
    EXPECT_EQ(parse_number(t, text, "", "", b), std::nullopt);
    std::string r = render(t, 123456789, "", "", b);
    EXPECT_EQ(parse_number(t, r, "", "", b), 123456789);
}
