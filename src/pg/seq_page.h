// A sequence's one page, read and written in place as PostgreSQL's sequence.c does, for what
// sequence.c offers no function for: nextval_block moves a sequence on by a whole block under
// one buffer lock (src/pg/seq_generators.cpp), and the snowflake generator reads its marks and
// keeps its unlogged last id (src/pg/sf_store.cpp).
//
// What this relies on of sequence.c's private format (the same in 15 to 18, and what
// pg_upgrade carries over unchanged): page 0 holds one heap tuple at FirstOffsetNumber whose
// data is FormData_pg_sequence_data (commands/sequence.h), and the page's special space is
// one uint32 holding SEQ_MAGIC, 0x1717. A page that does not look like that is an error,
// never read. A change is WAL-logged as sequence.c logs it (XLOG_SEQ_LOG: xl_seq_rec and the
// whole tuple, the buffer registered REGBUF_WILL_INIT), so that recovery, standbys and
// pg_waldump read it as one of sequence.c's own records.
#pragma once

#include "pg_headers.h"

extern "C" {
#include "access/xlogdefs.h"
#include "access/htup_details.h"
#include "commands/sequence.h"
#include "storage/bufmgr.h"
#include "utils/rel.h"
}

namespace idseq::pg {

struct SequencePage {
    Buffer buf;                  // pinned and locked; release with UnlockReleaseBuffer(buf)
    HeapTupleHeader tuple;       // the sequence's one tuple
    uint32 tuple_len;            // its length, as its line pointer says
    Form_pg_sequence_data data;  // its last_value, log_cnt and is_called
};

// Pins page 0 of the sequence rel (opened and locked by the caller) and locks it in mode
// (BUFFER_LOCK_SHARE or BUFFER_LOCK_EXCLUSIVE). With the exclusive lock a tuple xmax left by
// a SELECT FOR UPDATE of an old release is cleared, as sequence.c clears it.
SequencePage lock_sequence_page(Relation rel, int mode);

// Sets the tuple's fields (the page locked exclusively) and, when rel needs WAL, logs the
// tuple as sequence.c does; returns the record's end, or InvalidXLogRecPtr when nothing was
// logged (a temporary or unlogged sequence). The record is not flushed. The caller has
// given its transaction an xid where a commit should wait for the record (GetTopTransactionId
// before the critical section this opens).
XLogRecPtr write_sequence_page(Relation rel, SequencePage& page, int64 last_value, int64 log_cnt, bool is_called);

} // namespace idseq::pg
