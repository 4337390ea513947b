// Hints of where a counter key's row lies: a 64-bit word per slot, made of 16 check bits of
// the key's 64-bit hash and the row's place (block, offset). A key's hint sits in either slot
// of a pair (two adjacent words, in one cache line) chosen by the hash's low bits, so two keys
// that share a pair both keep theirs; the check is the hash's high bits, so two keys of one
// pair are told apart 65,535 times in 65,536; the rest, and every hint that went out of date,
// is caught by whoever reads the place the hint names (the adapter reads the row there and
// uses it only if it is the key's). The word 0 is an empty slot (a row's offset is never 0).
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

// The first slot of the pair of hash h in a table of 2^bits slots (bits from 1 to 32); the
// second is the next one.
constexpr uint32_t hint_pair(uint64_t h, unsigned bits)
{
    return hint_slot(h, bits) & ~UINT32_C(1);
}

// Which slot of a pair holding w0 and w1 takes a new hint of the key with hash h: the one
// with that key's older hint (the same check bits), else an empty one, else the first, whose
// hint then moves to the second (the hint written longest ago goes).
enum class HintWay { First, Second, FirstAfterMove };
constexpr HintWay hint_way(uint64_t w0, uint64_t w1, uint64_t h)
{
    const bool empty0 = (uint16_t) w0 == 0, empty1 = (uint16_t) w1 == 0;
    if (!empty0 && w0 >> 48 == h >> 48)
        return HintWay::First;
    if (!empty1 && w1 >> 48 == h >> 48)
        return HintWay::Second;
    if (empty0)
        return HintWay::First;
    if (empty1)
        return HintWay::Second;
    return HintWay::FirstAfterMove;
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
