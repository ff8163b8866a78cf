// How core code reports failure: by value, never by exception or longjmp.
//
// The PostgreSQL wrappers turn a failed Status into ereport(ERROR) after every
// C++ object is gone; unit tests inspect it directly. The message is a fixed
// buffer so that building one never allocates.
#pragma once

#include <cstdarg>
#include <cstdio>

namespace sketch {

enum class StatusCode {
  kOk = 0,
  kInvalidFormat,     // bytes that are not a valid sketch (corrupt, truncated)
  kInvalidText,       // text that is not a valid sketch literal
  kInvalidParameter,  // a parameter out of its documented range
  kMismatch,          // two sketches that cannot be combined
  kOverflow,          // a count that would pass its largest value
  kUnsupported,       // valid foreign input this code does not implement
};

class Status {
 public:
  // Only the first byte of the message is set: an ok Status is built on
  // every parse of every row, and clearing the whole buffer would cost more
  // than the parse itself.
  Status() { message_[0] = '\0'; }

  static Status ok() { return Status(); }

  __attribute__((format(printf, 2, 3)))
  static Status error(StatusCode code, const char* fmt, ...) {
    Status s;
    s.code_ = code;
    va_list args;
    va_start(args, fmt);
    std::vsnprintf(s.message_, sizeof s.message_, fmt, args);
    va_end(args);
    return s;
  }

  bool is_ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const char* message() const { return message_; }

 private:
  StatusCode code_ = StatusCode::kOk;
  char message_[240];
};

}  // namespace sketch
