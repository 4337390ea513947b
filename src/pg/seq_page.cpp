// A sequence's one page, as sequence.c reads and writes it (see seq_page.h).
#include "seq_page.h"

extern "C" {
#include "access/xloginsert.h"
#include "miscadmin.h"
#include "storage/bufpage.h"
}

namespace idseq::pg {

namespace {
constexpr uint32 kSeqMagic = 0x1717; // sequence.c's SEQ_MAGIC, in the page's special space
}

SequencePage lock_sequence_page(Relation rel, int mode)
{
    SequencePage p;
    p.buf = ReadBuffer(rel, 0);
    LockBuffer(p.buf, mode);
    Page page = BufferGetPage(p.buf);
    if (PageGetSpecialSize(page) != MAXALIGN(sizeof(uint32)) || *(uint32*) PageGetSpecialPointer(page) != kSeqMagic ||
        PageGetMaxOffsetNumber(page) < FirstOffsetNumber || !ItemIdIsNormal(PageGetItemId(page, FirstOffsetNumber)))
        elog(ERROR, "bad page in sequence \"%s\"", RelationGetRelationName(rel));
    ItemId lp = PageGetItemId(page, FirstOffsetNumber);
    p.tuple = (HeapTupleHeader) PageGetItem(page, lp);
    p.tuple_len = ItemIdGetLength(lp);
    if (p.tuple_len < (uint32) p.tuple->t_hoff + offsetof(FormData_pg_sequence_data, is_called) + sizeof(bool))
        elog(ERROR, "bad tuple in sequence \"%s\"", RelationGetRelationName(rel));
    // Earlier releases let SELECT FOR UPDATE lock a sequence's tuple, which left an xmax
    // behind; sequence.c clears it as a hint (not logged), and so does this.
    if (mode == BUFFER_LOCK_EXCLUSIVE && HeapTupleHeaderGetRawXmax(p.tuple) != InvalidTransactionId) {
        HeapTupleHeaderSetXmax(p.tuple, InvalidTransactionId);
        p.tuple->t_infomask &= ~HEAP_XMAX_COMMITTED;
        p.tuple->t_infomask |= HEAP_XMAX_INVALID;
        MarkBufferDirtyHint(p.buf, true);
    }
    p.data = (Form_pg_sequence_data) ((char*) p.tuple + p.tuple->t_hoff);
    return p;
}

XLogRecPtr write_sequence_page(Relation rel, SequencePage& page, int64 last_value, int64 log_cnt, bool is_called)
{
    XLogRecPtr recptr = InvalidXLogRecPtr;
    START_CRIT_SECTION();
    page.data->last_value = last_value;
    page.data->log_cnt = log_cnt;
    page.data->is_called = is_called;
    MarkBufferDirty(page.buf);
    if (RelationNeedsWAL(rel)) {
        xl_seq_rec xlrec;
        IDSEQ_SEQ_REC_SET_RELATION(xlrec, rel);
        XLogBeginInsert();
        XLogRegisterBuffer(0, page.buf, REGBUF_WILL_INIT);
        XLogRegisterData((char*) &xlrec, sizeof(xl_seq_rec));
        XLogRegisterData((char*) page.tuple, page.tuple_len);
        recptr = XLogInsert(RM_SEQ_ID, XLOG_SEQ_LOG);
        PageSetLSN(BufferGetPage(page.buf), recptr);
    }
    END_CRIT_SECTION();
    return recptr;
}

} // namespace idseq::pg
