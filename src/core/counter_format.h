// Counters per key (API section 7): the format templates numbers render through, and the
// periods a counter restarts in. Plain data and text; the adapter resolves charset names and
// reads the date of an instant in a time zone.
//
// A template is literal text with fields in braces:
//   {n}          the number in decimal ("-" before a negative one)
//   {n:W}        zero-padded to at least W characters, sign included (printf's %0*lld); a
//                number that does not fit is shown whole, never cut (1 <= W <= 20)
//   {code:CS}    the number as a shortlex code over charset CS: 1 is the first symbol, then
//                the second, ..., then two symbols (lexid_rank order); numbers below 1 have
//                no code (22003)
//   {code:CS:W}  code_format(n, W, CS): W symbols of positional notation, 0 is the first
//                symbol W times; n outside 0 .. base^W - 1 is 22003, as in code_format
//   {period}     the period's text ("2026", "2026-11", "2026-11-28")
//   {key}        the key
//   {{ and }}    a literal brace
// A template holds at least one number field ({n...} or {code...}), is at most
// kMaxTemplateBytes long, and names charsets by their names (^[a-z_][a-z0-9_]*$). Whether
// those charsets exist, and whether a code width fits one, is checked when the adapter binds
// them (check_charsets).
#pragma once
#include "cpp_only.h"

#include "charset.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace idseq::counter {

constexpr size_t kMaxTemplateBytes = 1024;
// {n:W}: 20 characters hold every bigint, "-9223372036854775808" included.
constexpr int kMaxNumberWidth = 20;

struct Field {
    enum class Kind { Literal, Number, Code, Period, Key };
    Kind kind = Kind::Literal;
    std::string literal; // Literal: the text, braces unescaped
    int width = 0;       // Number, Code: W, or 0 when the field has none
    int charset = -1;    // Code: index into Template::charset_names()
};

class Template {
public:
    const std::string& source() const { return source_; }
    const std::vector<Field>& fields() const { return fields_; }
    // The distinct charset names of the {code:...} fields, in order of first use. The adapter
    // resolves them into a Charsets vector of the same length and order.
    const std::vector<std::string>& charset_names() const { return charsets_; }
    bool uses_period() const { return uses_period_; }
    bool uses_key() const { return uses_key_; }

private:
    friend Template parse_template(std::string_view);
    std::string source_;
    std::vector<Field> fields_;
    std::vector<std::string> charsets_;
    bool uses_period_ = false;
    bool uses_key_ = false;
};

// The charsets of a template: element i is the charset named charset_names()[i].
using Charsets = std::vector<const Charset*>;

// Parses and validates a template. Throws Error(InvalidParameter, 22023) naming the template
// and, in the detail, what is wrong where (1-based character position): an unknown field, a
// "{" without "}", a lone "}", a bad width, a bad charset name, no number field, too long.
Template parse_template(std::string_view text);

// Checks that the charsets bound to a template fit it: one non-null charset per name, and
// every {code:CS:W} width within 1 .. 64 (22023, as code_format). The adapter calls it
// where it resolves the names; render and parse_number assume it held.
void check_charsets(const Template& t, const Charsets& charsets);

enum class Period { None, Year, Month, Day };

// "none", "year", "month", "day", in any ASCII case; anything else is 22023 with a hint
// listing them. (SQL's NULL period is the adapter's None.)
Period parse_period(std::string_view text);
// The canonical name: "none", "year", "month", "day".
std::string_view period_name(Period p);

// The number of the period holding a date: 2026 (year), 202611 (month), 20261128 (day),
// 0 for None. Years 1 .. 99999 (22003 outside: the numbers must fit int32 and periods
// before year 1 are not supported); month and day must make a real (proleptic Gregorian)
// date (22023 otherwise).
int32_t period_number(Period p, int year, int month, int day);

// The period's text: "2026", "2026-11", "2026-11-28" (years below 1000 with 4 digits,
// "0999"); "" for None. Throws InvalidParameter for a number that period_number does not
// produce for p.
std::string period_text(Period p, int32_t number);

// The inverse of period_text: the number of "2026" / "2026-11" / "2026-11-28" for a year /
// month / day counter (for a period given as text, such as idseq_counter_gaps's). Throws
// InvalidParameter naming the text for anything period_text does not produce.
int32_t parse_period_text(Period p, std::string_view text);

// Checks that a template suits a counter's period: {period} on a counter that never
// restarts is 22023 (its text would always be empty).
void check_template_period(const Template& t, Period p);

// Renders n. Errors (22003): a {code:CS} field and n < 1, a {code:CS:W} field and n outside
// 0 .. base^W - 1. Requires check_charsets(t, charsets) to have held.
std::string render(const Template& t, int64_t n, std::string_view period_text, std::string_view key,
                   const Charsets& charsets);

// The inverse of render: the n for which render(t, n, period_text, key, charsets) == text,
// or nullopt when there is none (render is one to one, so there is at most one). Exact: a
// case-insensitive charset's code must be spelled as render spells it. Never throws for any
// text; the cost is bounded by a small multiple of the text's length times the number of
// fields.
std::optional<int64_t> parse_number(const Template& t, std::string_view text, std::string_view period_text,
                                    std::string_view key, const Charsets& charsets);

} // namespace idseq::counter
