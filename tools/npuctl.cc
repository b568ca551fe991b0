// npuctl: looks at a running npud through its Admin service.
//
//   npuctl [--address=unix:///path|host:port] [--admin_token_file=FILE] [--json]
//          devices|sessions|kill SESSION
//
// kill ends a session from npud's side and releases everything it held, as
// if its client had exited (the client's next call fails).
//
// --json prints the Admin service's reply as protobuf JSON (for scripts and
// tests) instead of a table.
//
// The address defaults to NPUD_ADDRESS, then to the per-user socket. The
// admin token (needed when npud runs with --admin_token_file, and for any
// TCP address) comes from --admin_token_file, NPUD_ADMIN_TOKEN or
// NPUD_ADMIN_TOKEN_FILE. A TCP address is reached over TLS as libacl_rt
// reaches it (NPUD_TLS_CA, NPUD_TLS_CERT, NPUD_TLS_KEY; common/grpc_tls.h).

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "common/daemon_address.h"
#include "common/grpc_tls.h"
#include "common/wire_constants.h"
#include "google/protobuf/util/json_util.h"
#include "grpcpp/grpcpp.h"
#include "npud/v1/npud.grpc.pb.h"

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
  std::vector<std::string> operands;
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--address=", 10) == 0) {
      address = argv[i] + 10;
    } else if (std::strncmp(argv[i], "--admin_token_file=", 19) == 0) {
      admin_token = ReadFirstLine(argv[i] + 19);
    } else if (std::strcmp(argv[i], "--json") == 0) {
      json = true;
    } else if (command.empty()) {
      command = argv[i];
    } else {
      operands.push_back(argv[i]);
    }
  }
  auto parsed = npud::ParseDaemonAddress(address);
  if (!parsed.ok() || parsed->kind == npud::DaemonAddress::Kind::kInproc) {
    std::fprintf(stderr, "npuctl: '%s' is not unix:///path or host:port\n", address.c_str());
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
  auto channel = grpc::CreateCustomChannel(parsed->GrpcTarget(), credentials, channel_args);
  auto admin = npud::v1::Admin::NewStub(channel);
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(5));
  if (!admin_token.empty()) context.AddMetadata(npud::kAdminTokenKey, admin_token);
  if (command == "devices") {
    npud::v1::ListDevicesReply reply;
    grpc::Status status = admin->ListDevices(&context, {}, &reply);
    if (!status.ok()) return Fail(status);
    if (json) return PrintJson(reply);
    std::printf("%-6s %-14s %12s %12s %9s\n", "device", "soc", "total MiB", "used MiB", "sessions");
    for (const auto& device : reply.devices()) {
      std::printf("%-6d %-14s %12llu %12llu %9u\n", device.description().device_id(),
                  device.description().soc_name().c_str(),
                  static_cast<unsigned long long>(device.description().hbm_bytes() >> 20),
                  static_cast<unsigned long long>(device.used_bytes() >> 20), device.sessions());
    }
    return 0;
  }
  if (command == "sessions") {
    npud::v1::ListSessionsReply reply;
    grpc::Status status = admin->ListSessions(&context, {}, &reply);
    if (!status.ok()) return Fail(status);
    if (json) return PrintJson(reply);
    std::printf("%-8s %-8s %-20s %-16s %8s %7s %7s %7s %7s  %s\n", "session", "pid", "program",
                "host", "allocs", "streams", "events", "exports", "imports",
                "memory (device:bytes, p = physical), use/limits");
    for (const auto& session : reply.sessions()) {
      std::string memory;
      for (const auto& [device, bytes] : session.memory_bytes()) {
        memory += std::to_string(device) + ":" + std::to_string(bytes) + " ";
      }
      for (const auto& [device, bytes] : session.physical_bytes()) {
        memory += std::to_string(device) + ":" + std::to_string(bytes) + "p ";
      }
      if (session.mapped_bytes() != 0) {
        memory += "mapped:" + std::to_string(session.mapped_bytes()) + " ";
      }
      // Use against the session's limits, where npud sets them.
      if (session.memory_limit_bytes() != 0) {
        memory += "limit:" + std::to_string(session.memory_used_bytes()) + "/" +
                  std::to_string(session.memory_limit_bytes()) + " ";
      }
      if (session.stream_limit() != 0) {
        memory += "streams:" + std::to_string(session.streams()) + "/" +
                  std::to_string(session.stream_limit()) + " ";
      }
      if (session.event_limit() != 0) {
        memory += "events:" + std::to_string(session.events()) + "/" +
                  std::to_string(session.event_limit()) + " ";
      }
      if (session.kernel_host_pid() != 0) {
        memory += "kernel-host:" + std::to_string(session.kernel_host_pid());
      }
      std::printf("%-8llu %-8lld %-20s %-16s %8u %7u %7u %7u %7u  %s\n",
                  static_cast<unsigned long long>(session.session_id()),
                  static_cast<long long>(session.pid()), session.program().c_str(),
                  session.host().c_str(), session.allocations(), session.streams(),
                  session.events(), session.exports(), session.imports(), memory.c_str());
    }
    return 0;
  }
  if (command == "kill" && operands.size() == 1) {
    npud::v1::KillSessionRequest request;
    uint64_t session_id = 0;
    if (!absl::SimpleAtoi(operands[0], &session_id)) {
      std::fprintf(stderr, "npuctl: '%s' is not a session id\n", operands[0].c_str());
      return 2;
    }
    request.set_session_id(session_id);
    npud::v1::KillSessionReply reply;
    grpc::Status status = admin->KillSession(&context, request, &reply);
    if (!status.ok()) return Fail(status);
    if (json) return PrintJson(reply);
    std::printf("session %llu killed\n", static_cast<unsigned long long>(session_id));
    return 0;
  }
  std::fprintf(stderr,
               "usage: npuctl [--address=ADDRESS] [--admin_token_file=FILE] [--json] "
               "devices|sessions|kill SESSION\n");
  return 2;
}
