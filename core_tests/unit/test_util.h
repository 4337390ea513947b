// Helpers shared by the core unit tests.
#pragma once

#include "error.h"

#include <gtest/gtest.h>

namespace idseq::unit {

// Runs f and returns the idseq::Error it throws; fails the test if it throws none.
template <class F>
Error error_of(F f)
{
    try {
        f();
    } catch (const Error& e) {
        return e;
    }
    ADD_FAILURE() << "no idseq::Error thrown";
    return Error(ErrorKind::Internal, "none");
}

// The kind of the idseq::Error f throws.
template <class F>
ErrorKind kind_of(F f)
{
    return error_of(f).kind();
}

} // namespace idseq::unit
