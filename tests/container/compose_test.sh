#!/bin/sh
# The images and deploy/compose.yaml for real, with podman: builds both
# images from this checkout, starts npud, runs the example client over TCP
# with mutual TLS and over the shared unix socket, and (given as $1) a
# program built on the host against the published ports, checks their results,
# scrapes npud's metrics (the copies must show, by path), checks npud's
# container health, and tears everything down. Prints the image sizes and
# the time from `up` to a served client.
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
compose() { NPUD_TLS_DIR="$work/tls" podman-compose -p "$project" -f "$root/deploy/compose.yaml" "$@"; }
cleanup() {
  compose down -v > /dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
fail() {
  echo "FAIL: $*"
  compose logs npud 2>&1 | tail -30 || true
  exit 1
}

cd "$root"
# Tagged with npud's version too, which the Kubernetes manifests name.
version="$(sed -n 's/^project(npud VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)"
for target in npud npud-sdk; do
  podman build -q --format docker -f deploy/container/Containerfile --target "$target" \
    -t "$target:$version" -t "$target" . > "$work/build-$target.log" 2>&1 ||
    fail "podman build --target $target: $(tail -20 "$work/build-$target.log")"
  echo "image $target: $(podman image inspect "$target" --format '{{.Size}}' |
    awk '{ printf "%.0f MB", $1 / 1e6 }')"
done

sh tools/make_tls_certs.sh "$work/tls" npud localhost 127.0.0.1 > /dev/null 2>&1
chmod a+r "$work"/tls/*.key  # npud runs as uid 10001 in its container

start=$(date +%s.%N)
compose up -d npud > /dev/null 2>&1 || fail "compose up"
for _ in $(seq 100); do
  podman exec "${project}_npud_1" npuctl --address=unix:///run/npud/npud.sock health \
    > /dev/null 2>&1 && break
  sleep 0.2
done
out="$(compose run --rm client-tls 2>&1)" || fail "the TLS client: $out"
served=$(date +%s.%N)
echo "$out" | grep -q "\[SUCCESS\] all memory flows passed" || fail "the TLS client said: $out"
echo "compose up to a served TLS client: $(awk -v a="$start" -v b="$served" 'BEGIN { printf "%.1f", b - a }') s"
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
status="$(podman healthcheck run "${project}_npud_1" 2>&1 && echo healthy)" || true
echo "$status" | grep -q healthy || fail "npud's container health check: $status"
echo "PASS"
