#include "client/core/mbufs.h"

#include <array>
#include <cstring>
#include <memory>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_format.h"
#include "absl/synchronization/mutex.h"
#include "client/core/runtime.h"
#include "common/acl_status.h"
#include "common/status_macros.h"
#include "spdlog/spdlog.h"

namespace npud::client {
namespace {

// A data block in pinned host memory, shared by the heads CopyBufRef makes.
class DataBlock {
 public:
  DataBlock(void* data, size_t size) : data_(data), size_(size) {}
  DataBlock(const DataBlock&) = delete;
  DataBlock& operator=(const DataBlock&) = delete;
  ~DataBlock() {
    absl::Status freed = Runtime::Get().host_memory().Free(data_);
    if (!freed.ok()) spdlog::warn("freeing an mbuf's data block: {}", freed.ToString());
  }
  void* data() const { return data_; }
  size_t size() const { return size_; }

 private:
  void* const data_;
  const size_t size_;
};

struct Mbuf {
  std::shared_ptr<DataBlock> block;
  size_t data_length = 0;
  std::array<unsigned char, kMbufUserDataBytes> user_data{};
  // The head of the chain this buffer was appended to, if any.
  Mbuf* chain_head = nullptr;
  // A head's chain after itself, in order.
  std::vector<Mbuf*> chain;
};

absl::Status UnknownBuffer(const void* buf) {
  return AclError(kRtParamInvalid, absl::StrFormat("%p is not a live aclrtMbuf", buf));
}

// What a function run on a buffer returns (a Status or StatusOr).
template <typename Use>
using UseResult = decltype(std::declval<Use&>()(std::declval<Mbuf&>()));

class MbufTable {
 public:
  static MbufTable& Get() {
    static auto* const table = new MbufTable;
    return *table;
  }

  void* Add(std::unique_ptr<Mbuf> buf) ABSL_LOCKS_EXCLUDED(mu_) {
    void* handle = buf.get();
    absl::MutexLock lock(&mu_);
    bufs_.emplace(handle, std::move(buf));
    return handle;
  }

  // Runs `use` on the live buffer `buf` under the table's lock.
  template <typename Use>
  UseResult<Use> With(void* buf, Use use) ABSL_LOCKS_EXCLUDED(mu_) {
    absl::MutexLock lock(&mu_);
    auto it = bufs_.find(buf);
    if (it == bufs_.end()) return UnknownBuffer(buf);
    return use(*it->second);
  }

  // Removes `buf` and the chain it heads; their data blocks go when the
  // returned buffers do, outside the lock (freeing host memory is a call).
  absl::StatusOr<std::vector<std::unique_ptr<Mbuf>>> Remove(void* buf) ABSL_LOCKS_EXCLUDED(mu_) {
    absl::MutexLock lock(&mu_);
    auto it = bufs_.find(buf);
    if (it == bufs_.end()) return UnknownBuffer(buf);
    Mbuf& head = *it->second;
    if (head.chain_head != nullptr) {
      return AclError(kRtParamInvalid,
                      absl::StrFormat("%p is in the chain of %p: free the chain's head", buf,
                                      static_cast<void*>(head.chain_head)));
    }
    std::vector<std::unique_ptr<Mbuf>> removed;
    for (Mbuf* member : head.chain) {
      auto member_it = bufs_.find(member);
      removed.push_back(std::move(member_it->second));
      bufs_.erase(member_it);
    }
    removed.push_back(std::move(it->second));
    bufs_.erase(it);
    return removed;
  }

  absl::Status Append(void* head_handle, void* buf_handle) ABSL_LOCKS_EXCLUDED(mu_) {
    absl::MutexLock lock(&mu_);
    auto head_it = bufs_.find(head_handle);
    if (head_it == bufs_.end()) return UnknownBuffer(head_handle);
    auto buf_it = bufs_.find(buf_handle);
    if (buf_it == bufs_.end()) return UnknownBuffer(buf_handle);
    Mbuf& head = *head_it->second;
    Mbuf& buf = *buf_it->second;
    if (head.chain_head != nullptr) {
      return AclError(kRtParamInvalid,
                      absl::StrFormat("%p is not a chain's head: append to %p", head_handle,
                                      static_cast<void*>(head.chain_head)));
    }
    if (&head == &buf || buf.chain_head != nullptr || !buf.chain.empty()) {
      return AclError(kRtParamInvalid, absl::StrFormat("%p is already in a chain", buf_handle));
    }
    if (head.chain.size() + 1 >= kMbufChainLimit) {
      return AclError(kRtParamInvalid,
                      absl::StrFormat("a chain holds at most %u buffers", kMbufChainLimit));
    }
    head.chain.push_back(&buf);
    buf.chain_head = &head;
    return absl::OkStatus();
  }

 private:
  absl::Mutex mu_;
  absl::flat_hash_map<void*, std::unique_ptr<Mbuf>> bufs_ ABSL_GUARDED_BY(mu_);
};

absl::Status CheckUserDataRange(size_t size, size_t offset) {
  if (size == 0) return AclError(kAclFailure, "copying 0 bytes of an mbuf's user data");
  if (offset > kMbufUserDataBytes || size > kMbufUserDataBytes - offset) {
    return AclError(kAclInvalidParam,
                    absl::StrFormat("user data [%u, %u) lies outside the %u-byte private area",
                                    offset, offset + size, kMbufUserDataBytes));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<void*> AllocMbuf(size_t size) {
  if (size == 0) return AclError(kAclInvalidParam, "an mbuf of 0 bytes");
  NPUD_ASSIGN_OR_RETURN(void* data, Runtime::Get().host_memory().Allocate(size));
  auto buf = std::make_unique<Mbuf>();
  buf->block = std::make_shared<DataBlock>(data, size);
  return MbufTable::Get().Add(std::move(buf));
}

absl::Status FreeMbuf(void* buf) { return MbufTable::Get().Remove(buf).status(); }

absl::StatusOr<MbufData> MbufDataOf(void* buf) {
  return MbufTable::Get().With(buf, [](Mbuf& mbuf) -> absl::StatusOr<MbufData> {
    return MbufData{mbuf.block->data(), mbuf.block->size()};
  });
}

absl::StatusOr<size_t> MbufDataLength(void* buf) {
  return MbufTable::Get().With(
      buf, [](Mbuf& mbuf) -> absl::StatusOr<size_t> { return mbuf.data_length; });
}

absl::Status SetMbufDataLength(void* buf, size_t length) {
  return MbufTable::Get().With(buf, [&](Mbuf& mbuf) -> absl::Status {
    if (length > mbuf.block->size()) {
      return AclError(kRtParamInvalid, absl::StrFormat("data length %u exceeds the %u-byte buffer",
                                                       length, mbuf.block->size()));
    }
    mbuf.data_length = length;
    return absl::OkStatus();
  });
}

absl::Status GetMbufUserData(void* buf, void* out, size_t size, size_t offset) {
  NPUD_RETURN_IF_ERROR(CheckUserDataRange(size, offset));
  return MbufTable::Get().With(buf, [&](Mbuf& mbuf) -> absl::Status {
    std::memcpy(out, mbuf.user_data.data() + offset, size);
    return absl::OkStatus();
  });
}

absl::Status SetMbufUserData(void* buf, const void* in, size_t size, size_t offset) {
  NPUD_RETURN_IF_ERROR(CheckUserDataRange(size, offset));
  return MbufTable::Get().With(buf, [&](Mbuf& mbuf) -> absl::Status {
    std::memcpy(mbuf.user_data.data() + offset, in, size);
    return absl::OkStatus();
  });
}

absl::StatusOr<void*> CopyMbufRef(void* buf) {
  NPUD_ASSIGN_OR_RETURN(
      std::unique_ptr<Mbuf> copy,
      MbufTable::Get().With(buf, [](Mbuf& mbuf) -> absl::StatusOr<std::unique_ptr<Mbuf>> {
        auto copy = std::make_unique<Mbuf>();
        copy->block = mbuf.block;
        copy->data_length = mbuf.data_length;
        copy->user_data = mbuf.user_data;
        return copy;
      }));
  return MbufTable::Get().Add(std::move(copy));
}

absl::Status AppendMbufChain(void* head, void* buf) { return MbufTable::Get().Append(head, buf); }

absl::StatusOr<uint32_t> MbufChainLength(void* head) {
  return MbufTable::Get().With(head, [&](Mbuf& mbuf) -> absl::StatusOr<uint32_t> {
    if (mbuf.chain_head != nullptr) {
      return AclError(kRtParamInvalid, absl::StrFormat("%p is not a chain's head", head));
    }
    return static_cast<uint32_t>(mbuf.chain.size() + 1);
  });
}

absl::StatusOr<void*> MbufFromChain(void* head, uint32_t index) {
  return MbufTable::Get().With(head, [&](Mbuf& mbuf) -> absl::StatusOr<void*> {
    if (mbuf.chain_head != nullptr) {
      return AclError(kRtParamInvalid, absl::StrFormat("%p is not a chain's head", head));
    }
    if (index > mbuf.chain.size()) {
      return AclError(kRtParamInvalid, absl::StrFormat("the chain of %p has %u buffers, not %u",
                                                       head, mbuf.chain.size() + 1, index + 1));
    }
    return index == 0 ? head : static_cast<void*>(mbuf.chain[index - 1]);
  });
}

}  // namespace npud::client
