#!/bin/sh
# Makes podman usable on a Debian 12 machine like CI's (README.md "Deploy"): the
# packages, the two settings it needs here (runc and cgroupfs; rlimits that
# cannot be raised), and a local debian:bookworm-slim base image made with
# debootstrap, since no registry is reachable. Idempotent; run as root. Says
# so when systemd is not init (podman then runs no health checks by itself).
set -eu
DEBIAN_FRONTEND=noninteractive
export DEBIAN_FRONTEND
need=""
for p in podman buildah runc fuse-overlayfs slirp4netns uidmap debootstrap podman-compose; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need="$need $p"
done
if [ -n "$need" ]; then
  apt-get update -qq
  apt-get install -y -qq $need > /dev/null
fi
conf=/etc/containers/containers.conf
if ! grep -q npud "$conf" 2>/dev/null; then
  mkdir -p /etc/containers
  cat >> "$conf" <<'CONF'
# npud (tools/setup_podman.sh): crun refuses this host's hybrid cgroups, and
# rlimits cannot be raised here.
[containers]
default_ulimits = ["nofile=20000:20000", "nproc=32768:32768"]
[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
CONF
fi
if ! podman image exists docker.io/library/debian:bookworm-slim; then
  rootfs="$(mktemp -d /tmp/npud-rootfs-XXXXXX)"
  debootstrap --variant=minbase bookworm "$rootfs" http://deb.debian.org/debian > /dev/null
  tar -C "$rootfs" -c . | podman import - docker.io/library/debian:bookworm-slim > /dev/null
  rm -rf "$rootfs"
fi
if [ ! -d /run/systemd/system ]; then
  echo "setup_podman.sh: systemd is not init here, so podman runs no health checks by itself;" \
    "run deploy/podman-healthcheck-timer.sh beside your containers (README.md \"Deploy\")" >&2
fi
