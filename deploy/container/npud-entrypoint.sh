#!/bin/sh
# npud in its container: the unix socket in the /run/npud volume (shared
# with client containers on the same host), metrics on 9464, and gRPC and
# npud's own port on every interface of the container in TLS, with the
# first pair /etc/npud/tls holds:
#
#   tls.crt, tls.key        a Kubernetes TLS Secret's names
#   server.crt, server.key  tools/make_tls_certs.sh's names
#
# and mutual TLS when ca.crt is there too. A pair that is there is always
# handed to npud, which refuses to start, naming the file and why, when it
# cannot be read or does not load: TCP is never plain instead. Without any
# TLS material npud serves the unix socket (and metrics) only, unless
# NPUD_ALLOW_INSECURE_TCP=1 asks for plain TCP (publish it on loopback
# only).
#
# The socket files are mode 0660, group npud (gid 10001): a client in
# another container joins that group (podman --group-add 10001, Kubernetes
# supplementalGroups: [10001]) or runs as root. NPUD_SOCKET_MODE and
# NPUD_SOCKET_GROUP change that (0666: every uid). npud then wants an
# identity on TCP beside such a socket: mutual TLS (ca.crt) or tokens
# (--auth_token_file).
#
# NPUD_FLAGS (space separated, e.g. from a ConfigMap) and the arguments go
# to npud after these flags, so they win. (NPUD_IMAGE_TLS_DIR and
# NPUD_IMAGE_SOCKET_DIR move the two directories, for tests.)
set -eu
tls="${NPUD_IMAGE_TLS_DIR:-/etc/npud/tls}"
socket="${NPUD_IMAGE_SOCKET_DIR:-/run/npud}/npud.sock"
flags="--socket_mode=${NPUD_SOCKET_MODE:-0660} --socket_group=${NPUD_SOCKET_GROUP:-$(id -g)}"
# Metrics are plain HTTP wherever they listen: --allow_insecure_tcp lets
# them beyond loopback; it never makes a listener given TLS plain.
flags="$flags --metrics_listen=0.0.0.0:9464 --allow_insecure_tcp"
tcp="--listen=unix://$socket,0.0.0.0:50051 --bulk_listen=0.0.0.0:50052"
pair=""
for name in tls server; do
  if [ -e "$tls/$name.crt" ] || [ -e "$tls/$name.key" ]; then
    pair="$name"
    break
  fi
done
if [ -n "$pair" ]; then
  flags="$flags $tcp --tls_cert=$tls/$pair.crt --tls_key=$tls/$pair.key"
  if [ -e "$tls/ca.crt" ]; then
    flags="$flags --tls_client_ca=$tls/ca.crt"
  fi
elif [ "${NPUD_ALLOW_INSECURE_TCP:-0}" = 1 ]; then
  echo "npud-entrypoint: NPUD_ALLOW_INSECURE_TCP=1 and no TLS material in $tls: TCP is plain" >&2
  flags="$flags $tcp"
else
  echo "npud-entrypoint: no TLS material in $tls (tls.crt/tls.key or server.crt/server.key):" \
    "serving the unix socket only (NPUD_ALLOW_INSECURE_TCP=1 for plain TCP)" >&2
  flags="$flags --listen=unix://$socket --bulk_listen=off"
fi
# shellcheck disable=SC2086
exec npud $flags ${NPUD_FLAGS:-} "$@"
