// What differs between the PostgreSQL majors idseq builds against (15, 16, 17, 18): the one
// place for version tests, included by pg_headers.h after PostgreSQL's headers. The adapters use
// the names below and never test PG_VERSION_NUM themselves.
#pragma once

#include "common/int.h"
#include "datatype/timestamp.h"

// pg_add_s64_overflow and friends are in common/int.h in every supported major (included
// above); up to 17 other headers happened to include it, 18's do not.

// Infinite intervals ('infinity', '-infinity') exist from 17 on; before, every interval is
// finite.
#ifdef INTERVAL_NOT_FINITE
#define IDSEQ_INTERVAL_IS_FINITE(i) (!INTERVAL_NOT_FINITE(i))
#else
#define IDSEQ_INTERVAL_IS_FINITE(i) true
#endif

// The magic block. 18 adds PG_MODULE_MAGIC_EXT, which also records the module's name and
// version (shown by pg_get_loaded_modules()); before 18 there is only the plain block.
// IDSEQ_VERSION comes from the Makefile (EXTVERSION).
#ifdef PG_MODULE_MAGIC_EXT
#define IDSEQ_MODULE_MAGIC PG_MODULE_MAGIC_EXT(.name = "idseq", .version = IDSEQ_VERSION)
#else
#define IDSEQ_MODULE_MAGIC PG_MODULE_MAGIC
#endif

// Tree walkers: from 16 on, expression_tree_walker and query_tree_walker are macros that
// take a callback of type bool (*)(Node *, void *); up to 15 they are functions declared
// with bool (*)(), which C++ reads as "no arguments", so the callback is cast.
#if PG_VERSION_NUM >= 160000
#define IDSEQ_WALKER(fn) (fn)
#else
#define IDSEQ_WALKER(fn) ((bool (*)())(void (*)(void)) (fn))
#endif

// The GUC table: 16 made get_guc_variables() return its length and dropped
// GetNumConfigOptions().
#if PG_VERSION_NUM >= 160000
#define IDSEQ_GET_GUC_VARIABLES(n) get_guc_variables(n)
#else
#define IDSEQ_GET_GUC_VARIABLES(n) (*(n) = GetNumConfigOptions(), get_guc_variables())
#endif

// A GUC check hook's extra: up to 15 PostgreSQL frees it with free(), from 16 on with
// guc_free() (a GUC memory context), so it must come from the matching allocator.
#if PG_VERSION_NUM >= 160000
#define IDSEQ_GUC_MALLOC(size) guc_malloc(LOG, (size))
#define IDSEQ_GUC_FREE(p) guc_free(p)
#else
#define IDSEQ_GUC_MALLOC(size) malloc(size)
#define IDSEQ_GUC_FREE(p) free(p)
#endif

// WalSndCtlData's synchronous-standby flag changed in a minor release: see compat_syncrep.h
// (C++ templates, included outside extern "C").

// This backend's local transaction id: PGPROC's lxid became vxid.lxid in 17 (the caller
// includes storage/proc.h).
#if PG_VERSION_NUM >= 170000
#define IDSEQ_MY_LXID() (MyProc->vxid.lxid)
#else
#define IDSEQ_MY_LXID() (MyProc->lxid)
#endif

// Whether member may SET ROLE to role, and so act as it (a superuser may): 16 added the SET
// option of role grants (member_can_set_role); up to 15 every member may. The caller includes
// utils/acl.h.
#if PG_VERSION_NUM >= 160000
#define IDSEQ_CAN_SET_ROLE(member, role) member_can_set_role((member), (role))
#else
#define IDSEQ_CAN_SET_ROLE(member, role) is_member_of_role((member), (role))
#endif

// A sequence's WAL record (xl_seq_rec, commands/sequence.h) names its relation's storage
// as a RelFileNode up to 15 and as a RelFileLocator from 16 on.
#if PG_VERSION_NUM >= 160000
#define IDSEQ_SEQ_REC_SET_RELATION(xlrec, rel) ((xlrec).locator = (rel)->rd_locator)
#else
#define IDSEQ_SEQ_REC_SET_RELATION(xlrec, rel) ((xlrec).node = (rel)->rd_node)
#endif

// make_range (utils/rangetypes.h) takes a soft-error context from 16 on; NULL raises errors
// as up to 15.
#if PG_VERSION_NUM >= 160000
#define IDSEQ_MAKE_RANGE(typcache, lower, upper) make_range((typcache), (lower), (upper), false, NULL)
#else
#define IDSEQ_MAKE_RANGE(typcache, lower, upper) make_range((typcache), (lower), (upper), false)
#endif

// A time zone abbreviation as date_trunc(unit, ts, zone) reads one: its type, TZ or DTZ with
// *offset, DYNTZ with *tz, else UNKNOWN_FIELD (the caller includes utils/datetime.h). 16
// made DecodeTimezoneAbbrev return an error code and the type through an argument. An
// abbreviation whose zone cannot be loaded gives DYNTZ with no zone from 16 on (up to 15 the
// call raises the error itself).
#if PG_VERSION_NUM >= 160000
#define IDSEQ_DECODE_TIMEZONE_ABBREV(lower, offset, tz)                                                  \
    __extension__({                                                                                     \
        int type_;                                                                                      \
        DateTimeErrorExtra extra_;                                                                      \
        DecodeTimezoneAbbrev(0, (lower), &type_, (offset), (tz), &extra_) != 0 ? (*(tz) = NULL, DYNTZ) \
                                                                                : type_;                \
    })
#else
#define IDSEQ_DECODE_TIMEZONE_ABBREV(lower, offset, tz) DecodeTimezoneAbbrev(0, (lower), (offset), (tz))
#endif

// Whether role has a privilege on a database: 16 replaced pg_database_aclcheck with
// object_aclcheck. The caller includes utils/acl.h and catalog/pg_database.h.
#if PG_VERSION_NUM >= 160000
#define IDSEQ_DATABASE_ACLCHECK(db, role, mode) object_aclcheck(DatabaseRelationId, (db), (role), (mode))
#else
#define IDSEQ_DATABASE_ACLCHECK(db, role, mode) pg_database_aclcheck((db), (role), (mode))
#endif

// heap_update (access/heapam.h) reports from 16 on which indexes the new version needs
// (TU_UpdateIndexes); up to 15 the caller reads HeapTupleIsHeapOnly on the new tuple, which
// holds in every major, so the report is dropped.
#if PG_VERSION_NUM >= 160000
#define IDSEQ_HEAP_UPDATE(rel, otid, newtup, cid, wait, tmfd, lockmode)                                \
    __extension__({                                                                                   \
        TU_UpdateIndexes update_indexes_;                                                             \
        heap_update((rel), (otid), (newtup), (cid), InvalidSnapshot, (wait), (tmfd), (lockmode),     \
                    &update_indexes_);                                                                \
    })
#else
#define IDSEQ_HEAP_UPDATE(rel, otid, newtup, cid, wait, tmfd, lockmode)                                \
    heap_update((rel), (otid), (newtup), (cid), InvalidSnapshot, (wait), (tmfd), (lockmode))
#endif

// index_beginscan (access/genam.h) takes an instrumentation argument from 18 on (NULL: none).
#if PG_VERSION_NUM >= 180000
#define IDSEQ_INDEX_BEGINSCAN(heap, index, snapshot, nkeys, norderbys) \
    index_beginscan((heap), (index), (snapshot), NULL, (nkeys), (norderbys))
#else
#define IDSEQ_INDEX_BEGINSCAN(heap, index, snapshot, nkeys, norderbys) \
    index_beginscan((heap), (index), (snapshot), (nkeys), (norderbys))
#endif
