// Errors raised by the core. The adapter (src/pg/boundary.h) maps each kind to a SQLSTATE.
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
    Internal,         // XX000: a bug, never a user error
};

// Messages follow the PostgreSQL style guide: primary message lowercase, no final period,
// values in double quotes; detail and hint are full sentences.
class Error : public std::runtime_error {
public:
    Error(ErrorKind kind, std::string message, std::string detail = {}, std::string hint = {})
        : std::runtime_error(message), kind_(kind), detail_(std::move(detail)), hint_(std::move(hint))
    {
    }
    ErrorKind kind() const noexcept { return kind_; }
    const std::string& detail() const noexcept { return detail_; }
    const std::string& hint() const noexcept { return hint_; }

private:
    ErrorKind kind_;
    std::string detail_;
    std::string hint_;
};

[[noreturn]] inline void fail(ErrorKind kind, std::string message, std::string detail = {},
                              std::string hint = {})
{
    throw Error(kind, std::move(message), std::move(detail), std::move(hint));
}

} // namespace idseq
