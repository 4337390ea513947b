#include "chacha20.h"

#include <cstring>

namespace idseq {

namespace {

inline uint32_t rotl(uint32_t v, int n) { return (v << n) | (v >> (32 - n)); }

inline void quarter_round(uint32_t& a, uint32_t& b, uint32_t& c, uint32_t& d)
{
    a += b; d ^= a; d = rotl(d, 16);
    c += d; b ^= c; b = rotl(b, 12);
    a += b; d ^= a; d = rotl(d, 8);
    c += d; b ^= c; b = rotl(b, 7);
}

inline uint32_t load32(const uint8_t* p)
{
    return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
}

} // namespace

void chacha20_block(const uint32_t key[8], uint32_t counter, const uint32_t nonce[3], uint8_t out[64])
{
    uint32_t s[16] = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574, key[0], key[1], key[2], key[3],
                      key[4],     key[5],     key[6],     key[7],     counter, nonce[0], nonce[1], nonce[2]};
    uint32_t x[16];
    std::memcpy(x, s, sizeof x);
    for (int i = 0; i < 10; i++) {
        quarter_round(x[0], x[4], x[8], x[12]);
        quarter_round(x[1], x[5], x[9], x[13]);
        quarter_round(x[2], x[6], x[10], x[14]);
        quarter_round(x[3], x[7], x[11], x[15]);
        quarter_round(x[0], x[5], x[10], x[15]);
        quarter_round(x[1], x[6], x[11], x[12]);
        quarter_round(x[2], x[7], x[8], x[13]);
        quarter_round(x[3], x[4], x[9], x[14]);
    }
    for (int i = 0; i < 16; i++) {
        const uint32_t v = x[i] + s[i];
        out[4 * i] = static_cast<uint8_t>(v);
        out[4 * i + 1] = static_cast<uint8_t>(v >> 8);
        out[4 * i + 2] = static_cast<uint8_t>(v >> 16);
        out[4 * i + 3] = static_cast<uint8_t>(v >> 24);
    }
}

void KeystreamRng::seed(const uint8_t* seed)
{
    for (int i = 0; i < 8; i++)
        key_[i] = load32(seed + 4 * i);
    for (int i = 0; i < 3; i++)
        nonce_[i] = load32(seed + 32 + 4 * i);
    std::memset(buf_, 0, sizeof buf_);
    pos_ = kBuffered;
    outputs_ = 0;
    seeded_ = true;
}

void KeystreamRng::refill()
{
    uint8_t blocks[256];
    for (uint32_t b = 0; b < 4; b++)
        chacha20_block(key_, b, nonce_, blocks + 64 * b);
    for (int i = 0; i < 8; i++)
        key_[i] = load32(blocks + 4 * i); // the next key: this one is gone
    std::memcpy(buf_, blocks + 32, sizeof buf_);
    std::memset(blocks, 0, sizeof blocks);
    __asm__ __volatile__("" : : "r"(blocks) : "memory"); // the wipe is not optimised away
    pos_ = 0;
}

uint64_t KeystreamRng::next()
{
    if (pos_ == kBuffered)
        refill();
    const uint64_t v = buf_[pos_];
    buf_[pos_++] = 0;
    outputs_++;
    return v;
}

} // namespace idseq
