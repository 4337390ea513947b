// Counters per key: hints of where a key's row lies (a fast key's row, or the version of a
// gap-free key's row its last number wrote), so that a number usually reads the state
// table's heap page straight away instead of descending its index first (the descent was
// most of a fast number's cost, and a gap-free key holds its next number meanwhile).
//
// With idseq in shared_preload_libraries the server keeps 2^18 hints in shared memory (2 MB),
// read and written by every backend without a lock (one atomic 64-bit word each); without,
// each backend keeps 2^12 of its own (32 kB), enough for the keys it uses most. The word
// format is the core's (counter_hint.h). A hint is only ever a place to look: the caller
// uses the row found there only if it is a live row (for a gap-free key, the version its
// snapshot sees) of that very counter, key and period, read under its buffer's lock
// (counter_state.cpp); anything else (a hint of
// another key, a row moved by VACUUM FULL, a dropped and re-created counter, a restored
// table) sends it down the index as before. So hints need no WAL, no invalidation and no
// lock, and a wrong one costs one page read.
#include "counter_internal.h"

#include "counter_hint.h"
#include "module.h"

extern "C" {
#include "common/hashfn.h"
#include "miscadmin.h"
#include "port/atomics.h"
#include "storage/ipc.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"
#include "utils/memutils.h"
}

namespace idseq::pg::counter {

namespace {

constexpr unsigned kSharedBits = 18;
constexpr unsigned kLocalBits = 12;

pg_atomic_uint64* shared_hints; // with preload
uint64* local_hints;            // without: this backend's own

shmem_request_hook_type prev_shmem_request_hook;
shmem_startup_hook_type prev_shmem_startup_hook;

Size shared_size()
{
    return mul_size(sizeof(pg_atomic_uint64), (Size) 1 << kSharedBits);
}

void shmem_request()
{
    if (prev_shmem_request_hook)
        prev_shmem_request_hook();
    RequestAddinShmemSpace(shared_size());
}

void shmem_startup()
{
    if (prev_shmem_startup_hook)
        prev_shmem_startup_hook();
    LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
    bool found;
    shared_hints = (pg_atomic_uint64*) ShmemInitStruct("idseq_counter_hints", shared_size(), &found);
    if (!found)
        for (size_t i = 0; i < (size_t) 1 << kSharedBits; i++)
            pg_atomic_init_u64(&shared_hints[i], 0);
    LWLockRelease(AddinShmemInitLock);
}

} // namespace

void hints_init()
{
    if (!process_shared_preload_libraries_in_progress)
        return;
    prev_shmem_request_hook = shmem_request_hook;
    shmem_request_hook = shmem_request;
    prev_shmem_startup_hook = shmem_startup_hook;
    shmem_startup_hook = shmem_startup;
}

uint64 key_hash(Oid counter, const text* key, int32 period)
{
    const uint64 seed = ((uint64) MyDatabaseId << 32 | counter) ^ ((uint64) (uint32) period * UINT64CONST(0x9E3779B97F4A7C15));
    return hash_bytes_extended((const unsigned char*) VARDATA_ANY(key), (int) VARSIZE_ANY_EXHDR(key), seed);
}

// The pair of words of hash h: shared with preload, this backend's own without (made at its
// first hint when make is set); null when there is none.
template <typename F>
auto with_pair(uint64 h, bool make, F f)
{
    if (shared_hints) {
        pg_atomic_uint64* p = &shared_hints[idseq::counter::hint_pair(h, kSharedBits)];
        return f([p](int i) { return pg_atomic_read_u64(&p[i]); }, [p](int i, uint64 w) { pg_atomic_write_u64(&p[i], w); });
    }
    if (!local_hints && make)
        local_hints = (uint64*) MemoryContextAllocZero(TopMemoryContext, sizeof(uint64) << kLocalBits);
    uint64* p = local_hints ? &local_hints[idseq::counter::hint_pair(h, kLocalBits)] : nullptr;
    return f([p](int i) { return p ? p[i] : 0; }, [p](int i, uint64 w) { p[i] = w; });
}

bool hint_get(uint64 h, ItemPointer tid)
{
    idseq::counter::RowPlace p;
    const bool found = with_pair(h, false, [&](auto load, auto) {
        return idseq::counter::hint_place(load(0), h, p) || idseq::counter::hint_place(load(1), h, p);
    });
    if (found)
        ItemPointerSet(tid, p.block, p.offset);
    return found;
}

// Two writers of one pair may race (each word is written whole): a hint may then be lost or
// kept twice, which costs a look through the index at most.
void hint_put(uint64 h, ItemPointer tid)
{
    using idseq::counter::HintWay;
    const uint64 word = idseq::counter::hint_word(
        h, idseq::counter::RowPlace{ItemPointerGetBlockNumber(tid), ItemPointerGetOffsetNumber(tid)});
    with_pair(h, true, [&](auto load, auto store) {
        const uint64 w0 = load(0);
        switch (idseq::counter::hint_way(w0, load(1), h)) {
        case HintWay::FirstAfterMove:
            store(1, w0);
            [[fallthrough]];
        case HintWay::First:
            store(0, word);
            break;
        case HintWay::Second:
            store(1, word);
            break;
        }
    });
}

} // namespace idseq::pg::counter

void idseq_counter_hints_init(void)
{
    idseq::pg::counter::hints_init();
}
