// SipHash-2-4 (Aumasson and Bernstein, "SipHash: a fast short-input PRF", 2012), written
// from the public-domain reference algorithm: a keyed pseudorandom function with a 128-bit
// key and a 64-bit output. Header-only so that the one-word form inlines into the Feistel
// rounds of the scramble.
#pragma once
#include "cpp_only.h"

#include <cstddef>
#include <cstdint>

namespace idseq {

struct SipKey {
    uint64_t k0 = 0; // key bytes 0..7, little-endian
    uint64_t k1 = 0; // key bytes 8..15, little-endian
};

namespace sip_detail {

inline uint64_t rotl(uint64_t x, int b) { return (x << b) | (x >> (64 - b)); }

struct State {
    uint64_t v0, v1, v2, v3;

    explicit State(const SipKey& k)
        : v0(k.k0 ^ 0x736f6d6570736575ULL), v1(k.k1 ^ 0x646f72616e646f6dULL),
          v2(k.k0 ^ 0x6c7967656e657261ULL), v3(k.k1 ^ 0x7465646279746573ULL)
    {
    }
    void round()
    {
        v0 += v1; v1 = rotl(v1, 13); v1 ^= v0; v0 = rotl(v0, 32);
        v2 += v3; v3 = rotl(v3, 16); v3 ^= v2;
        v0 += v3; v3 = rotl(v3, 21); v3 ^= v0;
        v2 += v1; v1 = rotl(v1, 17); v1 ^= v2; v2 = rotl(v2, 32);
    }
    void compress(uint64_t m) // c = 2 rounds per message word
    {
        v3 ^= m;
        round();
        round();
        v0 ^= m;
    }
    uint64_t finish() // d = 4 finalization rounds
    {
        v2 ^= 0xff;
        round();
        round();
        round();
        round();
        return v0 ^ v1 ^ v2 ^ v3;
    }
};

inline uint64_t load_le64(const unsigned char* p)
{
    uint64_t m = 0;
    for (int i = 7; i >= 0; i--)
        m = (m << 8) | p[i];
    return m;
}

} // namespace sip_detail

// SipHash-2-4 of len bytes at data.
inline uint64_t siphash24(const SipKey& key, const void* data, size_t len)
{
    const unsigned char* p = static_cast<const unsigned char*>(data);
    sip_detail::State s(key);
    size_t full = len & ~size_t{7};
    for (size_t i = 0; i < full; i += 8)
        s.compress(sip_detail::load_le64(p + i));
    uint64_t last = static_cast<uint64_t>(len & 0xff) << 56;
    for (size_t i = full; i < len; i++)
        last |= static_cast<uint64_t>(p[i]) << (8 * (i - full));
    s.compress(last);
    return s.finish();
}

// SipHash-2-4 of the 8-byte little-endian encoding of m; equal to siphash24(key, bytes, 8).
inline uint64_t siphash24_u64(const SipKey& key, uint64_t m)
{
    sip_detail::State s(key);
    s.compress(m);
    s.compress(uint64_t{8} << 56);
    return s.finish();
}

} // namespace idseq
