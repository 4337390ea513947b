// Version differences of replication/walsender_private.h, kept beside compat.h: compat.h is
// included inside extern "C" blocks, and this needs C++ templates. Include it after
// replication/walsender_private.h, outside extern "C".
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

// The byte after WalSndCtlData::lsn[] that tells whether the server requires synchronous
// standbys, as the checkpointer last read synchronous_standby_names into shared memory (what
// SyncRepWaitForLSN tests). Its member is sync_standbys_defined (a bool) in headers from
// before the minor releases of 2025-05-08 (15.13, 16.9, 17.5: commits ec59500a1 on
// REL_15_STABLE, c922ae2c4 on REL_16_STABLE, 3339847cc on REL_17_STABLE; see
// sync_standbys_status_bits in src/core/snowflake.cpp) and sync_standbys_status (bits) since. The name is only how these headers spell it: the byte lies at the same place
// with the same size in both, and what it means is decided at run time from the running
// server's version (idseq::sync_standbys_required), since a module built against one minor's
// headers runs on every minor of its major. ctl is WalSndCtl.
template <typename T, typename = void>
struct idseq_has_sync_status : std::false_type {};
template <typename T>
struct idseq_has_sync_status<T, std::void_t<decltype(std::declval<T&>().sync_standbys_status)>> : std::true_type {};
template <typename T>
inline uint8_t idseq_sync_standbys_byte(const volatile T* ctl)
{
    if constexpr (idseq_has_sync_status<T>::value) {
        static_assert(sizeof(ctl->sync_standbys_status) == 1, "one byte in every minor");
        static_assert(offsetof(T, sync_standbys_status) == offsetof(T, lsn) + sizeof(ctl->lsn),
                      "right after lsn[] in every minor");
        return static_cast<uint8_t>(ctl->sync_standbys_status);
    } else {
        static_assert(sizeof(ctl->sync_standbys_defined) == 1, "one byte in every minor");
        static_assert(offsetof(T, sync_standbys_defined) == offsetof(T, lsn) + sizeof(ctl->lsn),
                      "right after lsn[] in every minor");
        return static_cast<uint8_t>(ctl->sync_standbys_defined);
    }
}
