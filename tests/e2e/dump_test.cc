// Dumps (acl_dump.h, aclmdlInitDump/SetDump/FinalizeDump) against a real
// npud on every transport: CANN's order and configuration checks, operator
// data dumps that parse as CANN's DumpData and hold the operator's tensors,
// the same bytes through a registered callback, argument records, and the
// exception directory with the tensors a program saves there.

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "acl/acl.h"
#include "acl/acl_dump.h"
#include "aclnnop/aclnn_add.h"
#include "gtest/gtest.h"
#include "npud/dump/dump_data.pb.h"
#include "tests/e2e/daemon_environment.h"

namespace {

const auto* const kEnvironment =
    ::testing::AddGlobalTestEnvironment(new npud::testing::DaemonEnvironment);

// A fresh directory for one test, removed with what it holds.
class TempDir {
 public:
  TempDir() {
    char pattern[] = "/tmp/npud-dump-test-XXXXXX";
    path_ = mkdtemp(pattern);
  }
  ~TempDir() { (void)std::system(("rm -rf '" + path_ + "'").c_str()); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

std::string WriteConfig(const TempDir& dir, const std::string& json) {
  const std::string file = dir.path() + "/dump.json";
  std::ofstream(file) << json;
  return file;
}

std::string ReadAll(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Regular files directly in `dir`.
std::vector<std::string> FilesIn(const std::string& dir) {
  std::vector<std::string> files;
  if (DIR* d = opendir(dir.c_str()); d != nullptr) {
    while (dirent* entry = readdir(d)) {
      const std::string name = entry->d_name;
      struct stat info {};
      if (stat((dir + "/" + name).c_str(), &info) == 0 && S_ISREG(info.st_mode)) {
        files.push_back(name);
      }
    }
    closedir(d);
  }
  return files;
}

// A dump file: its header and the tensor bytes after it.
struct ParsedDump {
  npud::dump::DumpData header;
  std::string tensors;
};

bool Parse(const std::string& file, ParsedDump* out) {
  uint64_t length = 0;
  if (file.size() < sizeof(length)) return false;
  std::memcpy(&length, file.data(), sizeof(length));
  if (file.size() < sizeof(length) + length) return false;
  if (!out->header.ParseFromString(file.substr(sizeof(length), length))) return false;
  out->tensors = file.substr(sizeof(length) + length);
  return true;
}

class DumpTest : public ::testing::Test {
 protected:
  void SetUp() override {
    unsetenv("ASCEND_DUMP_PATH");
    unsetenv("ASCEND_WORK_PATH");
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
  }
  void TearDown() override {
    for (aclTensor* t : tensors_) aclDestroyTensor(t);
    for (void* p : buffers_) aclrtFree(p);
    EXPECT_EQ(aclrtDestroyStream(stream_), ACL_SUCCESS);
  }

  void* Device(const std::vector<float>& values) {
    void* device = nullptr;
    const size_t bytes = values.size() * sizeof(float);
    EXPECT_EQ(aclrtMalloc(&device, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemcpy(device, bytes, values.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE), 0);
    buffers_.push_back(device);
    return device;
  }

  aclTensor* Tensor(const std::vector<float>& values) {
    const std::vector<int64_t> shape = {2, static_cast<int64_t>(values.size() / 2)};
    aclTensor* tensor = aclCreateTensor(shape.data(), shape.size(), ACL_FLOAT, nullptr, 0,
                                        ACL_FORMAT_ND, shape.data(), shape.size(), Device(values));
    tensors_.push_back(tensor);
    return tensor;
  }

  // out = self + other, through aclnnAdd (an operator that dumps).
  void Add(const std::vector<float>& self, const std::vector<float>& other) {
    aclTensor* a = Tensor(self);
    aclTensor* b = Tensor(other);
    aclTensor* out = Tensor(std::vector<float>(self.size(), 0.0f));
    float one = 1.0f;
    aclScalar* alpha = aclCreateScalar(&one, ACL_FLOAT);
    uint64_t workspace = 0;
    aclOpExecutor* executor = nullptr;
    ASSERT_EQ(aclnnAddGetWorkspaceSize(a, b, alpha, out, &workspace, &executor), 0);
    ASSERT_EQ(aclnnAdd(nullptr, workspace, executor, stream_), 0);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    aclDestroyScalar(alpha);
  }

  aclrtStream stream_ = nullptr;
  std::vector<aclTensor*> tensors_;
  std::vector<void*> buffers_;
};

TEST_F(DumpTest, ModelDumpCallsFollowCannsOrderAndChecks) {
  TempDir dir;
  const std::string good =
      WriteConfig(dir, R"({"dump":{"dump_path":")" + dir.path() + R"(","dump_op_switch":"on"}})");
  EXPECT_EQ(aclmdlSetDump(good.c_str()), ACL_ERROR_DUMP_NOT_RUN);
  EXPECT_EQ(aclmdlFinalizeDump(), ACL_ERROR_DUMP_NOT_RUN);
  ASSERT_EQ(aclmdlInitDump(), ACL_SUCCESS);
  EXPECT_EQ(aclmdlInitDump(), ACL_ERROR_REPEAT_INITIALIZE);
  EXPECT_EQ(aclmdlSetDump(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlSetDump((dir.path() + "/missing.json").c_str()), ACL_ERROR_INVALID_FILE);

  const std::string bad_configs[] = {
      "{not json",
      R"({"dump":[]})",
      R"({"dump":{"dump_op_switch":"on"}})",  // no dump_path
      R"({"dump":{"dump_path":"/nonexistent/npud","dump_op_switch":"on"}})",
      R"({"dump":{"dump_path":")" + dir.path() + R"(","dump_mode":"sideways"}})",
      R"({"dump":{"dump_path":")" + dir.path() + R"(","dump_op_switch":1}})",
      R"({"dump":{"dump_path":")" + dir.path() + R"(","dump_op_switch":"on","dump_debug":"on"}})",
      R"({"dump":{"dump_path":")" + dir.path() +
          R"(","dump_scene":"aic_err_brief_dump","dump_op_switch":"on"}})",
      R"({"dump":{"dump_path":")" + dir.path() + R"(","dump_stats":["Max"]}})",
  };
  for (const std::string& config : bad_configs) {
    const std::string file = dir.path() + "/bad.json";
    std::ofstream(file) << config;
    EXPECT_EQ(aclmdlSetDump(file.c_str()), ACL_ERROR_INVALID_DUMP_CONFIG) << config;
  }
  EXPECT_EQ(aclmdlSetDump(good.c_str()), ACL_SUCCESS);
  EXPECT_EQ(aclmdlFinalizeDump(), ACL_SUCCESS);
  EXPECT_EQ(aclmdlFinalizeDump(), ACL_ERROR_DUMP_NOT_RUN);
}

TEST_F(DumpTest, DataDumpsHoldTheOperatorsTensorsUntilFinalized) {
  TempDir dir;
  const std::string config =
      WriteConfig(dir, R"({"dump":{"dump_path":")" + dir.path() +
                           R"(","dump_mode":"all","dump_op_switch":"on","dump_list":[]}})");
  ASSERT_EQ(aclmdlInitDump(), ACL_SUCCESS);
  ASSERT_EQ(aclmdlSetDump(config.c_str()), ACL_SUCCESS);
  const char* path = acldumpGetPath(DATA_DUMP);
  ASSERT_NE(path, nullptr);
  const std::string base = path;
  EXPECT_TRUE(absl::StartsWith(base, dir.path() + "/")) << base;
  EXPECT_TRUE(absl::EndsWith(base, "/")) << base;
  EXPECT_EQ(acldumpGetPath(static_cast<acldumpType>(99)), nullptr);

  const std::vector<float> self = {1, 2, 3, 4, 5, 6};
  const std::vector<float> other = {10, 20, 30, 40, 50, 60};
  Add(self, other);
  const std::vector<std::string> files = FilesIn(base + "0");
  ASSERT_EQ(files.size(), 1u);
  EXPECT_TRUE(absl::StartsWith(files[0], "Add.aclnnAdd.")) << files[0];

  ParsedDump dump;
  ASSERT_TRUE(Parse(ReadAll(base + "0/" + files[0]), &dump));
  EXPECT_EQ(dump.header.version(), "2.0");
  EXPECT_EQ(dump.header.op_name(), "aclnnAdd");
  ASSERT_EQ(dump.header.input_size(), 2);
  ASSERT_EQ(dump.header.output_size(), 1);
  EXPECT_EQ(dump.header.input(0).data_type(), npud::dump::DT_FLOAT);
  EXPECT_EQ(dump.header.input(0).size(), 24u);
  ASSERT_EQ(dump.header.output(0).shape().dim_size(), 2);
  EXPECT_EQ(dump.header.output(0).shape().dim(1), 3u);
  // Inputs, then the output, as the header lists them.
  std::vector<float> expected = self;
  expected.insert(expected.end(), other.begin(), other.end());
  for (size_t i = 0; i < self.size(); ++i) expected.push_back(self[i] + other[i]);
  ASSERT_EQ(dump.tensors.size(), expected.size() * sizeof(float));
  EXPECT_EQ(std::memcmp(dump.tensors.data(), expected.data(), dump.tensors.size()), 0);

  ASSERT_EQ(aclmdlFinalizeDump(), ACL_SUCCESS);
  Add(self, other);
  EXPECT_EQ(FilesIn(base + "0").size(), 1u) << "dumps went on after aclmdlFinalizeDump";
  EXPECT_STREQ(acldumpGetPath(DATA_DUMP), base.c_str()) << "the path stays after finalizing";
}

int32_t g_chunks = 0;
std::string g_bytes;
std::string g_file;
bool g_last = false;
bool g_lengths_agree = true;

int32_t CollectChunk(const acldumpChunk* chunk, int32_t len) {
  ++g_chunks;
  g_lengths_agree =
      g_lengths_agree && sizeof(acldumpChunk) + chunk->bufLen == static_cast<size_t>(len);
  g_bytes.append(reinterpret_cast<const char*>(chunk->dataBuf), chunk->bufLen);
  g_file = chunk->fileName;
  g_last = chunk->isLastChunk == 1;
  return 0;
}

TEST_F(DumpTest, ACallbackReceivesTheDumpInsteadOfTheDisk) {
  EXPECT_EQ(acldumpRegCallback(nullptr, 0), ACL_ERROR_FAILURE);
  EXPECT_EQ(acldumpRegCallback(CollectChunk, 1), ACL_ERROR_FAILURE);
  ASSERT_EQ(acldumpRegCallback(CollectChunk, 0), ACL_SUCCESS);
  TempDir dir;
  const std::string config =
      WriteConfig(dir, R"({"dump":{"dump_path":")" + dir.path() + R"(","dump_op_switch":"on"}})");
  ASSERT_EQ(aclmdlInitDump(), ACL_SUCCESS);
  ASSERT_EQ(aclmdlSetDump(config.c_str()), ACL_SUCCESS);
  Add({1, 2, 3, 4}, {5, 6, 7, 8});
  ASSERT_EQ(aclmdlFinalizeDump(), ACL_SUCCESS);
  acldumpUnregCallback();

  EXPECT_EQ(FilesIn(std::string(acldumpGetPath(DATA_DUMP)) + "0").size(), 0u);
  ASSERT_EQ(g_chunks, 1);
  EXPECT_TRUE(g_lengths_agree);
  EXPECT_TRUE(g_last);
  EXPECT_TRUE(absl::StartsWith(g_file, std::string(acldumpGetPath(DATA_DUMP)) + "0/Add.aclnnAdd."))
      << g_file;
  ParsedDump dump;
  ASSERT_TRUE(Parse(g_bytes, &dump));
  // dump_mode defaults to outputs only.
  EXPECT_EQ(dump.header.input_size(), 0);
  ASSERT_EQ(dump.header.output_size(), 1);
  const std::vector<float> sum = {6, 8, 10, 12};
  ASSERT_EQ(dump.tensors.size(), sum.size() * sizeof(float));
  EXPECT_EQ(std::memcmp(dump.tensors.data(), sum.data(), dump.tensors.size()), 0);
}

TEST_F(DumpTest, ArgumentRecordsDescribeEachOperatorShapeOnce) {
  TempDir dir;
  const std::string records = dir.path() + "/args";
  EXPECT_EQ(aclopStartDumpArgs(ACL_OP_DUMP_OP_AICORE_ARGS, nullptr), ACL_ERROR_FAILURE);
  EXPECT_EQ(aclopStartDumpArgs(0, records.c_str()), ACL_ERROR_FAILURE);
  EXPECT_EQ(aclopStartDumpArgs(ACL_OP_DUMP_OP_AICORE_ARGS, ""), ACL_ERROR_FAILURE);
  ASSERT_EQ(aclopStartDumpArgs(ACL_OP_DUMP_OP_AICORE_ARGS, records.c_str()), ACL_SUCCESS);
  EXPECT_EQ(aclopStartDumpArgs(ACL_OP_DUMP_OP_AICORE_ARGS, records.c_str()), ACL_ERROR_FAILURE);
  Add({1, 2}, {3, 4});
  Add({5, 6}, {7, 8});              // the same shape: no second record
  Add({1, 2, 3, 4}, {1, 2, 3, 4});  // another shape
  ASSERT_EQ(aclopStopDumpArgs(ACL_OP_DUMP_OP_AICORE_ARGS), ACL_SUCCESS);
  Add({1, 2, 3, 4, 5, 6}, {1, 2, 3, 4, 5, 6});  // stopped: none

  const std::vector<std::string> files = FilesIn(records);
  ASSERT_EQ(files.size(), 2u);
  bool saw_two = false;
  for (const std::string& name : files) {
    const std::string text = ReadAll(records + "/" + name);
    EXPECT_TRUE(absl::StrContains(text, R"("op_type":"Add")")) << text;
    EXPECT_TRUE(absl::StrContains(text, R"("dtype":"DT_FLOAT")")) << text;
    EXPECT_TRUE(absl::StrContains(text, R"("alpha":)")) << text;
    saw_two = saw_two || absl::StrContains(text, R"("shape":[2,2])");
  }
  EXPECT_TRUE(saw_two);
}

TEST_F(DumpTest, ExceptionInfoIsSavedUnderTheExceptionDirectory) {
  char path[4096] = {};
  EXPECT_EQ(acldumpGetExceptionInfoPath(path, sizeof(path)), ACL_ERROR_FAILURE)
      << "no exception scene is configured yet";
  TempDir dir;
  const std::string config = WriteConfig(
      dir, R"({"dump":{"dump_path":")" + dir.path() + R"(","dump_scene":"aic_err_brief_dump"}})");
  ASSERT_EQ(aclmdlInitDump(), ACL_SUCCESS);
  ASSERT_EQ(aclmdlSetDump(config.c_str()), ACL_SUCCESS);
  EXPECT_EQ(acldumpGetExceptionInfoPath(nullptr, 10), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acldumpGetExceptionInfoPath(path, 1), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acldumpGetExceptionInfoPath(path, 8), ACL_ERROR_INVALID_PARAM) << "too short";
  ASSERT_EQ(acldumpGetExceptionInfoPath(path, sizeof(path)), ACL_SUCCESS);
  const std::string where = path;
  EXPECT_EQ(where, dir.path() + "/extra-info/data-dump/0");

  const std::vector<float> values = {3, 1, 4, 1, 5, 9};
  acldumpTensorInfo tensor{};
  tensor.tensorAddr = static_cast<int64_t*>(Device(values));
  tensor.tensorSize = values.size() * sizeof(float);
  tensor.dataType = ACL_FLOAT;
  tensor.format = ACL_FORMAT_ND;
  tensor.type = ACL_DUMP_TENSOR_INPUT;
  tensor.addrType = ACL_DUMP_ADDR_RAW;
  tensor.placement = ACL_DUMP_PLACEMENT_DEVICE;
  tensor.shapeNum = 1;
  tensor.shape[0] = values.size();
  EXPECT_EQ(acldumpSaveExceptionInfo(nullptr, "tag", &tensor, 1), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acldumpSaveExceptionInfo("../escape", "tag", &tensor, 1), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acldumpSaveExceptionInfo("mine", "tag", &tensor, 0), ACL_ERROR_INVALID_PARAM);
  acldumpTensorInfo host = tensor;
  host.placement = ACL_DUMP_PLACEMENT_HOST;
  EXPECT_EQ(acldumpSaveExceptionInfo("mine", "tag", &host, 1), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(acldumpSaveExceptionInfo("mine", "tag", &tensor, 1), ACL_SUCCESS);
  ASSERT_EQ(aclmdlFinalizeDump(), ACL_SUCCESS);

  const std::vector<std::string> files = FilesIn(where);
  ASSERT_EQ(files.size(), 1u);
  EXPECT_TRUE(absl::StartsWith(files[0], "mine.custom.")) << files[0];
  ParsedDump dump;
  ASSERT_TRUE(Parse(ReadAll(where + "/" + files[0]), &dump));
  ASSERT_EQ(dump.header.input_size(), 1);
  EXPECT_EQ(dump.header.input(0).size(), tensor.tensorSize);
  ASSERT_EQ(dump.header.attr_size(), 1);
  EXPECT_EQ(dump.header.attr(0).value(), "tag");
  ASSERT_EQ(dump.tensors.size(), tensor.tensorSize);
  EXPECT_EQ(std::memcmp(dump.tensors.data(), values.data(), tensor.tensorSize), 0);
}

}  // namespace
