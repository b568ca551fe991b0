#!/bin/sh
# packages.sh IMAGE: the Debian packages IMAGE holds, one "name=version" per
# line — what pins a rebuild to the same versions (pass them to apt-get
# install) and what to compare when two builds differ.
set -eu
podman run --rm --no-healthcheck --entrypoint dpkg-query "${1:?usage: packages.sh IMAGE}" \
  -W -f '${Package}=${Version}\n' | sort
