#include "quoted_text_pg.h"

#include "core_call.h"

namespace idseq::pg {

const char* shown(const char* text, size_t len)
{
    // Always through the core's shown(), short text too: control characters and bytes that
    // are not UTF-8 (or, outside UTF8 databases, not ASCII) are quoted as \xNN.
    char buf[kShownBytes * 4 + 8]; // every byte escaped as \xNN at worst, plus "..."
    size_t n = 0;
    run([&] {
        std::string s = idseq::shown(std::string_view(text, len));
        n = s.size() < sizeof buf ? s.size() : sizeof buf - 1;
        memcpy(buf, s.data(), n);
    });
    return pnstrdup(buf, n);
}

} // namespace idseq::pg
