#!/bin/bash
# link_bound.sh: remote copies over a link that is the bottleneck, beside a
# bare TCP stream over the same link in the same run. Loopback is never
# link bound, so this makes two network namespaces joined by a veth pair
# whose both ends are limited with tc's token bucket (tbf), runs npud in
# one, plain and with TLS, and transfer_bench's client in the other, over
# gRPC and as framed sessions on npud's own port (npud://).
#
#   bench/link_bound.sh [RATE]    (tc's units, default 1gbit; needs root and
#                                  a built tree: tools/build.sh)
#
# NPUD_BUILD_DIR picks another build tree. Prints one row per copy with the
# ratio to the bare stream; the goal is >= 0.9 for 1 MiB and 64 MiB copies.
set -euo pipefail
rate="${1:-1gbit}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${NPUD_BUILD_DIR:-$root/build}"
server_ns=npud-link-server
client_ns=npud-link-client
server_ip=10.213.0.1
client_ip=10.213.0.2
max_size=$((64 << 20))
work="$(mktemp -d /tmp/npud-link-XXXXXX)"
pids=()

cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  ip netns del "$server_ns" 2>/dev/null || true
  ip netns del "$client_ns" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# The link: a veth pair between the namespaces, rate-limited both ways.
cleanup_old() { ip netns del "$1" 2>/dev/null || true; }
cleanup_old "$server_ns"
cleanup_old "$client_ns"
ip netns add "$server_ns"
ip netns add "$client_ns"
ip link add npud-link0 netns "$server_ns" type veth peer name npud-link1 netns "$client_ns"
ip -n "$server_ns" addr add "$server_ip/24" dev npud-link0
ip -n "$client_ns" addr add "$client_ip/24" dev npud-link1
for ns_dev in "$server_ns npud-link0" "$client_ns npud-link1"; do
  set -- $ns_dev
  ip -n "$1" link set lo up
  ip -n "$1" link set "$2" up
  tc -n "$1" qdisc add dev "$2" root tbf rate "$rate" burst 1mb latency 20ms
done

# A bare TCP stream over the link: messages of SIZE bytes, each
# acknowledged with one byte, like transfer_bench's loopback baseline.
cat > "$work/stream.py" <<'PY'
import socket, sys, time
mode, host, port, size, reps = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
if mode == "receive":
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind((host, port))
    listener.listen(1)
    print("listening", flush=True)
    conn, _ = listener.accept()
    buffer = bytearray(1 << 20)
    for _ in range(reps + 1):
        got = 0
        while got < size:
            n = conn.recv_into(buffer, min(len(buffer), size - got))
            if n == 0:
                sys.exit(1)
            got += n
        conn.sendall(b"k")
else:
    conn = socket.create_connection((host, port))
    conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    data = bytes(size)
    def send():
        conn.sendall(data)
        if conn.recv(1) != b"k":
            sys.exit(1)
    send()
    start = time.monotonic()
    for _ in range(reps):
        send()
    print(size * reps / (time.monotonic() - start) / 1e9)
PY

# Repetitions as transfer_bench's client makes them (RepsFor).
reps_for() { local r=$(((512 << 20) / $1)); ((r < 2)) && r=2; ((r > 2000)) && r=2000; echo "$r"; }

declare -A baseline
for size in $((64 << 10)) $((1 << 20)) $max_size; do
  reps="$(reps_for "$size")"
  ip netns exec "$server_ns" python3 "$work/stream.py" receive "$server_ip" 50060 "$size" "$reps" \
    > "$work/receiver.out" &
  receiver=$!
  until grep -q listening "$work/receiver.out" 2>/dev/null; do sleep 0.05; done
  baseline[$size]="$(ip netns exec "$client_ns" python3 "$work/stream.py" send "$server_ip" 50060 \
    "$size" "$reps")"
  wait "$receiver"
done

# npud in the server namespace, plain and with TLS (throw-away certificates
# for its address), each with a fixed bulk port.
sh "$root/tools/make_tls_certs.sh" "$work/certs" "$server_ip" > /dev/null 2>&1
start_npud() {  # NAME PORT BULK_PORT [FLAGS...]
  local name="$1" port="$2" bulk="$3"
  shift 3
  ip netns exec "$server_ns" "$build/daemon/npud" --listen="$server_ip:$port" \
    --bulk_listen="$server_ip:$bulk" --ready_file="$work/$name.ready" --log_level=warn "$@" \
    2> "$work/$name.log" &
  pids+=($!)
  for _ in $(seq 200); do [ -e "$work/$name.ready" ] && return; sleep 0.05; done
  echo "npud ($name) did not start:" >&2
  cat "$work/$name.log" >&2
  exit 1
}
start_npud plain 50051 50052 --allow_insecure_tcp
start_npud tls 50053 50054 --tls_cert="$work/certs/server.crt" --tls_key="$work/certs/server.key"

echo "link: veth between two namespaces, tbf rate $rate each way"
printf '%-34s %10s %12s %8s\n' copy GB/s "TCP stream" ratio
run_client() {  # LABEL ADDRESS [ENV...]
  local label="$1" address="$2"
  shift 2
  ip netns exec "$client_ns" env NPUD_ADDRESS="$address" NPUD_LOG_LEVEL=error "$@" \
    "$build/bench/transfer_bench" --client --max_size="$max_size" |
    while read -r pinning direction size gbps; do
      local name="$((size >> 10)) KiB"
      ((size >= 1 << 20)) && name="$((size >> 20)) MiB"
      awk -v l="$label $direction $pinning $name" -v g="$gbps" \
        -v b="${baseline[$size]}" 'BEGIN { printf "%-34s %10.3f %12.3f %8.2f\n", l, g, b, g / b }'
    done
}
run_client TCP "$server_ip:50051"
run_client TLS "$server_ip:50053" NPUD_TLS_CA="$work/certs/ca.crt"
run_client "TCP framed" "npud://$server_ip:50052"
run_client "TLS framed" "npud://$server_ip:50054" NPUD_TLS_CA="$work/certs/ca.crt"
