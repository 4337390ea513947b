// Named keys for public ids: 256-bit keys that idseq keeps in its table idseq_key_registry
// (src/sql/52_named_keys.sql), so that a key never travels in SQL text, logs or errors.
// src/pg/codec_named_keys.cpp manages them; idseq_public_id and its inverses
// (src/pg/codec_sql.cpp) use them through named_key_for_use.
#pragma once

#include "display_codec.h"

#include "pg_headers.h"

namespace idseq::pg {

// What one call site remembers of the key it used last (fn_extra memory, zeroed at first):
// the derived scramble key only, never the key's bytes.
struct NamedKeySlot {
    uint64 generation; // the registry's generation when filled; 0 never matches
    Oid user;          // the user whose USAGE was checked
    int name_len;
    char name[NAMEDATALEN];
    idseq::ScrambleKey key;
};

// The scramble key of the key named `name`, for the current user, who must have the
// privileges of its owner or of a role granted USAGE on it (a superuser has them): 42704 for
// an unknown key, 42501 without USAGE, 22023 for a name that no key can have. Kept in slot
// until the registry, a role or a role membership changes (relcache and syscache
// invalidations), or another user calls (SET ROLE, SECURITY DEFINER).
const idseq::ScrambleKey& named_key_for_use(text* name, NamedKeySlot& slot);

} // namespace idseq::pg
