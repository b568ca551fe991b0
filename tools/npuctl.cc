// npuctl: looks at a running npud through its Admin service.
//
//   npuctl [--address=unix:///path|host:port] [--admin_token_file=FILE] [--json]
//          devices | info | sessions | top [--interval_ms=N] [--iterations=N] |
//          kill SESSION | health |
//          trace --session=N [--seconds=S] [--output=FILE] [--blocks]
//
// info summarizes the devices as npu-smi info does; top refreshes devices
// and sessions (by memory) every interval, until interrupted or for N
// iterations; kill ends a session from npud's side and releases everything
// it held, as if its client had exited (the client's next call fails);
// health exits 0 when npud's gRPC health service says it serves; trace
// records session N's timeline for S seconds (default 5; less if the
// session ends) and writes it as a Chrome trace for Perfetto to FILE
// (default trace-session-N.json); --blocks adds a span per kernel block, on
// one track per AI core.
//
// --json prints the Admin service's replies as protobuf JSON (for scripts
// and tests) instead of tables.
//
// The address defaults to NPUD_ADDRESS, then to the per-user socket. The
// admin token (needed when npud runs with --admin_token_file, and for any
// TCP address) comes from --admin_token_file, NPUD_ADMIN_TOKEN or
// NPUD_ADMIN_TOKEN_FILE. A TCP address is reached over TLS as libacl_rt
// reaches it (NPUD_TLS_CA, NPUD_TLS_CERT, NPUD_TLS_KEY; common/grpc_tls.h).

#include <sys/ioctl.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/numbers.h"
#include "common/daemon_address.h"
#include "common/grpc/chrome_trace.h"
#include "common/grpc/grpc_tls.h"
#include "common/wire_constants.h"
#include "google/protobuf/util/json_util.h"
#include "grpcpp/grpcpp.h"
#include "grpcpp/impl/client_unary_call.h"
#include "grpcpp/support/byte_buffer.h"
#include "npud/v1/npud.grpc.pb.h"
#include "tools/npuctl_tables.h"

namespace {

int Fail(const grpc::Status& status) {
  std::fprintf(stderr, "npuctl: %s\n", status.error_message().c_str());
  return 1;
}

int PrintJson(const google::protobuf::Message& reply) {
  std::string text;
  google::protobuf::util::JsonPrintOptions options;
  options.add_whitespace = true;
  options.always_print_primitive_fields = true;
  if (!google::protobuf::util::MessageToJsonString(reply, &text, options).ok()) {
    std::fprintf(stderr, "npuctl: cannot print the reply as JSON\n");
    return 1;
  }
  std::fputs(text.c_str(), stdout);
  return 0;
}

std::string ReadFirstLine(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

// One Admin call at a time, each with its own context (deadline, token).
class AdminClient {
 public:
  AdminClient(std::shared_ptr<grpc::Channel> channel, std::string token)
      : stub_(npud::v1::Admin::NewStub(std::move(channel))), token_(std::move(token)) {}

  grpc::Status Devices(npud::v1::ListDevicesReply* reply) {
    Context context(token_);
    return stub_->ListDevices(&context.get(), {}, reply);
  }
  grpc::Status Sessions(npud::v1::ListSessionsReply* reply) {
    Context context(token_);
    return stub_->ListSessions(&context.get(), {}, reply);
  }
  grpc::Status Kill(uint64_t session_id, npud::v1::KillSessionReply* reply) {
    Context context(token_);
    npud::v1::KillSessionRequest request;
    request.set_session_id(session_id);
    return stub_->KillSession(&context.get(), request, reply);
  }
  grpc::Status Trace(uint64_t session_id, uint32_t duration_ms, bool blocks,
                     npud::v1::TraceResult* reply) {
    Context context(token_, std::chrono::milliseconds(duration_ms) + std::chrono::seconds(30));
    npud::v1::TraceSessionRequest request;
    request.set_session_id(session_id);
    request.set_duration_ms(duration_ms);
    request.set_blocks(blocks);
    return stub_->TraceSession(&context.get(), request, reply);
  }

 private:
  class Context {
   public:
    explicit Context(const std::string& token,
                     std::chrono::milliseconds deadline = std::chrono::seconds(5)) {
      context_.set_deadline(std::chrono::system_clock::now() + deadline);
      if (!token.empty()) context_.AddMetadata(npud::kAdminTokenKey, token);
    }
    grpc::ClientContext& get() { return context_; }

   private:
    grpc::ClientContext context_;
  };

  std::unique_ptr<npud::v1::Admin::Stub> stub_;
  const std::string token_;
};

// `health`: asks gRPC's health service (what container health checks and
// Kubernetes probes ask) whether npud serves; 0 if it does. The request and
// reply are tiny protobuf messages of grpc.health.v1, written by hand here:
// Debian ships no generated code for them.
int Health(const std::shared_ptr<grpc::Channel>& channel) {
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(5));
  grpc::Slice no_bytes;  // HealthCheckRequest{service: ""}
  grpc::ByteBuffer request(&no_bytes, 1);
  grpc::ByteBuffer response;
  const grpc::Status status = grpc::internal::BlockingUnaryCall<grpc::ByteBuffer, grpc::ByteBuffer>(
      channel.get(),
      grpc::internal::RpcMethod("/grpc.health.v1.Health/Check",
                                grpc::internal::RpcMethod::NORMAL_RPC),
      &context, request, &response);
  if (!status.ok()) return Fail(status);
  std::vector<grpc::Slice> slices;
  std::string bytes;
  if (response.Dump(&slices).ok()) {
    for (const grpc::Slice& slice : slices) {
      bytes.append(reinterpret_cast<const char*>(slice.begin()), slice.size());
    }
  }
  // HealthCheckResponse{status: SERVING (1)}: field 1, varint 1.
  if (bytes == std::string("\x08\x01", 2)) {
    std::printf("SERVING\n");
    return 0;
  }
  std::printf("NOT SERVING\n");
  return 1;
}

// `top`: the screen every `interval_ms`, `iterations` times (0: forever).
int Top(AdminClient& admin, bool json, int interval_ms, int iterations) {
  for (int i = 0; iterations == 0 || i < iterations; ++i) {
    if (i > 0) std::this_thread::sleep_for(std::chrono::milliseconds(interval_ms));
    npud::v1::ListDevicesReply devices;
    npud::v1::ListSessionsReply sessions;
    if (grpc::Status status = admin.Devices(&devices); !status.ok()) return Fail(status);
    if (grpc::Status status = admin.Sessions(&sessions); !status.ok()) return Fail(status);
    if (json) {
      if (PrintJson(devices) != 0 || PrintJson(sessions) != 0) return 1;
      continue;
    }
    winsize size{};
    const int rows =
        ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_row > 0 ? size.ws_row : 24;
    // Clear the screen and home the cursor, like top(1), on a terminal.
    if (isatty(STDOUT_FILENO)) std::fputs("\033[H\033[2J", stdout);
    std::fputs(npud::npuctl::TopScreen(devices, sessions, rows).c_str(), stdout);
    std::fflush(stdout);
  }
  return 0;
}

// `trace`: npud records session `session_id` for `seconds`; the Chrome
// trace goes to `output`.
int Trace(AdminClient& admin, bool json, uint64_t session_id, double seconds, bool blocks,
          std::string output) {
  if (output.empty()) output = "trace-session-" + std::to_string(session_id) + ".json";
  npud::v1::TraceResult trace;
  const auto duration_ms = static_cast<uint32_t>(seconds * 1000);
  if (grpc::Status status = admin.Trace(session_id, duration_ms, blocks, &trace); !status.ok()) {
    return Fail(status);
  }
  npud::ChromeTraceInput input;
  input.device = &trace;
  std::ofstream out(output, std::ios::trunc);
  out << npud::RenderChromeTrace(input);
  out.close();
  if (!out) {
    std::fprintf(stderr, "npuctl: cannot write %s\n", output.c_str());
    return 1;
  }
  if (json) {
    std::printf("{\"session\": %llu, \"spans\": %d, \"dropped\": %llu, \"output\": \"%s\"}\n",
                static_cast<unsigned long long>(session_id), trace.spans_size(),
                static_cast<unsigned long long>(trace.dropped()), output.c_str());
  } else {
    std::printf("%d spans of session %llu written to %s\n", trace.spans_size(),
                static_cast<unsigned long long>(session_id), output.c_str());
  }
  return 0;
}

constexpr char kUsage[] =
    "usage: npuctl [--address=ADDRESS] [--admin_token_file=FILE] [--json]\n"
    "              devices | info | sessions | top [--interval_ms=N] [--iterations=N] |\n"
    "              kill SESSION | health |\n"
    "              trace --session=N [--seconds=S] [--output=FILE] [--blocks]\n";

// "--name=value" or "--name value" at argv[*i]: the value (advancing *i
// past a separate one), or null when argv[*i] is not that flag.
const char* FlagValue(int argc, char** argv, int* i, const char* name) {
  const size_t length = std::strlen(name);
  if (std::strncmp(argv[*i], name, length) != 0) return nullptr;
  if (argv[*i][length] == '=') return argv[*i] + length + 1;
  if (argv[*i][length] == '\0' && *i + 1 < argc) return argv[++*i];
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  std::string address;
  if (const char* env = std::getenv("NPUD_ADDRESS")) address = env;
  if (address.empty()) address = "unix://" + npud::DefaultSocketPath();
  std::string command;
  std::string admin_token;
  if (const char* env = std::getenv("NPUD_ADMIN_TOKEN")) admin_token = env;
  if (const char* env = std::getenv("NPUD_ADMIN_TOKEN_FILE"); env && admin_token.empty()) {
    admin_token = ReadFirstLine(env);
  }
  bool json = false;
  int interval_ms = 1000;
  int iterations = 0;
  uint64_t trace_session = 0;
  double trace_seconds = 5;
  std::string trace_output;
  bool trace_blocks = false;
  std::vector<std::string> operands;
  for (int i = 1; i < argc; ++i) {
    if (const char* value = FlagValue(argc, argv, &i, "--session")) {
      if (!absl::SimpleAtoi(value, &trace_session)) {
        std::fputs(kUsage, stderr);
        return 2;
      }
    } else if (const char* value = FlagValue(argc, argv, &i, "--seconds")) {
      if (!absl::SimpleAtod(value, &trace_seconds) || !(trace_seconds > 0) || trace_seconds > 600) {
        std::fprintf(stderr, "npuctl: --seconds takes a time up to 600\n");
        return 2;
      }
    } else if (const char* value = FlagValue(argc, argv, &i, "--output")) {
      trace_output = value;
    } else if (std::strncmp(argv[i], "--address=", 10) == 0) {
      address = argv[i] + 10;
    } else if (std::strncmp(argv[i], "--admin_token_file=", 19) == 0) {
      admin_token = ReadFirstLine(argv[i] + 19);
    } else if (std::strcmp(argv[i], "--json") == 0) {
      json = true;
    } else if (std::strcmp(argv[i], "--blocks") == 0) {
      trace_blocks = true;
    } else if (std::strncmp(argv[i], "--interval_ms=", 14) == 0) {
      if (!absl::SimpleAtoi(argv[i] + 14, &interval_ms) || interval_ms < 0) {
        std::fputs(kUsage, stderr);
        return 2;
      }
    } else if (std::strncmp(argv[i], "--iterations=", 13) == 0) {
      if (!absl::SimpleAtoi(argv[i] + 13, &iterations) || iterations < 0) {
        std::fputs(kUsage, stderr);
        return 2;
      }
    } else if (command.empty()) {
      command = argv[i];
    } else {
      operands.push_back(argv[i]);
    }
  }
  auto parsed = npud::ParseDaemonAddress(address);
  if (!parsed.ok() || parsed->kind == npud::DaemonAddress::Kind::kInproc ||
      parsed->kind == npud::DaemonAddress::Kind::kFramedTcp) {
    std::fprintf(stderr, "npuctl: '%s' is not unix:///path or host:port (npuctl speaks gRPC)\n",
                 address.c_str());
    return 2;
  }
  grpc::ChannelArguments channel_args;
  std::shared_ptr<grpc::ChannelCredentials> credentials = grpc::InsecureChannelCredentials();
  if (parsed->kind == npud::DaemonAddress::Kind::kTcp) {
    auto tls = npud::ClientCredentialsFromEnv(&channel_args);
    if (!tls.ok()) {
      std::fprintf(stderr, "npuctl: %s\n", std::string(tls.status().message()).c_str());
      return 2;
    }
    credentials = *std::move(tls);
  }
  const std::shared_ptr<grpc::Channel> channel =
      grpc::CreateCustomChannel(parsed->GrpcTarget(), credentials, channel_args);
  if (command == "health") return Health(channel);
  AdminClient admin(channel, admin_token);
  if (command == "devices" || command == "info") {
    npud::v1::ListDevicesReply reply;
    if (grpc::Status status = admin.Devices(&reply); !status.ok()) return Fail(status);
    if (json) return PrintJson(reply);
    const std::string table =
        command == "info" ? npud::npuctl::InfoTable(reply) : npud::npuctl::DeviceTable(reply);
    std::fputs(table.c_str(), stdout);
    return 0;
  }
  if (command == "sessions") {
    npud::v1::ListSessionsReply reply;
    if (grpc::Status status = admin.Sessions(&reply); !status.ok()) return Fail(status);
    if (json) return PrintJson(reply);
    std::fputs(npud::npuctl::SessionTable(reply).c_str(), stdout);
    return 0;
  }
  if (command == "top") return Top(admin, json, interval_ms, iterations);
  if (command == "kill" && operands.size() == 1) {
    uint64_t session_id = 0;
    if (!absl::SimpleAtoi(operands[0], &session_id)) {
      std::fprintf(stderr, "npuctl: '%s' is not a session id\n", operands[0].c_str());
      return 2;
    }
    npud::v1::KillSessionReply reply;
    if (grpc::Status status = admin.Kill(session_id, &reply); !status.ok()) return Fail(status);
    if (json) return PrintJson(reply);
    std::printf("session %llu killed\n", static_cast<unsigned long long>(session_id));
    return 0;
  }
  if (command == "trace" && trace_session != 0) {
    return Trace(admin, json, trace_session, trace_seconds, trace_blocks, trace_output);
  }
  std::fputs(kUsage, stderr);
  return 2;
}
