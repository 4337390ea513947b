// Shared helpers of the libFuzzer targets in this directory (core_tests/fuzz/fuzz_<name>.cpp,
// built and run by `make fuzz`; see the Makefile).
#pragma once
#include "cpp_only.h"
#include "charset.h"
#include "error.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

namespace fuzz {

// Aborts (a libFuzzer crash, saved as an artifact) when a property does not hold.
inline void check(bool ok, const char* what)
{
    if (!ok) {
        std::fprintf(stderr, "property violated: %s\n", what);
        std::abort();
    }
}

// Whether s is valid UTF-8 (what PostgreSQL guarantees of text in a UTF-8 database).
inline bool valid_utf8(std::string_view s)
{
    const char* p = s.data();
    const char* end = p + s.size();
    while (p < end)
        if (idseq::utf8_decode(p, end) < 0)
            return false;
    return true;
}

// An error the core may raise for bad input: any kind but Internal, with a non-empty
// message, and (when the input was valid UTF-8) message, detail and hint valid UTF-8, so
// that PostgreSQL can send them to any client.
inline void check_error(const idseq::Error& e, bool input_valid_utf8)
{
    if (e.kind() == idseq::ErrorKind::Internal)
        std::fprintf(stderr, "internal error: %s\n", e.what());
    check(e.kind() != idseq::ErrorKind::Internal, "an input error is reported as an internal error");
    check(std::strlen(e.what()) > 0, "an error without a message");
    if (input_valid_utf8) {
        if (!valid_utf8(e.what()) || !valid_utf8(e.detail()) || !valid_utf8(e.hint()))
            std::fprintf(stderr, "message: %s\ndetail: %s\nhint: %s\n", e.what(), e.detail().c_str(), e.hint().c_str());
        check(valid_utf8(e.what()) && valid_utf8(e.detail()) && valid_utf8(e.hint()),
              "an error message is not valid UTF-8 although the input was");
    }
}

// The rule for charset and layout names: ^[a-z_][a-z0-9_]*$, at most 63 bytes (an
// independent restatement, to check the core's validation against).
inline bool name_ok(std::string_view s)
{
    if (s.empty() || s.size() > 63 || !((s[0] >= 'a' && s[0] <= 'z') || s[0] == '_'))
        return false;
    for (char c : s)
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'))
            return false;
    return true;
}

// Reads fixed-size fields off the front of the input; past its end, zeros.
class Reader {
public:
    Reader(const uint8_t* data, size_t size) : p_(data), end_(data + size) {}
    uint8_t byte()
    {
        return p_ < end_ ? *p_++ : 0;
    }
    int64_t i64()
    {
        uint64_t v = 0;
        for (int i = 0; i < 8; i++)
            v = v << 8 | byte();
        return static_cast<int64_t>(v);
    }
    std::string_view take(size_t n)
    {
        n = std::min(n, static_cast<size_t>(end_ - p_));
        std::string_view s(reinterpret_cast<const char*>(p_), n);
        p_ += n;
        return s;
    }
    std::string_view rest() { return take(static_cast<size_t>(end_ - p_)); }

private:
    const uint8_t* p_;
    const uint8_t* end_;
};

} // namespace fuzz
