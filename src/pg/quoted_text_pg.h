// User-supplied text in the adapter's error messages: a short prefix cut on a character
// boundary (the core's idseq::shown, see src/core/quoted_text.h), palloc'd.
#pragma once

#include "quoted_text.h"

#include "pg_headers.h"

namespace idseq::pg {

const char* shown(const char* text, size_t len);
inline const char* shown(const char* text) { return shown(text, strlen(text)); }

} // namespace idseq::pg
