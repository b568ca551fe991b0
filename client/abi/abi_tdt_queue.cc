// ACL entry points of TDT queues (acl_tdt_queue.h): attributes, routes and
// route lists are objects of this library; queues and bound routes live in
// npud (client/core/tdt_queue_ops.h), on the current device.

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_format.h"
#include "acl/acl.h"
#include "acl/acl_tdt_queue.h"
#include "client/abi/abi_status.h"
#include "client/core/context_ops.h"
#include "client/core/mbufs.h"
#include "client/core/tdt_queue_ops.h"
#include "client/generated/acl_impl.h"
#include "common/acl_status.h"
#include "common/status_macros.h"

using npud::client::Result;
using npud::client::ResultInto;

namespace {

constexpr size_t kNameBytes = 128;
constexpr uint32_t kDefaultDepth = 8;

}  // namespace

// The opaque types behind the handles.
struct tagMemQueueAttr {
  char name[kNameBytes] = {};
  uint32_t depth = kDefaultDepth;
};

struct acltdtQueueRoute {
  uint32_t src = 0;
  uint32_t dst = 0;
  int32_t status = ACL_TDT_QUEUE_ROUTE_UNBIND;
};

struct acltdtQueueRouteList {
  std::vector<acltdtQueueRoute> routes;  // copies
};

struct acltdtQueueRouteQueryInfo {
  int32_t mode = 0;
  uint32_t src = 0;
  uint32_t dst = 0;
  bool has_mode = false;
  bool has_src = false;
  bool has_dst = false;
};

namespace {

absl::Status Invalid(const std::string& why) { return npud::AclError(npud::kAclInvalidParam, why); }

absl::Status CheckQueueTimeout(int32_t timeout) {
  if (timeout < -1) return Invalid(absl::StrFormat("timeout %d: -1, 0 or milliseconds", timeout));
  return absl::OkStatus();
}

// A parameter of exactly `size` bytes.
absl::Status CheckLength(size_t len, size_t size, const char* what) {
  if (len != size) return Invalid(absl::StrFormat("%s takes %d bytes, not %d", what, size, len));
  return absl::OkStatus();
}

std::vector<npud::client::TdtRoute> RoutesOf(const acltdtQueueRouteList& list) {
  std::vector<npud::client::TdtRoute> routes;
  for (const acltdtQueueRoute& route : list.routes) routes.push_back({route.src, route.dst, 0});
  return routes;
}

absl::Status BindOrUnbind(acltdtQueueRouteList* list, bool unbind) {
  NPUD_ASSIGN_OR_RETURN(const int32_t device, npud::client::CurrentDevice());
  std::vector<npud::client::TdtRoute> routes = RoutesOf(*list);
  NPUD_RETURN_IF_ERROR(npud::client::BindTdtRoutes(device, &routes, unbind));
  for (size_t i = 0; i < routes.size(); ++i) list->routes[i].status = routes[i].status;
  return absl::OkStatus();
}

absl::Status Query(const acltdtQueueRouteQueryInfo& info, acltdtQueueRouteList* list) {
  list->routes.clear();
  if (!info.has_mode) return Invalid("the query's mode is not set");
  switch (info.mode) {
    case ACL_TDT_QUEUE_ROUTE_QUERY_SRC:
      if (!info.has_src) return Invalid("a query by source without a source");
      break;
    case ACL_TDT_QUEUE_ROUTE_QUERY_DST:
      if (!info.has_dst) return Invalid("a query by destination without a destination");
      break;
    case ACL_TDT_QUEUE_ROUTE_QUERY_SRC_AND_DST:
      if (!info.has_src || !info.has_dst) return Invalid("a query of a pair without both ends");
      break;
    case ACL_TDT_QUEUE_ROUTE_QUERY_ABNORMAL:
      break;
    default:
      return Invalid(absl::StrFormat("%d is not an acltdtQueueRouteQueryMode", info.mode));
  }
  NPUD_ASSIGN_OR_RETURN(const int32_t device, npud::client::CurrentDevice());
  NPUD_ASSIGN_OR_RETURN(std::vector<npud::client::TdtRoute> found,
                        npud::client::QueryTdtRoutes(device, info.mode, info.src, info.dst));
  for (const npud::client::TdtRoute& route : found) {
    list->routes.push_back({route.src, route.dst, route.status});
  }
  return absl::OkStatus();
}

absl::Status EnqueueData(uint32_t qid, const void* data, size_t dataSize, const void* userData,
                         size_t userDataSize, int32_t timeout) {
  if (dataSize == 0) return Invalid("dataSize is 0");
  if (userData == nullptr && userDataSize != 0) return Invalid("userData is null");
  NPUD_RETURN_IF_ERROR(CheckQueueTimeout(timeout));
  NPUD_ASSIGN_OR_RETURN(const int32_t device, npud::client::CurrentDevice());
  std::string user;
  if (userDataSize != 0) user.assign(static_cast<const char*>(userData), userDataSize);
  return npud::client::EnqueueTdt(
      device, qid, std::string(static_cast<const char*>(data), dataSize), std::move(user), timeout);
}

absl::Status DequeueData(uint32_t qid, void* data, size_t dataSize, size_t* retDataSize,
                         void* userData, size_t userDataSize, int32_t timeout) {
  if (dataSize == 0) return Invalid("dataSize is 0");
  if (userData == nullptr && userDataSize != 0) return Invalid("userData is null");
  NPUD_RETURN_IF_ERROR(CheckQueueTimeout(timeout));
  NPUD_ASSIGN_OR_RETURN(const int32_t device, npud::client::CurrentDevice());
  NPUD_ASSIGN_OR_RETURN(npud::client::TdtMessage message,
                        npud::client::DequeueTdt(device, qid, dataSize, timeout));
  *retDataSize = message.size;
  if (message.too_large) {
    return npud::AclError(npud::kRtParamInvalid,
                          absl::StrFormat("the next message of queue %u has %d bytes, more than "
                                          "the %d given; it stays queued",
                                          qid, message.size, dataSize));
  }
  std::memcpy(data, message.data.data(), message.data.size());
  if (userDataSize != 0) {
    std::memset(userData, 0, userDataSize);
    std::memcpy(userData, message.user_data.data(),
                std::min(userDataSize, message.user_data.size()));
  }
  return absl::OkStatus();
}

// A buffer travels as one message: its valid bytes and its whole private
// area. The queue takes it over (CANN's acltdtEnqueue does): it is freed
// once queued, and the dequeuer gets a new one.
absl::Status EnqueueBuffer(uint32_t qid, void* buf, int32_t timeout) {
  NPUD_RETURN_IF_ERROR(CheckQueueTimeout(timeout));
  NPUD_ASSIGN_OR_RETURN(const uint32_t chained, npud::client::MbufChainLength(buf));
  if (chained != 1) {
    return npud::AclError(npud::kRtFeatureNotSupport,
                          absl::StrFormat("queuing a chain of %u buffers: npud queues one buffer "
                                          "per message",
                                          chained));
  }
  NPUD_ASSIGN_OR_RETURN(const npud::client::MbufData data, npud::client::MbufDataOf(buf));
  NPUD_ASSIGN_OR_RETURN(const size_t length, npud::client::MbufDataLength(buf));
  if (length == 0) return Invalid("the buffer holds no data (acltdtSetBufDataLen sets its length)");
  std::string user(npud::client::kMbufUserDataBytes, '\0');
  NPUD_RETURN_IF_ERROR(npud::client::GetMbufUserData(buf, user.data(), user.size(), 0));
  NPUD_ASSIGN_OR_RETURN(const int32_t device, npud::client::CurrentDevice());
  NPUD_RETURN_IF_ERROR(npud::client::EnqueueTdt(
      device, qid, std::string(static_cast<const char*>(data.data), length), std::move(user),
      timeout));
  return npud::client::FreeMbuf(buf);
}

absl::StatusOr<void*> DequeueBuffer(uint32_t qid, int32_t timeout) {
  NPUD_RETURN_IF_ERROR(CheckQueueTimeout(timeout));
  NPUD_ASSIGN_OR_RETURN(const int32_t device, npud::client::CurrentDevice());
  NPUD_ASSIGN_OR_RETURN(npud::client::TdtMessage message,
                        npud::client::DequeueTdt(device, qid, /*max_bytes=*/0, timeout));
  NPUD_ASSIGN_OR_RETURN(void* buf,
                        npud::client::AllocMbuf(std::max<size_t>(message.data.size(), 1)));
  NPUD_ASSIGN_OR_RETURN(const npud::client::MbufData data, npud::client::MbufDataOf(buf));
  std::memcpy(data.data, message.data.data(), message.data.size());
  absl::Status filled = npud::client::SetMbufDataLength(buf, message.data.size());
  const size_t user = std::min(message.user_data.size(), npud::client::kMbufUserDataBytes);
  if (filled.ok() && user != 0) {
    filled = npud::client::SetMbufUserData(buf, message.user_data.data(), user, 0);
  }
  if (!filled.ok()) {
    (void)npud::client::FreeMbuf(buf);
    return filled;
  }
  return buf;
}

}  // namespace

namespace npud::abi_impl {

aclError acltdtCreateQueue(const acltdtQueueAttr* attr, uint32_t* qid) {
  NPUD_REQUIRE_NOT_NULL(qid);
  const acltdtQueueAttr defaults;
  const acltdtQueueAttr& use = attr != nullptr ? *attr : defaults;
  auto device = npud::client::CurrentDevice();
  if (!device.ok()) return Result(device.status(), __func__);
  return npud::client::ResultInto(
      npud::client::CreateTdtQueue(*device, std::string(use.name, strnlen(use.name, kNameBytes)),
                                   use.depth),
      qid, __func__);
}

aclError acltdtDestroyQueue(uint32_t qid) {
  auto device = npud::client::CurrentDevice();
  if (!device.ok()) return Result(device.status(), __func__);
  return Result(npud::client::DestroyTdtQueue(*device, qid), __func__);
}

aclError acltdtEnqueue(uint32_t qid, acltdtBuf buf, int32_t timeout) {
  NPUD_REQUIRE_NOT_NULL(buf);
  return Result(EnqueueBuffer(qid, buf, timeout), __func__);
}

aclError acltdtDequeue(uint32_t qid, acltdtBuf* buf, int32_t timeout) {
  NPUD_REQUIRE_NOT_NULL(buf);
  return ResultInto(DequeueBuffer(qid, timeout), buf, __func__);
}

aclError acltdtEnqueueData(uint32_t qid, const void* data, size_t dataSize, const void* userData,
                           size_t userDataSize, int32_t timeout, uint32_t rsv) {
  (void)rsv;
  NPUD_REQUIRE_NOT_NULL(data);
  return Result(EnqueueData(qid, data, dataSize, userData, userDataSize, timeout), __func__);
}

aclError acltdtDequeueData(uint32_t qid, void* data, size_t dataSize, size_t* retDataSize,
                           void* userData, size_t userDataSize, int32_t timeout) {
  NPUD_REQUIRE_NOT_NULL(data);
  NPUD_REQUIRE_NOT_NULL(retDataSize);
  return Result(DequeueData(qid, data, dataSize, retDataSize, userData, userDataSize, timeout),
                __func__);
}

aclError acltdtBindQueueRoutes(acltdtQueueRouteList* qRouteList) {
  NPUD_REQUIRE_NOT_NULL(qRouteList);
  return Result(BindOrUnbind(qRouteList, /*unbind=*/false), __func__);
}

aclError acltdtUnbindQueueRoutes(acltdtQueueRouteList* qRouteList) {
  NPUD_REQUIRE_NOT_NULL(qRouteList);
  return Result(BindOrUnbind(qRouteList, /*unbind=*/true), __func__);
}

aclError acltdtQueryQueueRoutes(const acltdtQueueRouteQueryInfo* queryInfo,
                                acltdtQueueRouteList* qRouteList) {
  NPUD_REQUIRE_NOT_NULL(qRouteList);
  NPUD_REQUIRE_NOT_NULL(queryInfo);
  return Result(Query(*queryInfo, qRouteList), __func__);
}

aclError acltdtAllocBuf(size_t size, uint32_t type, acltdtBuf* buf) {
  if (type != ACL_TDT_NORMAL_MEM && type != ACL_TDT_DVPP_MEM) {
    return Result(Invalid(absl::StrFormat("%u is not an acltdtAllocBufType", type)), __func__);
  }
  return aclrtAllocBuf(buf, size);
}

aclError acltdtFreeBuf(acltdtBuf buf) { return aclrtFreeBuf(buf); }

aclError acltdtGetBufData(const acltdtBuf buf, void** dataPtr, size_t* size) {
  return aclrtGetBufData(buf, dataPtr, size);
}

aclError acltdtSetBufDataLen(acltdtBuf buf, size_t len) { return aclrtSetBufDataLen(buf, len); }

aclError acltdtGetBufDataLen(acltdtBuf buf, size_t* len) { return aclrtGetBufDataLen(buf, len); }

aclError acltdtAppendBufChain(acltdtBuf headBuf, acltdtBuf buf) {
  return aclrtAppendBufChain(headBuf, buf);
}

aclError acltdtGetBufChainNum(acltdtBuf headBuf, uint32_t* num) {
  return aclrtGetBufChainNum(headBuf, num);
}

aclError acltdtGetBufFromChain(acltdtBuf headBuf, uint32_t index, acltdtBuf* buf) {
  return aclrtGetBufFromChain(headBuf, index, buf);
}

aclError acltdtGetBufUserData(const acltdtBuf buf, void* dataPtr, size_t size, size_t offset) {
  return aclrtGetBufUserData(buf, dataPtr, size, offset);
}

aclError acltdtSetBufUserData(acltdtBuf buf, const void* dataPtr, size_t size, size_t offset) {
  return aclrtSetBufUserData(buf, dataPtr, size, offset);
}

aclError acltdtCopyBufRef(const acltdtBuf buf, acltdtBuf* newBuf) {
  return aclrtCopyBufRef(buf, newBuf);
}

acltdtQueueAttr* acltdtCreateQueueAttr() { return new acltdtQueueAttr; }

aclError acltdtDestroyQueueAttr(const acltdtQueueAttr* attr) {
  NPUD_REQUIRE_NOT_NULL(attr);
  delete attr;
  return ACL_SUCCESS;
}

aclError acltdtSetQueueAttr(acltdtQueueAttr* attr, acltdtQueueAttrType type, size_t len,
                            const void* param) {
  NPUD_REQUIRE_NOT_NULL(attr);
  NPUD_REQUIRE_NOT_NULL(param);
  if (type == ACL_TDT_QUEUE_NAME_PTR) {
    if (absl::Status ok = CheckLength(len, sizeof(const char*), "ACL_TDT_QUEUE_NAME_PTR");
        !ok.ok()) {
      return Result(ok, __func__);
    }
    const char* name = *static_cast<const char* const*>(param);
    NPUD_REQUIRE_NOT_NULL(name);
    const size_t length = strnlen(name, kNameBytes);
    if (length >= kNameBytes) {
      return Result(
          Invalid(absl::StrFormat("a queue name has at most %d characters", kNameBytes - 1)),
          __func__);
    }
    std::memset(attr->name, 0, kNameBytes);
    std::memcpy(attr->name, name, length);
    return ACL_SUCCESS;
  }
  if (type == ACL_TDT_QUEUE_DEPTH_UINT32) {
    if (absl::Status ok = CheckLength(len, sizeof(uint32_t), "ACL_TDT_QUEUE_DEPTH_UINT32");
        !ok.ok()) {
      return Result(ok, __func__);
    }
    // Its range is checked when the queue is created, as in CANN.
    std::memcpy(&attr->depth, param, sizeof(uint32_t));
    return ACL_SUCCESS;
  }
  return Result(Invalid(absl::StrFormat("%d is not an acltdtQueueAttrType", type)), __func__);
}

aclError acltdtGetQueueAttr(const acltdtQueueAttr* attr, acltdtQueueAttrType type, size_t len,
                            size_t* paramRetSize, void* param) {
  NPUD_REQUIRE_NOT_NULL(attr);
  NPUD_REQUIRE_NOT_NULL(paramRetSize);
  NPUD_REQUIRE_NOT_NULL(param);
  if (type == ACL_TDT_QUEUE_NAME_PTR) {
    if (len < sizeof(const char*)) {
      return Result(Invalid("ACL_TDT_QUEUE_NAME_PTR needs room for a pointer"), __func__);
    }
    const char* name = attr->name;
    std::memcpy(param, &name, sizeof(name));
    *paramRetSize = sizeof(name);
    return ACL_SUCCESS;
  }
  if (type == ACL_TDT_QUEUE_DEPTH_UINT32) {
    if (len < sizeof(uint32_t)) {
      return Result(Invalid("ACL_TDT_QUEUE_DEPTH_UINT32 needs 4 bytes"), __func__);
    }
    std::memcpy(param, &attr->depth, sizeof(uint32_t));
    *paramRetSize = sizeof(uint32_t);
    return ACL_SUCCESS;
  }
  return Result(Invalid(absl::StrFormat("%d is not an acltdtQueueAttrType", type)), __func__);
}

acltdtQueueRoute* acltdtCreateQueueRoute(uint32_t srcId, uint32_t dstId) {
  return new acltdtQueueRoute{srcId, dstId, ACL_TDT_QUEUE_ROUTE_UNBIND};
}

aclError acltdtDestroyQueueRoute(const acltdtQueueRoute* route) {
  NPUD_REQUIRE_NOT_NULL(route);
  delete route;
  return ACL_SUCCESS;
}

aclError acltdtGetQueueRouteParam(const acltdtQueueRoute* route, acltdtQueueRouteParamType type,
                                  size_t len, size_t* paramRetSize, void* param) {
  NPUD_REQUIRE_NOT_NULL(route);
  NPUD_REQUIRE_NOT_NULL(paramRetSize);
  NPUD_REQUIRE_NOT_NULL(param);
  if (len < sizeof(uint32_t)) return Result(Invalid("a route parameter needs 4 bytes"), __func__);
  switch (type) {
    case ACL_TDT_QUEUE_ROUTE_SRC_UINT32:
      std::memcpy(param, &route->src, sizeof(uint32_t));
      break;
    case ACL_TDT_QUEUE_ROUTE_DST_UINT32:
      std::memcpy(param, &route->dst, sizeof(uint32_t));
      break;
    case ACL_TDT_QUEUE_ROUTE_STATUS_INT32:
      std::memcpy(param, &route->status, sizeof(int32_t));
      break;
    default:
      return Result(Invalid(absl::StrFormat("%d is not an acltdtQueueRouteParamType", type)),
                    __func__);
  }
  *paramRetSize = sizeof(uint32_t);
  return ACL_SUCCESS;
}

acltdtQueueRouteList* acltdtCreateQueueRouteList() { return new acltdtQueueRouteList; }

aclError acltdtDestroyQueueRouteList(const acltdtQueueRouteList* routeList) {
  NPUD_REQUIRE_NOT_NULL(routeList);
  delete routeList;
  return ACL_SUCCESS;
}

aclError acltdtAddQueueRoute(acltdtQueueRouteList* routeList, const acltdtQueueRoute* route) {
  NPUD_REQUIRE_NOT_NULL(routeList);
  NPUD_REQUIRE_NOT_NULL(route);
  routeList->routes.push_back(*route);
  return ACL_SUCCESS;
}

aclError acltdtGetQueueRoute(const acltdtQueueRouteList* routeList, size_t index,
                             acltdtQueueRoute* route) {
  NPUD_REQUIRE_NOT_NULL(routeList);
  NPUD_REQUIRE_NOT_NULL(route);
  if (index >= routeList->routes.size()) {
    return Result(
        Invalid(absl::StrFormat("route %d of a list of %d", index, routeList->routes.size())),
        __func__);
  }
  *route = routeList->routes[index];
  return ACL_SUCCESS;
}

size_t acltdtGetQueueRouteNum(const acltdtQueueRouteList* routeList) {
  return routeList == nullptr ? 0 : routeList->routes.size();
}

acltdtQueueRouteQueryInfo* acltdtCreateQueueRouteQueryInfo() {
  return new acltdtQueueRouteQueryInfo;
}

aclError acltdtDestroyQueueRouteQueryInfo(const acltdtQueueRouteQueryInfo* info) {
  NPUD_REQUIRE_NOT_NULL(info);
  delete info;
  return ACL_SUCCESS;
}

aclError acltdtSetQueueRouteQueryInfo(acltdtQueueRouteQueryInfo* param,
                                      acltdtQueueRouteQueryInfoParamType type, size_t len,
                                      const void* value) {
  NPUD_REQUIRE_NOT_NULL(param);
  NPUD_REQUIRE_NOT_NULL(value);
  if (len > sizeof(uint32_t) || len == 0) {
    return Result(Invalid("a route query parameter takes 4 bytes"), __func__);
  }
  uint32_t number = 0;
  std::memcpy(&number, value, len);
  switch (type) {
    case ACL_TDT_QUEUE_ROUTE_QUERY_MODE_ENUM:
      param->mode = static_cast<int32_t>(number);
      param->has_mode = true;
      return ACL_SUCCESS;
    case ACL_TDT_QUEUE_ROUTE_QUERY_SRC_ID_UINT32:
      param->src = number;
      param->has_src = true;
      return ACL_SUCCESS;
    case ACL_TDT_QUEUE_ROUTE_QUERY_DST_ID_UINT32:
      param->dst = number;
      param->has_dst = true;
      return ACL_SUCCESS;
  }
  return Result(Invalid(absl::StrFormat("%d is not an acltdtQueueRouteQueryInfoParamType", type)),
                __func__);
}

}  // namespace npud::abi_impl
