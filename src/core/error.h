// Errors raised by the core. The adapter (src/pg/core_call.h) maps each kind to a SQLSTATE.
#pragma once
#include "cpp_only.h"

#include <stdexcept>
#include <string>

namespace idseq {

enum class ErrorKind {
    Syntax,           // 22P02 invalid_text_representation
    OutOfRange,       // 22003 numeric_value_out_of_range
    InvalidParameter, // 22023 invalid_parameter_value
    Prerequisite,     // 55000 object_not_in_prerequisite_state
    Limit,            // 54000 program_limit_exceeded
    Mismatch,         // 42804 datatype_mismatch
    Duplicate,        // 42710 duplicate_object
    UndefinedObject,  // 42704 undefined_object
    OutOfMemory,      // 53200 out_of_memory
    Internal,         // XX000: a bug, never a user error
};

// Why an error was raised, where a caller acts on the cause rather than on the SQLSTATE
// (which several causes share). Callers dispatch on this, never on the message text.
enum class ErrorReason {
    Unspecified,
    InvalidSymbol, // a character that is not a symbol of the charset the text was read in
};

// Messages follow the PostgreSQL style guide: primary message lowercase, no final period,
// values in double quotes; detail and hint are full sentences.
class Error : public std::runtime_error {
public:
    Error(ErrorKind kind, std::string message, std::string detail = {}, std::string hint = {})
        : Error(kind, ErrorReason::Unspecified, std::move(message), std::move(detail), std::move(hint))
    {
    }
    Error(ErrorKind kind, ErrorReason reason, std::string message, std::string detail = {}, std::string hint = {})
        : std::runtime_error(message), kind_(kind), reason_(reason), detail_(std::move(detail)), hint_(std::move(hint))
    {
    }
    ErrorKind kind() const noexcept { return kind_; }
    ErrorReason reason() const noexcept { return reason_; }
    const std::string& detail() const noexcept { return detail_; }
    const std::string& hint() const noexcept { return hint_; }

private:
    ErrorKind kind_;
    ErrorReason reason_;
    std::string detail_;
    std::string hint_;
};

[[noreturn]] inline void fail(ErrorKind kind, std::string message, std::string detail = {},
                              std::string hint = {})
{
    throw Error(kind, std::move(message), std::move(detail), std::move(hint));
}

} // namespace idseq
