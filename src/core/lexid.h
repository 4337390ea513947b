// Shortlex (bijective base-k) arithmetic on strings of digits.
//
// A value is a sequence of digit values 0..base-1, most significant first. Shortlex order:
// shorter sequences first, equal lengths compared digit by digit. Counting is bijective
// base-k: with digit d read as d+1, a value's 1-based rank is sum((d_i+1) * k^i), so the
// empty sequence has rank 0 and the first one-symbol value rank 1.
#pragma once
#include "cpp_only.h"

#include "charset.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace idseq::lex {

constexpr size_t kMaxLength = 1024; // symbols

using Digits = std::vector<uint8_t>;

// Parses text into digits. Errors (Syntax, 22P02): empty (unless allow_empty), a character
// outside the charset (named, with its 1-based position), longer than kMaxLength symbols.
void parse(const Charset& cs, std::string_view text, Digits& out, bool allow_empty = false);

// Checks the spelling of a value written without a charset (an untyped literal), by rules
// that no charset's definition can change: non-empty, valid UTF-8, at most kMaxLength
// characters, and no character that no charset may hold (symbol_code_point). Whether the
// symbols belong to a charset is checked where the value meets one (parse). With ascii_only
// (a database whose encoding is not UTF-8, where only ASCII means the same as in UTF-8), a
// non-ASCII character is refused too. Errors: Syntax.
void check_spelling(std::string_view text, bool ascii_only = false);

// Whether text parses in the charset (non-empty, every symbol known, at most kMaxLength).
bool valid(const Charset& cs, std::string_view text) noexcept;

// Appends the canonical spelling of the digits to out. Throws Error(Internal) on a digit
// >= cs.base() (callers check stored values with first_bad_digit first).
void format(const Charset& cs, const uint8_t* d, size_t n, std::string& out);

// The index of the first digit >= base, or n when every digit is a digit of the base. Values
// read from storage are checked with it before any charset-dependent use.
inline size_t first_bad_digit(const uint8_t* d, size_t n, int base)
{
    for (size_t i = 0; i < n; i++)
        if (d[i] >= base)
            return i;
    return n;
}

// Abbreviated sort keys (64 bits): the length (11 bits, up to 1024) on top, then one flag
// bit, then the first abbrev_digits(base) digits packed as a base-k number (< 2^52). Two
// keys of values of one charset order like the values whenever they differ. The flag marks
// a key that holds only the length (a value whose digits are not known yet, such as an
// untyped literal): keys of equal length where one is flagged decide nothing.
constexpr int kAbbrevLengthShift = 53;
constexpr uint64_t kAbbrevLengthOnly = uint64_t(1) << 52;
int abbrev_digits(int base);
uint64_t abbrev_key(const uint8_t* d, size_t n, int base, int ndigits);
inline uint64_t abbrev_length_key(size_t n)
{
    return (static_cast<uint64_t>(n) << kAbbrevLengthShift) | kAbbrevLengthOnly;
}
// <0, 0 (undecided: compare the values), >0.
inline int abbrev_compare(uint64_t a, uint64_t b)
{
    uint64_t la = a >> kAbbrevLengthShift, lb = b >> kAbbrevLengthShift;
    if (la != lb)
        return la < lb ? -1 : 1;
    if ((a | b) & kAbbrevLengthOnly)
        return 0;
    return a < b ? -1 : a > b ? 1 : 0;
}

// Shortlex comparison: <0, 0, >0.
inline int compare(const uint8_t* a, size_t na, const uint8_t* b, size_t nb)
{
    if (na != nb)
        return na < nb ? -1 : 1;
    int c = na ? std::memcmp(a, b, na) : 0;
    return (c > 0) - (c < 0);
}

// digits += n in shortlex order. Errors (OutOfRange, 22003): a result before the first
// value (before the empty sequence when allow_empty, else before the first one-symbol
// value), or longer than kMaxLength symbols. Every function taking a base requires
// 2 <= base <= 256 (InvalidParameter otherwise), so all of them run in time bounded by
// kMaxLength: nothing counts in base 1.
void add(Digits& d, int base, int64_t n, bool allow_empty = false);

// The rank as a decimal string, and back. from_rank errors: OutOfRange when rank < 1 or the
// value would be longer than kMaxLength (checked on the text's length before any
// arithmetic, so a huge number costs linear time); InvalidParameter when it is not an
// integer.
std::string rank(const uint8_t* d, size_t n, int base);
void from_rank(std::string_view decimal, int base, Digits& out);

// rank(a) - rank(b) as a signed decimal string.
std::string distance(const uint8_t* a, size_t na, const uint8_t* b, size_t nb, int base);

// lexical_add on plain text, the order-number article's operation done right. The empty string is the
// zero of the order. With ignore_case over a case-sensitive charset, letters are counted
// without regard to ASCII case (base36-style over base62), unchanged characters keep their
// spelling and changed or new letters take the majority case of the source's letters
// (upper on a tie). Case-insensitive charsets give their canonical spelling. A charset whose
// symbols fold to fewer than 2 classes (such as "xX") cannot count ignoring case: that is
// an InvalidParameter error, never counting in base 1.
std::string add_text(const Charset& cs, std::string_view source, int64_t n, bool ignore_case);

} // namespace idseq::lex
