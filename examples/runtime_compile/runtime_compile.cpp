// runtime_compile: an AscendC kernel compiled while the program runs (aclrtc),
// then loaded and launched like any kernel binary.
//
//   1. aclrtcCreateProg with the kernel source and one header, passed as text;
//   2. aclrtcCompileProg with a -D option that picks the activation's slope
//      (npud compiles in the daemon: no compiler is needed here);
//   3. aclrtcGetLoweredName / aclrtcGetBinData: the kernel's symbol and binary;
//   4. aclrtBinaryLoadFromData, aclrtBinaryGetFunction and
//      aclrtLaunchKernelWithHostArgs on a stream; the result is checked on the
//      host. Exit status 0 and a "[SUCCESS]" line mean it matched.
//
// Build against an install tree (after sourcing its set_env.sh), with the
// CMakeLists.txt next to this file or directly:
//   g++ -std=c++17 -Wall -Werror runtime_compile.cpp -I$ASCEND_HOME_PATH/include
//       -L$ASCEND_HOME_PATH/lib64 -lacl_rt -o runtime_compile
// (-lacl_rtc works too, as with CANN: libacl_rtc.so is libacl_rt.so).

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_rt_compile.h"

namespace {

#define CHECK_ACL(call)                                                                    \
  do {                                                                                     \
    const aclError err_ = (call);                                                          \
    if (err_ != ACL_SUCCESS) {                                                             \
      std::fprintf(stderr, "%s:%d: %s failed: %d (%s)\n", __FILE__, __LINE__, #call, err_, \
                   aclGetRecentErrMsg());                                                  \
      std::exit(1);                                                                        \
    }                                                                                      \
  } while (0)

// The kernel: out[i] = leaky_relu(in[i]) over this block's tiles, staged
// through the unified buffer with the usual copy-in / compute / copy-out queues.
const char* const kKernelSource = R"kernel(
#include "kernel_operator.h"
#include "activation/leaky.h"

constexpr uint32_t kTile = 256;

class LeakyRelu {
 public:
  __aicore__ inline void Init(GM_ADDR in, GM_ADDR out, uint32_t tiles_per_block) {
    const uint32_t length = tiles_per_block * kTile;
    const uint32_t offset = length * AscendC::GetBlockIdx();
    in_.SetGlobalBuffer((__gm__ float*)in + offset, length);
    out_.SetGlobalBuffer((__gm__ float*)out + offset, length);
    tiles_ = tiles_per_block;
    pipe_.InitBuffer(queue_in_, 2, kTile * sizeof(float));
    pipe_.InitBuffer(queue_out_, 2, kTile * sizeof(float));
    pipe_.InitBuffer(scratch_, kTile * sizeof(float));
  }

  __aicore__ inline void Process() {
    for (uint32_t t = 0; t < tiles_; ++t) {
      AscendC::LocalTensor<float> x = queue_in_.AllocTensor<float>();
      AscendC::DataCopy(x, in_[t * kTile], kTile);
      queue_in_.EnQue(x);

      x = queue_in_.DeQue<float>();
      AscendC::LocalTensor<float> y = queue_out_.AllocTensor<float>();
      AscendC::LocalTensor<float> scaled = scratch_.Get<float>();
      activation::Leaky(y, x, scaled, kTile);
      queue_out_.EnQue(y);
      queue_in_.FreeTensor(x);

      y = queue_out_.DeQue<float>();
      AscendC::DataCopy(out_[t * kTile], y, kTile);
      queue_out_.FreeTensor(y);
    }
  }

 private:
  AscendC::TPipe pipe_;
  AscendC::TQue<AscendC::QuePosition::VECIN, 2> queue_in_;
  AscendC::TQue<AscendC::QuePosition::VECOUT, 2> queue_out_;
  AscendC::TBuf<AscendC::QuePosition::VECCALC> scratch_;
  AscendC::GlobalTensor<float> in_, out_;
  uint32_t tiles_ = 0;
};

extern "C" __global__ __aicore__ void leaky_relu(GM_ADDR in, GM_ADDR out, uint32_t tiles_per_block) {
  LeakyRelu op;
  op.Init(in, out, tiles_per_block);
  op.Process();
}
)kernel";

// y = max(x, SLOPE * x), for 0 < SLOPE < 1.
const char* const kActivationHeader = R"header(
#pragma once
#include "kernel_operator.h"

namespace activation {
template <typename T>
__aicore__ inline void Leaky(const AscendC::LocalTensor<T>& y, const AscendC::LocalTensor<T>& x,
                             const AscendC::LocalTensor<T>& scratch, uint32_t count) {
  AscendC::Muls(scratch, x, static_cast<T>(SLOPE), count);
  AscendC::Max(y, x, scratch, count);
}
}  // namespace activation
)header";

constexpr float kSlope = 0.125f;
constexpr uint32_t kBlocks = 8;
constexpr uint32_t kTilesPerBlock = 16;
constexpr uint32_t kTile = 256;

std::vector<char> CompileKernel(const char** lowered_name, aclrtcProg* prog) {
  const char* headers[] = {kActivationHeader};
  const char* include_names[] = {"activation/leaky.h"};
  CHECK_ACL(aclrtcCreateProg(prog, kKernelSource, "leaky_relu.cpp", 1, headers, include_names));
  CHECK_ACL(aclrtcAddNameExpr(*prog, "leaky_relu"));

  const char* options[] = {"--npu-arch=dav-2201", "-DSLOPE=0.125f", "-O2"};
  const aclError compiled = aclrtcCompileProg(*prog, 3, options);
  size_t log_size = 0;
  CHECK_ACL(aclrtcGetCompileLogSize(*prog, &log_size));
  std::vector<char> log(log_size);
  CHECK_ACL(aclrtcGetCompileLog(*prog, log.data()));
  if (compiled != ACL_SUCCESS) {
    std::fprintf(stderr, "compilation failed (%d):\n%s\n", compiled, log.data());
    std::exit(1);
  }
  if (log_size > 1) std::printf("compile log:\n%s\n", log.data());

  CHECK_ACL(aclrtcGetLoweredName(*prog, "leaky_relu", lowered_name));
  size_t size = 0;
  CHECK_ACL(aclrtcGetBinDataSize(*prog, &size));
  std::vector<char> binary(size);
  CHECK_ACL(aclrtcGetBinData(*prog, binary.data()));
  std::printf("compiled %s at run time: kernel '%s', %zu bytes of kernel binary\n",
              "leaky_relu.cpp", *lowered_name, size);
  return binary;
}

}  // namespace

int main() {
  // As in CANN's samples, compiling needs no aclInit or device.
  aclrtcProg prog = nullptr;
  const char* lowered_name = nullptr;
  const std::vector<char> binary = CompileKernel(&lowered_name, &prog);

  CHECK_ACL(aclInit(nullptr));
  CHECK_ACL(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  CHECK_ACL(aclrtCreateStream(&stream));

  aclrtBinHandle module = nullptr;
  CHECK_ACL(aclrtBinaryLoadFromData(binary.data(), binary.size(), nullptr, &module));
  aclrtFuncHandle function = nullptr;
  CHECK_ACL(aclrtBinaryGetFunction(module, lowered_name, &function));

  const uint32_t count = kBlocks * kTilesPerBlock * kTile;
  const size_t bytes = count * sizeof(float);
  std::vector<float> input(count), output(count, 0.0f);
  for (uint32_t i = 0; i < count; ++i) {
    input[i] = static_cast<float>(static_cast<int32_t>(i % 1001) - 500) * 0.25f;
  }
  void* device_in = nullptr;
  void* device_out = nullptr;
  CHECK_ACL(aclrtMalloc(&device_in, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ACL(aclrtMalloc(&device_out, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ACL(aclrtMemcpy(device_in, bytes, input.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));

  // The kernel's parameters, packed as a C struct.
  struct {
    void* in;
    void* out;
    uint32_t tiles_per_block;
  } args{device_in, device_out, kTilesPerBlock};
  CHECK_ACL(aclrtLaunchKernelWithHostArgs(function, kBlocks, stream, nullptr, &args, sizeof(args),
                                          nullptr, 0));
  CHECK_ACL(aclrtSynchronizeStream(stream));
  CHECK_ACL(aclrtMemcpy(output.data(), bytes, device_out, bytes, ACL_MEMCPY_DEVICE_TO_HOST));

  uint32_t mismatches = 0;
  for (uint32_t i = 0; i < count; ++i) {
    const float expected = input[i] > 0.0f ? input[i] : kSlope * input[i];
    if (std::fabs(output[i] - expected) > 1e-6f) {
      if (mismatches < 5) {
        std::fprintf(stderr, "out[%u] = %f, expected %f\n", i, static_cast<double>(output[i]),
                     static_cast<double>(expected));
      }
      ++mismatches;
    }
  }

  CHECK_ACL(aclrtFree(device_in));
  CHECK_ACL(aclrtFree(device_out));
  CHECK_ACL(aclrtBinaryUnLoad(module));
  CHECK_ACL(aclrtDestroyStream(stream));
  CHECK_ACL(aclrtResetDevice(0));
  CHECK_ACL(aclFinalize());
  // The lowered name belongs to the program: destroy it last.
  CHECK_ACL(aclrtcDestroyProg(&prog));

  if (mismatches != 0) {
    std::printf("[FAILED] %u of %u elements differ\n", mismatches, count);
    return 1;
  }
  std::printf(
      "[SUCCESS] run-time compiled leaky_relu: %u elements on %u blocks match the host result\n",
      count, kBlocks);
  return 0;
}
