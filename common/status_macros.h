// status_macros.h
//
// Early returns for absl::Status code, the one spelling used everywhere:
//
//   NPUD_RETURN_IF_ERROR(stream->Submit(task));
//   NPUD_ASSIGN_OR_RETURN(std::shared_ptr<sim::Stream> stream, FindStream(id));
//
// Both return the error status unchanged from the enclosing function, which
// must return absl::Status or some absl::StatusOr<T>.

#ifndef NPUD_COMMON_STATUS_MACROS_H_
#define NPUD_COMMON_STATUS_MACROS_H_

#include "absl/status/status.h"
#include "absl/status/statusor.h"

#define NPUD_RETURN_IF_ERROR(expr)                                \
  do {                                                            \
    if (absl::Status npud_status_ = (expr); !npud_status_.ok()) { \
      return npud_status_;                                        \
    }                                                             \
  } while (false)

#define NPUD_STATUS_CONCAT_INNER_(a, b) a##b
#define NPUD_STATUS_CONCAT_(a, b) NPUD_STATUS_CONCAT_INNER_(a, b)

#define NPUD_ASSIGN_OR_RETURN(lhs, expr) \
  NPUD_ASSIGN_OR_RETURN_IMPL_(NPUD_STATUS_CONCAT_(npud_statusor_, __LINE__), lhs, expr)

#define NPUD_ASSIGN_OR_RETURN_IMPL_(statusor, lhs, expr)   \
  auto statusor = (expr);                                  \
  if (!statusor.ok()) return std::move(statusor).status(); \
  lhs = *std::move(statusor)

#endif  // NPUD_COMMON_STATUS_MACROS_H_
