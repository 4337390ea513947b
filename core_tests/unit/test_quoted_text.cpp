#include "charset.h"
#include "quoted_text.h"

#include <gtest/gtest.h>

#include <string>

namespace idseq {

TEST(Shown, ShortTextIsShownWhole)
{
    EXPECT_EQ(shown("orders"), "orders");
    EXPECT_EQ(shown(std::string(64, 'x')), std::string(64, 'x'));
}

TEST(Shown, LongTextIsCutToAPrefix)
{
    std::string huge(100u << 20, 'x'); // a 100 MB name
    std::string s = shown(huge);
    EXPECT_LE(s.size(), kShownBytes);
    EXPECT_EQ(s, std::string(61, 'x') + "...");
}

TEST(Shown, CutsOnACharacterBoundary)
{
    std::string stars;
    for (int i = 0; i < 40; i++)
        stars += "\xE2\x98\x85"; // U+2605, 3 bytes
    std::string s = shown(stars);
    ASSERT_EQ(s.substr(s.size() - 3), "...");
    std::string kept = s.substr(0, s.size() - 3);
    EXPECT_EQ(kept.size() % 3, 0u);
    EXPECT_EQ(kept, stars.substr(0, kept.size()));
    EXPECT_GE(kept.size(), 57u);
}

TEST(Shown, EscapesControlCharacters)
{
    EXPECT_EQ(shown(std::string("a\nb\x7F", 4)), "a\\x0Ab\\x7F");
    EXPECT_EQ(shown(std::string("\xFF\xE2\x98", 3)), "\\xFF\\xE2\\x98"); // not UTF-8
}

} // namespace idseq

namespace idseq {

// Outside UTF8 databases a message escapes every non-ASCII byte: the core cannot tell what
// the bytes mean there, and the message must be valid in the database encoding.
TEST(Shown, NonAsciiBytesEscapedWhereMessagesMustBeAscii)
{
    EXPECT_EQ(shown("a\xC3\xA9"), "a\xC3\xA9");
    EXPECT_EQ(describe_char("\xC3\xA9"), "\xC3\xA9");
    set_messages_utf8(false);
    EXPECT_EQ(shown("a\xC3\xA9"), "a\\xC3\\xA9");
    EXPECT_EQ(shown("\xA4\xA2x"), "\\xA4\\xA2x"); // EUC_JP's あ, not UTF-8
    EXPECT_EQ(describe_char("\xC3\xA9"), "\\xC3\\xA9");
    set_messages_utf8(true);
    // short values too: control characters and invalid bytes are escaped at any length
    EXPECT_EQ(shown("a\nb"), "a\\x0Ab");
    EXPECT_EQ(shown("\xFF"), "\\xFF");
}

} // namespace idseq
