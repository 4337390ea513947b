// Counter format templates and periods (see counter_format.h).
#include "cpp_only.h"

#include "counter_format.h"

#include "error.h"
#include "fixed_code.h"
#include "quoted_text.h"

#include <cstdint>
#include <cstdio>
#include <limits>

namespace idseq::counter {

namespace {

const char* kFieldHint = "Fields are {n}, {n:W}, {code:CS}, {code:CS:W}, {period} and {key}; write {{ and }} for "
                         "literal braces.";

// 1-based character position of byte offset off in UTF-8 text.
size_t char_position(std::string_view s, size_t off)
{
    size_t pos = 1;
    for (size_t i = 0; i < off && i < s.size(); i++)
        if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80)
            pos++;
    return pos;
}

[[noreturn]] void bad_template(std::string_view text, std::string detail, const char* hint = kFieldHint)
{
    fail(ErrorKind::InvalidParameter, "invalid counter format \"" + shown(text) + "\"", std::move(detail),
         hint ? hint : "");
}

// A width: 1..max decimal digits, no sign; 0 when the text is not one.
int parse_width(std::string_view s, int max)
{
    if (s.empty() || s.size() > 3)
        return 0;
    int w = 0;
    for (char c : s) {
        if (c < '0' || c > '9')
            return 0;
        w = w * 10 + (c - '0');
    }
    return w >= 1 && w <= max ? w : 0;
}

bool charset_name_ok(std::string_view s)
{
    if (s.empty() || s.size() > static_cast<size_t>(kMaxCharsetNameLength))
        return false;
    if (!((s[0] >= 'a' && s[0] <= 'z') || s[0] == '_'))
        return false;
    for (char c : s)
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'))
            return false;
    return true;
}

// Decimal, sign included, left-padded with zeros after the sign to width characters.
void append_decimal(std::string& out, int64_t n, int width)
{
    char digits[24];
    int len = 0;
    uint64_t u = n < 0 ? uint64_t{0} - static_cast<uint64_t>(n) : static_cast<uint64_t>(n);
    do {
        digits[len++] = static_cast<char>('0' + u % 10);
        u /= 10;
    } while (u);
    int total = len + (n < 0 ? 1 : 0);
    if (n < 0)
        out.push_back('-');
    for (int i = total; i < width; i++)
        out.push_back('0');
    while (len)
        out.push_back(digits[--len]);
}

// Shortlex code of n >= 1 (bijective base-k): 1 is the first symbol.
void append_shortlex(std::string& out, const Charset& cs, int64_t n)
{
    uint8_t d[64];
    int len = 0;
    uint64_t u = static_cast<uint64_t>(n);
    const uint64_t b = static_cast<uint64_t>(cs.base());
    while (u) {
        u -= 1;
        d[len++] = static_cast<uint8_t>(u % b);
        u /= b;
    }
    while (len)
        out.append(cs.symbol(d[--len]));
}

// Renders without throwing: false when a code field cannot show n.
bool try_render(const Template& t, int64_t n, std::string_view period, std::string_view key,
                const Charsets& charsets, std::string& out)
{
    for (const Field& f : t.fields()) {
        switch (f.kind) {
        case Field::Kind::Literal:
            out.append(f.literal);
            break;
        case Field::Kind::Number:
            append_decimal(out, n, f.width);
            break;
        case Field::Kind::Code: {
            const Charset& cs = *charsets[static_cast<size_t>(f.charset)];
            if (f.width == 0) {
                if (n < 1)
                    return false;
                append_shortlex(out, cs, n);
            } else {
                if (!code::in_range(cs.base(), f.width, n))
                    return false;
                char buf[code::kMaxCodeBytes];
                out.append(buf, code::format_to(cs, n, f.width, buf));
            }
            break;
        }
        case Field::Kind::Period:
            out.append(period);
            break;
        case Field::Kind::Key:
            out.append(key);
            break;
        }
    }
    return true;
}

bool leap(int y)
{
    return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

int days_in_month(int y, int m)
{
    static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return m == 2 && leap(y) ? 29 : days[m - 1];
}

constexpr int kMaxYear = 99999;

// Reads exactly n ASCII digits at s[pos]; -1 if they are not.
int read_digits(std::string_view s, size_t pos, size_t n)
{
    if (pos + n > s.size())
        return -1;
    int v = 0;
    for (size_t i = pos; i < pos + n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        v = v * 10 + (s[i] - '0');
    }
    return v;
}

} // namespace

Template parse_template(std::string_view text)
{
    if (text.size() > kMaxTemplateBytes)
        bad_template(text, "A format is at most " + std::to_string(kMaxTemplateBytes) + " bytes long; this one has " +
                               std::to_string(text.size()) + ".",
                     nullptr);
    Template t;
    t.source_ = std::string(text);
    std::string lit;
    bool has_number = false;
    auto flush = [&] {
        if (!lit.empty()) {
            Field f;
            f.literal = std::move(lit);
            t.fields_.push_back(std::move(f));
            lit.clear();
        }
    };
    size_t i = 0;
    while (i < text.size()) {
        char c = text[i];
        if (c == '}') {
            if (i + 1 < text.size() && text[i + 1] == '}') {
                lit.push_back('}');
                i += 2;
                continue;
            }
            bad_template(text, "The \"}\" at character " + std::to_string(char_position(text, i)) +
                                   " closes no field.");
        }
        if (c != '{') {
            lit.push_back(c);
            i++;
            continue;
        }
        if (i + 1 < text.size() && text[i + 1] == '{') {
            lit.push_back('{');
            i += 2;
            continue;
        }
        size_t close = text.find('}', i + 1);
        size_t open = text.find('{', i + 1);
        if (close == std::string_view::npos || (open != std::string_view::npos && open < close))
            bad_template(text, "The \"{\" at character " + std::to_string(char_position(text, i)) +
                                   " opens a field that is not closed.");
        std::string_view spec = text.substr(i + 1, close - i - 1);
        const std::string where = " at character " + std::to_string(char_position(text, i));
        Field f;
        std::string_view name = spec.substr(0, spec.find(':'));
        std::string_view args =
            name.size() < spec.size() ? spec.substr(name.size() + 1) : std::string_view();
        const bool has_args = name.size() < spec.size();
        if (name == "n") {
            f.kind = Field::Kind::Number;
            if (has_args) {
                f.width = parse_width(args, kMaxNumberWidth);
                if (!f.width)
                    bad_template(text, "The width of the field \"{" + shown(spec) + "}\"" + where + " is not 1 to " +
                                           std::to_string(kMaxNumberWidth) + ".");
            }
            has_number = true;
        } else if (name == "code") {
            f.kind = Field::Kind::Code;
            std::string_view cs = args.substr(0, args.find(':'));
            if (cs.size() < args.size()) {
                std::string_view w = args.substr(cs.size() + 1);
                f.width = parse_width(w, code::kMaxWidth);
                if (!f.width)
                    bad_template(text, "The width of the field \"{" + shown(spec) + "}\"" + where + " is not 1 to " +
                                           std::to_string(code::kMaxWidth) + ".");
            }
            if (!charset_name_ok(cs))
                bad_template(text, "The field \"{" + shown(spec) + "}\"" + where + " does not name a charset.",
                             "Write {code:CS} or {code:CS:W} with the name of a charset, such as {code:base36:6}.");
            size_t k = 0;
            while (k < t.charsets_.size() && t.charsets_[k] != cs)
                k++;
            if (k == t.charsets_.size())
                t.charsets_.emplace_back(cs);
            f.charset = static_cast<int>(k);
            has_number = true;
        } else if (spec == "period") {
            f.kind = Field::Kind::Period;
            t.uses_period_ = true;
        } else if (spec == "key") {
            f.kind = Field::Kind::Key;
            t.uses_key_ = true;
        } else {
            bad_template(text, "The field \"{" + shown(spec) + "}\"" + where + " is unknown.");
        }
        flush();
        t.fields_.push_back(std::move(f));
        i = close + 1;
    }
    flush();
    if (!has_number)
        bad_template(text, "The format shows no number.", "Put {n} or {code:CS} into the format, such as \"ORD-{n:6}\".");
    return t;
}

void check_charsets(const Template& t, const Charsets& charsets)
{
    if (charsets.size() != t.charset_names().size())
        fail(ErrorKind::Internal, "counter format bound to " + std::to_string(charsets.size()) + " charsets for " +
                                      std::to_string(t.charset_names().size()) + " names");
    for (size_t i = 0; i < charsets.size(); i++)
        if (!charsets[i])
            fail(ErrorKind::Internal, "counter format charset \"" + t.charset_names()[i] + "\" is not bound");
    for (const Field& f : t.fields())
        if (f.kind == Field::Kind::Code && f.width)
            code::check_width(*charsets[static_cast<size_t>(f.charset)], f.width);
}

Period parse_period(std::string_view text)
{
    static const Period all[] = {Period::None, Period::Year, Period::Month, Period::Day};
    for (Period p : all) {
        std::string_view name = period_name(p);
        if (name.size() != text.size())
            continue;
        bool eq = true;
        for (size_t i = 0; i < name.size() && eq; i++) {
            char c = text[i];
            if (c >= 'A' && c <= 'Z')
                c = static_cast<char>(c - 'A' + 'a');
            eq = c == name[i];
        }
        if (eq)
            return p;
    }
    fail(ErrorKind::InvalidParameter, "invalid counter period \"" + shown(text) + "\"", "",
         "A counter's period is NULL (it never restarts), \"year\", \"month\" or \"day\".");
}

std::string_view period_name(Period p)
{
    switch (p) {
    case Period::None:
        return "none";
    case Period::Year:
        return "year";
    case Period::Month:
        return "month";
    case Period::Day:
        return "day";
    }
    return "none";
}

int32_t period_number(Period p, int year, int month, int day)
{
    if (p == Period::None)
        return 0;
    if (year < 1 || year > kMaxYear)
        fail(ErrorKind::OutOfRange, "year " + std::to_string(year) + " is out of range for a counter period",
             "Counter periods cover the years 1 to " + std::to_string(kMaxYear) + ".");
    if (month < 1 || month > 12 || day < 1 || day > days_in_month(year, month))
        fail(ErrorKind::InvalidParameter, "invalid date " + std::to_string(year) + "-" + std::to_string(month) + "-" +
                                              std::to_string(day) + " for a counter period");
    switch (p) {
    case Period::Year:
        return year;
    case Period::Month:
        return year * 100 + month;
    default:
        return year * 10000 + month * 100 + day;
    }
}

std::string period_text(Period p, int32_t number)
{
    if (p == Period::None) {
        if (number != 0)
            fail(ErrorKind::InvalidParameter, "invalid period number " + std::to_string(number) + " for period \"none\"");
        return "";
    }
    int y = number, m = 1, d = 1;
    if (p == Period::Month) {
        y = number / 100;
        m = number % 100;
    } else if (p == Period::Day) {
        y = number / 10000;
        m = number / 100 % 100;
        d = number % 100;
    }
    if (number < 1 || y < 1 || y > kMaxYear || m < 1 || m > 12 || d < 1 || d > days_in_month(y, m))
        fail(ErrorKind::InvalidParameter, "invalid period number " + std::to_string(number) + " for period \"" +
                                              std::string(period_name(p)) + "\"");
    char buf[32];
    if (p == Period::Year)
        std::snprintf(buf, sizeof buf, "%04d", y);
    else if (p == Period::Month)
        std::snprintf(buf, sizeof buf, "%04d-%02d", y, m);
    else
        std::snprintf(buf, sizeof buf, "%04d-%02d-%02d", y, m, d);
    return buf;
}

int32_t parse_period_text(Period p, std::string_view text)
{
    auto bad = [&]() -> int32_t {
        const char* form = p == Period::Year ? "a year, such as \"2026\""
                           : p == Period::Month ? "a month, such as \"2026-11\""
                           : p == Period::Day   ? "a day, such as \"2026-11-28\""
                                                : "no text";
        fail(ErrorKind::InvalidParameter, "invalid counter period \"" + shown(text) + "\"",
             std::string("A counter restarting per ") + std::string(period_name(p)) + " has periods written as " + form +
                 ".");
    };
    if (p == Period::None)
        return text.empty() ? 0 : bad();
    // The year: 4 or 5 digits, 4 when below 10000 (as period_text writes it).
    size_t ylen = 0;
    while (ylen < text.size() && text[ylen] >= '0' && text[ylen] <= '9')
        ylen++;
    if (ylen != 4 && ylen != 5)
        return bad();
    int y = read_digits(text, 0, ylen), m = 1, d = 1;
    if (y < 1 || (ylen == 5 && y < 10000))
        return bad();
    size_t pos = ylen;
    if (p == Period::Month || p == Period::Day) {
        if (pos >= text.size() || text[pos] != '-' || (m = read_digits(text, pos + 1, 2)) < 0)
            return bad();
        pos += 3;
    }
    if (p == Period::Day) {
        if (pos >= text.size() || text[pos] != '-' || (d = read_digits(text, pos + 1, 2)) < 0)
            return bad();
        pos += 3;
    }
    if (pos != text.size() || m < 1 || m > 12 || d < 1 || d > days_in_month(y, m))
        return bad();
    return period_number(p, y, m, d);
}

void check_template_period(const Template& t, Period p)
{
    if (p == Period::None && t.uses_period())
        fail(ErrorKind::InvalidParameter, "counter format \"" + shown(t.source()) + "\" shows a period",
             "A counter without a period never restarts, so {period} would always be empty.",
             "Give the counter a period (\"year\", \"month\" or \"day\"), or remove {period} from the format.");
}

std::string render(const Template& t, int64_t n, std::string_view period, std::string_view key,
                   const Charsets& charsets)
{
    std::string out;
    if (try_render(t, n, period, key, charsets, out))
        return out;
    // Say which field refused n.
    for (const Field& f : t.fields()) {
        if (f.kind != Field::Kind::Code)
            continue;
        const Charset& cs = *charsets[static_cast<size_t>(f.charset)];
        if (f.width == 0 && n < 1)
            fail(ErrorKind::OutOfRange, "value " + std::to_string(n) + " has no code over charset \"" + cs.name() + "\"",
                 "Codes without a width stand for the numbers from 1 up: the first symbol is 1.",
                 "Start the counter at 1 or above, or give the code a width ({code:" + cs.name() + ":W}).");
        if (f.width)
            code::check_range(cs, n, f.width);
    }
    fail(ErrorKind::Internal, "counter format \"" + shown(t.source()) + "\" cannot render " + std::to_string(n));
}

std::optional<int64_t> parse_number(const Template& t, std::string_view text, std::string_view period,
                                    std::string_view key, const Charsets& charsets)
{
    // The text before the first number field is fixed: literals, the period, the key.
    const std::vector<Field>& fields = t.fields();
    size_t pos = 0, first = 0;
    for (; first < fields.size(); first++) {
        const Field& f = fields[first];
        std::string_view part;
        if (f.kind == Field::Kind::Literal)
            part = f.literal;
        else if (f.kind == Field::Kind::Period)
            part = period;
        else if (f.kind == Field::Kind::Key)
            part = key;
        else
            break;
        if (text.substr(pos, part.size()) != part)
            return std::nullopt;
        pos += part.size();
    }
    if (first == fields.size())
        return std::nullopt; // cannot happen: parse_template requires a number field
    const Field& f = fields[first];
    const std::string_view rest = text.substr(pos);

    // Each reading of the first number field gives a candidate; render is one to one, so the
    // candidate whose rendering is the text is the answer. At most 20 (decimal) or 64
    // (shortlex) candidates, each checked in time linear in the text.
    std::string buf;
    auto accept = [&](int64_t n) {
        buf.clear();
        return try_render(t, n, period, key, charsets, buf) && buf == text;
    };
    if (f.kind == Field::Kind::Number) {
        size_t i = 0;
        bool neg = !rest.empty() && rest[0] == '-';
        if (neg)
            i = 1;
        uint64_t u = 0;
        const uint64_t limit = neg ? uint64_t{1} << 63 : static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
        for (; i < rest.size() && rest[i] >= '0' && rest[i] <= '9'; i++) {
            uint64_t digit = static_cast<uint64_t>(rest[i] - '0');
            if (u > (limit - digit) / 10)
                break;
            u = u * 10 + digit;
            int64_t n = neg ? static_cast<int64_t>(uint64_t{0} - u) : static_cast<int64_t>(u);
            if (accept(n))
                return n;
        }
        return std::nullopt;
    }
    const Charset& cs = *charsets[static_cast<size_t>(f.charset)];
    const char* p = rest.data();
    const char* end = p + rest.size();
    const uint64_t b = static_cast<uint64_t>(cs.base());
    const uint64_t max = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
    uint64_t u = 0;
    if (f.width) {
        for (int k = 0; k < f.width; k++) {
            if (p >= end)
                return std::nullopt;
            int d = cs.read_digit(p, end);
            if (d < 0)
                return std::nullopt;
            u = u * b + static_cast<uint64_t>(d); // < base^width <= INT64_MAX
        }
        return accept(static_cast<int64_t>(u)) ? std::optional<int64_t>(static_cast<int64_t>(u)) : std::nullopt;
    }
    while (p < end) {
        int d = cs.read_digit(p, end);
        if (d < 0)
            return std::nullopt;
        uint64_t digit = static_cast<uint64_t>(d) + 1;
        if (u > (max - digit) / b)
            return std::nullopt;
        u = u * b + digit;
        if (accept(static_cast<int64_t>(u)))
            return static_cast<int64_t>(u);
    }
    return std::nullopt;
}

} // namespace idseq::counter
