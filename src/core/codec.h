// Display codecs (API.md section 5): positional base-N codes of non-negative bigints, and a
// keyed permutation ("scramble") that makes sequential ids look random before encoding.
#pragma once
#include "cpp_only.h"

#include "charset.h"
#include "siphash.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace idseq {

constexpr int kMaxCodeWidth = 64;  // width: 0 .. 64 symbols
constexpr int kMaxCodeRotate = 64; // rotate: 0 .. 64 symbols (no code is longer than 64)

// Appends the code of id (>= 0) to out. The code is the base-N digits of id, most
// significant first, left-padded with the zero symbol (the charset's first) to at least
// width symbols; then the last min(rotate, length) symbols move to the front. A rotation
// of at least the code's length therefore leaves it unchanged; decode knows the length,
// so this stays invertible. Symbols, not bytes, are counted.
// Throws OutOfRange for a negative id and InvalidParameter for rotate or width outside
// 0 .. 64.
void encode(const Charset& cs, int64_t id, int rotate, int width, std::string& out);

// The exact inverse of encode with the same arguments. Canonical: it accepts only codes
// that encode produces, except that case-insensitive charsets read either ASCII case and
// crockford32 its aliases. Throws Syntax for an empty code, a symbol outside the charset,
// a code shorter than width, or a code longer than width whose first digit (after undoing
// the rotation) is the zero symbol; OutOfRange for a value above 2^63-1; InvalidParameter
// as encode does.
int64_t decode(const Charset& cs, std::string_view code, int rotate, int width);

// Keyed bijection on 0 .. 2^bits-1, 1 <= bits <= 63: a 10-round alternating Feistel
// network over the high ceil(bits/2) and low floor(bits/2) bits, whose round function is
// SipHash-2-4 keyed by the derived key over (round, bits, half). bits = 1 is an XOR with a
// key bit. A permutation from a pseudorandom function; it hides order and density of ids
// from whoever lacks the key, but it is not encryption of data.
using ScrambleKey = SipKey;

constexpr int kMaxScrambleBits = 63;

// Derives the 128-bit SipHash key from a text key of any length: two SipHash-2-4 passes
// over the key bytes under two fixed public keys. A derivation, not a password hash: it
// adds no work factor, so the text key must itself be a high-entropy secret.
// Throws InvalidParameter for an empty key.
ScrambleKey derive_key(std::string_view key);

// Throw InvalidParameter for bits outside 1 .. 63 and OutOfRange for x outside
// 0 .. 2^bits-1. unscramble(scramble(x)) == x.
int64_t scramble(int64_t x, const ScrambleKey& key, int bits);
int64_t unscramble(int64_t x, const ScrambleKey& key, int bits);

} // namespace idseq
