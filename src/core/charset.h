// Character sets: an ordered list of distinct symbols; a symbol's position is its digit value.
#pragma once
#include "cpp_only.h"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace idseq {

constexpr int kMaxCharsetSymbols = 256;
constexpr int kMaxCharsetNameLength = 63;

class Charset {
public:
    // Validates and builds a charset. symbols is UTF-8; each code point is one symbol.
    // Throws Error(InvalidParameter) on a bad definition (fewer than 2 or more than 256
    // symbols, a duplicate, a space or control character, invalid UTF-8, or two symbols that
    // differ only by case in a case-insensitive set).
    static Charset make(int32_t id, std::string name, std::string_view symbols, bool case_insensitive,
                        bool builtin = false);

    int32_t id() const { return id_; }
    const std::string& name() const { return name_; }
    const std::string& symbols() const { return symbols_; } // canonical spelling, UTF-8
    int base() const { return static_cast<int>(syms_.size()); }
    bool case_insensitive() const { return case_insensitive_; }
    bool builtin() const { return builtin_; }
    bool ascii() const { return ascii_; }
    int max_symbol_bytes() const { return max_bytes_; }

    // Identifies the definition: the first 16 bytes of SHA-256 over the symbols (canonical
    // UTF-8, in digit order) and the case flag. Two charsets give a digit the same meaning
    // exactly when their fingerprints agree (up to a 2^-128 collision), whatever they are
    // named and on whichever server they live; the binary form of lexid carries it.
    static constexpr size_t kFingerprintBytes = 16;
    using Fingerprint = std::array<uint8_t, kFingerprintBytes>;
    const Fingerprint& fingerprint() const { return fingerprint_; }

    // The canonical output spelling of digit d (0 <= d < base()).
    std::string_view symbol(int d) const { return syms_[static_cast<size_t>(d)]; }

    // Reads one symbol at p (p < end), advancing p past it. Returns its digit value, or -1
    // when the character there is not in the set (p still advances past one whole UTF-8
    // character, or one byte if the bytes are not valid UTF-8). Case-insensitive sets accept
    // either ASCII case; crockford32 also reads O/o as 0 and I/i/L/l as 1.
    int read_digit(const char*& p, const char* end) const
    {
        unsigned char c = static_cast<unsigned char>(*p);
        if (c < 0x80) {
            ++p;
            return ascii_map_[c];
        }
        return read_digit_slow(p, end);
    }

    // Digit value of one ASCII byte, or -1. Only meaningful when ascii().
    int ascii_digit(unsigned char c) const { return c < 0x80 ? ascii_map_[c] : -1; }

    // Whether two symbols of the set differ only by ASCII case (used by lexical_add's
    // ignore_case mode): the folded digit of d, i.e. the digit of the first symbol that is
    // equal to symbol(d) ignoring ASCII case.
    int folded_digit(int d) const { return folded_[static_cast<size_t>(d)]; }

    // Makes an extra ASCII character read as digit (crockford32's O, I, L).
    void add_alias(char c, int digit);

private:
    int read_digit_slow(const char*& p, const char* end) const;

    int32_t id_ = 0;
    std::string name_;
    std::string symbols_;
    bool case_insensitive_ = false;
    bool builtin_ = false;
    bool ascii_ = true;
    int max_bytes_ = 1;
    Fingerprint fingerprint_{};
    std::vector<std::string> syms_;
    std::vector<int> folded_;
    int16_t ascii_map_[128];
    std::unordered_map<uint32_t, int> wide_map_; // code point -> digit, for non-ASCII symbols
};

// The built-in charsets, ids 1..kBuiltinCharsetCount in the order the idseq_charsets view lists them.
constexpr int kBuiltinCharsetCount = 10;
const std::vector<Charset>& builtin_charsets();
const Charset* builtin_charset(std::string_view name); // nullptr if not built in
const Charset* builtin_charset(int32_t id);            // nullptr if not built in

// Custom charset names: ^[a-z_][a-z0-9_]*$, at most 63 bytes. Throws InvalidParameter.
void validate_charset_name(std::string_view name);

// The id a custom charset gets: a stable 31-bit hash of its name, >= 1024, so that a dump
// restored into a fresh database gives every charset the same id without coordination.
int32_t custom_charset_id(std::string_view name);

// Decodes one UTF-8 code point at p, advancing p. Returns -1 (and advances one byte) on
// invalid UTF-8.
int32_t utf8_decode(const char*& p, const char* end);

// Shows a possibly non-printable character for an error message.
std::string describe_char(std::string_view ch);

// Whether a code point may be a symbol of some charset: not white space, not a control
// character, not an invisible separator. Charset::make refuses every other one, so no
// charset, registered now or later, reads a character for which this is false.
bool symbol_code_point(int32_t cp);
// A character rejected by symbol_code_point, as a message shows it ("\x0A", "U+200B").
std::string describe_blank(int32_t cp, std::string_view ch);

// Whether a symbol of a new charset is printable: symbol_code_point, and not a format
// character (Unicode category Cf: the soft hyphen, bidirectional and other invisible
// controls). Combining marks are printable symbols: symbols are code points, never
// normalized.
bool printable_code_point(int32_t cp);
// Throws Error(InvalidParameter, 22023) naming the first symbol of a new charset that is not
// printable_code_point. Checked by idseq_create_charset, not when a stored charset is read
// nor when a restore creates one from a column's type, so that a charset created before the
// rule keeps loading and restoring.
void check_new_symbols(std::string_view name, std::string_view symbols);

} // namespace idseq
