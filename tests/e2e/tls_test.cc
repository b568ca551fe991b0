// TLS on npud's TCP listeners, against a real npud with mutual TLS: clients
// with the right certificates are served; an untrusted server certificate,
// a missing client certificate, plain TCP and a wrong token are refused
// with a CANN code and a log line that says why; npud refuses to listen
// beyond loopback in clear unless told to; npuctl reaches it over TLS.
// Clients run against the gRPC port (host:port) and as framed sessions on
// npud's own port (npud://host:port), which takes the same TLS.

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "tests/e2e/npud_process.h"

namespace {

using npud::testing::NpudProcess;
using npud::testing::RunProcess;

constexpr char kToken[] = "tls-test-token";

// Certificates from tools/make_tls_certs.sh in a fresh directory.
std::string MakeCerts(const std::string& name) {
  const std::string dir = ::testing::TempDir() + "/tls_test_" + name;
  EXPECT_EQ(RunProcess({"/bin/sh", MAKE_TLS_CERTS, dir}, {}), 0);
  return dir;
}

// The parameter: whether clients address npud's own port (framed).
class TlsTest : public ::testing::TestWithParam<bool> {
 protected:
  static void SetUpTestSuite() {
    certs_ = new std::string(MakeCerts("good"));
    other_ = new std::string(MakeCerts("other"));
  }
  static void TearDownTestSuite() {
    delete certs_;
    delete other_;
  }

  void SetUp() override {
    const std::string token_file = ::testing::TempDir() + "/tls_test_token";
    std::ofstream(token_file) << kToken << "\n";
    auto started = NpudProcess::Start(
        NpudProcess::Transport::kTcp,
        {"--tls_cert=" + *certs_ + "/server.crt", "--tls_key=" + *certs_ + "/server.key",
         "--tls_client_ca=" + *certs_ + "/ca.crt", "--auth_token_file=" + token_file});
    ASSERT_TRUE(started.ok()) << started.status();
    daemon_ = *std::move(started);
  }
  void TearDown() override {
    const absl::Status stopped = daemon_->Stop();
    EXPECT_TRUE(stopped.ok()) << stopped << "\n" << daemon_->Log();
  }

  // The environment of a client with the CA, certificate and key of `dir`
  // (each left out when empty) and `token`.
  std::vector<std::string> Env(const std::string& ca_dir, const std::string& cert_dir,
                               const std::string& token = kToken) const {
    const std::string address = GetParam()
                                    ? "npud://127.0.0.1:" + std::to_string(daemon_->npud_port())
                                    : daemon_->address();
    std::vector<std::string> env = {"NPUD_ADDRESS=" + address, "NPUD_TOKEN=" + token,
                                    "NPUD_CONNECT_TIMEOUT_MS=3000"};
    if (!ca_dir.empty()) env.push_back("NPUD_TLS_CA=" + ca_dir + "/ca.crt");
    if (!cert_dir.empty()) {
      env.push_back("NPUD_TLS_CERT=" + cert_dir + "/client.crt");
      env.push_back("NPUD_TLS_KEY=" + cert_dir + "/client.key");
    }
    return env;
  }

  // Runs the flows client; returns its exit status, its output in *output.
  static int Flows(const std::vector<std::string>& env, std::string* output) {
    // NPUD_LOG_LEVEL=warn: the client's warnings, whatever level the test runs with.
    return RunProcess(
        {"/bin/sh", "-c", "NPUD_LOG_LEVEL=warn " + std::string(ACL_TEST_CLIENT) + " flows 2>&1"},
        env, output);
  }

  static std::string* certs_;
  static std::string* other_;
  std::unique_ptr<NpudProcess> daemon_;
};

std::string* TlsTest::certs_ = nullptr;
std::string* TlsTest::other_ = nullptr;

TEST_P(TlsTest, ClientsWithTheRightCertificatesAreServed) {
  std::string output;
  EXPECT_EQ(Flows(Env(*certs_, *certs_), &output), 0) << output << daemon_->Log();
  EXPECT_TRUE(absl::StrContains(daemon_->Log(),
                                "TCP listeners use TLS and require client "
                                "certificates"))
      << daemon_->Log();
}

TEST_P(TlsTest, AnUntrustedServerCertificateIsRefused) {
  std::string output;
  EXPECT_NE(Flows(Env(*other_, *certs_), &output), 0);
  EXPECT_TRUE(absl::StrContains(output, "507033")) << output;
  EXPECT_TRUE(absl::StrContains(output, "over TLS: check NPUD_TLS_CA")) << output;
}

TEST_P(TlsTest, AClientWithoutACertificateIsRefused) {
  std::string output;
  EXPECT_NE(Flows(Env(*certs_, ""), &output), 0);
  EXPECT_TRUE(absl::StrContains(output, "507033")) << output;
  EXPECT_TRUE(absl::StrContains(daemon_->Log(), "peer did not return a certificate"))
      << daemon_->Log();
}

TEST_P(TlsTest, ACertificateOfAnotherCaIsRefused) {
  std::string output;
  EXPECT_NE(Flows(Env(*certs_, *other_), &output), 0);
  EXPECT_TRUE(absl::StrContains(output, "507033")) << output;
}

TEST_P(TlsTest, PlainTcpIsRefused) {
  std::string output;
  EXPECT_NE(Flows(Env("", ""), &output), 0);
  EXPECT_TRUE(absl::StrContains(output, "507033")) << output;
}

TEST_P(TlsTest, AWrongTokenIsRefusedInsideTls) {
  std::string output;
  EXPECT_NE(Flows(Env(*certs_, *certs_, "wrong-token"), &output), 0);
  EXPECT_TRUE(absl::StrContains(output, "token")) << output;
  // npud answered and refused: CANN's "no permission".
  EXPECT_TRUE(absl::StrContains(output, "207006")) << output;
}

TEST_P(TlsTest, UnreadableCertificateFilesAreNamed) {
  std::string output;
  std::vector<std::string> env = Env(*certs_, "");
  env.push_back("NPUD_TLS_CERT=/nonexistent/client.crt");
  env.push_back("NPUD_TLS_KEY=/nonexistent/client.key");
  EXPECT_NE(Flows(env, &output), 0);
  EXPECT_TRUE(absl::StrContains(output, "cannot read NPUD_TLS_CERT /nonexistent/client.crt"))
      << output;
}

TEST_P(TlsTest, NpuctlReachesItOverTls) {
  std::string output;
  std::vector<std::string> env = Env(*certs_, *certs_);
  EXPECT_EQ(
      RunProcess({NPUCTL_BINARY, "--address=" + daemon_->grpc_address(), "devices"}, env, &output),
      0)
      << output;
  EXPECT_TRUE(absl::StrContains(output, "Ascend910B1")) << output;
}

INSTANTIATE_TEST_SUITE_P(GrpcAndFramed, TlsTest, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return info.param ? "Framed" : "Grpc";
                         });

// Beyond loopback, npud does not listen in clear unless told to (by the
// flag as the README writes it, without "=true").
TEST(TlsListenTest, ClearTcpBeyondLoopbackNeedsAllowInsecureTcp) {
  auto refused = NpudProcess::Start(NpudProcess::Transport::kTcp, {"--listen=0.0.0.0:0"});
  ASSERT_FALSE(refused.ok());
  EXPECT_TRUE(absl::StrContains(refused.status().message(), "without TLS")) << refused.status();
  auto allowed = NpudProcess::Start(NpudProcess::Transport::kTcp,
                                    {"--listen=0.0.0.0:0", "--allow_insecure_tcp"});
  ASSERT_TRUE(allowed.ok()) << allowed.status();
  EXPECT_TRUE(absl::StrContains((*allowed)->Log(), "WITHOUT TLS")) << (*allowed)->Log();
}

// TLS that was asked for and does not load stops npud with a message naming
// the file and why: TCP never goes on in clear, nor fails later with a bare
// "cannot listen". Before, a key that did not parse or match left gRPC
// unable to listen ("cannot listen on ..."), and an unreadable key said
// only "cannot read" (the container's entrypoint then chose plain TCP).
TEST(TlsListenTest, TlsThatDoesNotLoadStopsNpud) {
  const std::string certs = MakeCerts("broken");
  const std::string garbage = certs + "/garbage.key";
  std::ofstream(garbage) << "not a key\n";
  for (const auto& [key, why] :
       {std::pair{garbage, "the private key of --tls_cert does not parse"},
        std::pair{certs + "/client.key", "the private key does not match --tls_cert"},
        std::pair{certs + "/missing.key", "missing.key: No such file or directory"}}) {
    auto started = NpudProcess::Start(NpudProcess::Transport::kTcp,
                                      {"--listen=0.0.0.0:0", "--allow_insecure_tcp",
                                       "--tls_cert=" + certs + "/server.crt", "--tls_key=" + key});
    ASSERT_FALSE(started.ok()) << key;
    EXPECT_TRUE(absl::StrContains(started.status().message(), why)) << started.status();
    EXPECT_TRUE(absl::StrContains(started.status().message(),
                                  "npud does not start without the TLS it was given"))
        << started.status();
  }
  // A key its uid may not read (a container user, a Secret's mode).
  if (geteuid() != 0) return;
  ASSERT_EQ(chmod(certs.c_str(), 0755), 0);
  ASSERT_EQ(chmod((certs + "/server.key").c_str(), 0600), 0);
  std::string output;
  EXPECT_EQ(RunProcess({"/usr/bin/setpriv", "--reuid=4343", "--regid=4343", "--clear-groups", "--",
                        "/bin/sh", "-c",
                        std::string(NPUD_BINARY) +
                            " --listen=unix:///tmp/npud-tls-test-unused.sock,0.0.0.0:0 "
                            "--allow_insecure_tcp --tls_cert=" +
                            certs + "/server.crt --tls_key=" + certs + "/server.key 2>&1"},
                       {}, &output),
            2)
      << output;
  EXPECT_TRUE(absl::StrContains(output, "server.key: Permission denied (as uid 4343)")) << output;
}

}  // namespace
