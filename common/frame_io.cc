#include "common/frame_io.h"

#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "common/status_macros.h"

namespace npud {
namespace {

constexpr size_t kHeaderBytes = kFrameHeaderBytes;

void EncodeHeader(uint32_t length, uint16_t fd_count, char* out) {
  for (int i = 0; i < 4; ++i) out[i] = static_cast<char>((length >> (8 * i)) & 0xff);
  out[4] = static_cast<char>(fd_count & 0xff);
  out[5] = static_cast<char>(fd_count >> 8);
  out[6] = out[7] = 0;
}

}  // namespace

void SealFrame(std::string* frame) {
  EncodeHeader(static_cast<uint32_t>(frame->size() - kHeaderBytes), 0, frame->data());
}

absl::Status WriteFrame(int socket, absl::string_view payload, absl::Span<const int> fds) {
  if (payload.size() > kMaxFrameBytes || fds.size() > kMaxFrameFds) {
    return absl::InvalidArgumentError(
        absl::StrCat("frame too large: ", payload.size(), " bytes, ", fds.size(), " descriptors"));
  }
  char header[kHeaderBytes];
  EncodeHeader(static_cast<uint32_t>(payload.size()), static_cast<uint16_t>(fds.size()), header);
  iovec iov[2] = {{header, kHeaderBytes}, {const_cast<char*>(payload.data()), payload.size()}};
  msghdr msg{};
  msg.msg_iov = iov;
  msg.msg_iovlen = 2;
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * kMaxFrameFds)];
  if (!fds.empty()) {
    msg.msg_control = control;
    msg.msg_controllen = CMSG_SPACE(sizeof(int) * fds.size());
    cmsghdr* cmsg = CMSG_FIRSTHDR(&msg);
    cmsg->cmsg_level = SOL_SOCKET;
    cmsg->cmsg_type = SCM_RIGHTS;
    cmsg->cmsg_len = CMSG_LEN(sizeof(int) * fds.size());
    std::memcpy(CMSG_DATA(cmsg), fds.data(), sizeof(int) * fds.size());
  }
  size_t left = kHeaderBytes + payload.size();
  while (left > 0) {
    const ssize_t n = sendmsg(socket, &msg, MSG_NOSIGNAL);
    if (n < 0) {
      if (errno == EINTR) continue;
      return absl::UnavailableError(absl::StrCat("write to npud socket: ", std::strerror(errno)));
    }
    left -= n;
    // The descriptors went with the first bytes; advance past what was sent.
    msg.msg_control = nullptr;
    msg.msg_controllen = 0;
    size_t done = n;
    while (done > 0 && msg.msg_iovlen > 0) {
      const size_t step = std::min(done, msg.msg_iov[0].iov_len);
      msg.msg_iov[0].iov_base = static_cast<char*>(msg.msg_iov[0].iov_base) + step;
      msg.msg_iov[0].iov_len -= step;
      done -= step;
      if (msg.msg_iov[0].iov_len == 0) {
        ++msg.msg_iov;
        --msg.msg_iovlen;
      }
    }
  }
  return absl::OkStatus();
}

ssize_t ReceiveWithDescriptors(int socket, char* data, size_t size, int flags,
                               std::vector<int>* fds, bool* truncated) {
  iovec iov{data, size};
  msghdr msg{};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * kMaxFrameFds)];
  msg.msg_control = control;
  msg.msg_controllen = sizeof(control);
  const ssize_t n = recvmsg(socket, &msg, flags | MSG_CMSG_CLOEXEC);
  *truncated = false;
  if (n < 0) return n;
  *truncated = (msg.msg_flags & MSG_CTRUNC) != 0;
  for (cmsghdr* cmsg = CMSG_FIRSTHDR(&msg); cmsg != nullptr; cmsg = CMSG_NXTHDR(&msg, cmsg)) {
    if (cmsg->cmsg_level != SOL_SOCKET || cmsg->cmsg_type != SCM_RIGHTS) continue;
    const size_t count = (cmsg->cmsg_len - CMSG_LEN(0)) / sizeof(int);
    for (size_t i = 0; i < count; ++i) {
      int fd;
      std::memcpy(&fd, CMSG_DATA(cmsg) + i * sizeof(int), sizeof(int));
      fds->push_back(fd);
    }
  }
  return n;
}

FrameReader::~FrameReader() { CloseReceived(); }

void FrameReader::CloseReceived() {
  for (int fd : fds_) close(fd);
  fds_.clear();
}

absl::Status FrameReader::ReadFully(char* data, size_t size, bool at_frame_start) {
  size_t got = 0;
  while (got < size) {
    std::vector<int> received;
    bool stray = false;
    const ssize_t n = ReceiveWithDescriptors(socket_, data + got, size - got, 0, &received, &stray);
    if (n < 0) {
      if (errno == EINTR) continue;
      return absl::UnavailableError(absl::StrCat("read from socket: ", std::strerror(errno)));
    }
    fds_.insert(fds_.end(), received.begin(), received.end());
    if (!received.empty() && !(at_frame_start && got == 0)) stray = true;
    if (stray || fds_.size() > static_cast<size_t>(kMaxFrameFds)) {
      CloseReceived();
      return absl::DataLossError("descriptors arrived outside a frame header");
    }
    if (n == 0) {
      if (at_frame_start && got == 0) return absl::OutOfRangeError("end of stream");
      return absl::DataLossError("connection closed inside a frame");
    }
    got += n;
  }
  return absl::OkStatus();
}

absl::Status FrameReader::ReadPayload(std::string* payload, uint32_t length) {
  size_t have = 0;
  payload->resize(std::min<size_t>(length, kFrameFirstStep));
  while (true) {
    NPUD_RETURN_IF_ERROR(ReadFully(payload->data() + have, payload->size() - have, false));
    have = payload->size();
    if (have == length) return absl::OkStatus();
    const size_t next = std::min<size_t>(length, 2 * have);
    if (allowance_ != nullptr) NPUD_RETURN_IF_ERROR(allowance_->Grow(next, length));
    payload->resize(next);
  }
}

absl::Status FrameReader::Read(std::string* payload, std::vector<int>* fds) {
  char header[kHeaderBytes];
  NPUD_RETURN_IF_ERROR(ReadFully(header, kHeaderBytes, true));
  uint32_t length = 0;
  for (int i = 0; i < 4; ++i)
    length |= static_cast<uint32_t>(static_cast<uint8_t>(header[i])) << (8 * i);
  const uint16_t fd_count = static_cast<uint16_t>(static_cast<uint8_t>(header[4]) |
                                                  (static_cast<uint8_t>(header[5]) << 8));
  if (length > kMaxFrameBytes || fd_count > kMaxFrameFds || header[6] != 0 || header[7] != 0) {
    return absl::DataLossError(
        absl::StrCat("malformed frame header (length ", length, ", descriptors ", fd_count, ")"));
  }
  if (fds_.size() != fd_count) {
    CloseReceived();
    return absl::DataLossError(absl::StrCat("a frame announced ", fd_count, " descriptors but ",
                                            fds_.size(), " came with it"));
  }
  NPUD_RETURN_IF_ERROR(ReadPayload(payload, length));
  fds->clear();
  for (uint16_t i = 0; i < fd_count; ++i) {
    fds->push_back(fds_.front());
    fds_.pop_front();
  }
  return absl::OkStatus();
}

}  // namespace npud
