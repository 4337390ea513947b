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

// Whether text parses in the charset (non-empty, every symbol known, at most kMaxLength).
bool valid(const Charset& cs, std::string_view text) noexcept;

// Appends the canonical spelling of the digits to out.
void format(const Charset& cs, const uint8_t* d, size_t n, std::string& out);

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
// value), or longer than kMaxLength symbols.
void add(Digits& d, int base, int64_t n, bool allow_empty = false);

// The rank as a decimal string, and back. from_rank errors: OutOfRange when rank < 1 or the
// value would be longer than kMaxLength; InvalidParameter when it is not an integer.
std::string rank(const uint8_t* d, size_t n, int base);
void from_rank(std::string_view decimal, int base, Digits& out);

// rank(a) - rank(b) as a signed decimal string.
std::string distance(const uint8_t* a, size_t na, const uint8_t* b, size_t nb, int base);

// lexical_add on plain text, the seed article's operation done right. The empty string is the
// zero of the order. With ignore_case over a case-sensitive charset, letters are counted
// without regard to ASCII case (base36-style over base62), unchanged characters keep their
// spelling and changed or new letters take the majority case of the source's letters
// (upper on a tie). Case-insensitive charsets give their canonical spelling.
std::string add_text(const Charset& cs, std::string_view source, int64_t n, bool ignore_case);

} // namespace idseq::lex
