#include "client/core/context_ops.h"

#include "absl/strings/str_format.h"
#include "client/core/daemon_calls.h"
#include "client/core/host_callbacks.h"
#include "client/core/runtime.h"
#include "client/core/runtime_options.h"
#include "client/core/state_callbacks.h"
#include "client/core/thread_state.h"
#include "common/acl_status.h"
#include "common/status_macros.h"
#include "npud/v1/calls.pb.h"

namespace npud::client {
namespace {

// Makes a context record with its default stream, known to the daemon.
absl::StatusOr<uint64_t> NewContext(int32_t device, bool primary) {
  ObjectRegistry& objects = Runtime::Get().objects();
  const uint64_t context = objects.MintId();
  const uint64_t stream = objects.MintId();
  v1::Call call;
  v1::CreateStream* create = call.mutable_create_stream();
  create->set_stream_id(stream);
  create->set_device_id(device);
  NPUD_RETURN_IF_ERROR(PostToDaemon(std::move(call)));
  objects.AddStream(stream, StreamRecord{device, context, /*is_default=*/true});
  objects.AddContext(context, ContextRecord{device, stream, primary});
  NotifyStreamState(stream, kStreamCreated);
  return context;
}

}  // namespace

absl::Status SetDevice(int32_t device) {
  Runtime& runtime = Runtime::Get();
  NPUD_RETURN_IF_ERROR(runtime.CheckDevice(device));
  if (!runtime.objects().DeviceOpen(device)) {
    NPUD_RETURN_IF_ERROR(RuntimeOptions::Get().CheckDeviceOpen());
  }
  NotifyDeviceState(device, kDeviceSetting);
  v1::Call call;
  call.mutable_open_device()->set_device_id(device);
  NPUD_RETURN_IF_ERROR(CallDaemon(std::move(call)).status());

  uint64_t context = runtime.objects().OpenDevice(device);
  if (context == 0) {
    NPUD_ASSIGN_OR_RETURN(context, NewContext(device, /*primary=*/true));
    runtime.objects().SetPrimaryContext(device, context);
  }
  ThisThread().current_context = context;
  NotifyDeviceState(device, kDeviceSet);
  return absl::OkStatus();
}

absl::Status ResetDevice(int32_t device, bool force) {
  Runtime& runtime = Runtime::Get();
  NPUD_RETURN_IF_ERROR(runtime.CheckDevice(device));
  NotifyDeviceState(device, kDeviceResetting);
  NPUD_ASSIGN_OR_RETURN(const bool release, runtime.objects().CloseDevice(device, force));
  if (release) {
    // The last reference: the primary context, every context and stream of
    // the device and their pending work go.
    for (uint64_t stream : runtime.objects().StreamsOf(device)) {
      NotifyStreamState(stream, kStreamDestroying);
      HostCallbacks::Get().ForgetStream(stream);
    }
    runtime.objects().RemoveDevice(device);
    v1::Call call;
    call.mutable_close_device()->set_device_id(device);
    NPUD_RETURN_IF_ERROR(CallDaemon(std::move(call)).status());
  }
  NotifyDeviceState(device, kDeviceReset);
  return absl::OkStatus();
}

absl::StatusOr<CurrentContextInfo> CurrentContext() {
  const uint64_t id = ThisThread().current_context;
  if (id != 0) {
    if (auto record = Runtime::Get().objects().FindContext(id)) {
      return CurrentContextInfo{id, *record};
    }
  }
  return AclError(
      kRtContextNull,
      "no current context in this thread: call aclrtSetDevice or aclrtSetCurrentContext");
}

absl::StatusOr<int32_t> CurrentDevice() {
  NPUD_ASSIGN_OR_RETURN(CurrentContextInfo context, CurrentContext());
  return context.record.device;
}

absl::StatusOr<void*> HardwareSyncAddress() {
  NPUD_ASSIGN_OR_RETURN(const int32_t device, CurrentDevice());
  constexpr uint64_t kSyncRegisters = 0xffff000000000000ull;
  return reinterpret_cast<void*>(kSyncRegisters + static_cast<uint64_t>(device) * 0x10000);
}

absl::Status SynchronizeDevice(int32_t timeout_ms) {
  NPUD_ASSIGN_OR_RETURN(const int32_t device, CurrentDevice());
  v1::Call call;
  call.mutable_synchronize_device()->set_device_id(device);
  call.mutable_synchronize_device()->set_timeout_ms(timeout_ms);
  return CallDaemon(std::move(call)).status();
}

absl::StatusOr<bool> PrimaryContextActive(int32_t device) {
  NPUD_RETURN_IF_ERROR(Runtime::Get().CheckDevice(device));
  return Runtime::Get().objects().DeviceOpen(device);
}

absl::StatusOr<uint64_t> CreateContext(int32_t device) {
  NPUD_RETURN_IF_ERROR(Runtime::Get().CheckDevice(device));
  NPUD_ASSIGN_OR_RETURN(const uint64_t context, NewContext(device, /*primary=*/false));
  ThisThread().current_context = context;
  return context;
}

absl::Status DestroyContext(uint64_t context) {
  Runtime& runtime = Runtime::Get();
  auto record = runtime.objects().FindContext(context);
  if (!record) {
    return AclError(kRtContextNull, absl::StrFormat("context %d does not exist", context));
  }
  if (record->primary) {
    return AclError(kRtContextNull,
                    "the primary context of a device is released by aclrtResetDevice");
  }
  // The context's streams go with it, after their queued work.
  for (uint64_t stream : runtime.objects().RemoveContext(context)) {
    NotifyStreamState(stream, kStreamDestroying);
    HostCallbacks::Get().ForgetStream(stream);
    v1::Call call;
    call.mutable_destroy_stream()->set_stream_id(stream);
    NPUD_RETURN_IF_ERROR(PostToDaemon(std::move(call)));
  }
  if (ThisThread().current_context == context) ThisThread().current_context = 0;
  return absl::OkStatus();
}

absl::Status SetCurrentContext(uint64_t context) {
  if (!Runtime::Get().objects().FindContext(context)) {
    return AclError(kRtParamInvalid, absl::StrFormat("context %d does not exist", context));
  }
  ThisThread().current_context = context;
  return absl::OkStatus();
}

}  // namespace npud::client
