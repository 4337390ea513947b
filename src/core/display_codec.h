// Display codecs: positional base-N codes of non-negative bigints, and a
// keyed permutation ("scramble") that makes sequential ids look random before encoding.
#pragma once
#include "cpp_only.h"

#include "charset.h"
#include "siphash.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

namespace idseq {

constexpr int kMaxCodeWidth = 64;  // width: 0 .. 64 symbols
constexpr int kMaxCodeRotate = 64; // rotate: 0 .. 64 symbols (no code is longer than 64)

// The longest code in bytes: 64 symbols of at most 4 UTF-8 bytes each.
constexpr size_t kMaxCodeBytes = static_cast<size_t>(kMaxCodeWidth) * 4;

// A charset compiled for the codec: plain, trivially copyable data with no pointers, so the
// PostgreSQL adapter can keep one per call site (in fn_extra) in memory that is freed
// without destructors, and it stays valid whatever happens to the Charset it was built
// from. encode and decode over a CodecTable behave exactly as over its Charset (same codes,
// same errors, same messages; the fuzz target fuzz_decode checks this).
struct CodecTable {
    struct Wide {
        uint32_t cp;   // a non-ASCII symbol's code point
        int32_t digit; // its digit value
    };

    // Builds the table of cs into out (no allocation). A name longer than 63 bytes (never
    // one of a registered charset) is cut in the messages.
    static void build(const Charset& cs, CodecTable& out) noexcept;

    int base() const { return base_; }
    bool ascii() const { return ascii_; }
    int32_t charset_id() const { return charset_id_; }
    std::string_view name() const { return {name_, name_len_}; }
    std::string_view symbols() const { return {symbols_, sym_off_[base_]}; }
    std::string_view symbol(int d) const
    {
        return {symbols_ + sym_off_[d], static_cast<size_t>(sym_off_[d + 1] - sym_off_[d])};
    }
    // As Charset::read_digit: the digit at p, advancing p past one character; -1 if unknown.
    int read_digit(const char*& p, const char* end) const
    {
        unsigned char c = static_cast<unsigned char>(*p);
        if (c < 0x80) {
            ++p;
            return byte_map_[c];
        }
        return read_digit_slow(p, end);
    }
    // The digit of one ASCII byte; -1 for a byte outside the set, and for every byte >= 0x80.
    int byte_digit(unsigned char c) const { return byte_map_[c]; }

    int read_digit_slow(const char*& p, const char* end) const;

    int32_t charset_id_;
    int base_;
    bool ascii_;
    uint8_t name_len_;
    uint16_t wide_count_;
    char name_[kMaxCharsetNameLength + 1];
    uint16_t sym_off_[kMaxCharsetSymbols + 1]; // symbol d is symbols_[sym_off_[d] .. sym_off_[d+1])
    char symbols_[kMaxCharsetSymbols * 4];
    int16_t byte_map_[256];
    Wide wide_[kMaxCharsetSymbols]; // sorted by code point
};

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

// The same over a compiled table. encode builds the code in buf and returns it as a view
// into buf (not necessarily at its start, not terminated); it allocates only to throw.
std::string_view encode(const CodecTable& cs, int64_t id, int rotate, int width, char (&buf)[kMaxCodeBytes]);
int64_t decode(const CodecTable& cs, std::string_view code, int rotate, int width);

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
// Throws InvalidParameter for an empty key, Limit (54000) for one longer than
// kMaxScrambleKeyBytes (a key is a secret of a few dozen bytes; the bound keeps a huge
// text from reaching the per-call-site cache's allocation).
constexpr size_t kMaxScrambleKeyBytes = 1 << 20;
ScrambleKey derive_key(std::string_view key);

// Throw InvalidParameter for bits outside 1 .. 63 and OutOfRange for x outside
// 0 .. 2^bits-1. unscramble(scramble(x)) == x.
int64_t scramble(int64_t x, const ScrambleKey& key, int bits);
int64_t unscramble(int64_t x, const ScrambleKey& key, int bits);

static_assert(std::is_trivially_copyable_v<CodecTable> && std::is_trivially_destructible_v<CodecTable>,
              "CodecTable must be plain data");

} // namespace idseq
