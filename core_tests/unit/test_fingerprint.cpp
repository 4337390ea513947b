#include "charset.h"
#include "sha256.h"

#include <gtest/gtest.h>

#include <string>

namespace idseq {

namespace {

std::string hex(const uint8_t* p, size_t n)
{
    static const char* digits = "0123456789abcdef";
    std::string s;
    for (size_t i = 0; i < n; i++) {
        s += digits[p[i] >> 4];
        s += digits[p[i] & 15];
    }
    return s;
}

} // namespace

TEST(Sha256, KnownVectors)
{
    // FIPS 180-4 examples: one block, two blocks, and the empty message
    auto a = sha256("abc");
    EXPECT_EQ(hex(a.data(), a.size()), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    auto b = sha256("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq");
    EXPECT_EQ(hex(b.data(), b.size()), "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    auto e = sha256("");
    EXPECT_EQ(hex(e.data(), e.size()), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    auto m = sha256(std::string(1000000, 'a'));
    EXPECT_EQ(hex(m.data(), m.size()), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Fingerprint, IdentifiesTheDefinitionNotTheName)
{
    Charset pqr = Charset::make(2000, "tag", "pqr", false);
    EXPECT_EQ(pqr.fingerprint(), Charset::make(3000, "other", "pqr", false).fingerprint());
    EXPECT_NE(pqr.fingerprint(), Charset::make(2000, "tag", "rqp", false).fingerprint()); // permuted
    EXPECT_NE(pqr.fingerprint(), Charset::make(2000, "tag", "pqr", true).fingerprint());  // case folding
    EXPECT_NE(pqr.fingerprint(), Charset::make(2000, "tag", "pqrs", false).fingerprint());
    // permuted multibyte symbols differ too
    EXPECT_NE(Charset::make(1, "a", "★☆", false).fingerprint(), Charset::make(1, "a", "☆★", false).fingerprint());
}

} // namespace idseq
