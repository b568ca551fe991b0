// libmmpa.so: CANN's portability layer (mmpa/mmpa_api.h), which CANN
// libraries and some programs use instead of POSIX calls. It simulates
// nothing: each function is the POSIX call CANN's Linux build makes, with
// CANN's argument checks and results (EN_OK 0, EN_ERROR -1,
// EN_INVALID_PARAM -2; descriptors, lengths and ids where the call returns
// one). The part of the API programs call is here; the rest (threads, locks,
// sockets, pipes, message queues of the mm* family) is not, so a program
// using it fails to link instead of meeting a stand-in.

#include <dlfcn.h>
#include <fcntl.h>
#include <libgen.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#define NPUD_MMPA_API extern "C" __attribute__((visibility("default")))

namespace {

constexpr int32_t kOk = 0;
constexpr int32_t kError = -1;
constexpr int32_t kInvalidParam = -2;
// mmRealPath's buffer must hold any path (CANN's MMPA_MAX_PATH).
constexpr int32_t kMaxPath = PATH_MAX;
// usleep takes at most this many milliseconds (CANN clamps longer sleeps).
constexpr uint32_t kMaxSleepMs = 4294967;

int32_t Result(int ret) { return ret == 0 ? kOk : kError; }

}  // namespace

// mmTimeval and mmTimezone have struct timeval's and struct timezone's layout.
struct mmTimeval {
  long tv_sec;
  long tv_usec;
};
struct mmTimezone {
  int32_t tz_minuteswest;
  int32_t tz_dsttime;
};
static_assert(sizeof(mmTimeval) == sizeof(timeval), "mmTimeval is struct timeval");

NPUD_MMPA_API int32_t mmGetPid() { return static_cast<int32_t>(getpid()); }

NPUD_MMPA_API int32_t mmGetTid() {
  const long tid = syscall(SYS_gettid);
  return tid < 0 ? kError : static_cast<int32_t>(tid);
}

NPUD_MMPA_API int32_t mmSleep(uint32_t milliSecond) {
  if (milliSecond == 0) return kInvalidParam;
  const uint32_t ms = milliSecond < kMaxSleepMs ? milliSecond : kMaxSleepMs;
  return Result(usleep(static_cast<useconds_t>(ms) * 1000u));
}

NPUD_MMPA_API int32_t mmGetTimeOfDay(mmTimeval* timeVal, mmTimezone* timeZone) {
  if (timeVal == nullptr) return kInvalidParam;
  return Result(gettimeofday(reinterpret_cast<timeval*>(timeVal),
                             reinterpret_cast<struct timezone*>(timeZone)));
}

NPUD_MMPA_API int32_t mmGetErrorCode() { return errno; }

NPUD_MMPA_API char* mmGetErrorFormatMessage(int errnum, char* buf, size_t size) {
  if (buf == nullptr || size == 0) return nullptr;
  // The GNU strerror_r may return a static string instead of filling buf.
  const char* text = strerror_r(errnum, buf, size);
  if (text != buf) {
    std::strncpy(buf, text, size - 1);
    buf[size - 1] = '\0';
  }
  return buf;
}

NPUD_MMPA_API int32_t mmOpen2(const char* pathName, int32_t flags, mode_t mode) {
  if (pathName == nullptr || flags < 0) return kInvalidParam;
  const int fd = open(pathName, flags, mode);
  return fd < 0 ? kError : fd;
}

NPUD_MMPA_API int32_t mmClose(int32_t fd) {
  if (fd < 0) return kInvalidParam;
  return Result(close(fd));
}

NPUD_MMPA_API ssize_t mmRead(int32_t fd, void* buf, uint32_t bufLen) {
  if (fd < 0 || buf == nullptr) return kInvalidParam;
  const ssize_t n = read(fd, buf, bufLen);
  return n < 0 ? kError : n;
}

NPUD_MMPA_API ssize_t mmWrite(int32_t fd, void* buf, uint32_t bufLen) {
  if (fd < 0 || buf == nullptr) return kInvalidParam;
  const ssize_t n = write(fd, buf, bufLen);
  return n < 0 ? kError : n;
}

NPUD_MMPA_API int32_t mmAccess2(const char* pathName, int32_t mode) {
  if (pathName == nullptr) return kInvalidParam;
  return Result(access(pathName, mode));
}

NPUD_MMPA_API int32_t mmAccess(const char* pathName) { return mmAccess2(pathName, F_OK); }

NPUD_MMPA_API int32_t mmMkdir(const char* pathName, mode_t mode) {
  if (pathName == nullptr) return kInvalidParam;
  return Result(mkdir(pathName, mode));
}

NPUD_MMPA_API int32_t mmUnlink(const char* filename) {
  if (filename == nullptr) return kInvalidParam;
  return Result(unlink(filename));
}

// EN_OK for a directory (not following a final symbolic link, as CANN).
NPUD_MMPA_API int32_t mmIsDir(const char* fileName) {
  if (fileName == nullptr) return kInvalidParam;
  struct stat st {};
  if (lstat(fileName, &st) != 0 || !S_ISDIR(st.st_mode)) return kError;
  return kOk;
}

NPUD_MMPA_API int32_t mmGetFileSize(const char* fileName, unsigned long long* length) {
  if (fileName == nullptr || length == nullptr) return kInvalidParam;
  struct stat st {};
  if (lstat(fileName, &st) != 0) return kError;
  *length = static_cast<unsigned long long>(st.st_size);
  return kOk;
}

NPUD_MMPA_API int32_t mmRealPath(const char* path, char* realPath, int32_t realPathLen) {
  if (path == nullptr || realPath == nullptr || realPathLen < kMaxPath) return kInvalidParam;
  return realpath(path, realPath) == nullptr ? kError : kOk;
}

NPUD_MMPA_API int32_t mmGetCwd(char* buffer, int32_t maxLen) {
  if (buffer == nullptr || maxLen <= 0) return kInvalidParam;
  return getcwd(buffer, static_cast<size_t>(maxLen)) == nullptr ? kError : kOk;
}

NPUD_MMPA_API int32_t mmChdir(const char* path) {
  if (path == nullptr) return kInvalidParam;
  return Result(chdir(path));
}

// EN_ERROR for an unset variable, EN_INVALID_PARAM when `value` cannot hold
// it with its terminator.
NPUD_MMPA_API int32_t mmGetEnv(const char* name, char* value, uint32_t len) {
  if (name == nullptr || value == nullptr || len == 0) return kInvalidParam;
  const char* found = std::getenv(name);
  if (found == nullptr) return kError;
  const size_t size = std::strlen(found) + 1;
  if (size > len) return kInvalidParam;
  std::memcpy(value, found, size);
  return kOk;
}

NPUD_MMPA_API int32_t mmSetEnv(const char* name, const char* value, int32_t overwrite) {
  if (name == nullptr || value == nullptr) return kInvalidParam;
  return setenv(name, value, overwrite);
}

NPUD_MMPA_API void* mmDlopen(const char* fileName, int32_t mode) {
  return mode < 0 ? nullptr : dlopen(fileName, mode);
}

NPUD_MMPA_API void* mmDlsym(void* handle, const char* funcName) {
  if (handle == nullptr || funcName == nullptr) return nullptr;
  return dlsym(handle, funcName);
}

NPUD_MMPA_API int32_t mmDlclose(void* handle) {
  if (handle == nullptr) return kInvalidParam;
  return Result(dlclose(handle));
}

NPUD_MMPA_API char* mmDlerror() { return dlerror(); }

NPUD_MMPA_API size_t mmGetPageSize() { return static_cast<size_t>(sysconf(_SC_PAGESIZE)); }

// dirname(3) and basename(3): they may change `path`, as CANN documents.
NPUD_MMPA_API char* mmDirName(char* path) { return path == nullptr ? nullptr : dirname(path); }

NPUD_MMPA_API char* mmBaseName(char* path) { return path == nullptr ? nullptr : basename(path); }
