// A minimal arbitrary-precision natural number, enough for shortlex ranks of up to 1024
// symbols (8192 bits) and their decimal form.
#pragma once
#include "cpp_only.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace idseq {

class BigNat {
public:
    BigNat() = default;
    explicit BigNat(uint64_t v);

    bool is_zero() const { return limbs_.empty(); }
    void mul_add(uint32_t m, uint32_t a); // *this = *this * m + a
    uint32_t divmod(uint32_t d);          // *this /= d, returns the remainder
    void add(const BigNat& o);
    void sub(const BigNat& o); // requires *this >= o
    int compare(const BigNat& o) const;

    std::string to_decimal() const;
    // Parses a non-negative decimal integer, optionally followed by '.' and zeros.
    // Returns false when the text is not of that form.
    static bool from_decimal(std::string_view s, BigNat& out);

private:
    void trim();
    std::vector<uint32_t> limbs_; // little-endian, no leading zero limbs
};

} // namespace idseq
