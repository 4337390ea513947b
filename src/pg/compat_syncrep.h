// Version differences of replication/walsender_private.h, kept beside compat.h: compat.h is
// included inside extern "C" blocks, and this needs C++ templates. Include it after
// replication/walsender_private.h, outside extern "C".
#pragma once

#include <type_traits>
#include <utility>

// Whether the server requires synchronous standbys, as the checkpointer last read
// synchronous_standby_names into shared memory (what SyncRepWaitForLSN tests). The minor
// releases of May 2025 (15.13, 16.9, 17.5; 18) replaced WalSndCtlData::sync_standbys_defined
// by sync_standbys_status bits, SYNC_STANDBY_INIT (1) set once the checkpointer has read the
// setting and SYNC_STANDBY_DEFINED (2); which one the headers have is told by the member,
// not the version. Returns 1: required, 0: not, -1: not known yet (the caller uses its own
// setting). ctl is WalSndCtl (replication/walsender_private.h).
template <typename T, typename = void>
struct idseq_has_sync_status : std::false_type {};
template <typename T>
struct idseq_has_sync_status<T, std::void_t<decltype(std::declval<T&>().sync_standbys_status)>> : std::true_type {};
template <typename T>
inline int idseq_shared_sync_standbys(const volatile T* ctl)
{
    if constexpr (idseq_has_sync_status<T>::value) {
        const auto status = ctl->sync_standbys_status;
        if ((status & (1 << 0)) == 0)
            return -1;
        return (status & (1 << 1)) ? 1 : 0;
    } else {
        return ctl->sync_standbys_defined ? 1 : 0;
    }
}
