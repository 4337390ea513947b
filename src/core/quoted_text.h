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

// Whether messages may hold UTF-8 text (the default) or must escape every non-ASCII byte
// as \xNN. A message must be valid in the database encoding, and the core reads text as
// UTF-8: in a database of another encoding (LATIN1, EUC_JP, SQL_ASCII) a quoted value is
// shown byte by byte so that it is valid there. The adapter sets it from the database
// encoding before it runs core code.
void set_messages_utf8(bool utf8) noexcept;
bool messages_utf8() noexcept;

} // namespace idseq
