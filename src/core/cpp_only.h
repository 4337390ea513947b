// Included first by every file in src/core/. The core is plain C++: it never sees a
// PostgreSQL header, so it can be unit-tested, fuzzed and benchmarked with no server.
#pragma once
#ifdef POSTGRES_H
static_assert(false, "src/core/ must not include PostgreSQL headers");
#endif
