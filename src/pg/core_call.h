// The C++/PostgreSQL boundary, used by every SQL entry point.
//
//     idseq::pg::run([&] { ...core code only... });
//
// The lambda runs the PostgreSQL-free core inside try/catch. Inside it no PostgreSQL
// function is called, so no ereport longjmp can skip a C++ destructor. Outside it the
// adapter holds only plain data (pointers, palloc'd memory, function-static scratch
// buffers that are never destroyed). A caught error is copied into a fixed buffer without
// allocating; ereport is called only after the handler has closed, with the SQLSTATE of the
// core's error kind. catch (...) is there because even a failed allocation throws.
#pragma once

#include "error.h"

#include <exception>
#include <new>

namespace idseq::pg {

struct CaughtError {
    ErrorKind kind;
    char message[1024];
    char detail[1024];
    char hint[512];
};

// Copies without allocating.
void capture(CaughtError& slot, ErrorKind kind, const char* message, const char* detail, const char* hint) noexcept;
// ereport(ERROR) with the kind's SQLSTATE; does not return.
[[noreturn]] void report(const CaughtError& slot);

// Tells the core how messages may quote text in this database (idseq::set_messages_utf8).
void note_database_encoding() noexcept;

// Runs core code, catching everything into slot; false if it threw. For code that may not
// ereport where it runs (under a spinlock): the caller releases the lock, then report()s.
template <class F>
inline bool try_run(CaughtError& slot, F&& body) noexcept
{
    note_database_encoding();
    try {
        body();
        return true;
    } catch (const Error& e) {
        capture(slot, e.kind(), e.what(), e.detail().c_str(), e.hint().c_str());
    } catch (const std::bad_alloc&) {
        capture(slot, ErrorKind::OutOfMemory, "out of memory", "", "");
    } catch (const std::exception& e) {
        capture(slot, ErrorKind::Internal, e.what(), "", "");
    } catch (...) {
        capture(slot, ErrorKind::Internal, "unexpected C++ exception in idseq", "", "");
    }
    return false;
}

template <class F>
inline void run(F&& body)
{
    static CaughtError slot;
    if (!try_run(slot, body))
        report(slot);
}

} // namespace idseq::pg
