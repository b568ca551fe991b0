#!/bin/sh
# make_tls_certs.sh DIR [NAME...]: a throw-away certificate authority and
# certificates signed by it, for trying npud's TLS and for its tests:
#
#   DIR/ca.crt                   the CA (clients: NPUD_TLS_CA; npud: --tls_client_ca)
#   DIR/server.crt, server.key   npud's (--tls_cert, --tls_key), valid for every
#                                NAME (default: 127.0.0.1 and localhost)
#   DIR/client.crt, client.key   a client's, for mutual TLS (NPUD_TLS_CERT, NPUD_TLS_KEY)
#
# NAMEs that are IPv4 addresses go into the certificate as IP entries, the
# rest as DNS names. Keys are P-256; everything is valid for 30 days.
# For production, use certificates of your own CA instead.
set -eu
dir="$1"
shift
[ "$#" -gt 0 ] || set -- 127.0.0.1 localhost
san=""
for name in "$@"; do
  case "$name" in
    *[!0-9.]*) entry="DNS:$name" ;;
    *) entry="IP:$name" ;;
  esac
  san="${san:+$san,}$entry"
done
mkdir -p "$dir"
cd "$dir"
key() { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1" 2>/dev/null; }
key ca.key
openssl req -x509 -new -key ca.key -out ca.crt -days 30 -subj "/CN=npud throw-away CA" \
  -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign"
# sign NAME SUBJECT EXTENSIONS: NAME.key and NAME.crt signed by the CA.
sign() {
  key "$1.key"
  openssl req -new -key "$1.key" -out "$1.csr" -subj "$2"
  printf '%b' "$3" > "$1.ext"
  openssl x509 -req -in "$1.csr" -CA ca.crt -CAkey ca.key -CAcreateserial -out "$1.crt" \
    -days 30 -extfile "$1.ext" 2>/dev/null
  rm -f "$1.csr" "$1.ext"
}
sign server "/CN=npud" "subjectAltName=$san\nextendedKeyUsage=serverAuth\n"
sign client "/CN=npud client" "extendedKeyUsage=clientAuth\n"
chmod 600 ./*.key
