#include "client/core/client_log.h"

#include <cstdlib>
#include <memory>

#include "spdlog/sinks/stdout_sinks.h"
#include "spdlog/spdlog.h"

namespace npud::client {
namespace {

std::shared_ptr<spdlog::logger> MakeLogger() {
  auto logger =
      std::make_shared<spdlog::logger>("acl", std::make_shared<spdlog::sinks::stderr_sink_mt>());
  logger->set_pattern("[%H:%M:%S.%e] [npud-client %P] [%l] %v");
  const char* level = std::getenv("NPUD_LOG_LEVEL");
  logger->set_level(level != nullptr ? spdlog::level::from_str(level) : spdlog::level::warn);
  // The in-process daemon core logs through the default logger; send that
  // to stderr too unless the application has installed its own.
  if (spdlog::default_logger()->name().empty()) spdlog::set_default_logger(logger);
  return logger;
}

}  // namespace

void InitClientLog() { ClientLog(); }

spdlog::logger& ClientLog() {
  static std::shared_ptr<spdlog::logger> logger = MakeLogger();
  return *logger;
}

}  // namespace npud::client
