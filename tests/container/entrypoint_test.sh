#!/bin/sh
# The npud image's entrypoint (deploy/container/npud-entrypoint.sh) without
# a container: what it hands npud for each kind of TLS directory, as the
# image's user (uid 10001) when run as root, and (given npud as $1) that
# npud then refuses a key it cannot read instead of serving plain TCP.
#
#  * a Kubernetes TLS Secret (tls.crt, tls.key, ca.crt): mutual TLS;
#  * server.crt with a key uid 10001 may not read: the pair is handed on
#    (before, the entrypoint chose plain TCP on 0.0.0.0 with a warning);
#  * no TLS material: the unix socket only, plain TCP only when
#    NPUD_ALLOW_INSECURE_TCP=1 asks for it;
#  * the socket is 0660, group npud's, and NPUD_FLAGS come last (they win).
set -eu
root="$(cd "$(dirname "$0")/../.." && pwd)"
entrypoint="$root/deploy/container/npud-entrypoint.sh"
work="$(mktemp -d /tmp/npud-entrypoint-XXXXXX)"
trap 'rm -rf "$work"' EXIT
chmod 0755 "$work"
fail() {
  echo "FAIL: $*"
  exit 1
}
# As the image runs it: uid 10001 (only root can switch).
as_npud() {
  if [ "$(id -u)" = 0 ]; then
    setpriv --reuid=10001 --regid=10001 --clear-groups -- "$@"
  else
    "$@"
  fi
}

# A fake npud on PATH that prints its arguments, one per line.
mkdir -m 0755 "$work/bin" "$work/socket"
# shellcheck disable=SC2016 # the fake's own $@, not this script's
printf '#!/bin/sh\nfor a in "$@"; do echo "$a"; done\n' > "$work/bin/npud"
chmod 0755 "$work/bin/npud"
# run DIR [VAR=value...]: the entrypoint's npud arguments for TLS dir DIR.
run() {
  dir="$1"
  shift
  as_npud timeout 60 env PATH="$work/bin:/usr/bin:/bin" NPUD_IMAGE_TLS_DIR="$dir" \
    NPUD_IMAGE_SOCKET_DIR="$work/socket" "$@" sh "$entrypoint" 2> "$work/stderr"
}
has() { echo "$out" | grep -qx -- "$1" || fail "no $1 in: $out"; }
lacks() { echo "$out" | grep -q -- "$1" && fail "$1 in: $out"; true; }

mkdir -m 0755 "$work/k8s"
for f in tls.crt tls.key ca.crt; do echo pem > "$work/k8s/$f"; done
chmod 0644 "$work/k8s"/*
out="$(run "$work/k8s")"
has "--tls_cert=$work/k8s/tls.crt"
has "--tls_key=$work/k8s/tls.key"
has "--tls_client_ca=$work/k8s/ca.crt"
has "--listen=unix://$work/socket/npud.sock,0.0.0.0:50051"
has "--socket_mode=0660"
has "--socket_group=$(as_npud id -g)"

mkdir -m 0755 "$work/unreadable"
echo pem > "$work/unreadable/server.crt"
echo pem > "$work/unreadable/server.key"
chmod 0644 "$work/unreadable/server.crt"
chmod 0600 "$work/unreadable/server.key"
out="$(run "$work/unreadable")"
has "--tls_key=$work/unreadable/server.key"
has "--tls_cert=$work/unreadable/server.crt"

mkdir -m 0755 "$work/none"
out="$(run "$work/none")"
has "--listen=unix://$work/socket/npud.sock"
has "--bulk_listen=off"
lacks "0.0.0.0:5005"
grep -q "serving the unix socket only" "$work/stderr" || fail "no word of it: $(cat "$work/stderr")"
out="$(run "$work/none" NPUD_ALLOW_INSECURE_TCP=1)"
has "--listen=unix://$work/socket/npud.sock,0.0.0.0:50051"

out="$(run "$work/none" NPUD_FLAGS="--socket_mode=0666 --devices=1")"
[ "$(echo "$out" | tail -2 | tr '\n' ' ')" = "--socket_mode=0666 --devices=1 " ] ||
  fail "NPUD_FLAGS are not last: $out"

# The real npud behind the entrypoint: the unreadable key stops it, named.
if [ $# -ge 1 ] && [ "$(id -u)" = 0 ]; then
  printf '#!/bin/sh\nexec "%s" "$@"\n' "$1" > "$work/bin/npud"
  sh "$root/tools/make_tls_certs.sh" "$work/certs" npud > /dev/null 2>&1
  chmod 0755 "$work/certs"
  chmod 0644 "$work/certs/server.crt" "$work/certs/ca.crt"
  chmod 0600 "$work/certs/server.key"
  chown 10001 "$work/socket"
  status=0
  out="$(run "$work/certs" 2>&1)" || status=$?
  [ "$status" != 0 ] || fail "npud started with a key it cannot read: $(cat "$work/stderr")"
  grep -q "server.key: Permission denied" "$work/stderr" ||
    fail "npud did not name the key: $(cat "$work/stderr")"
fi
echo "PASS"
