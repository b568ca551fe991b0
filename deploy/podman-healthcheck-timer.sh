#!/bin/sh
# podman's health check timer for hosts where systemd is not init.
#
# podman runs a container's health check (the image's HEALTHCHECK, compose's
# healthcheck:, --health-cmd) from a transient systemd timer that calls
# `podman healthcheck run` every interval. Where systemd is not PID 1 (inside
# containers, on CI machines like this project's) podman cannot make that
# timer ("unable to get systemd connection to add healthchecks") and nothing
# runs the check: the container's health stays "starting" for ever, and
# whatever waits for "healthy" waits in vain. This script is that timer: for
# every running container with a health check (those podman ps --filter
# health=... lists, narrowed by the filters given, e.g.
# label=io.podman.compose.project=deploy) it calls `podman healthcheck run`
# at the container's own interval, so podman itself
# runs the check, records the status and failing streak, and takes the
# container's --health-on-failure action, as under systemd.
#
#   deploy/podman-healthcheck-timer.sh [--once] [FILTER...] &
#
# --once runs every check that is due once and exits (for cron). Run as the
# user whose containers it checks (root for rootful podman). Where systemd is
# init it does nothing: podman's own timers run the checks there.
set -eu
once=0
if [ "${1:-}" = "--once" ]; then
  once=1
  shift
fi
if [ -d /run/systemd/system ] && [ "${NPUD_HEALTHCHECK_TIMER_FORCE:-0}" != 1 ]; then
  echo "podman-healthcheck-timer: systemd is init here; podman's own timers run health checks" >&2
  exit 0
fi
filters=""
for filter in "$@"; do
  filters="$filters --filter $filter"
done
state="$(mktemp -d /tmp/podman-healthcheck-timer-XXXXXX)"
trap 'rm -rf "$state"' EXIT
trap 'exit 0' INT TERM

# Seconds since the epoch; whole seconds of a number of them (at least 1).
now() { date +%s; }
seconds() {
  whole="${1%%.*}"
  case "$whole" in '' | *[!0-9]*) whole=1 ;; esac
  [ "$whole" -ge 1 ] || whole=1
  echo "$whole"
}

while :; do
  # Every health status: a container with a check and any of them (podman
  # ORs filters of one key and ANDs different keys).
  # shellcheck disable=SC2086
  ids="$(podman ps --no-trunc --format '{{.ID}}' --filter health=starting \
    --filter health=healthy --filter health=unhealthy $filters 2> /dev/null || true)"
  for id in $ids; do
    # The container's interval, counted from its (re)start: a restarted
    # container is checked at once (podman's start period spares it).
    info="$(podman inspect --format \
      '{{.Config.Healthcheck.Interval.Seconds}} {{.State.StartedAt.Unix}}' "$id" 2> /dev/null)" || continue
    # shellcheck disable=SC2086
    set -- $info
    interval="$(seconds "$1")"
    started="${2:-0}"
    due="$(cat "$state/$id.$started" 2> /dev/null || echo 0)"
    if [ "$(now)" -ge "$due" ]; then
      echo $(( $(now) + interval )) > "$state/$id.$started"
      # Its own exit status is the check's; podman records it.
      podman healthcheck run "$id" > /dev/null 2>&1 || true
    fi
  done
  [ "$once" = 1 ] && exit 0
  sleep 1
done
