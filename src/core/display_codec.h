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

// Public ids: the id's 64 bits (a negative bigint as its two's complement) through the same
// Feistel network with bits = 64 (two 32-bit halves; bits is part of every round's input, so
// this is not any of the 1 .. 63-bit permutations), then encoded over the charset, padded to
// width (rotation 0). Every bigint has exactly one public id per (key, charset, width); a
// code is valid exactly when it is the canonical code of a value below 2^64.
uint64_t scramble_block64(uint64_t x, const ScrambleKey& key);
uint64_t unscramble_block64(uint64_t x, const ScrambleKey& key);

// A named key: 256 random bits, kept by the database. The scramble key is derived from its
// bytes as from a text key (derive_key), so a named key is as strong as SipHash's 128 bits.
constexpr size_t kPublicIdKeyBytes = 32;
ScrambleKey public_id_key(const unsigned char (&key)[kPublicIdKeyBytes]);

// Throws InvalidParameter for a width outside 0 .. 64 (before looking at the id or the code).
std::string_view public_id(const CodecTable& cs, int64_t id, const ScrambleKey& key, int width,
                           char (&buf)[kMaxCodeBytes]);
// The inverse: throws Syntax for an empty code, a symbol outside the charset or a
// non-canonical code (shorter than width, or longer with a leading zero symbol), OutOfRange
// for a value of 2^64 or more. No message holds anything derived from the key.
int64_t from_public_id(const CodecTable& cs, std::string_view code, const ScrambleKey& key, int width);
// The same without an exception for a bad code: false where from_public_id throws Syntax or
// OutOfRange (without building a message: a made-up code costs what a valid one does, for an
// ASCII charset); InvalidParameter is still thrown for a width outside 0 .. 64.
bool try_from_public_id(const CodecTable& cs, std::string_view code, const ScrambleKey& key, int width, int64_t& id);

static_assert(std::is_trivially_copyable_v<CodecTable> && std::is_trivially_destructible_v<CodecTable>,
              "CodecTable must be plain data");

} // namespace idseq
