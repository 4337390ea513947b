// Unit tests for the hints of where a counter key's row lies (src/core/counter_hint.h).
#include "counter_hint.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

using namespace idseq::counter;

namespace {

TEST(CounterHint, RoundTripsEveryPlace)
{
    std::mt19937_64 rng(27);
    for (int i = 0; i < 100000; i++) {
        const uint64_t h = rng();
        const RowPlace p{(uint32_t) rng(), (uint16_t) (1 + rng() % 65535)};
        RowPlace q{};
        ASSERT_TRUE(hint_place(hint_word(h, p), h, q));
        EXPECT_EQ(q.block, p.block);
        EXPECT_EQ(q.offset, p.offset);
    }
    RowPlace q{};
    const RowPlace last{UINT32_MAX, UINT16_MAX};
    ASSERT_TRUE(hint_place(hint_word(~UINT64_C(0), last), ~UINT64_C(0), q));
    EXPECT_EQ(q.block, UINT32_MAX);
    EXPECT_EQ(q.offset, UINT16_MAX);
}

TEST(CounterHint, EmptySlotNamesNoPlace)
{
    RowPlace q{};
    EXPECT_FALSE(hint_place(0, 0, q));
    EXPECT_FALSE(hint_place(0, UINT64_C(0xabcd) << 48, q));
}

TEST(CounterHint, AnotherKeysHintIsRefused)
{
    // Keys whose hashes differ in the check bits never read each other's hints; the share
    // that agrees in them (1 in 65,536) is left to the reader's check of the row.
    std::mt19937_64 rng(28);
    int taken = 0;
    const int n = 200000;
    for (int i = 0; i < n; i++) {
        const uint64_t a = rng(), b = rng();
        RowPlace q{};
        const bool got = hint_place(hint_word(a, RowPlace{7, 3}), b, q);
        EXPECT_EQ(got, (a >> 48) == (b >> 48));
        taken += got;
    }
    EXPECT_LT(taken, 20); // about n / 65536 = 3
}

TEST(CounterHint, SlotUsesTheLowBits)
{
    EXPECT_EQ(hint_slot(UINT64_C(0xffff0000000abcde), 12), 0xcdeu);
    EXPECT_EQ(hint_slot(UINT64_C(0x123456789), 32), 0x23456789u);
    EXPECT_EQ(hint_slot(~UINT64_C(0), 1), 1u);
    // the slot and the check are different bits: every slot gets keys of every check
    EXPECT_EQ(hint_slot(UINT64_C(0xffff) << 48, 18), 0u);
}

TEST(CounterHint, PairIsTwoAdjacentSlots)
{
    EXPECT_EQ(hint_pair(UINT64_C(0xabcdf), 12), 0xcdeu);
    EXPECT_EQ(hint_pair(UINT64_C(0xabcde), 12), 0xcdeu);
    EXPECT_EQ(hint_pair(~UINT64_C(0), 18), (UINT32_C(1) << 18) - 2);
}

TEST(CounterHint, WayKeepsTheKeysOwnSlotThenAnEmptyOneThenMovesTheFirst)
{
    const uint64_t a = UINT64_C(0x1111) << 48, b = UINT64_C(0x2222) << 48, c = UINT64_C(0x3333) << 48;
    const uint64_t wa = hint_word(a, RowPlace{1, 1}), wb = hint_word(b, RowPlace{2, 2});
    EXPECT_EQ(hint_way(0, 0, a), HintWay::First);
    EXPECT_EQ(hint_way(wb, 0, a), HintWay::Second);
    EXPECT_EQ(hint_way(0, wb, a), HintWay::First);
    EXPECT_EQ(hint_way(wa, wb, a), HintWay::First);  // its own older hint, wherever it is
    EXPECT_EQ(hint_way(wb, wa, a), HintWay::Second);
    EXPECT_EQ(hint_way(wa, wb, c), HintWay::FirstAfterMove);
}

// Keys written in turn into a table of pairs, as the adapter writes them: the share whose
// hint can still be read, against one slot per key. With as many keys as 3/4 of the slots
// (200,000 keys in 2^18), one slot per key keeps about 70% of them, pairs about 80%; with
// 3/8 (100,000), about 83% and 93%.
double kept_share(int keys, unsigned bits, bool pairs)
{
    std::vector<uint64_t> table(size_t(1) << bits);
    std::mt19937_64 rng(29);
    std::vector<uint64_t> hashes(keys);
    for (auto& h : hashes)
        h = rng();
    for (int i = 0; i < keys; i++) {
        const uint64_t h = hashes[i], w = hint_word(h, RowPlace{uint32_t(i), 1});
        if (!pairs) {
            table[hint_slot(h, bits)] = w;
            continue;
        }
        uint64_t* pair = &table[hint_pair(h, bits)];
        switch (hint_way(pair[0], pair[1], h)) {
        case HintWay::FirstAfterMove: pair[1] = pair[0]; [[fallthrough]];
        case HintWay::First: pair[0] = w; break;
        case HintWay::Second: pair[1] = w; break;
        }
    }
    int kept = 0;
    for (int i = 0; i < keys; i++) {
        const uint64_t h = hashes[i];
        RowPlace p{};
        const bool got = pairs ? hint_place(table[hint_pair(h, bits)], h, p) || hint_place(table[hint_pair(h, bits) + 1], h, p)
                               : hint_place(table[hint_slot(h, bits)], h, p);
        kept += got && p.block == uint32_t(i);
    }
    return double(kept) / keys;
}

TEST(CounterHint, PairsKeepMoreKeysThanOneSlotEach)
{
    const double one = kept_share(200000, 18, false), two = kept_share(200000, 18, true);
    EXPECT_NEAR(one, 0.70, 0.02);
    EXPECT_NEAR(two, 0.80, 0.02);
    EXPECT_NEAR(kept_share(100000, 18, false), 0.83, 0.02);
    EXPECT_NEAR(kept_share(100000, 18, true), 0.93, 0.02);
}

} // namespace
