#include "errors.h"

#include "boundary.h"

namespace idseq::pg {

const char* shown(const char* text, size_t len)
{
    if (len <= kShownBytes)
        return pnstrdup(text, len); // also NUL-terminates a name that is not
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
