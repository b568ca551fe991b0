#!/bin/sh
# The DaemonSet's pod for real: deploy/k8s/podman_pod.py makes a Pod of its
# template (podman 4.3 plays Pods, not DaemonSets), `podman kube play` runs
# it with the ConfigMap, its TLS directory named as a kubernetes.io/tls
# Secret (tls.crt, tls.key, ca.crt) and its socket directory left for the
# pod to make (as kubelet would, root 0755: the init container hands it to
# npud), its health probe command must pass, and the example client runs
# against it as a framed session on npud's own port (npud://) with mutual
# TLS (SDK image, host network) and over its unix socket (shared
# directory): as root, and as a non-root uid in the socket's group 10001
# that also compiles and runs a kernel (run-time compilation and the strict
# kernel sandbox under the pod's hardening). A uid outside the group is
# told 207006 at once. Then `kube down`.
#
# Skipped (exit 77) where podman or the images are missing
# (tests/container/compose_test.sh builds the images; tools/setup_podman.sh
# installs podman).
set -eu
root="$(cd "$(dirname "$0")/../.." && pwd)"
if ! command -v podman > /dev/null; then
  echo "SKIPPED: podman is not installed (tools/setup_podman.sh)"
  exit 77
fi
# The manifests name the images by npud's version (CMakeLists.txt's).
version="$(sed -n 's/^project(npud VERSION \([0-9.]*\).*/\1/p' "$root/CMakeLists.txt")"
for image in "localhost/npud:$version" "localhost/npud-sdk:$version"; do
  if ! podman image exists "$image"; then
    echo "SKIPPED: no image $image (tests/container/compose_test.sh builds it)"
    exit 77
  fi
done
work="$(mktemp -d /tmp/npud-play-XXXXXX)"
cleanup() {
  podman kube down "$work/pod.yaml" > /dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
fail() {
  echo "FAIL: $*"
  podman logs npud-npud 2>&1 | tail -20 || true
  exit 1
}

sh "$root/tools/make_tls_certs.sh" "$work/tls" npud localhost 127.0.0.1 > /dev/null 2>&1
# As kubectl create secret generic --type=kubernetes.io/tls names them, with
# the Secret's defaultMode 0440 and group 10001 (its fsGroup).
mv "$work/tls/server.crt" "$work/tls/tls.crt"
mv "$work/tls/server.key" "$work/tls/tls.key"
chgrp 10001 "$work/tls/tls.crt" "$work/tls/tls.key" "$work/tls/ca.crt"
chmod 0440 "$work/tls/tls.crt" "$work/tls/tls.key" "$work/tls/ca.crt"
chmod a+r "$work/tls/client.key"  # for the client containers' own uids
python3 "$root/deploy/k8s/podman_pod.py" --tls_dir "$work/tls" --socket_dir "$work/socket" \
  > "$work/pod.yaml"
podman kube play --configmap "$root/deploy/k8s/base/configmap.yaml" "$work/pod.yaml" \
  > "$work/play.log" 2>&1 || fail "kube play: $(cat "$work/play.log")"
# The readiness probe's command, as the kubelet would run it.
probe="$(python3 -c 'import sys, yaml
pod = yaml.safe_load(open(sys.argv[1]))
print(" ".join(pod["spec"]["containers"][0]["readinessProbe"]["exec"]["command"]))' "$work/pod.yaml")"
for _ in $(seq 100); do
  # shellcheck disable=SC2086
  podman exec npud-npud $probe > /dev/null 2>&1 && break
  sleep 0.2
done
# shellcheck disable=SC2086
podman exec npud-npud $probe > /dev/null 2>&1 || fail "the readiness probe does not pass"
# The ConfigMap's --memory_gib=16, bounded by the container's 16Gi memory
# limit: three quarters of it for the host memory budget, and no device
# advertises more.
log="$(podman logs npud-npud 2>&1)"
echo "$log" | grep -q "device memory: 12288 MiB per device instead of --memory_gib=16 (16384 MiB)" ||
  fail "the ConfigMap's flags or the memory limit were not applied: $log"
echo "$log" | grep -q "12 GiB each, 12288 MiB of host memory for all" ||
  fail "npud does not serve 12 GiB devices: $log"

example='$ASCEND_HOME_PATH/share/npud/examples/memory_copies/memory_copies.cpp'
build="g++ -std=c++17 -O2 $example -I\$ASCEND_HOME_PATH/include -L\$ASCEND_HOME_PATH/lib64"
build="$build -lascendcl -o /tmp/memory_copies && /tmp/memory_copies"
out="$(podman run --rm --network host -v "$work/tls:/tls:ro" -e NPUD_ADDRESS=npud://127.0.0.1:50052 \
  -e NPUD_TLS_CA=/tls/ca.crt -e NPUD_TLS_CERT=/tls/client.crt -e NPUD_TLS_KEY=/tls/client.key \
  "localhost/npud-sdk:$version" sh -c "$build" 2>&1)" || fail "the TLS client: $out"
echo "$out" | grep -q "\[SUCCESS\] all memory flows passed" || fail "the TLS client said: $out"
out="$(podman run --rm -v "$work/socket:/run/npud" -e NPUD_ADDRESS=unix:///run/npud/npud.sock \
  "localhost/npud-sdk:$version" sh -c "$build" 2>&1)" || fail "the socket client: $out"
echo "$out" | grep -q "\[SUCCESS\] all memory flows passed" || fail "the socket client said: $out"

# Non-root clients of the socket: in its group, served (copies, and a kernel
# compiled by npud and run in its sandbox); outside it, told why at once.
rtc='$ASCEND_HOME_PATH/share/npud/examples/runtime_compile/runtime_compile.cpp'
rtc="g++ -std=c++17 -O2 $rtc -I\$ASCEND_HOME_PATH/include -L\$ASCEND_HOME_PATH/lib64 -lascendcl"
rtc="$rtc -o /tmp/runtime_compile && /tmp/runtime_compile"
out="$(podman run --rm --user 10002:10002 --group-add 10001 -v "$work/socket:/run/npud" \
  -e NPUD_ADDRESS=unix:///run/npud/npud.sock "localhost/npud-sdk:$version" sh -c "$build && $rtc" 2>&1)" ||
  fail "the non-root socket client: $out"
echo "$out" | grep -q "\[SUCCESS\] all memory flows passed" || fail "the non-root client said: $out"
echo "$out" | grep -q "\[SUCCESS\]" || fail "the run-time compiled kernel: $out"
podman logs npud-npud 2>&1 | grep -q "cannot be sandboxed" &&
  fail "the strict kernel sandbox does not work in the pod"
status=0
out="$(podman run --rm --user 10003:10003 -v "$work/socket:/run/npud" \
  -e NPUD_ADDRESS=unix:///run/npud/npud.sock "localhost/npud-sdk:$version" sh -c "$build" 2>&1)" || status=$?
[ "$status" != 0 ] || fail "a uid outside the socket's group was served: $out"
echo "$out" | grep -q "207006" || fail "the uid outside the group was not told why: $out"
echo "PASS"
