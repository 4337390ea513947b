// SHA-256 (FIPS 180-4), for fingerprints that identify a definition across servers. Plain
// C++ so that the core computes it with no server: PostgreSQL's pg_cryptohash needs a
// resource owner in the backend, which not every caller of a send function has.
#pragma once
#include "cpp_only.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace idseq {

std::array<uint8_t, 32> sha256(std::string_view data);

} // namespace idseq
