// Tests of daemon/kernel_compiler: AscendC sources compiled with the real g++
// and the build tree's kernel scanner (npud-ascendc-scan) against the CPU
// AscendC headers, the results dlopen()ed and run block by block through
// npud_kernel_table with a fake NpudBlockContext, as the daemon's executor
// would. Fake compilers and scanners (shell scripts) stand in for failures.

#include "daemon/kernel_compiler.h"

#include <dlfcn.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "common/rtc_options.h"
#include "gtest/gtest.h"
#include "npud_kernel_abi.h"

namespace npud::daemon {
namespace {

namespace fs = std::filesystem;

// EXPECT_CONTAINS(text, piece): `text` contains `piece` (shows both if not).
::testing::AssertionResult Contains(const char* text_expr, const char* piece_expr,
                                    const std::string& text, const std::string& piece) {
  if (text.find(piece) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << text_expr << " does not contain " << piece_expr << " (\"" << piece << "\"); it is:\n"
         << text;
}
#define EXPECT_CONTAINS(text, piece) EXPECT_PRED_FORMAT2(Contains, text, piece)

// A directory of the test's own, removed at the end.
class ScratchDir {
 public:
  ScratchDir() {
    char pattern[] = "/tmp/npud-compiler-test-XXXXXX";
    path_ = mkdtemp(pattern);
  }
  ~ScratchDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

KernelCompiler::Options DefaultOptions(const std::string& work_dir) {
  KernelCompiler::Options options;
  options.include_dir = NPUD_ASCENDC_INCLUDE_DIR;
  options.work_dir = work_dir;
  return options;
}

// A loaded kernel binary.
class LoadedBinary {
 public:
  // Writes `bytes` to a file in `dir` and dlopen()s it.
  LoadedBinary(const std::string& bytes, const std::string& dir) {
    static int counter = 0;
    path_ = dir + "/kernel_" + std::to_string(++counter) + ".so";
    std::ofstream(path_, std::ios::binary) << bytes;
    handle_ = dlopen(path_.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle_ == nullptr) {
      error_ = dlerror();
      return;
    }
    auto table = reinterpret_cast<NpudKernelTableFn>(dlsym(handle_, NPUD_KERNEL_TABLE_SYMBOL));
    if (table == nullptr) {
      error_ = "no " NPUD_KERNEL_TABLE_SYMBOL;
      return;
    }
    table_ = table(&count_);
  }
  ~LoadedBinary() {
    if (handle_ != nullptr) dlclose(handle_);
  }

  const std::string& error() const { return error_; }
  std::vector<std::string> Names() const {
    std::vector<std::string> names;
    for (size_t i = 0; i < count_; ++i) names.push_back(table_[i].name);
    return names;
  }
  const NpudKernelInfo* Find(const std::string& name) const {
    for (size_t i = 0; i < count_; ++i) {
      if (name == table_[i].name) return &table_[i];
    }
    return nullptr;
  }

 private:
  std::string path_;
  std::string error_;
  void* handle_ = nullptr;
  const NpudKernelInfo* table_ = nullptr;
  size_t count_ = 0;
};

struct TrapThrown {
  std::string message;
};

struct FakeBlock {
  NpudBlockContext ctx{};
  std::vector<uint8_t> ub;
  std::string printed;
};

void Print(void* host, const char* text, size_t len) {
  static_cast<FakeBlock*>(host)->printed.append(text, len);
}
void Trap(void* /*host*/, uint32_t /*kind*/, const char* message) { throw TrapThrown{message}; }

// Runs `kernel` for `blocks` blocks, each on its own thread with its own context
// and unified buffer; returns what each block printed. Fails the test if an
// entry does not return NPUD_KERNEL_ENTRY_OK.
std::vector<std::string> RunKernel(const NpudKernelInfo& kernel, uint32_t blocks, const void* args,
                                   size_t args_size) {
  std::vector<FakeBlock> state(blocks);
  std::vector<int> results(blocks, -1);
  std::vector<std::thread> threads;
  for (uint32_t i = 0; i < blocks; ++i) {
    FakeBlock& block = state[i];
    block.ub.assign(196608 + 64, 0xCD);
    block.ctx.abi_version = NPUD_KERNEL_ABI_VERSION;
    block.ctx.block_idx = i;
    block.ctx.block_num = blocks;
    block.ctx.core_type = NPUD_CORE_TYPE_VECTOR;
    const uintptr_t base = reinterpret_cast<uintptr_t>(block.ub.data());
    block.ctx.ub_base = reinterpret_cast<uint8_t*>((base + 63) / 64 * 64);
    block.ctx.ub_size = 196608;
    block.ctx.host = &block;
    block.ctx.print = Print;
    block.ctx.trap = Trap;
    threads.emplace_back([&kernel, &block, &results, i, args, args_size] {
      try {
        results[i] = kernel.entry(&block.ctx, args, args_size);
      } catch (const TrapThrown& trap) {
        ADD_FAILURE() << "block " << i << " trapped: " << trap.message;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  std::vector<std::string> printed;
  for (uint32_t i = 0; i < blocks; ++i) {
    EXPECT_EQ(results[i], NPUD_KERNEL_ENTRY_OK) << "block " << i;
    printed.push_back(state[i].printed);
  }
  return printed;
}

// An AscendC vector kernel using the queue/pipe API, its scale factor from a
// header in a subdirectory and a -D option.
constexpr char kAddSource[] = R"src(#include "kernel_operator.h"
#include "ops/scale.h"

constexpr int32_t kTile = 64;

class KernelAdd {
 public:
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t n) {
    const uint32_t per_block = n / AscendC::GetBlockNum();
    const uint32_t offset = per_block * AscendC::GetBlockIdx();
    tiles_ = per_block / kTile;
    x_.SetGlobalBuffer((__gm__ float*)x + offset, per_block);
    y_.SetGlobalBuffer((__gm__ float*)y + offset, per_block);
    z_.SetGlobalBuffer((__gm__ float*)z + offset, per_block);
    pipe_.InitBuffer(in_x_, 2, kTile * sizeof(float));
    pipe_.InitBuffer(in_y_, 2, kTile * sizeof(float));
    pipe_.InitBuffer(out_, 2, kTile * sizeof(float));
  }
  __aicore__ inline void Process() {
    for (uint32_t t = 0; t < tiles_; ++t) {
      AscendC::LocalTensor<float> a = in_x_.AllocTensor<float>();
      AscendC::LocalTensor<float> b = in_y_.AllocTensor<float>();
      AscendC::DataCopy(a, x_[t * kTile], kTile);
      AscendC::DataCopy(b, y_[t * kTile], kTile);
      in_x_.EnQue(a);
      in_y_.EnQue(b);
      a = in_x_.DeQue<float>();
      b = in_y_.DeQue<float>();
      AscendC::LocalTensor<float> c = out_.AllocTensor<float>();
      AscendC::Add(c, a, b, kTile);
      AscendC::Muls(c, c, npud_test::Scale(), kTile);
      out_.EnQue(c);
      in_x_.FreeTensor(a);
      in_y_.FreeTensor(b);
      c = out_.DeQue<float>();
      AscendC::DataCopy(z_[t * kTile], c, kTile);
      out_.FreeTensor(c);
    }
  }

 private:
  AscendC::TPipe pipe_;
  AscendC::TQue<AscendC::QuePosition::VECIN, 2> in_x_, in_y_;
  AscendC::TQue<AscendC::QuePosition::VECOUT, 2> out_;
  AscendC::GlobalTensor<float> x_, y_, z_;
  uint32_t tiles_ = 0;
};

extern "C" __global__ __aicore__ void scaled_add(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t n) {
  KernelAdd op;
  op.Init(x, y, z, n);
  op.Process();
}

extern "C" __global__ __aicore__ void hello() {
  AscendC::printf("block %d says hi\n", static_cast<int>(AscendC::GetBlockIdx()));
}
)src";

constexpr char kScaleHeader[] = R"h(#pragma once
#include "detail/factor.h"
namespace npud_test {
inline float Scale() { return kFactor; }
}
)h";

constexpr char kFactorHeader[] =
    "#pragma once\nnamespace npud_test { constexpr float kFactor = FACTOR; }\n";

CompileRequest AddRequest() {
  CompileRequest request;
  request.name = "scaled_add.cpp";
  request.source = kAddSource;
  request.headers = {{"ops/scale.h", kScaleHeader}, {"ops/detail/factor.h", kFactorHeader}};
  request.options = {"-DFACTOR=2.0f", "--npu-arch=dav-2201"};
  return request;
}

TEST(KernelCompilerTest, CompiledKernelRunsThroughItsKernelTable) {
  ScratchDir dir;
  KernelCompiler compiler(DefaultOptions(dir.path()));
  const CompileOutput output = compiler.Compile(AddRequest());
  ASSERT_TRUE(output.success) << output.log;
  EXPECT_FALSE(output.from_cache);
  EXPECT_EQ(output.kernels, (std::vector<std::string>{"scaled_add", "hello"}));
  ASSERT_GT(output.binary.size(), 4u);
  EXPECT_EQ(output.binary.substr(0, 4),
            "\x7f"
            "ELF");

  LoadedBinary binary(output.binary, dir.path());
  ASSERT_EQ(binary.error(), "");
  EXPECT_EQ(binary.Names(), output.kernels);

  const uint32_t n = 4 * 256;
  std::vector<float> x(n), y(n), z(n, -1.0f);
  for (uint32_t i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i);
    y[i] = 0.25f * static_cast<float>(i % 7);
  }
  struct {
    float* x;
    float* y;
    float* z;
    uint32_t n;
  } args{x.data(), y.data(), z.data(), n};
  const NpudKernelInfo* add = binary.Find("scaled_add");
  ASSERT_NE(add, nullptr);
  EXPECT_EQ(add->args_size, sizeof(args));
  EXPECT_EQ(add->kernel_type, NPUD_CORE_TYPE_VECTOR);
  RunKernel(*add, 4, &args, sizeof(args));
  for (uint32_t i = 0; i < n; ++i) ASSERT_FLOAT_EQ(z[i], 2.0f * (x[i] + y[i])) << "at " << i;

  const NpudKernelInfo* hello = binary.Find("hello");
  ASSERT_NE(hello, nullptr);
  EXPECT_EQ(hello->args_size, 0u);
  const std::vector<std::string> printed = RunKernel(*hello, 2, nullptr, 0);
  EXPECT_EQ(printed, (std::vector<std::string>{"block 0 says hi\n", "block 1 says hi\n"}));
}

TEST(KernelCompilerTest, FindsOnlyRealExternCKernels) {
  ScratchDir dir;
  KernelCompiler compiler(DefaultOptions(dir.path()));
  CompileRequest request;
  request.name = "scan.cpp";
  request.source = R"src(#include "kernel_operator.h"
#include "more/kernels.h"
// extern "C" __global__ void in_line_comment() {}
/* extern "C" __global__ void in_block_comment() {} */
const char* text = "extern \"C\" __global__ void in_string() {}";
const char* raw = R"x(extern "C" __global__ void in_raw_string() {} )x";
const char quote = '"';
const int big = 1'000'000;
#if 0
extern "C" __global__ void disabled() {}
#endif
#ifdef WITH_OPTIONAL
extern "C" __global__ void optional_kernel() {}
#endif
namespace inner { extern "C" __global__ void namespaced() {} }
__global__ void cxx_linkage() {}
template <typename T> __global__ void templated(T) {}
extern "C" __global__ void declared_only(GM_ADDR);
struct Holder { static void member() { extern void f(); } };
extern "C" {
__global__ __aicore__ void in_block(GM_ADDR x) { (void)x; }
}
extern "C" __global__ __cube__ void cube_kernel() {}
extern "C" __global__ __mix__(1, 2) void mix_kernel(GM_ADDR x, uint32_t n) { (void)x; (void)n; }
extern "C" __global__ __aicore__ void self_registered() {}
NPUD_KERNEL_REGISTER(self_registered);
extern "C" __global__ __aicore__ __attribute__((noinline)) void last(GM_ADDR p, uint64_t n) {
  (void)p; (void)n; const char* s = "}"; (void)s; (void)quote; (void)big; (void)text; (void)raw;
}
)src";
  request.headers = {
      {"more/kernels.h", "#pragma once\nextern \"C\" __global__ void from_header() {}\n"}};
  request.options = {"-DWITH_OPTIONAL"};
  const CompileOutput output = compiler.Compile(request);
  ASSERT_TRUE(output.success) << output.log;
  EXPECT_EQ(output.kernels,
            (std::vector<std::string>{"self_registered", "from_header", "optional_kernel",
                                      "in_block", "cube_kernel", "mix_kernel", "last"}));
  EXPECT_CONTAINS(output.log,
                  "scan.cpp:15: note: npud-rtc: __global__ function 'namespaced' is "
                  "not registered as a kernel: it is not defined at global scope");
  EXPECT_CONTAINS(output.log, "'cxx_linkage' is not registered as a kernel: it has C++ linkage");
  EXPECT_CONTAINS(output.log, "'templated' is not registered as a kernel: it is a template");

  LoadedBinary binary(output.binary, dir.path());
  ASSERT_EQ(binary.error(), "");
  std::vector<std::string> sorted_table = binary.Names();
  std::vector<std::string> sorted_kernels = output.kernels;
  std::sort(sorted_table.begin(), sorted_table.end());
  std::sort(sorted_kernels.begin(), sorted_kernels.end());
  EXPECT_EQ(sorted_table, sorted_kernels);
  ASSERT_NE(binary.Find("cube_kernel"), nullptr);
  EXPECT_EQ(binary.Find("cube_kernel")->kernel_type, NPUD_CORE_TYPE_CUBE);
  EXPECT_EQ(binary.Find("mix_kernel")->kernel_type, NPUD_CORE_TYPE_MIX);
  EXPECT_EQ(binary.Find("last")->args_size, 16u);
}

TEST(KernelCompilerTest, CompileErrorReturnsTheCompilersMessage) {
  ScratchDir dir;
  KernelCompiler compiler(DefaultOptions(dir.path()));
  CompileRequest request;
  request.name = "broken.cpp";
  request.source =
      "#include \"kernel_operator.h\"\n"
      "extern \"C\" __global__ __aicore__ void broken(GM_ADDR x) {\n"
      "  *reinterpret_cast<float*>(x) = undefined_value;\n"
      "}\n";
  const CompileOutput output = compiler.Compile(request);
  EXPECT_FALSE(output.success);
  EXPECT_TRUE(output.binary.empty());
  EXPECT_CONTAINS(output.log, "broken.cpp:3:");
  EXPECT_CONTAINS(output.log, "undefined_value");
  EXPECT_CONTAINS(output.log, "was not declared in this scope");
  EXPECT_EQ(compiler.compiler_runs(), 1);

  // The same error again comes from the cache.
  const CompileOutput again = compiler.Compile(request);
  EXPECT_FALSE(again.success);
  EXPECT_TRUE(again.from_cache);
  EXPECT_EQ(again.log, output.log);
  EXPECT_EQ(compiler.compiler_runs(), 1);
}

TEST(KernelCompilerTest, MissingIncludeIsACompileError) {
  ScratchDir dir;
  KernelCompiler compiler(DefaultOptions(dir.path()));
  CompileRequest request;
  request.source = "#include \"kernel_operator.h\"\n#include \"not_sent.h\"\n";
  const CompileOutput output = compiler.Compile(request);
  EXPECT_FALSE(output.success);
  // Without a name the program is "default_program".
  EXPECT_CONTAINS(output.log, "default_program:2:");
  EXPECT_CONTAINS(output.log, "not_sent.h");
}

TEST(KernelCompilerTest, IdenticalRequestsAreAnsweredFromTheCache) {
  ScratchDir dir;
  KernelCompiler compiler(DefaultOptions(dir.path()));
  const CompileOutput first = compiler.Compile(AddRequest());
  ASSERT_TRUE(first.success) << first.log;
  EXPECT_EQ(compiler.compiler_runs(), 1);

  const CompileOutput second = compiler.Compile(AddRequest());
  EXPECT_TRUE(second.success);
  EXPECT_TRUE(second.from_cache);
  EXPECT_EQ(second.binary, first.binary);
  EXPECT_EQ(second.kernels, first.kernels);
  EXPECT_EQ(compiler.compiler_runs(), 1);

  // Anything different is another program.
  CompileRequest other_option = AddRequest();
  other_option.options.push_back("-O3");
  EXPECT_TRUE(compiler.Compile(other_option).success);
  EXPECT_EQ(compiler.compiler_runs(), 2);
  CompileRequest other_header = AddRequest();
  other_header.headers[1].second =
      "#pragma once\nnamespace npud_test { constexpr float kFactor = 3; }\n";
  EXPECT_TRUE(compiler.Compile(other_header).success);
  EXPECT_EQ(compiler.compiler_runs(), 3);
  CompileRequest other_source = AddRequest();
  other_source.source += "\n// a comment makes it another program\n";
  EXPECT_TRUE(compiler.Compile(other_source).success);
  EXPECT_EQ(compiler.compiler_runs(), 4);

  EXPECT_TRUE(compiler.Compile(AddRequest()).from_cache);
  EXPECT_EQ(compiler.compiler_runs(), 4);
}

TEST(KernelCompilerTest, CacheEvictsTheLeastRecentlyUsed) {
  ScratchDir dir;
  KernelCompiler::Options options = DefaultOptions(dir.path());
  options.cache_entries = 2;
  KernelCompiler compiler(options);
  auto program = [](int i) {
    CompileRequest request;
    request.source = "extern \"C\" void f" + std::to_string(i) + "() {}\n";
    return request;
  };
  compiler.Compile(program(1));
  compiler.Compile(program(2));
  EXPECT_EQ(compiler.compiler_runs(), 2);
  EXPECT_TRUE(compiler.Compile(program(1)).from_cache);  // 1 is now the most recent
  compiler.Compile(program(3));                          // evicts 2
  EXPECT_EQ(compiler.compiler_runs(), 3);
  EXPECT_TRUE(compiler.Compile(program(1)).from_cache);
  EXPECT_TRUE(compiler.Compile(program(3)).from_cache);
  EXPECT_FALSE(compiler.Compile(program(2)).from_cache);
  EXPECT_EQ(compiler.compiler_runs(), 4);

  options.cache_entries = 0;
  KernelCompiler uncached(options);
  uncached.Compile(program(1));
  EXPECT_FALSE(uncached.Compile(program(1)).from_cache);
  EXPECT_EQ(uncached.compiler_runs(), 2);
}

TEST(KernelCompilerTest, ConcurrentIdenticalRequestsShareOneCompilerRun) {
  ScratchDir dir;
  KernelCompiler compiler(DefaultOptions(dir.path()));
  std::vector<CompileOutput> outputs(4);
  std::vector<std::thread> threads;
  for (CompileOutput& output : outputs) {
    threads.emplace_back([&compiler, &output] { output = compiler.Compile(AddRequest()); });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(compiler.compiler_runs(), 1);
  int computed = 0;
  for (const CompileOutput& output : outputs) {
    EXPECT_TRUE(output.success) << output.log;
    EXPECT_EQ(output.binary, outputs[0].binary);
    if (!output.from_cache) ++computed;
  }
  EXPECT_EQ(computed, 1);
}

TEST(KernelCompilerTest, HeadersInSubdirectoriesAndIncludeOptions) {
  ScratchDir dir;
  KernelCompiler compiler(DefaultOptions(dir.path()));
  CompileRequest request;
  request.name = "deep.cpp";
  request.source = R"src(#include "kernel_operator.h"
#include "value.h"          // through -I lib/include
#include "lib/include/value.h"
extern "C" __global__ __aicore__ void store(GM_ADDR out) {
  *reinterpret_cast<int32_t*>(out) = kValue + kOther;
}
)src";
  request.headers = {
      {"lib/include/value.h",
       "#pragma once\n#include \"nested/other.h\"\nconstexpr int32_t kValue = 40;\n"},
      {"lib/include/nested/other.h", "#pragma once\nconstexpr int32_t kOther = EXTRA;\n"}};
  request.options = {"-I",         "lib/include",   "-D",
                     "EXTRA=2",    "-O0",           "-g",
                     "-w",         "-Wall",         "-Werror",
                     "-std=c++20", "-UNOT_DEFINED", "--cce-aicore-arch=dav-c220-vec",
                     "-O1",        "-O3",           "-std=c++17",
                     "-I./lib"};
  const CompileOutput output = compiler.Compile(request);
  ASSERT_TRUE(output.success) << output.log;
  ASSERT_EQ(output.kernels, std::vector<std::string>{"store"});
  LoadedBinary binary(output.binary, dir.path());
  ASSERT_EQ(binary.error(), "");
  int32_t result = 0;
  int32_t* out = &result;
  RunKernel(*binary.Find("store"), 1, &out, sizeof(out));
  EXPECT_EQ(result, 42);
}

TEST(KernelCompilerTest, RejectsUnsupportedOptions) {
  ScratchDir dir;
  KernelCompiler compiler(DefaultOptions(dir.path()));
  for (const char* option : {"-fplugin=/tmp/evil.so",
                             "-o",
                             "-Wl,-rpath,/tmp",
                             "-I/usr/include",
                             "-I../outside",
                             "-Ia/../../b",
                             "-Dnot-a-macro",
                             "-D",
                             "-U1X",
                             "-O4",
                             "-std=gnu++17",
                             "-x",
                             "--output=/tmp/x",
                             "-B/tmp",
                             "",
                             "-DX=1\n#include <stdio.h>",
                             "@/etc/passwd",
                             "-specs=/tmp/x",
                             "--npu-arch",
                             "-include"}) {
    CompileRequest request = AddRequest();
    request.options.push_back(option);
    const CompileOutput output = compiler.Compile(request);
    EXPECT_FALSE(output.success) << option;
    EXPECT_CONTAINS(output.log, "unsupported option '") << option;
    EXPECT_FALSE(CheckRtcOptions(request.options).ok()) << option;
  }
  CompileRequest request = AddRequest();
  request.options.push_back("-fplugin=/tmp/evil.so");
  EXPECT_CONTAINS(compiler.Compile(request).log, "unsupported option '-fplugin=/tmp/evil.so'");
  EXPECT_EQ(compiler.compiler_runs(), 0);
}

TEST(KernelCompilerTest, RejectsBadHeaderNames) {
  ScratchDir dir;
  KernelCompiler compiler(DefaultOptions(dir.path()));
  for (const char* name : {"/etc/passwd", "../up.h", "a/../../b.h", "a/..", "", "a//b.h", "dir/",
                           ".npud_rtc_unit.cpp"}) {
    CompileRequest request = AddRequest();
    request.headers.emplace_back(name, "int x;\n");
    const CompileOutput output = compiler.Compile(request);
    EXPECT_FALSE(output.success) << name;
    EXPECT_CONTAINS(output.log, "npud-rtc: ") << name;
    EXPECT_FALSE(CheckRtcHeaderName(name).ok()) << name;
  }
  CompileRequest twice = AddRequest();
  twice.headers.push_back(twice.headers[0]);
  EXPECT_CONTAINS(compiler.Compile(twice).log, "is given twice");
  // A header where another needs a directory.
  CompileRequest clash = AddRequest();
  clash.headers.emplace_back("ops/scale.h/inner.h", "int y;\n");
  const CompileOutput clashed = compiler.Compile(clash);
  EXPECT_FALSE(clashed.success);
  EXPECT_CONTAINS(clashed.log, "cannot write header");
}

TEST(KernelCompilerTest, MissingCompilerIsReported) {
  ScratchDir dir;
  for (const char* missing : {"/nonexistent/bin/g++", "npud-no-such-compiler"}) {
    KernelCompiler::Options options = DefaultOptions(dir.path());
    options.compiler = missing;
    KernelCompiler compiler(options);
    const CompileOutput output = compiler.Compile(AddRequest());
    EXPECT_FALSE(output.success);
    EXPECT_CONTAINS(output.log, std::string("the compiler '") + missing + "' was not found");
    // Not cached: the next try runs (and fails) again.
    EXPECT_FALSE(compiler.Compile(AddRequest()).from_cache);
  }
}

TEST(KernelCompilerTest, SlowCompilerIsKilledAtTheTimeLimit) {
  ScratchDir dir;
  const std::string script = dir.path() + "/slow-compiler";
  std::ofstream(script) << "#!/bin/sh\necho starting\nsleep 60\n";
  chmod(script.c_str(), 0755);
  KernelCompiler::Options options = DefaultOptions(dir.path());
  options.compiler = script;
  options.timeout_seconds = 1;
  KernelCompiler compiler(options);
  const auto start = std::chrono::steady_clock::now();
  const CompileOutput output = compiler.Compile(AddRequest());
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_FALSE(output.success);
  EXPECT_CONTAINS(output.log, "starting");
  EXPECT_CONTAINS(output.log, "compilation timed out after 1 s");
  EXPECT_LT(seconds, 10.0);
  EXPECT_FALSE(compiler.Compile(AddRequest()).from_cache);
}

// The session that asked ends while its compiler runs: the compiler is
// killed at once (not at the deadline), the scratch directory goes, and the
// failure is not cached.
TEST(KernelCompilerTest, AnEndedSessionsCompilerIsKilled) {
  ScratchDir dir;
  const std::string script = dir.path() + "/slow-compiler";
  const std::string pid_file = dir.path() + "/compiler.pid";
  std::ofstream(script) << "#!/bin/sh\necho $$ > " << pid_file << "\nsleep 60\n";
  chmod(script.c_str(), 0755);
  KernelCompiler::Options options = DefaultOptions(dir.path());
  options.compiler = script;
  options.timeout_seconds = 60;
  options.work_dir = dir.path() + "/work";
  std::filesystem::create_directories(options.work_dir);
  KernelCompiler compiler(options);
  CompileRequest request = AddRequest();
  auto ended = std::make_shared<std::atomic<bool>>(false);
  request.cancelled = ended;
  std::thread session_end([&] {
    while (access(pid_file.c_str(), F_OK) != 0) absl::SleepFor(absl::Milliseconds(10));
    absl::SleepFor(absl::Milliseconds(100));
    ended->store(true);
  });
  const auto start = std::chrono::steady_clock::now();
  const CompileOutput output = compiler.Compile(request);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  session_end.join();
  EXPECT_FALSE(output.success);
  EXPECT_CONTAINS(output.log, "compilation cancelled");
  EXPECT_LT(seconds, 10.0);
  int pid = 0;
  std::ifstream(pid_file) >> pid;
  ASSERT_GT(pid, 0);
  EXPECT_NE(kill(pid, 0), 0) << "the compiler still runs";
  EXPECT_TRUE(std::filesystem::is_empty(options.work_dir)) << "the scratch directory is left";
  // Not cached: asked again (by a session that has ended too), the compiler
  // runs again and is killed again.
  std::filesystem::remove(pid_file);
  const CompileOutput again = compiler.Compile(request);
  EXPECT_FALSE(again.from_cache);
  EXPECT_CONTAINS(again.log, "compilation cancelled");
}

TEST(KernelCompilerTest, FailingCompilerExitStatusIsACompileError) {
  ScratchDir dir;
  const std::string script = dir.path() + "/failing-compiler";
  std::ofstream(script) << "#!/bin/sh\necho \"fake: error: no thanks\" >&2\nexit 1\n";
  chmod(script.c_str(), 0755);
  KernelCompiler::Options options = DefaultOptions(dir.path());
  options.compiler = script;
  KernelCompiler compiler(options);
  const CompileOutput output = compiler.Compile(AddRequest());
  EXPECT_FALSE(output.success);
  EXPECT_EQ(output.log, "fake: error: no thanks\n");
}

TEST(KernelCompilerTest, CrashingCompilerIsReported) {
  ScratchDir dir;
  const std::string script = dir.path() + "/crashing-compiler";
  std::ofstream(script) << "#!/bin/sh\nkill -SEGV $$\n";
  chmod(script.c_str(), 0755);
  KernelCompiler::Options options = DefaultOptions(dir.path());
  options.compiler = script;
  KernelCompiler compiler(options);
  const CompileOutput output = compiler.Compile(AddRequest());
  EXPECT_FALSE(output.success);
  EXPECT_CONTAINS(output.log, "' was killed by signal " + std::to_string(SIGSEGV));
  EXPECT_FALSE(compiler.Compile(AddRequest()).from_cache);
}

// Writes an executable shell script.
std::string Script(const std::string& path, const std::string& text) {
  std::ofstream(path) << "#!/bin/sh\n" << text;
  chmod(path.c_str(), 0755);
  return path;
}

TEST(KernelCompilerTest, MissingScannerIsReported) {
  ScratchDir dir;
  KernelCompiler::Options options = DefaultOptions(dir.path());
  options.scanner = "/nonexistent/bin/npud-ascendc-scan";
  KernelCompiler compiler(options);
  const CompileOutput output = compiler.Compile(AddRequest());
  EXPECT_FALSE(output.success);
  EXPECT_CONTAINS(output.log,
                  "npud-rtc: the kernel scanner '/nonexistent/bin/npud-ascendc-scan' was not "
                  "found");
  EXPECT_FALSE(compiler.Compile(AddRequest()).from_cache);
}

TEST(KernelCompilerTest, FailingScannerIsReportedAndNotCached) {
  ScratchDir dir;
  KernelCompiler::Options options = DefaultOptions(dir.path());
  options.scanner = Script(dir.path() + "/failing-scanner", "echo \"scanner says $1\"\nexit 3\n");
  KernelCompiler compiler(options);
  const CompileOutput output = compiler.Compile(AddRequest());
  EXPECT_FALSE(output.success);
  EXPECT_CONTAINS(output.log, "scanner says rtc\n");
  EXPECT_CONTAINS(output.log, "failing-scanner' failed (exit status 3)");
  EXPECT_FALSE(compiler.Compile(AddRequest()).from_cache);
  EXPECT_EQ(compiler.compiler_runs(), 2);
}

TEST(KernelCompilerTest, SlowScannerIsKilledAtTheTimeLimit) {
  ScratchDir dir;
  KernelCompiler::Options options = DefaultOptions(dir.path());
  options.scanner = Script(dir.path() + "/slow-scanner", "sleep 60\n");
  options.timeout_seconds = 2;
  KernelCompiler compiler(options);
  CompileRequest request;
  request.source = "int nothing_to_include;\n";  // preprocessed at once: the scanner is slow
  const auto start = std::chrono::steady_clock::now();
  const CompileOutput output = compiler.Compile(request);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 10.0);
  EXPECT_FALSE(output.success);
  EXPECT_CONTAINS(output.log, "compilation timed out after 2 s; the kernel scanner '");
}

TEST(KernelCompilerTest, LeavesNothingBehind) {
  ScratchDir dir;
  const std::string work = dir.path() + "/work";
  fs::create_directory(work);
  KernelCompiler compiler(DefaultOptions(work));
  EXPECT_TRUE(compiler.Compile(AddRequest()).success);
  CompileRequest broken = AddRequest();
  broken.source += "#error stop here\n";
  EXPECT_FALSE(compiler.Compile(broken).success);
  EXPECT_TRUE(fs::is_empty(work));
}

TEST(KernelCompilerTest, MissingWorkDirIsReported) {
  KernelCompiler compiler(DefaultOptions("/nonexistent/npud/work"));
  const CompileOutput output = compiler.Compile(AddRequest());
  EXPECT_FALSE(output.success);
  EXPECT_CONTAINS(output.log, "cannot create a directory in /nonexistent/npud/work");
}

// The options kernel objects are built with come from npud_ascendc_options.cmake;
// the compiler's copy must not drift from it.
TEST(KernelCompilerTest, KernelOptionsAreThoseOfTheToolchain) {
  std::ifstream in(NPUD_ASCENDC_OPTIONS_CMAKE);
  std::stringstream text;
  text << in.rdbuf();
  const std::string content = text.str();
  const std::string opening = "set(NPUD_ASCENDC_KERNEL_COMPILE_OPTIONS";
  const size_t begin = content.find(opening);
  ASSERT_NE(begin, std::string::npos) << NPUD_ASCENDC_OPTIONS_CMAKE;
  const size_t end = content.find(')', begin);
  ASSERT_NE(end, std::string::npos);
  std::istringstream words(content.substr(begin + opening.size(), end - begin - opening.size()));
  std::vector<std::string> expected;
  for (std::string word; words >> word;) expected.push_back(word);
  EXPECT_EQ(KernelCompiler::KernelOptions(), expected);
}

}  // namespace
}  // namespace npud::daemon
