// Snowflake ids: the fast path's shared-memory slots, one per (layout definition, node id) for
// the whole server (idseq_uuidv7()'s: one per database), and their
// state saved at a clean shutdown for the next start (see the proof at the head of
// sf_generator.cpp).
#include "sf_internal.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

extern "C" {
#include "access/xlog.h"
#include "access/xlog_internal.h"
#include "catalog/pg_control.h"
#include "commands/dbcommands.h"
#include "port/pg_crc32c.h"
#include "storage/fd.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"
}

namespace snowflake {

// ---- Shared memory --------------------------------------------------------------------------

Shared* shared;
shmem_request_hook_type prev_shmem_request_hook;
shmem_startup_hook_type prev_shmem_startup_hook;

namespace {

Slot* slots;
LWLock* table_lock;

Size shmem_size()
{
    // the slots start at a cache line (their hot fields have lines of their own: see Slot)
    return add_size(add_size(sizeof(Shared), PG_CACHE_LINE_SIZE), mul_size(sizeof(Slot), (Size) max_layouts_guc));
}

void load_saved_states();
void save_states_at_shutdown(int code, Datum);

} // namespace

void shmem_request()
{
    if (prev_shmem_request_hook)
        prev_shmem_request_hook();
    RequestAddinShmemSpace(shmem_size());
    RequestNamedLWLockTranche("idseq_snowflake", 1);
}

void shmem_startup()
{
    if (prev_shmem_startup_hook)
        prev_shmem_startup_hook();
    LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
    bool found;
    shared = (Shared*) ShmemInitStruct("idseq_snowflake", shmem_size(), &found);
    slots = (Slot*) TYPEALIGN(PG_CACHE_LINE_SIZE, (char*) shared + sizeof(Shared));
    if (!found) {
        memset(static_cast<void*>(shared), 0, shmem_size());
        shared->capacity = max_layouts_guc;
        for (int i = 0; i < shared->capacity; i++) {
            Slot& s = slots[i];
            SpinLockInit(&s.mutex);
            pg_atomic_init_u32(&s.setup, 0);
            pg_atomic_init_u64(&s.word, 0);
            pg_atomic_init_u64(&s.reserved, (uint64) INT64CONST(-1));
            pg_atomic_init_u64(&s.sync_reserved, (uint64) INT64CONST(-1));
            pg_atomic_init_u64(&s.last_now, 0);
            pg_atomic_init_u64(&s.anchor_unit, (uint64) INT64CONST(-1));
            pg_atomic_init_u64(&s.anchor_mono, 0);
            pg_atomic_init_u64(&s.spinner_unit, 0);
        }
    }
    table_lock = &GetNamedLWLockTranche("idseq_snowflake")->lock;
    LWLockRelease(AddinShmemInitLock);
    if (!IsUnderPostmaster && IsPostmasterEnvironment) { // the postmaster (not single-user mode)
        if (!found)
            load_saved_states();
        on_shmem_exit(save_states_at_shutdown, (Datum) 0);
    }
}

// The slot of a layout's stream (see Slot), taking a free one if needed; nullptr when none is
// free (the first time that happens after a start, a warning says so).
Slot* find_slot(const char* name, const Definition& definition, int32 node)
{
    if (!shared)
        return nullptr;
    const bool per_database = strcmp(name, kUuidv7Entry) == 0;
    const Oid db = per_database ? MyDatabaseId : InvalidOid;
    const char* key = per_database ? name : "";
    bool report = false;
    for (int pass = 0; pass < 2; pass++) {
        LWLockAcquire(table_lock, pass == 0 ? LW_SHARED : LW_EXCLUSIVE);
        for (int i = 0; i < shared->used; i++) {
            Slot* s = &slots[i];
            if (s->db == db && s->node == node && strcmp(s->name, key) == 0 && s->definition == definition) {
                LWLockRelease(table_lock);
                return s;
            }
        }
        if (pass == 1 && shared->used < shared->capacity) {
            Slot* s = &slots[shared->used];
            s->db = db;
            strlcpy(s->name, key, NAMEDATALEN);
            s->definition = definition;
            s->node = node;
            pg_write_barrier();
            shared->used++;
            LWLockRelease(table_lock);
            return s;
        }
        if (pass == 1 && !shared->full_reported) {
            shared->full_reported = true;
            report = true;
        }
        LWLockRelease(table_lock);
    }
    if (report)
        ereport(WARNING,
                (errmsg("all %d shared-memory slots of the snowflake generator are in use", shared->capacity),
                 errdetail("Snowflake layout \"%s\" in database \"%s\", and every further layout definition and node "
                           "id, uses the slower generator path without shared memory until the server restarts; "
                           "there only one database of the server at a time issues a definition's ids with one "
                           "node id. This warning is given once per server start.",
                           name, get_database_name(MyDatabaseId)),
                 errhint("Raise idseq.snowflake_max_layouts (a restart is needed); each slot serves one layout "
                         "definition with one node id for every database of the server.")));
    return nullptr;
}

uint32 slot_number(const Slot* s) { return (uint32) (s - slots); }

namespace {

// ---- Clean shutdown: the fast path's exact state, carried to the next start -------------------
//
// Shared memory dies with the server, and a start without the saved state restarts every
// layout from H, up to a lease ahead of the clock: each clean restart would push ids further
// ahead. So the postmaster, as it exits after a clean shutdown (every backend gone, the
// shutdown checkpoint written), saves each slot's state -- its last id -- in a file, with the
// shutdown checkpoint's location. The next start takes the file only if the control file
// still shows that very clean shutdown and the server is not starting a recovery (no
// standby.signal, recovery.signal or backup_label): then no WAL was written or replayed
// since and no id was issued since, so the saved state is still the last id issued. The file
// is removed at every start before any backend runs, so it serves at most one start; a
// crash, an immediate stop, a promotion or a restore never finds a usable one and restarts
// from H as before.

constexpr const char* kSavedFile = "idseq_snowflake.state";
constexpr uint32 kSavedMagic = 0x1D5E0F1A;
// 4: an entry holds the stream's node id (slots shared by the databases); 3: the layout's
// whole definition (2: a hash of it; 1: last unit, counter and node instead of the packed
// position). A file of an older version, written before an upgrade, is not used, and that
// start restarts from H.
constexpr uint32 kSavedVersion = 4;

struct SavedHeader {
    uint32 magic;
    uint32 version;
    uint32 entry_size;
    uint32 count;
    uint64 system_identifier;
    XLogRecPtr checkpoint;
    pg_crc32c crc; // of the entries
};

struct SavedEntry {
    Oid db;
    char name[NAMEDATALEN];
    Oid state_relid, last_relid;
    Definition definition;
    int32 node;
    uint64 word; // the position (idseq::pack_position for that definition)
};

// The control file as the postmaster sees it, read without ereport (the postmaster may be
// exiting); false if it cannot be read or its CRC is wrong.
bool read_control_file(ControlFileData& cf)
{
    int fd = OpenTransientFile(XLOG_CONTROL_FILE, O_RDONLY | PG_BINARY);
    if (fd < 0)
        return false;
    bool ok = read(fd, &cf, sizeof cf) == (ssize_t) sizeof cf;
    CloseTransientFile(fd);
    if (!ok)
        return false;
    pg_crc32c crc;
    INIT_CRC32C(crc);
    COMP_CRC32C(crc, (char*) &cf, offsetof(ControlFileData, crc));
    FIN_CRC32C(crc);
    return EQ_CRC32C(crc, cf.crc);
}

pg_crc32c entries_crc(const SavedEntry* entries, uint32 count)
{
    pg_crc32c crc;
    INIT_CRC32C(crc);
    COMP_CRC32C(crc, (const char*) entries, sizeof(SavedEntry) * count);
    FIN_CRC32C(crc);
    return crc;
}

// on_shmem_exit in the postmaster: runs as it exits, also after a crash of a child (code 1,
// before shared memory is rebuilt) and after an immediate stop; the control file tells a
// clean shutdown apart.
void save_states_at_shutdown(int code, Datum)
{
    ControlFileData cf;
    if (code != 0 || !shared || !read_control_file(cf) || cf.state != DB_SHUTDOWNED)
        return;
    SavedEntry* entries = (SavedEntry*) palloc0(sizeof(SavedEntry) * shared->capacity);
    uint32 n = 0;
    for (int i = 0; i < shared->used && i < shared->capacity; i++) {
        const Slot* sl = &slots[i];
        if (!sl->ready && !sl->saved)
            continue;
        SavedEntry& x = entries[n++];
        x.db = sl->db;
        strlcpy(x.name, sl->name, NAMEDATALEN);
        x.state_relid = sl->state_relid;
        x.last_relid = sl->last_relid;
        x.definition = sl->definition;
        x.node = sl->node;
        x.word = pg_atomic_read_u64(const_cast<pg_atomic_uint64*>(&sl->word));
    }
    if (n == 0)
        return;
    SavedHeader h;
    memset(&h, 0, sizeof h);
    h.magic = kSavedMagic;
    h.version = kSavedVersion;
    h.entry_size = sizeof(SavedEntry);
    h.count = n;
    h.system_identifier = cf.system_identifier;
    h.checkpoint = cf.checkPoint;
    h.crc = entries_crc(entries, n);
    const char* tmp = "idseq_snowflake.state.tmp";
    int fd = OpenTransientFile(tmp, O_WRONLY | O_CREAT | O_TRUNC | PG_BINARY);
    bool ok = fd >= 0 && write(fd, &h, sizeof h) == (ssize_t) sizeof h &&
        write(fd, entries, sizeof(SavedEntry) * n) == (ssize_t) (sizeof(SavedEntry) * n) && pg_fsync(fd) == 0;
    if (fd >= 0)
        CloseTransientFile(fd);
    if (!ok || durable_rename(tmp, kSavedFile, LOG) != 0) {
        ereport(LOG, (errmsg("could not save the snowflake generators' state in file \"%s\"", kSavedFile),
                      errdetail("The next start continues their ids from the durable marks.")));
        unlink(tmp);
    }
}

// At the postmaster's start, before any backend: takes the saved states into free slots if
// they belong to this very clean shutdown, and removes the file in any case.
void load_saved_states()
{
    int fd = OpenTransientFile(kSavedFile, O_RDONLY | PG_BINARY);
    if (fd < 0)
        return;
    SavedHeader h;
    SavedEntry* entries = nullptr;
    bool ok = read(fd, &h, sizeof h) == (ssize_t) sizeof h && h.magic == kSavedMagic && h.version == kSavedVersion &&
        h.entry_size == sizeof(SavedEntry) && h.count <= (uint32) 10000; // idseq.snowflake_max_layouts at most
    if (ok) {
        entries = (SavedEntry*) palloc0(sizeof(SavedEntry) * (h.count + 1));
        ok = read(fd, entries, sizeof(SavedEntry) * h.count) == (ssize_t) (sizeof(SavedEntry) * h.count) &&
            EQ_CRC32C(entries_crc(entries, h.count), h.crc);
    }
    CloseTransientFile(fd);
    // Good for one start only: gone before anything can be issued, or it is not used.
    if (durable_unlink(kSavedFile, LOG) != 0)
        return;
    ControlFileData cf;
    struct stat st;
    ok = ok && read_control_file(cf) && cf.state == DB_SHUTDOWNED && cf.checkPoint == h.checkpoint &&
        cf.system_identifier == h.system_identifier && stat(STANDBY_SIGNAL_FILE, &st) != 0 &&
        stat(RECOVERY_SIGNAL_FILE, &st) != 0 && stat(BACKUP_LABEL_FILE, &st) != 0;
    if (!ok)
        return;
    for (uint32 i = 0; i < h.count && shared->used < shared->capacity; i++) {
        const SavedEntry& x = entries[i];
        Slot* sl = &slots[shared->used++];
        sl->db = x.db;
        strlcpy(sl->name, x.name, NAMEDATALEN);
        sl->state_relid = x.state_relid;
        sl->last_relid = x.last_relid;
        sl->definition = x.definition;
        sl->node = x.node;
        pg_atomic_write_u64(&sl->word, x.word);
        sl->ready = false;
        sl->saved = true;
    }
    ereport(LOG, (errmsg("snowflake generators continue from the state saved at the clean shutdown")));
}

} // namespace
} // namespace snowflake
