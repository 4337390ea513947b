// The slot protocol's atomics policy for tests (src/core/slot_protocol.h), on std::atomic.
#pragma once

#include <atomic>
#include <cstdint>

namespace idseq::test {

// PostgreSQL's atomics as the C++ memory model states them: pg_atomic_read/write_u64 order
// nothing (relaxed), pg_atomic_compare_exchange_u64 is a full barrier (seq_cst),
// pg_read_barrier / pg_write_barrier / pg_memory_barrier are acquire / release / seq_cst
// fences.
struct StdAtomics {
    using U64 = std::atomic<uint64_t>;
    using U32 = std::atomic<uint32_t>;
    static uint64_t read(U64& a) { return a.load(std::memory_order_relaxed); }
    static void write(U64& a, uint64_t v) { a.store(v, std::memory_order_relaxed); }
    static uint32_t read(U32& a) { return a.load(std::memory_order_relaxed); }
    static void write(U32& a, uint32_t v) { a.store(v, std::memory_order_relaxed); }
    static bool cas(U64& a, uint64_t& expected, uint64_t desired)
    {
        return a.compare_exchange_strong(expected, desired, std::memory_order_seq_cst);
    }
    static void read_barrier() { std::atomic_thread_fence(std::memory_order_acquire); }
    static void write_barrier() { std::atomic_thread_fence(std::memory_order_release); }
    static void full_barrier() { std::atomic_thread_fence(std::memory_order_seq_cst); }
};

} // namespace idseq::test
