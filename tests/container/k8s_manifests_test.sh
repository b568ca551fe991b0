#!/bin/sh
# Every manifest of deploy/k8s: first what the schemas do not check
# (k8s_policy_check.py: versioned images and labels, hardened containers),
# then, with the Pod deploy/k8s/podman_pod.py makes of the DaemonSet,
# validated offline against the Kubernetes object schemas (the
# kubernetes-models package from the npm registry, installed into a scratch
# directory). That part is skipped (exit 77) where node/npm or the registry
# is not available.
set -eu
root="$(cd "$(dirname "$0")/../.." && pwd)"
python3 "$root/tests/container/k8s_policy_check.py" "$root"
if ! command -v node > /dev/null || ! command -v npm > /dev/null; then
  echo "SKIPPED: node and npm are not installed"
  exit 77
fi
work="$(mktemp -d /tmp/npud-k8s-XXXXXX)"
trap 'rm -rf "$work"' EXIT
if ! (cd "$work" && timeout 300 npm install --silent --no-audit --no-fund \
      kubernetes-models@4 js-yaml@4 > npm.log 2>&1); then
  echo "SKIPPED: npm could not install kubernetes-models: $(tail -3 "$work/npm.log")"
  exit 77
fi
cp "$root/deploy/k8s/validate.mjs" "$work/"
python3 "$root/deploy/k8s/podman_pod.py" --tls_dir /tmp/tls --socket_dir /tmp/socket \
  > "$work/pod.yaml"
cd "$work"
node validate.mjs "$root"/deploy/k8s/base/*.yaml "$root"/deploy/k8s/overlays/*/*.yaml pod.yaml
