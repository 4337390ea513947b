#include "cpp_only.h"
#include "quoted_text.h"

#include "charset.h"

namespace idseq {

namespace {
bool utf8_messages = true;
}

void set_messages_utf8(bool utf8) noexcept
{
    utf8_messages = utf8;
}

bool messages_utf8() noexcept
{
    return utf8_messages;
}

std::string shown(std::string_view text)
{
    const bool cut = text.size() > kShownBytes;
    size_t end = cut ? kShownBytes - 3 : text.size();
    while (cut && end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80)
        --end; // text[end] continues a character: cut before that character
    std::string out;
    out.reserve(end + 3);
    const char* p = text.data();
    const char* stop = p + end;
    while (p < stop) {
        const char* start = p;
        int32_t cp = utf8_decode(p, stop);
        std::string_view ch(start, static_cast<size_t>(p - start));
        if (cp < 0x20 || cp == 0x7F || (cp >= 0x80 && !utf8_messages)) // control, not UTF-8, or not ASCII where only ASCII is safe
            out += describe_char(ch);
        else
            out += ch;
    }
    if (cut)
        out += "...";
    return out;
}

} // namespace idseq
