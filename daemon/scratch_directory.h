// scratch_directory.h
//
// ScratchDirectory: a private directory for one compilation, removed with
// everything in it when the object goes. The run-time compiler writes a client's
// program and headers there and runs the compiler in it, so the files of two
// compilations never meet, a name chosen by a client can only land inside it
// (header names are checked: relative, no "..", see common/rtc_options.h), and
// nothing is left behind, whatever the outcome.
//
// Files are created, never opened if they exist, and symbolic links are not
// followed; paths are relative to the directory.

#ifndef NPUD_DAEMON_SCRATCH_DIRECTORY_H_
#define NPUD_DAEMON_SCRATCH_DIRECTORY_H_

#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace npud::daemon {

class ScratchDirectory {
 public:
  // A new directory (mode 0700) in `parent`.
  static absl::StatusOr<std::unique_ptr<ScratchDirectory>> Create(const std::string& parent);
  ~ScratchDirectory();
  ScratchDirectory(const ScratchDirectory&) = delete;
  ScratchDirectory& operator=(const ScratchDirectory&) = delete;

  // Absolute when `parent` was.
  const std::string& path() const { return path_; }
  std::string PathOf(absl::string_view relative) const;

  // Creates the file `relative` holding `content`, and the directories on its way;
  // fails if it exists.
  absl::Status WriteNewFile(absl::string_view relative, absl::string_view content);
  // Replaces the content of `relative`.
  absl::Status ReplaceFile(absl::string_view relative, absl::string_view content);
  absl::StatusOr<std::string> ReadFile(absl::string_view relative) const;

 private:
  explicit ScratchDirectory(std::string path) : path_(std::move(path)) {}

  const std::string path_;
};

}  // namespace npud::daemon

#endif  // NPUD_DAEMON_SCRATCH_DIRECTORY_H_
