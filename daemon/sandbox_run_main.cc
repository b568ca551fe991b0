// npud-sandbox-run: runs one program (the run-time compiler, the kernel
// scanner) in the sandbox npud gives everything that reads client input:
//
//   npud-sandbox-run --writable=DIR [--cpu_seconds=N] [--memory_mib=M]
//                    [--file_mib=F] -- PROGRAM [ARGS...]
//
// Where the kernel lets it (root, or unprivileged user namespaces): a
// network namespace of its own (only a down loopback: no network) and a
// mount namespace in which the whole file system is read-only except DIR
// (the compilation's scratch directory, also TMPDIR). Always: no new
// privileges, death with its parent, no core files, and limits on CPU
// time, address space and the size of files it writes. When namespaces are
// not available it says so on stderr and runs with the rest.

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

struct Options {
  std::string writable;
  rlim_t cpu_seconds = 120;
  rlim_t memory_mib = 4096;
  rlim_t file_mib = 512;
  std::vector<char*> program;
};

[[noreturn]] void Usage() {
  std::fprintf(stderr,
               "usage: npud-sandbox-run --writable=DIR [--cpu_seconds=N] [--memory_mib=M] "
               "[--file_mib=F] -- PROGRAM [ARGS...]\n");
  std::exit(2);
}

Options Parse(int argc, char** argv) {
  Options options;
  int i = 1;
  for (; i < argc && std::strcmp(argv[i], "--") != 0; ++i) {
    const std::string arg = argv[i];
    auto value = [&](const char* name) -> const char* {
      const std::string prefix = std::string(name) + "=";
      return arg.compare(0, prefix.size(), prefix) == 0 ? argv[i] + prefix.size() : nullptr;
    };
    if (const char* v = value("--writable")) {
      options.writable = v;
    } else if (const char* v = value("--cpu_seconds")) {
      options.cpu_seconds = std::strtoull(v, nullptr, 10);
    } else if (const char* v = value("--memory_mib")) {
      options.memory_mib = std::strtoull(v, nullptr, 10);
    } else if (const char* v = value("--file_mib")) {
      options.file_mib = std::strtoull(v, nullptr, 10);
    } else {
      Usage();
    }
  }
  for (++i; i < argc; ++i) options.program.push_back(argv[i]);
  if (options.writable.empty() || options.program.empty()) Usage();
  options.program.push_back(nullptr);
  return options;
}

bool WriteFile(const char* path, const std::string& text) {
  const int fd = open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return false;
  const bool ok = write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  close(fd);
  return ok;
}

// New network and mount namespaces; as an unprivileged user by way of a
// user namespace in which it keeps its own uid and gid.
bool EnterNamespaces() {
  if (unshare(CLONE_NEWNS | CLONE_NEWNET) == 0) return true;
  const uid_t uid = getuid();
  const gid_t gid = getgid();
  if (unshare(CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWNET) != 0) return false;
  WriteFile("/proc/self/setgroups", "deny");
  return WriteFile("/proc/self/uid_map", std::to_string(uid) + " " + std::to_string(uid) + " 1") &&
         WriteFile("/proc/self/gid_map", std::to_string(gid) + " " + std::to_string(gid) + " 1");
}

// Everything read-only but `writable` (made a mount of its own first, so
// the read-only remount of / leaves it alone).
// The working directory is entered again afterwards: the old one still
// points into the read-only mount.
bool LockFileSystem(const std::string& writable) {
  char cwd[4096];
  if (getcwd(cwd, sizeof(cwd)) == nullptr) return false;
  return mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) == 0 &&
         mount(writable.c_str(), writable.c_str(), nullptr, MS_BIND | MS_REC, nullptr) == 0 &&
         mount(nullptr, "/", nullptr, MS_BIND | MS_REMOUNT | MS_RDONLY, nullptr) == 0 &&
         chdir(cwd) == 0;
}

bool Limit(int resource, rlim_t value) {
  rlimit limit{value, value};
  return setrlimit(resource, &limit) == 0;
}

}  // namespace

int main(int argc, char** argv) {
  const Options options = Parse(argc, argv);
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (!EnterNamespaces()) {
    std::fprintf(stderr,
                 "npud-sandbox-run: no namespaces here (%s); network and file system "
                 "stay as they are\n",
                 std::strerror(errno));
  } else if (!LockFileSystem(options.writable)) {
    std::fprintf(stderr, "npud-sandbox-run: cannot make the file system read-only: %s\n",
                 std::strerror(errno));
    return 126;
  }
  // In sanitizer builds the scanner it runs is instrumented too, and its
  // shadow memory alone passes any address-space limit.
  const bool limit_memory = !NPUD_SANITIZED;
  if (!Limit(RLIMIT_CORE, 0) || !Limit(RLIMIT_CPU, options.cpu_seconds) ||
      (limit_memory && !Limit(RLIMIT_AS, options.memory_mib << 20)) ||
      !Limit(RLIMIT_FSIZE, options.file_mib << 20) || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
    std::fprintf(stderr, "npud-sandbox-run: cannot set limits: %s\n", std::strerror(errno));
    return 126;
  }
  setenv("TMPDIR", options.writable.c_str(), 1);
  execvp(options.program[0], options.program.data());
  std::fprintf(stderr, "npud-sandbox-run: cannot run %s: %s\n", options.program[0],
               std::strerror(errno));
  return 127;
}
