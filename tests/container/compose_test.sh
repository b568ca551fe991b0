#!/bin/sh
# The images and deploy/compose.yaml for real, with podman, as README.md
# "Deploy" says to use them: builds both images from this checkout, makes
# the TLS material and gives only the server key to npud's group, starts
# npud in a 1 GiB memory limit (NPUD_MEMORY_LIMIT) and at once the example
# client over TCP with mutual TLS (it waits for npud's health itself),
# then waits for the engine to call npud healthy (podman's health check,
# run by deploy/podman-healthcheck-timer.sh where systemd is not init, as
# here; never by hand), checks that the limit bounds npud's host memory
# budget and the device memory it advertises, runs the example client over
# the shared unix socket, and (given as $1) a program built on the host
# against the published ports, checks their results, scrapes npud's
# metrics (the copies must show, by path; every counter is there), then
# restarts npud's container under a running non-root client (which must
# get 507901, "lost the connection to npud", and exit; a new client is
# served by the new npud) and kills npud (its restart policy brings it
# back, healthy), and tears everything down with README's commands,
# checking that no container, volume or network is left. Prints the image
# sizes and the times from `up` to a served client and to healthy.
#
# Skipped (exit 77) where podman or podman-compose is missing;
# tools/setup_podman.sh installs and configures them.
set -eu
if ! command -v podman > /dev/null || ! command -v podman-compose > /dev/null; then
  echo "SKIPPED: podman and podman-compose are not installed (tools/setup_podman.sh)"
  exit 77
fi
if ! podman image exists docker.io/library/debian:bookworm-slim; then
  echo "SKIPPED: no debian:bookworm-slim base image (tools/setup_podman.sh makes one)"
  exit 77
fi
root="$(cd "$(dirname "$0")/../.." && pwd)"
work="$(mktemp -d /tmp/npud-compose-XXXXXX)"
project="npudtest$$"
compose() {
  NPUD_TLS_DIR="$work/tls" NPUD_MEMORY_LIMIT=1g \
    podman-compose -p "$project" -f "$root/deploy/compose.yaml" "$@"
}
timer=""
cleanup() {
  [ -z "$timer" ] || kill "$timer" 2> /dev/null || true
  podman rm -f "${project}_holder" > /dev/null 2>&1 || true
  compose down -v > /dev/null 2>&1 || true
  # podman-compose 1.0.3's down leaves the project's network.
  podman network rm -f "${project}_default" > /dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
fail() {
  echo "FAIL: $*"
  compose logs npud 2>&1 | tail -30 || true
  exit 1
}
health() { podman inspect --format '{{.State.Health.Status}}' "${project}_npud_1" 2> /dev/null; }
# Waits up to $1 seconds for the engine to call npud healthy.
await_healthy() {
  for _ in $(seq "$1"); do
    [ "$(health)" = healthy ] && return 0
    sleep 1
  done
  fail "npud's container is not healthy after $1 s: $(health)"
}

cd "$root"
# Tagged with npud's version too, which the Kubernetes manifests name.
version="$(sed -n 's/^project(npud VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)"
# NPUD_BUILD_FLAGS: more podman build flags (--cpuset-cpus=1 on a shared
# machine).
for target in npud npud-sdk; do
  # shellcheck disable=SC2086
  podman build -q ${NPUD_BUILD_FLAGS:-} --format docker -f deploy/container/Containerfile --target "$target" \
    -t "$target:$version" -t "$target" . > "$work/build-$target.log" 2>&1 ||
    fail "podman build --target $target: $(tail -20 "$work/build-$target.log")"
  echo "image $target: $(podman image inspect "$target" --format '{{.Size}}' |
    awk '{ printf "%.0f MB", $1 / 1e6 }')"
done

# As README.md says: the server key readable by npud's group (10001), the
# CA key nowhere but here.
sh tools/make_tls_certs.sh "$work/tls" npud localhost 127.0.0.1 > /dev/null 2>&1
chgrp 10001 "$work/tls/server.key"
chmod 0640 "$work/tls/server.key"

# podman runs health checks from systemd timers; without systemd as init
# the timer script does what they would (it does nothing under systemd).
sh deploy/podman-healthcheck-timer.sh "label=io.podman.compose.project=$project" &
timer=$!

start=$(date +%s.%N)
compose up -d npud > "$work/up.log" 2>&1 || fail "compose up: $(cat "$work/up.log")"
# At once, as `podman-compose up` would start it: the client waits for
# npud's health itself (podman-compose 1.0.3 ignores service_healthy).
out="$(compose run --rm client-tls 2>&1)" || fail "the TLS client: $out"
served=$(date +%s.%N)
echo "$out" | grep -q "\[SUCCESS\] all memory flows passed" || fail "the TLS client said: $out"
echo "compose up to a served TLS client: $(awk -v a="$start" -v b="$served" 'BEGIN { printf "%.1f", b - a }') s"
await_healthy 60
healthy=$(date +%s.%N)
echo "compose up to a healthy npud (the engine's check): $(awk -v a="$start" -v b="$healthy" 'BEGIN { printf "%.1f", b - a }') s"
# The container's memory limit bounds the host memory budget and the
# device memory each device advertises (64 GiB asked for by default).
log="$(podman logs "${project}_npud_1" 2>&1)"
echo "$log" | grep -q "host memory limit: 768 MiB, three quarters of the cgroup memory limit (1024 MiB" ||
  fail "the memory limit does not bound the host memory budget: $log"
echo "$log" | grep -q "device memory: 768 MiB per device instead of --memory_gib=64 (65536 MiB), bounded by" ||
  fail "the memory limit does not bound the advertised device memory: $log"
podman exec "${project}_npud_1" npuctl --address=unix:///run/npud/npud.sock --json devices \
  > "$work/devices.json" 2>&1 || fail "npuctl devices: $(cat "$work/devices.json")"
grep -q '"hbmBytes": *"805306368"' "$work/devices.json" ||
  fail "npud does not advertise 768 MiB per device: $(cat "$work/devices.json")"
out="$(compose run --rm client-socket 2>&1)" || fail "the socket client: $out"
echo "$out" | grep -q "\[SUCCESS\] all memory flows passed" || fail "the socket client said: $out"
if [ $# -ge 1 ]; then
  # Outside compose: the session port and the bulk channel beside it, both
  # published on the host's loopback.
  out="$(NPUD_ADDRESS=127.0.0.1:50051 NPUD_TLS_CA="$work/tls/ca.crt" \
    NPUD_TLS_CERT="$work/tls/client.crt" NPUD_TLS_KEY="$work/tls/client.key" \
    NPUD_LOG_LEVEL=warn "$1" 2>&1)" || fail "the host client: $out"
  echo "$out" | grep -q "\[SUCCESS\] all memory flows passed" || fail "the host client said: $out"
  echo "$out" | grep -qi "bulk" && fail "the host client had no bulk channel: $out"
fi

metrics="$(python3 -c 'import urllib.request; print(urllib.request.urlopen("http://127.0.0.1:9464/metrics", timeout=5).read().decode())')" ||
  fail "no metrics"
bytes() { echo "$metrics" | awk -v p="path=\"$1\"" 'index($0, "npud_copy_bytes_total{") == 1 && index($0, p) { print $2 }'; }
[ "$(bytes bulk)" != "" ] && [ "$(bytes bulk)" != "0" ] || fail "no bulk bytes in the metrics"
window=$(bytes window)
staging=$(bytes staging)
[ "$window" != "0" ] || [ "$staging" != "0" ] || fail "no shared-memory bytes in the metrics"
echo "metrics: bulk $(bytes bulk) B, window $window B, staging $staging B, inline $(bytes inline) B"
# Every counter is exported from the start, the kernel faults at 0.
echo "$metrics" | grep -q '^npud_kernel_faults_total{code="507035"} 0$' ||
  fail "no npud_kernel_faults_total at 0: $(echo "$metrics" | grep npud_kernel_faults)"

# npud's container restarted under a running client: the client's calls
# fail with 507901 (the connection is lost, README.md "Deploy") and it
# exits; a new client is served by the new npud. The client is non-root,
# in the socket's group, and is refused 1 GiB of the 768 MiB devices
# instead of getting npud OOM-killed.
cat > "$work/holder.cpp" <<'CPP'
#include <acl/acl.h>
#include <unistd.h>
#include <cstdio>
#include <vector>
int main() {
  if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) return 2;
  size_t free_bytes = 0, total = 0;
  if (aclrtGetMemInfo(ACL_HBM_MEM, &free_bytes, &total) != ACL_SUCCESS) return 3;
  void* big = nullptr;
  const aclError refused = aclrtMalloc(&big, size_t{1} << 30, ACL_MEM_MALLOC_HUGE_FIRST);
  void* dev = nullptr;
  std::vector<char> host(1 << 20, 1);
  if (aclrtMalloc(&dev, host.size(), ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return 4;
  std::printf("RUNNING total %zu, 1 GiB: %d\n", total, refused);
  std::fflush(stdout);
  for (long copies = 0;; ++copies) {
    const aclError e =
        aclrtMemcpy(dev, host.size(), host.data(), host.size(), ACL_MEMCPY_HOST_TO_DEVICE);
    if (e != ACL_SUCCESS) {
      std::printf("ERROR %d after %ld copies\n", e, copies);
      return 0;
    }
    usleep(20000);
  }
}
CPP
version_tag="localhost/npud-sdk:$version"
podman run -d --name "${project}_holder" --user 10002:10002 --group-add 10001 \
  -v "${project}_npud-socket:/run/npud" -v "$work/holder.cpp:/src/holder.cpp:ro" \
  -e NPUD_ADDRESS=unix:///run/npud/npud.sock "$version_tag" sh -c \
  'g++ -std=c++17 /src/holder.cpp -I$ASCEND_HOME_PATH/include -L$ASCEND_HOME_PATH/lib64 -lascendcl -o /tmp/holder && /tmp/holder' \
  > /dev/null || fail "cannot start the holding client"
for _ in $(seq 120); do
  podman logs "${project}_holder" 2>&1 | grep -q RUNNING && break
  sleep 0.5
done
out="$(podman logs "${project}_holder" 2>&1)"
echo "$out" | grep -q "RUNNING total 805306368, 1 GiB: 207001" || fail "the holding client: $out"
podman restart -t 5 "${project}_npud_1" > "$work/restart.log" 2>&1 ||
  fail "podman restart: $(cat "$work/restart.log")"
status="$(timeout 60 podman wait "${project}_holder")" || fail "the client hangs after npud's restart"
out="$(podman logs "${project}_holder" 2>&1)"
[ "$status" = 0 ] || fail "the client exited $status after npud's restart: $out"
echo "$out" | grep -q "ERROR 507901 after" || fail "the client was not told 507901: $out"
echo "$out" | grep -q "lost the connection to npud" || fail "the client did not log why: $out"
echo "restart under a client: $(echo "$out" | grep ERROR)"
await_healthy 60
out="$(compose run --rm client-socket 2>&1)" || fail "a client after the restart: $out"
echo "$out" | grep -q "\[SUCCESS\] all memory flows passed" || fail "a client after the restart said: $out"

# npud dies: its restart policy (unless-stopped) brings it back, and the
# engine's health check calls it healthy again.
restarts="$(podman inspect --format '{{.RestartCount}}' "${project}_npud_1")"
kill -KILL "$(podman inspect --format '{{.State.Pid}}' "${project}_npud_1")"
for _ in $(seq 60); do
  [ "$(podman inspect --format '{{.RestartCount}}' "${project}_npud_1")" -gt "$restarts" ] && break
  sleep 0.5
done
[ "$(podman inspect --format '{{.RestartCount}}' "${project}_npud_1")" -gt "$restarts" ] ||
  fail "npud was not restarted after it died"
await_healthy 60

# Teardown as README.md says; nothing of the project is left.
podman rm -f "${project}_holder" > /dev/null
compose down -v > /dev/null 2>&1 || fail "compose down -v"
podman network rm "${project}_default" > /dev/null || fail "podman network rm ${project}_default"
left="$(podman ps -a -q --filter "label=io.podman.compose.project=$project")"
left="$left$(podman volume ls -q --filter "label=io.podman.compose.project=$project")"
left="$left$(podman network ls -q --filter "label=io.podman.compose.project=$project")"
[ -z "$left" ] || fail "left after the teardown: $left"
echo "PASS"
