// User-supplied text as quoted in an error message: a name or value of any size (a 100 MB
// layout name, a 131,000-digit rank) is shown as a short prefix, so an error never copies
// the whole input into the server log and the client's message.
#pragma once
#include "cpp_only.h"

#include <cstddef>
#include <string>
#include <string_view>

namespace idseq {

// At most this many bytes of the input are shown (then "..." marks the cut).
constexpr size_t kShownBytes = 64;

// The text cut after about 60 bytes on a UTF-8 character boundary, "..." appended when cut,
// control characters and bytes that are not UTF-8 escaped (\xNN). Reads at most kShownBytes + 1 bytes of the input.
std::string shown(std::string_view text);

} // namespace idseq
