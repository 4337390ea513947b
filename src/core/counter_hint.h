// Hints of where a counter key's row lies: a 64-bit word per slot of a direct-mapped table,
// made of 16 check bits of the key's 64-bit hash and the row's place (block, offset). The
// table's slot of a key is chosen by the hash's low bits, the check by its high bits, so two
// keys that share a slot are told apart 65,535 times in 65,536; the rest, and every hint
// that went out of date, is caught by whoever reads the place the hint names (the adapter
// reads the row there and uses it only if it is the key's). The word 0 is an empty slot (a
// row's offset is never 0).
#pragma once

#include <cstdint>

namespace idseq::counter {

struct RowPlace {
    uint32_t block;
    uint16_t offset; // 1 and above
};

// The slot of hash h in a table of 2^bits slots (bits from 1 to 32).
constexpr uint32_t hint_slot(uint64_t h, unsigned bits)
{
    return (uint32_t) (h & ((UINT64_C(1) << bits) - 1));
}

// The hint word of a row of the key with hash h.
constexpr uint64_t hint_word(uint64_t h, RowPlace p)
{
    return (h >> 48) << 48 | (uint64_t) p.block << 16 | p.offset;
}

// The place a hint word names for the key with hash h, or false (an empty slot, or a hint of
// another key).
constexpr bool hint_place(uint64_t word, uint64_t h, RowPlace& p)
{
    if ((uint16_t) word == 0 || word >> 48 != h >> 48)
        return false;
    p.block = (uint32_t) (word >> 16);
    p.offset = (uint16_t) word;
    return true;
}

} // namespace idseq::counter
