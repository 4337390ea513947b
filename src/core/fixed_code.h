// Fixed-width positional codes: the letter-sequence article's AAA..ZZZ match codes, for any width and
// charset. A code of width w over a charset of base b is the number n (0 <= n < b^w) written
// in exactly w digits, most significant first, zero digit (the first symbol) padded:
// over upper, 0 -> "AAA", 1 -> "AAB", 17575 -> "ZZZ" for width 3.
//
// Unlike lexid (bijective, shortlex), this is plain positional notation with a fixed width,
// so every code of one width has the same length and a cycling sequence MINVALUE 0
// MAXVALUE b^w - 1 CYCLE maps one to one onto the codes.
#pragma once
#include "cpp_only.h"

#include "charset.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace idseq::code {

// The widest code: 64 symbols, whatever the charset. Every bigint has a code of 63 symbols
// in base 2; a width beyond what the charset needs for bigint (max_width) pads with the
// zero symbol.
constexpr int kMaxWidth = 64;
// Bytes a formatted code can take: kMaxWidth symbols of up to 4 UTF-8 bytes each.
constexpr size_t kMaxCodeBytes = static_cast<size_t>(kMaxWidth) * 4;

// The largest width w for which base^w fits in a bigint (base^w <= INT64_MAX): the widest
// code sequence (MAXVALUE base^w - 1). base is 2..256, so the result is 7..62.
int max_width(int base) noexcept;

// base^width; requires 1 <= width <= max_width(base).
int64_t capacity(int base, int width) noexcept;

// Throws Error(InvalidParameter, 22023) unless 1 <= width <= kMaxWidth.
void check_width(const Charset& cs, int64_t width);

// Throws Error(InvalidParameter, 22023) unless 1 <= width <= max_width(cs.base()): the
// widths a code sequence can have (its MAXVALUE base^width - 1 is a bigint); the detail
// names the maximum width for the charset.
void check_sequence_width(const Charset& cs, int64_t width);

// The width w >= 1 with base^w - 1 == maxvalue, or 0 when there is none.
int width_of_max(int base, int64_t maxvalue) noexcept;

// The smallest width whose codes cover 0..maxvalue, or 0 when maxvalue exceeds every
// width's range (used to suggest a sequence shape).
int covering_width(int base, int64_t maxvalue) noexcept;

// Writes the code of n in width symbols into out (room for width * cs.max_symbol_bytes()
// bytes) and returns the number of bytes written. Requires a valid width and
// 0 <= n < base^width (check with in_range); allocates nothing, throws nothing.
size_t format_to(const Charset& cs, int64_t n, int width, char* out) noexcept;

// Whether 0 <= n < base^width; requires 1 <= width <= kMaxWidth (every bigint n >= 0 is
// in range of a width above max_width(base)).
bool in_range(int base, int width, int64_t n) noexcept;

// Checks the width (22023) and that 0 <= n < base^width (22003).
void check_range(const Charset& cs, int64_t n, int64_t width);

// code_format: checks the width (22023) and the range of n (22003), then formats.
std::string format(const Charset& cs, int64_t n, int64_t width);

// code_parse: the number a code stands for; its width is its length in symbols. Errors
// (Syntax, 22P02): an empty code, a symbol outside the charset (named with its 1-based
// position), more symbols than kMaxWidth; (OutOfRange, 22003) a value above bigint.
int64_t parse(const Charset& cs, std::string_view code);

// ---- a fast path for nextval_lexid ----

// Shortlex digits (values 0..base-1, most significant first) += n, in place, when the result
// has the same length: in bijective base-k, adding n to 0-based digits carries exactly like
// positional addition as long as nothing carries out of the first digit. Returns false when
// the result would be longer (the digits are then unspecified; use lex::add). Requires
// n <= INT64_MAX. Constant divisors for the common bases; allocates nothing.
bool add_same_length(uint8_t* digits, size_t len, int base, uint64_t n) noexcept;

} // namespace idseq::code
