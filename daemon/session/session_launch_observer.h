// session_launch_observer.h
//
// The LaunchObserver (simdevice/launch_observer.h) every kernel launch of a
// session shares: blocks are timed while a trace of the session asks for
// them, device printf output goes to the client as a notification ahead of
// whatever reply follows the launch, and float overflow is kept per device
// for aclrtGetDeviceSatStatus-style queries.

#ifndef NPUD_DAEMON_SESSION_SESSION_LAUNCH_OBSERVER_H_
#define NPUD_DAEMON_SESSION_SESSION_LAUNCH_OBSERVER_H_

#include <memory>

#include "daemon/message_sink.h"
#include "daemon/session/overflow_flags.h"
#include "daemon/session/session_timeline.h"
#include "simdevice/launch_observer.h"

namespace npud::daemon {

std::shared_ptr<const sim::LaunchObserver> MakeSessionLaunchObserver(
    std::shared_ptr<MessageSink> sink, std::shared_ptr<SessionTimeline> timeline,
    std::shared_ptr<OverflowFlags> float_overflow);

}  // namespace npud::daemon

#endif  // NPUD_DAEMON_SESSION_SESSION_LAUNCH_OBSERVER_H_
