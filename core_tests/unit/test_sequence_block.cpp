// Unit tests for the blocks of an INCREMENT BY 1 sequence (src/core/sequence_block.h).
#include "cpp_only.h"
#include "sequence_block.h"
#include "error.h"

#include "test_util.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>

using namespace idseq;
using unit::error_of;

namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();

} // namespace

TEST(SequenceBlock, SizeMustBePositive)
{
    EXPECT_NO_THROW(block::check_size(1));
    EXPECT_NO_THROW(block::check_size(std::numeric_limits<int32_t>::max()));
    for (int64_t n : {int64_t(0), int64_t(-1), kMin}) {
        Error e = error_of([&] { block::check_size(n); });
        EXPECT_EQ(e.kind(), ErrorKind::InvalidParameter) << n;
        EXPECT_EQ(std::string(e.what()), "invalid block size: " + std::to_string(n));
    }
}

TEST(SequenceBlock, StartsAfterLastValueOrAtItWhenNotCalled)
{
    block::Span s = block::next_span(100, true, 10, kMax);
    EXPECT_TRUE(s.fits);
    EXPECT_EQ(s.first, 101);
    EXPECT_EQ(s.last, 110);
    // a new or restarted sequence: last_value is the next value
    s = block::next_span(1, false, 10, kMax);
    EXPECT_TRUE(s.fits);
    EXPECT_EQ(s.first, 1);
    EXPECT_EQ(s.last, 10);
    s = block::next_span(-5, true, 1, kMax);
    EXPECT_EQ(s.first, -4);
    EXPECT_EQ(s.last, -4);
}

TEST(SequenceBlock, NeverPastTheBound)
{
    // exactly up to the bound: fits, and nothing is left after it
    block::Span s = block::next_span(15, true, 10, 25);
    EXPECT_TRUE(s.fits);
    EXPECT_EQ(s.last, 25);
    EXPECT_EQ(s.left, 10);
    s = block::next_span(25, true, 1, 25);
    EXPECT_FALSE(s.fits);
    EXPECT_EQ(s.left, 0);
    // one value short: refused whole, and says how many are left
    s = block::next_span(16, true, 10, 25);
    EXPECT_FALSE(s.fits);
    EXPECT_EQ(s.left, 9);
    // not called, at the bound: one value left
    s = block::next_span(25, false, 1, 25);
    EXPECT_TRUE(s.fits);
    EXPECT_EQ(s.first, 25);
}

TEST(SequenceBlock, ExtremesOfBigint)
{
    // last_value + 1 and first + n - 1 pass the largest bigint: no overflow, refused
    block::Span s = block::next_span(kMax, true, 1, block::kLastBlockValue);
    EXPECT_FALSE(s.fits);
    EXPECT_EQ(s.left, 0);
    s = block::next_span(kMax - 3, true, std::numeric_limits<int32_t>::max(), block::kLastBlockValue);
    EXPECT_FALSE(s.fits);
    EXPECT_EQ(s.left, 2);
    s = block::next_span(kMax - 3, true, 2, block::kLastBlockValue);
    EXPECT_TRUE(s.fits);
    EXPECT_EQ(s.last, block::kLastBlockValue);
    // the whole range below: left is capped at the largest bigint
    s = block::next_span(kMin, false, std::numeric_limits<int32_t>::max(), block::kLastBlockValue);
    EXPECT_TRUE(s.fits);
    EXPECT_EQ(s.first, kMin);
    EXPECT_EQ(s.left, kMax);
}

// Against a model: successive blocks of random sizes under a random bound are exactly the
// values a sequence counting by 1 would give, in order, and a block that does not fit takes
// nothing (the next one that fits starts where it would have).
TEST(SequenceBlock, SuccessiveBlocksAreTheSequencesValues)
{
    std::mt19937_64 rng(26);
    for (int round = 0; round < 2000; ++round) {
        const int64_t start = int64_t(rng() % 2000) - 1000;
        const int64_t hi = start + int64_t(rng() % 500);
        int64_t last_value = start;
        bool called = false;
        int64_t expect_next = start; // what nextval would return next
        for (int step = 0; step < 50; ++step) {
            const int64_t n = 1 + int64_t(rng() % 40);
            block::Span s = block::next_span(last_value, called, n, hi);
            ASSERT_EQ(s.left, hi >= expect_next ? hi - expect_next + 1 : 0);
            ASSERT_EQ(s.fits, expect_next + n - 1 <= hi);
            if (!s.fits)
                continue;
            ASSERT_EQ(s.first, expect_next);
            ASSERT_EQ(s.last, expect_next + n - 1);
            expect_next = s.last + 1;
            last_value = s.last;
            called = true;
        }
    }
}
