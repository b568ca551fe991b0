#!/bin/sh
# npud in its container: the unix socket in the /run/npud volume (shared
# with client containers on the same host), and TCP on every interface of
# the container, with TLS when /etc/npud/tls holds server.crt and
# server.key (and mutual TLS when it also holds ca.crt). Without them the
# TCP port is plain, which npud only accepts because it is told to here:
# publish it on loopback only. NPUD_FLAGS (space separated, e.g. from a
# ConfigMap) and the arguments are passed on to npud.
set -eu
tls=/etc/npud/tls
flags="--listen=unix:///run/npud/npud.sock,0.0.0.0:50051 --bulk_listen=0.0.0.0:50052"
flags="$flags --metrics_listen=0.0.0.0:9464 --allow_insecure_tcp"
if [ -r "$tls/server.crt" ] && [ -r "$tls/server.key" ]; then
  flags="$flags --tls_cert=$tls/server.crt --tls_key=$tls/server.key"
  [ -r "$tls/ca.crt" ] && flags="$flags --tls_client_ca=$tls/ca.crt"
else
  echo "npud-entrypoint: no TLS material in $tls: TCP is plain" >&2
fi
# shellcheck disable=SC2086
exec npud $flags ${NPUD_FLAGS:-} "$@"
