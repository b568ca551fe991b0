#include "proto/npud/default_address.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>

namespace npud {

std::string DefaultSocketPath() {
  if (const char* dir = std::getenv("XDG_RUNTIME_DIR"); dir != nullptr && *dir != '\0') {
    return std::string(dir) + "/npud.sock";
  }
  const std::string dir = "/tmp/npud-" + std::to_string(getuid());
  mkdir(dir.c_str(), 0700);
  return dir + "/npud.sock";
}

}  // namespace npud
