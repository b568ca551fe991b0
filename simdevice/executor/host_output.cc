#include "simdevice/executor/host_output.h"

#include <algorithm>

#include "absl/strings/str_format.h"
#include "spdlog/spdlog.h"

namespace npud::sim {

bool OutputBudget::Take(uint64_t bytes) {
  absl::MutexLock lock(&mu_);
  const absl::Time now = absl::Now();
  tokens_ = std::min<double>(
      static_cast<double>(burst_),
      tokens_ + absl::ToDoubleSeconds(now - refilled_) * static_cast<double>(per_second_));
  refilled_ = now;
  if (static_cast<double>(bytes) > tokens_ || spent_ + bytes > total_) return false;
  tokens_ -= static_cast<double>(bytes);
  spent_ += bytes;
  return true;
}

HostOutput::~HostOutput() {
  if (!partial_.empty() || cut_ > 0) Line(partial_);
  if (dropped_lines_ > 0) {
    spdlog::warn("session {}: kernel host {} wrote {} more line(s) of output past its budget",
                 session_id_, pid_, dropped_lines_);
  }
}

std::string HostOutput::Escape(absl::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x20 && byte < 0x7f && byte != '\\') {
      out.push_back(c);
    } else {
      absl::StrAppendFormat(&out, "\\x%02x", byte);
    }
  }
  return out;
}

void HostOutput::Add(absl::string_view bytes) {
  while (!bytes.empty()) {
    const size_t end = bytes.find('\n');
    const absl::string_view piece = bytes.substr(0, end);
    const size_t room = kMaxLine - std::min(kMaxLine, partial_.size());
    partial_.append(piece.data(), std::min(room, piece.size()));
    cut_ += piece.size() - std::min(room, piece.size());
    if (end == absl::string_view::npos) return;
    Line(partial_);
    partial_.clear();
    cut_ = 0;
    bytes.remove_prefix(end + 1);
  }
}

void HostOutput::Line(absl::string_view line) {
  if (!budget_->Take(line.size() + 1)) {
    ++dropped_lines_;
    if (!said_dropping_) {
      said_dropping_ = true;
      spdlog::warn(
          "session {}: kernel host {} writes more output than npud logs for a session; "
          "dropping it",
          session_id_, pid_);
    }
    return;
  }
  if (cut_ > 0) {
    spdlog::info("session {} kernel output: {} [{} more bytes]", session_id_, Escape(line), cut_);
  } else {
    spdlog::info("session {} kernel output: {}", session_id_, Escape(line));
  }
}

}  // namespace npud::sim
