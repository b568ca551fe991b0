// grpc_bytes_bench: the design alternative to the bulk channel that
// docs/design.md weighs, measured: host-to-device copies as a gRPC
// bidirectional stream of raw ByteBuffers (no protobuf for the payload),
// whose slices alias the sender's memory; the receiver copies each slice
// into its "device" buffer once, like npud would, and acknowledges each
// whole copy with one byte. Beside it, in the same run, a bare TCP stream
// of the same messages (transfer_bench's baseline). Both receivers are
// child processes; the gRPC channel has npud's frame and window settings.
//
//   grpc_bytes_bench [--chunk=BYTES]     (ByteBuffer size, default 4 MiB)

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "bench/bench_support.h"
#include "bench/tcp_baseline.h"
#include "grpcpp/grpcpp.h"
#include "grpcpp/impl/rpc_method.h"
#include "grpcpp/impl/rpc_service_method.h"
#include "grpcpp/support/byte_buffer.h"
#include "grpcpp/support/method_handler.h"
#include "grpcpp/support/sync_stream.h"

namespace {

constexpr char kMethod[] = "/npud.bench.Bytes/Push";
constexpr size_t kSizes[] = {1 << 20, 64 << 20};
using Stream = grpc::ServerReaderWriter<grpc::ByteBuffer, grpc::ByteBuffer>;
using npud::bench::RepsFor;
using npud::bench::TcpStreamGbps;

// The receiver: every `size` bytes that arrive land in one buffer, then
// one byte goes back.
class BytesService final : public grpc::Service {
 public:
  explicit BytesService(size_t size) : device_(size) {
    AddMethod(new grpc::internal::RpcServiceMethod(
        kMethod, grpc::internal::RpcMethod::BIDI_STREAMING,
        new grpc::internal::BidiStreamingHandler<BytesService, grpc::ByteBuffer, grpc::ByteBuffer>(
            [](BytesService* service, grpc::ServerContext*, Stream* stream) {
              return service->Push(stream);
            },
            this)));
  }

 private:
  grpc::Status Push(Stream* stream) {
    grpc::ByteBuffer in;
    size_t at = 0;
    const char ack = 'k';
    std::vector<grpc::Slice> slices;
    while (stream->Read(&in)) {
      slices.clear();
      if (!in.Dump(&slices).ok()) return grpc::Status(grpc::StatusCode::INTERNAL, "dump");
      for (const grpc::Slice& slice : slices) {
        std::memcpy(device_.data() + at, slice.begin(), slice.size());
        at += slice.size();
      }
      if (at == device_.size()) {
        at = 0;
        grpc::Slice reply(&ack, 1);
        grpc::ByteBuffer out(&reply, 1);
        if (!stream->Write(out)) break;
      }
    }
    return grpc::Status::OK;
  }

  std::vector<char> device_;
};

void SetChannelArgs(grpc::ChannelArguments* args) {
  args->SetInt(GRPC_ARG_HTTP2_MAX_FRAME_SIZE, (1 << 24) - 1);
  args->SetInt(GRPC_ARG_HTTP2_STREAM_LOOKAHEAD_BYTES, 64 << 20);
  args->SetMaxReceiveMessageSize(-1);
  args->SetMaxSendMessageSize(-1);
}

// Runs a gRPC receiver for `size`-byte copies in a child process; returns
// its pid and its port in *port.
pid_t StartReceiver(size_t size, int* port) {
  int pipefd[2];
  if (pipe(pipefd) != 0) std::exit(1);
  const pid_t pid = fork();
  if (pid == 0) {
    close(pipefd[0]);
    BytesService service(size);
    grpc::ServerBuilder builder;
    int bound = 0;
    builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &bound);
    builder.AddChannelArgument(GRPC_ARG_HTTP2_MAX_FRAME_SIZE, (1 << 24) - 1);
    builder.AddChannelArgument(GRPC_ARG_HTTP2_STREAM_LOOKAHEAD_BYTES, 64 << 20);
    builder.SetMaxReceiveMessageSize(-1);
    builder.RegisterService(&service);
    std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
    if (write(pipefd[1], &bound, sizeof(bound)) != sizeof(bound)) _exit(1);
    server->Wait();
    _exit(0);
  }
  close(pipefd[1]);
  if (read(pipefd[0], port, sizeof(*port)) != sizeof(*port)) std::exit(1);
  close(pipefd[0]);
  return pid;
}

// Copies to the receiver on `port`, made for `size`-byte copies.
double GrpcBytesGbps(size_t size, size_t chunk, int port) {
  grpc::ChannelArguments args;
  SetChannelArgs(&args);
  auto channel = grpc::CreateCustomChannel("127.0.0.1:" + std::to_string(port),
                                           grpc::InsecureChannelCredentials(), args);
  grpc::ClientContext context;
  std::unique_ptr<grpc::ClientReaderWriter<grpc::ByteBuffer, grpc::ByteBuffer>> stream(
      grpc::internal::ClientReaderWriterFactory<grpc::ByteBuffer, grpc::ByteBuffer>::Create(
          channel.get(),
          grpc::internal::RpcMethod(kMethod, grpc::internal::RpcMethod::BIDI_STREAMING), &context));
  const std::vector<char> host(size, 7);
  // One copy: the user's bytes as ByteBuffers of `chunk` whose slices
  // alias them (valid until the acknowledgement says all arrived).
  auto copy = [&] {
    for (size_t at = 0; at < size; at += chunk) {
      grpc::Slice slice(host.data() + at, std::min(chunk, size - at), grpc::Slice::STATIC_SLICE);
      grpc::ByteBuffer message(&slice, 1);
      if (!stream->Write(message)) std::exit(1);
    }
    grpc::ByteBuffer ack;
    if (!stream->Read(&ack)) std::exit(1);
  };
  copy();
  const int reps = RepsFor(size);
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < reps; ++i) copy();
  const double gbps = static_cast<double>(size) * reps / npud::bench::SecondsSince(start) / 1e9;
  stream->WritesDone();
  stream->Finish();
  return gbps;
}

}  // namespace

int main(int argc, char** argv) {
  size_t chunk = 4 << 20;
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--chunk=", 8) == 0) chunk = std::strtoull(argv[i] + 8, nullptr, 0);
  }
  std::printf("%-40s %10s   %-12s %10s %8s\n", "host-to-device", "GB/s", "baseline", "GB/s",
              "ratio");
  // Every child that runs gRPC is forked before this process starts gRPC
  // (gRPC's threads do not survive a fork).
  std::vector<std::pair<pid_t, int>> receivers;
  for (size_t size : kSizes) {
    int port = 0;
    const pid_t pid = StartReceiver(size, &port);
    receivers.emplace_back(pid, port);
  }
  for (size_t i = 0; i < std::size(kSizes); ++i) {
    const size_t size = kSizes[i];
    const double grpc = GrpcBytesGbps(size, chunk, receivers[i].second);
    const double tcp = TcpStreamGbps(size);
    std::printf("%-40s %10.3f   %-12s %10.3f %8.2f\n",
                ("gRPC ByteBuffer stream, " + std::to_string(size >> 20) + " MiB, " +
                 std::to_string(chunk >> 10) + " KiB chunks")
                    .c_str(),
                grpc, "TCP stream", tcp, grpc / tcp);
    std::fflush(stdout);
  }
  for (const auto& [pid, port] : receivers) {
    kill(pid, SIGKILL);
    waitpid(pid, nullptr, 0);
  }
  return 0;
}
