// Run-time compilation end to end: AscendC sources compiled with aclrtc by a
// real npud (unix socket or TCP, as NPUD_TEST_TRANSPORT says), the binaries
// loaded with aclrtBinaryLoadFromData and launched; compile errors, the RTC
// error codes and the daemon's compile cache.

#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_rt_compile.h"
#include "gtest/gtest.h"
#include "tests/e2e/daemon_environment.h"

namespace {

// CANN's RTC codes (no header declares them).
constexpr aclError kRtcInvalidProg = 176000;
constexpr aclError kRtcInvalidInput = 176001;
constexpr aclError kRtcInvalidOption = 176002;
constexpr aclError kRtcCompilation = 176003;
constexpr aclError kRtcNoNameExprAfterCompilation = 176005;
constexpr aclError kRtcNoLoweredNamesBeforeCompilation = 176006;
constexpr aclError kRtcNameExprNotValid = 176007;

const auto* const kEnvironment =
    ::testing::AddGlobalTestEnvironment(new npud::testing::DaemonEnvironment);

// y[i] = ALPHA * x[i] + y[i] over this block's share of n floats; ALPHA comes
// from a header in a subdirectory, its value from a -D option.
constexpr char kAxpySource[] = R"src(#include "kernel_operator.h"
#include "rtc/alpha.h"

extern "C" __global__ __aicore__ void axpy(GM_ADDR x, GM_ADDR y, uint32_t n) {
  const uint32_t per_block = (n + AscendC::GetBlockNum() - 1) / AscendC::GetBlockNum();
  const uint32_t begin = per_block * AscendC::GetBlockIdx();
  const uint32_t end = begin + per_block < n ? begin + per_block : n;
  AscendC::GlobalTensor<float> gx, gy;
  gx.SetGlobalBuffer((__gm__ float*)x, n);
  gy.SetGlobalBuffer((__gm__ float*)y, n);
  for (uint32_t i = begin; i < end; ++i) gy.SetValue(i, kAlpha * gx.GetValue(i) + gy.GetValue(i));
}

// Not a kernel the binary registers: C++ linkage.
__global__ __aicore__ void cxx_kernel() {}
)src";

constexpr char kAlphaHeader[] = "#pragma once\nconstexpr float kAlpha = ALPHA;\n";

std::string CompileLog(aclrtcProg prog) {
  size_t size = 0;
  EXPECT_EQ(aclrtcGetCompileLogSize(prog, &size), ACL_SUCCESS);
  EXPECT_GE(size, 1u);
  std::string log(size, '\xAA');
  EXPECT_EQ(aclrtcGetCompileLog(prog, log.data()), ACL_SUCCESS);
  EXPECT_EQ(log.back(), '\0') << "the log is NUL-terminated";
  log.pop_back();
  EXPECT_EQ(std::strlen(log.c_str()), log.size());
  return log;
}

std::string Binary(aclrtcProg prog) {
  size_t size = 0;
  EXPECT_EQ(aclrtcGetBinDataSize(prog, &size), ACL_SUCCESS);
  std::string binary(size, '\0');
  if (size > 0) {
    EXPECT_EQ(aclrtcGetBinData(prog, binary.data()), ACL_SUCCESS);
  }
  return binary;
}

aclrtcProg CreateAxpy(const char* name) {
  const char* headers[] = {kAlphaHeader};
  const char* include_names[] = {"rtc/alpha.h"};
  aclrtcProg prog = nullptr;
  EXPECT_EQ(aclrtcCreateProg(&prog, kAxpySource, name, 1, headers, include_names), ACL_SUCCESS);
  EXPECT_NE(prog, nullptr);
  return prog;
}

class RtcTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
  }
  void TearDown() override {
    for (void* p : device_) EXPECT_EQ(aclrtFree(p), ACL_SUCCESS);
    for (aclrtBinHandle binary : binaries_) EXPECT_EQ(aclrtBinaryUnLoad(binary), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyStreamForce(stream_), ACL_SUCCESS);
  }

  float* Upload(const std::vector<float>& host) {
    void* p = nullptr;
    EXPECT_EQ(aclrtMalloc(&p, host.size() * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    device_.push_back(p);
    EXPECT_EQ(aclrtMemcpy(p, host.size() * sizeof(float), host.data(), host.size() * sizeof(float),
                          ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_SUCCESS);
    return static_cast<float*>(p);
  }
  std::vector<float> Download(const float* device, size_t count) {
    std::vector<float> host(count);
    EXPECT_EQ(aclrtMemcpy(host.data(), count * sizeof(float), device, count * sizeof(float),
                          ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_SUCCESS);
    return host;
  }

  // Loads `binary` and runs its kernel `name` (an axpy) on fresh data; checks
  // y = alpha * x + y.
  void RunAxpy(const std::string& binary, const char* name, float alpha) {
    aclrtBinHandle handle = nullptr;
    ASSERT_EQ(aclrtBinaryLoadFromData(binary.data(), binary.size(), nullptr, &handle), ACL_SUCCESS);
    binaries_.push_back(handle);
    aclrtFuncHandle function = nullptr;
    ASSERT_EQ(aclrtBinaryGetFunction(handle, name, &function), ACL_SUCCESS);
    uint32_t count = 0;
    ASSERT_EQ(aclrtBinaryGetFunctionCount(handle, &count), ACL_SUCCESS);
    EXPECT_EQ(count, 1u) << "only the extern \"C\" kernel is registered";

    const uint32_t n = 10000;
    std::vector<float> x(n), y(n);
    for (uint32_t i = 0; i < n; ++i) {
      x[i] = static_cast<float>(i % 100);
      y[i] = 0.5f * static_cast<float>(i % 7);
    }
    struct {
      float* x;
      float* y;
      uint32_t n;
    } args{Upload(x), Upload(y), n};
    ASSERT_EQ(aclrtLaunchKernelWithHostArgs(function, 8, stream_, nullptr, &args, sizeof(args),
                                            nullptr, 0),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    const std::vector<float> result = Download(args.y, n);
    for (uint32_t i = 0; i < n; ++i) ASSERT_FLOAT_EQ(result[i], alpha * x[i] + y[i]) << "at " << i;
  }

  aclrtStream stream_ = nullptr;
  std::vector<void*> device_;
  std::vector<aclrtBinHandle> binaries_;
};

TEST_F(RtcTest, CompileLoadLaunch) {
  aclrtcProg prog = CreateAxpy("axpy.cpp");
  ASSERT_EQ(aclrtcAddNameExpr(prog, "axpy"), ACL_SUCCESS);
  const char* options[] = {"--npu-arch=dav-2201", "-DALPHA=2.5f", "-O2"};
  ASSERT_EQ(aclrtcCompileProg(prog, 3, options), ACL_SUCCESS) << CompileLog(prog);

  const char* lowered = nullptr;
  ASSERT_EQ(aclrtcGetLoweredName(prog, "axpy", &lowered), ACL_SUCCESS);
  ASSERT_NE(lowered, nullptr);
  EXPECT_STREQ(lowered, "axpy");
  // The C++-linkage kernel is left out, and the log says so.
  EXPECT_NE(CompileLog(prog).find("'cxx_kernel' is not registered as a kernel"), std::string::npos);

  const std::string binary = Binary(prog);
  ASSERT_GT(binary.size(), 4u);
  EXPECT_EQ(binary.substr(0, 4),
            "\x7f"
            "ELF");
  RunAxpy(binary, lowered, 2.5f);

  ASSERT_EQ(aclrtcDestroyProg(&prog), ACL_SUCCESS);
  EXPECT_EQ(prog, nullptr);
}

TEST_F(RtcTest, SameProgramWithOtherOptionsIsAnotherBinary) {
  for (const char* alpha : {"-DALPHA=1.0f", "-DALPHA=-3.0f"}) {
    aclrtcProg prog = CreateAxpy(nullptr);
    const char* options[] = {alpha};
    ASSERT_EQ(aclrtcCompileProg(prog, 1, options), ACL_SUCCESS) << CompileLog(prog);
    RunAxpy(Binary(prog), "axpy", std::strtof(alpha + std::strlen("-DALPHA="), nullptr));
    ASSERT_EQ(aclrtcDestroyProg(&prog), ACL_SUCCESS);
  }
}

TEST_F(RtcTest, CompileErrorReturns176003WithTheCompilersMessage) {
  const char* source =
      "#include \"kernel_operator.h\"\n"
      "extern \"C\" __global__ __aicore__ void broken(GM_ADDR x) {\n"
      "  *reinterpret_cast<__gm__ float*>(x) = undefined_rtc_value;\n"
      "}\n";
  aclrtcProg prog = nullptr;
  ASSERT_EQ(aclrtcCreateProg(&prog, source, "broken_kernel.cpp", 0, nullptr, nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtcAddNameExpr(prog, "broken"), ACL_SUCCESS);
  EXPECT_EQ(aclrtcCompileProg(prog, 0, nullptr), kRtcCompilation);
  const std::string log = CompileLog(prog);
  EXPECT_NE(log.find("broken_kernel.cpp:3:"), std::string::npos) << log;
  EXPECT_NE(log.find("undefined_rtc_value"), std::string::npos) << log;
  EXPECT_NE(log.find("was not declared in this scope"), std::string::npos) << log;
  EXPECT_EQ(Binary(prog), "");
  const char* lowered = nullptr;
  EXPECT_EQ(aclrtcGetLoweredName(prog, "broken", &lowered), kRtcNoLoweredNamesBeforeCompilation);
  // The message is kept for aclGetRecentErrMsg.
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("aclrtcGetLoweredName"), std::string::npos);
  EXPECT_EQ(aclrtcDestroyProg(&prog), ACL_SUCCESS);
}

TEST_F(RtcTest, MissingHeaderIsACompileError) {
  aclrtcProg prog = nullptr;
  ASSERT_EQ(aclrtcCreateProg(&prog, "#include \"not_given.h\"\n", "", 0, nullptr, nullptr),
            ACL_SUCCESS);
  EXPECT_EQ(aclrtcCompileProg(prog, 0, nullptr), kRtcCompilation);
  const std::string log = CompileLog(prog);
  EXPECT_NE(log.find("default_program:1:"), std::string::npos) << log;
  EXPECT_NE(log.find("not_given.h"), std::string::npos) << log;
  EXPECT_EQ(aclrtcDestroyProg(&prog), ACL_SUCCESS);
}

TEST_F(RtcTest, InvalidProgramHandles) {
  const char* src = "extern \"C\" void f() {}\n";
  EXPECT_EQ(aclrtcCreateProg(nullptr, src, "x", 0, nullptr, nullptr), kRtcInvalidProg);

  aclrtcProg destroyed = nullptr;
  ASSERT_EQ(aclrtcCreateProg(&destroyed, src, "x", 0, nullptr, nullptr), ACL_SUCCESS);
  aclrtcProg copy = destroyed;
  ASSERT_EQ(aclrtcDestroyProg(&destroyed), ACL_SUCCESS);
  EXPECT_EQ(destroyed, nullptr);

  int local = 0;
  // (0xAC << 48 is the tag of npud's program handles: right tag, unknown id.)
  const aclrtcProg bad[] = {nullptr,
                            copy,
                            &local,
                            reinterpret_cast<aclrtcProg>(0x1234),
                            reinterpret_cast<aclrtcProg>(~uintptr_t{0}),
                            reinterpret_cast<aclrtcProg>((uintptr_t{0xAC} << 48) | 999999)};
  for (aclrtcProg prog : bad) {
    size_t size = 0;
    char buffer[16];
    const char* lowered = nullptr;
    EXPECT_EQ(aclrtcCompileProg(prog, 0, nullptr), kRtcInvalidProg) << prog;
    EXPECT_EQ(aclrtcAddNameExpr(prog, "f"), kRtcInvalidProg) << prog;
    EXPECT_EQ(aclrtcGetLoweredName(prog, "f", &lowered), kRtcInvalidProg) << prog;
    EXPECT_EQ(aclrtcGetBinDataSize(prog, &size), kRtcInvalidProg) << prog;
    EXPECT_EQ(aclrtcGetBinData(prog, buffer), kRtcInvalidProg) << prog;
    EXPECT_EQ(aclrtcGetCompileLogSize(prog, &size), kRtcInvalidProg) << prog;
    EXPECT_EQ(aclrtcGetCompileLog(prog, buffer), kRtcInvalidProg) << prog;
    aclrtcProg to_destroy = prog;
    EXPECT_EQ(aclrtcDestroyProg(&to_destroy), kRtcInvalidProg) << prog;
  }
  EXPECT_EQ(aclrtcDestroyProg(nullptr), kRtcInvalidProg);
}

TEST_F(RtcTest, InvalidInputs) {
  aclrtcProg prog = nullptr;
  const char* src = "extern \"C\" void f() {}\n";
  EXPECT_EQ(aclrtcCreateProg(&prog, nullptr, "x", 0, nullptr, nullptr), kRtcInvalidInput);
  EXPECT_EQ(aclrtcCreateProg(&prog, src, "x", -1, nullptr, nullptr), kRtcInvalidInput);
  EXPECT_EQ(aclrtcCreateProg(&prog, src, "x", 1, nullptr, nullptr), kRtcInvalidInput);
  const char* header[] = {"int h;\n"};
  const char* null_header[] = {nullptr};
  for (const char* name : {"../up.h", "/etc/hosts", "a/../../b.h", ""}) {
    const char* include_names[] = {name};
    EXPECT_EQ(aclrtcCreateProg(&prog, src, "x", 1, header, include_names), kRtcInvalidInput)
        << name;
  }
  const char* ok_name[] = {"ok.h"};
  EXPECT_EQ(aclrtcCreateProg(&prog, src, "x", 1, null_header, ok_name), kRtcInvalidInput);
  const char* two_headers[] = {"int a;\n", "int b;\n"};
  const char* same_names[] = {"same.h", "same.h"};
  EXPECT_EQ(aclrtcCreateProg(&prog, src, "x", 2, two_headers, same_names), kRtcInvalidInput);
  EXPECT_EQ(prog, nullptr) << "failed creations leave *prog alone";

  ASSERT_EQ(aclrtcCreateProg(&prog, src, "x", 0, nullptr, nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclrtcCompileProg(prog, -1, nullptr), kRtcInvalidInput);
  EXPECT_EQ(aclrtcCompileProg(prog, 1, nullptr), kRtcInvalidInput);
  const char* null_option[] = {nullptr};
  EXPECT_EQ(aclrtcCompileProg(prog, 1, null_option), kRtcInvalidInput);
  EXPECT_EQ(aclrtcAddNameExpr(prog, nullptr), kRtcInvalidInput);
  EXPECT_EQ(aclrtcAddNameExpr(prog, ""), kRtcInvalidInput);
  const char* lowered = nullptr;
  EXPECT_EQ(aclrtcGetLoweredName(prog, nullptr, &lowered), kRtcInvalidInput);
  EXPECT_EQ(aclrtcGetLoweredName(prog, "f", nullptr), kRtcInvalidInput);
  EXPECT_EQ(aclrtcGetBinDataSize(prog, nullptr), kRtcInvalidInput);
  EXPECT_EQ(aclrtcGetBinData(prog, nullptr), kRtcInvalidInput);
  EXPECT_EQ(aclrtcGetCompileLogSize(prog, nullptr), kRtcInvalidInput);
  EXPECT_EQ(aclrtcGetCompileLog(prog, nullptr), kRtcInvalidInput);
  // Before any compilation: no binary, an empty log.
  EXPECT_EQ(Binary(prog), "");
  EXPECT_EQ(CompileLog(prog), "");
  EXPECT_EQ(aclrtcDestroyProg(&prog), ACL_SUCCESS);
}

TEST_F(RtcTest, UnsupportedOptionIs176002) {
  aclrtcProg prog = CreateAxpy("options.cpp");
  for (const char* option :
       {"-fplugin=/tmp/plugin.so", "-o", "-I/usr/include", "-I../elsewhere", "-Wl,-z,now"}) {
    const char* options[] = {"-DALPHA=1.0f", option};
    EXPECT_EQ(aclrtcCompileProg(prog, 2, options), kRtcInvalidOption) << option;
    const std::string log = CompileLog(prog);
    EXPECT_NE(log.find(std::string("unsupported option '") + option + "'"), std::string::npos)
        << log;
  }
  // Refused options compile nothing: name expressions may still be added.
  EXPECT_EQ(aclrtcAddNameExpr(prog, "axpy"), ACL_SUCCESS);
  const char* good[] = {"-DALPHA=1.0f", "-I",         "rtc",        "-g",      "-O0",
                        "-w",           "-std=c++17", "--npu-arch", "dav-2201"};
  EXPECT_EQ(aclrtcCompileProg(prog, 9, good), ACL_SUCCESS) << CompileLog(prog);
  EXPECT_EQ(aclrtcDestroyProg(&prog), ACL_SUCCESS);
}

TEST_F(RtcTest, NameExpressions) {
  aclrtcProg prog = CreateAxpy("names.cpp");
  const char* lowered = nullptr;
  ASSERT_EQ(aclrtcAddNameExpr(prog, "axpy"), ACL_SUCCESS);
  ASSERT_EQ(aclrtcAddNameExpr(prog, "&axpy"), ACL_SUCCESS);
  ASSERT_EQ(aclrtcAddNameExpr(prog, "cxx_kernel"), ACL_SUCCESS);
  ASSERT_EQ(aclrtcAddNameExpr(prog, "Kernel::axpy<float>"), ACL_SUCCESS);
  ASSERT_EQ(aclrtcAddNameExpr(prog, "no_such_kernel"), ACL_SUCCESS);
  EXPECT_EQ(aclrtcGetLoweredName(prog, "axpy", &lowered), kRtcNoLoweredNamesBeforeCompilation);

  const char* options[] = {"-DALPHA=1.0f"};
  ASSERT_EQ(aclrtcCompileProg(prog, 1, options), ACL_SUCCESS) << CompileLog(prog);
  EXPECT_EQ(aclrtcAddNameExpr(prog, "late"), kRtcNoNameExprAfterCompilation);

  ASSERT_EQ(aclrtcGetLoweredName(prog, "axpy", &lowered), ACL_SUCCESS);
  EXPECT_STREQ(lowered, "axpy");
  const char* by_address = nullptr;
  ASSERT_EQ(aclrtcGetLoweredName(prog, "&axpy", &by_address), ACL_SUCCESS);
  EXPECT_STREQ(by_address, "axpy");
  // Only extern "C" kernels have lowered names; expressions never added have none.
  for (const char* invalid :
       {"cxx_kernel", "Kernel::axpy<float>", "no_such_kernel", "never_added", "late"}) {
    const char* out = nullptr;
    EXPECT_EQ(aclrtcGetLoweredName(prog, invalid, &out), kRtcNameExprNotValid) << invalid;
  }
  // Compiling again keeps the handed-out names valid.
  ASSERT_EQ(aclrtcCompileProg(prog, 1, options), ACL_SUCCESS);
  EXPECT_STREQ(lowered, "axpy");
  EXPECT_EQ(aclrtcDestroyProg(&prog), ACL_SUCCESS);
}

// The daemon caches compilations: the second compile of the same program is
// answered without running the compiler (npud logs it) and much faster.
TEST_F(RtcTest, SecondCompileIsServedFromTheDaemonCache) {
  if (npud::testing::DaemonEnvironment::daemon() == nullptr) {
    GTEST_SKIP() << "reads the daemon's log; no daemon process in the inproc variant";
  }
  const std::string name =
      "cached_" + std::to_string(::getpid()) + "_" +
      std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()) + ".cpp";
  // What the daemon logs for a compilation answered from its cache
  // (Session::CompileProgram).
  const std::string marker = "compiled program '" + name + "': ok, from cache";
  auto count_marker = [&marker] {
    const std::string log = npud::testing::DaemonEnvironment::daemon()->Log();
    size_t count = 0;
    for (size_t at = log.find(marker); at != std::string::npos; at = log.find(marker, at + 1))
      ++count;
    return count;
  };
  auto compile = [&name](std::string* binary) {
    aclrtcProg prog = CreateAxpy(name.c_str());
    const char* options[] = {"-DALPHA=4.0f"};
    const auto start = std::chrono::steady_clock::now();
    EXPECT_EQ(aclrtcCompileProg(prog, 1, options), ACL_SUCCESS) << CompileLog(prog);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    *binary = Binary(prog);
    EXPECT_EQ(aclrtcDestroyProg(&prog), ACL_SUCCESS);
    return seconds;
  };
  std::string first_binary, second_binary;
  const double first = compile(&first_binary);
  EXPECT_EQ(count_marker(), 0u);
  const double second = compile(&second_binary);
  EXPECT_EQ(second_binary, first_binary);
  EXPECT_LT(second, first) << "first " << first << " s, second " << second << " s";
  // The daemon logs the cache hit (its log is a file; give it a moment).
  for (int i = 0; i < 200 && count_marker() == 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_EQ(count_marker(), 1u) << npud::testing::DaemonEnvironment::daemon()->Log();
  RunAxpy(second_binary, "axpy", 4.0f);
}

TEST_F(RtcTest, ProgramsCompileConcurrently) {
  std::vector<std::thread> threads;
  std::vector<aclError> results(4, -1);
  std::vector<std::string> binaries(4);
  for (int i = 0; i < 4; ++i) {
    threads.emplace_back([i, &results, &binaries] {
      const std::string name = "concurrent_" + std::to_string(i) + ".cpp";
      aclrtcProg prog = CreateAxpy(name.c_str());
      const std::string alpha = "-DALPHA=" + std::to_string(i + 1) + ".0f";
      const char* options[] = {alpha.c_str()};
      results[i] = aclrtcCompileProg(prog, 1, options);
      binaries[i] = Binary(prog);
      aclrtcDestroyProg(&prog);
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (int i = 0; i < 4; ++i) {
    ASSERT_EQ(results[i], ACL_SUCCESS) << i;
    RunAxpy(binaries[i], "axpy", static_cast<float>(i + 1));
  }
}

}  // namespace
