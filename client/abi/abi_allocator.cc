// ACL user allocator entry points (acl_rt_allocator.h).

#include "acl/acl.h"
#include "acl/acl_rt_allocator.h"
#include "client/abi/abi_status.h"
#include "client/core/allocators.h"
#include "client/generated/acl_impl.h"
#include "common/acl_status.h"

using npud::client::AllocatorDesc;
using npud::client::AnyFunction;
using npud::client::Result;

namespace {

AllocatorDesc* DescOf(aclrtAllocatorDesc desc) { return static_cast<AllocatorDesc*>(desc); }

template <typename Fn>
AnyFunction Erase(Fn fn) {
  return reinterpret_cast<AnyFunction>(fn);
}

template <typename Fn>
Fn Restore(AnyFunction fn) {
  return reinterpret_cast<Fn>(fn);
}

}  // namespace

namespace npud::abi_impl {

aclrtAllocatorDesc aclrtAllocatorCreateDesc() { return npud::client::CreateAllocatorDesc(); }

aclError aclrtAllocatorDestroyDesc(aclrtAllocatorDesc allocatorDesc) {
  NPUD_REQUIRE_NOT_NULL(allocatorDesc);
  return Result(npud::client::DestroyAllocatorDesc(DescOf(allocatorDesc)), __func__);
}

aclError aclrtAllocatorSetObjToDesc(aclrtAllocatorDesc allocatorDesc, aclrtAllocator allocator) {
  NPUD_REQUIRE_NOT_NULL(allocatorDesc);
  NPUD_REQUIRE_NOT_NULL(allocator);
  return Result(npud::client::UpdateAllocatorDesc(
                    DescOf(allocatorDesc), [&](AllocatorDesc& d) { d.allocator = allocator; }),
                __func__);
}

aclError aclrtAllocatorSetAllocFuncToDesc(aclrtAllocatorDesc allocatorDesc,
                                          aclrtAllocatorAllocFunc func) {
  NPUD_REQUIRE_NOT_NULL(allocatorDesc);
  NPUD_REQUIRE_NOT_NULL(func);
  return Result(npud::client::UpdateAllocatorDesc(DescOf(allocatorDesc),
                                                  [&](AllocatorDesc& d) { d.alloc = Erase(func); }),
                __func__);
}

aclError aclrtAllocatorSetFreeFuncToDesc(aclrtAllocatorDesc allocatorDesc,
                                         aclrtAllocatorFreeFunc func) {
  NPUD_REQUIRE_NOT_NULL(allocatorDesc);
  NPUD_REQUIRE_NOT_NULL(func);
  return Result(npud::client::UpdateAllocatorDesc(DescOf(allocatorDesc),
                                                  [&](AllocatorDesc& d) { d.free = Erase(func); }),
                __func__);
}

aclError aclrtAllocatorSetAllocAdviseFuncToDesc(aclrtAllocatorDesc allocatorDesc,
                                                aclrtAllocatorAllocAdviseFunc func) {
  NPUD_REQUIRE_NOT_NULL(allocatorDesc);
  NPUD_REQUIRE_NOT_NULL(func);
  return Result(npud::client::UpdateAllocatorDesc(
                    DescOf(allocatorDesc), [&](AllocatorDesc& d) { d.alloc_advise = Erase(func); }),
                __func__);
}

aclError aclrtAllocatorSetGetAddrFromBlockFuncToDesc(aclrtAllocatorDesc allocatorDesc,
                                                     aclrtAllocatorGetAddrFromBlockFunc func) {
  NPUD_REQUIRE_NOT_NULL(allocatorDesc);
  NPUD_REQUIRE_NOT_NULL(func);
  return Result(
      npud::client::UpdateAllocatorDesc(
          DescOf(allocatorDesc), [&](AllocatorDesc& d) { d.get_addr_from_block = Erase(func); }),
      __func__);
}

aclError aclrtAllocatorRegister(aclrtStream stream, aclrtAllocatorDesc allocatorDesc) {
  NPUD_REQUIRE_NOT_NULL(stream);
  NPUD_REQUIRE_NOT_NULL(allocatorDesc);
  return Result(npud::client::RegisterAllocator(stream, DescOf(allocatorDesc)), __func__);
}

aclError aclrtAllocatorGetByStream(aclrtStream stream, aclrtAllocatorDesc* allocatorDesc,
                                   aclrtAllocator* allocator, aclrtAllocatorAllocFunc* allocFunc,
                                   aclrtAllocatorFreeFunc* freeFunc,
                                   aclrtAllocatorAllocAdviseFunc* allocAdviseFunc,
                                   aclrtAllocatorGetAddrFromBlockFunc* getAddrFromBlockFunc) {
  NPUD_REQUIRE_NOT_NULL(stream);
  auto registered = npud::client::AllocatorOf(stream);
  if (!registered.ok()) return Result(registered.status(), __func__);
  const AllocatorDesc& d = registered->copy;
  // Each output is optional.
  if (allocatorDesc != nullptr) *allocatorDesc = registered->desc;
  if (allocator != nullptr) *allocator = d.allocator;
  if (allocFunc != nullptr) *allocFunc = Restore<aclrtAllocatorAllocFunc>(d.alloc);
  if (freeFunc != nullptr) *freeFunc = Restore<aclrtAllocatorFreeFunc>(d.free);
  if (allocAdviseFunc != nullptr) {
    *allocAdviseFunc = Restore<aclrtAllocatorAllocAdviseFunc>(d.alloc_advise);
  }
  if (getAddrFromBlockFunc != nullptr) {
    *getAddrFromBlockFunc = Restore<aclrtAllocatorGetAddrFromBlockFunc>(d.get_addr_from_block);
  }
  return ACL_SUCCESS;
}

aclError aclrtAllocatorUnregister(aclrtStream stream) {
  NPUD_REQUIRE_NOT_NULL(stream);
  return Result(npud::client::UnregisterAllocator(stream), __func__);
}

}  // namespace npud::abi_impl
