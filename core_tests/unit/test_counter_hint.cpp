// Unit tests for the hints of where a counter key's row lies (src/core/counter_hint.h).
#include "counter_hint.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>

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

} // namespace
