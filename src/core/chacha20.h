// ChaCha20 (RFC 8439) as the per-backend random generator of idseq_uuidv7(): a keystream
// generator with fast key erasure, seeded from the operating system's CSPRNG by the caller.
//
// pg_strong_random() costs about 8-10 us per call on a common server (OpenSSL's RAND_bytes
// behind a lock and a fork check), 20 times the cost of a snowflake id; this generator
// gives 64 random bits in tens of nanoseconds. Each refill computes four ChaCha20 blocks
// under the current key, replaces the key with the first 32 bytes of them and hands out the
// other 224 bytes, wiping each 8 bytes as they go: a memory dump never reveals past outputs
// (Bernstein's "fast-key-erasure" RNG, as OpenBSD's arc4random).
#pragma once
#include "cpp_only.h"

#include <cstddef>
#include <cstdint>

namespace idseq {

// The ChaCha20 block function (RFC 8439 section 2.3): 64 bytes of keystream.
void chacha20_block(const uint32_t key[8], uint32_t counter, const uint32_t nonce[3], uint8_t out[64]);

class KeystreamRng {
public:
    static constexpr size_t kSeedBytes = 44; // a 32-byte key and a 12-byte nonce

    // (Re)seeds from kSeedBytes secret random bytes; restarts outputs().
    void seed(const uint8_t* seed);
    bool seeded() const { return seeded_; }
    // Outputs since the last seed.
    uint64_t outputs() const { return outputs_; }
    uint64_t next();

private:
    void refill();
    static constexpr int kBuffered = 28; // 4 blocks of 64 bytes, less the next key's 32
    uint32_t key_[8] = {};
    uint32_t nonce_[3] = {};
    uint64_t buf_[kBuffered] = {};
    int pos_ = kBuffered;
    uint64_t outputs_ = 0;
    bool seeded_ = false;
};

} // namespace idseq
