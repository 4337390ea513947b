// User-supplied text in the adapter's error messages: a short prefix cut on a character
// boundary (the core's idseq::shown, see src/core/shown.h), palloc'd.
#pragma once

#include "shown.h"

#include "pg.h"

namespace idseq::pg {

const char* shown(const char* text, size_t len);
inline const char* shown(const char* text) { return shown(text, strlen(text)); }

} // namespace idseq::pg
