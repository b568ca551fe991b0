#!/usr/bin/env python3
"""The DaemonSet's pod as `podman kube play` can run it (podman 4.3 plays
Pods, not DaemonSets): the pod template of base/daemonset.yaml, unchanged
but for what only a cluster provides, which is replaced by host paths and
ports on this machine:

  * the Secret npud-tls becomes the host directory --tls_dir;
  * the node's /run/npud becomes the host directory --socket_dir;
  * each container port is published on 127.0.0.1 (hostPort = port);
  * init containers are of podman's type "always" (annotation
    io.podman.annotations.init.container.type): podman 4.3 removes a "once"
    init container racily and fails the play ("cannot remove container ...
    as it is running"); "always" reruns it at each pod start, which the
    socket directory's init container allows.

  podman_pod.py --tls_dir DIR --socket_dir DIR > pod.yaml
  podman kube play --configmap base/configmap.yaml pod.yaml
"""

import argparse
import copy
import pathlib
import sys

import yaml

BASE = pathlib.Path(__file__).resolve().parent / "base"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tls_dir", required=True)
    parser.add_argument("--socket_dir", required=True)
    parser.add_argument("--name", default="npud")
    args = parser.parse_args()

    daemonset = yaml.safe_load((BASE / "daemonset.yaml").read_text())
    template = copy.deepcopy(daemonset["spec"]["template"])
    spec = template["spec"]
    for volume in spec["volumes"]:
        if "secret" in volume:
            volume.clear()
            volume.update(name="tls", hostPath={"path": args.tls_dir, "type": "Directory"})
        elif volume.get("hostPath", {}).get("path") == "/run/npud":
            volume["hostPath"] = {"path": args.socket_dir, "type": "DirectoryOrCreate"}
    for container in spec["containers"]:
        for port in container.get("ports", []):
            port["hostIP"] = "127.0.0.1"
            port["hostPort"] = port["containerPort"]
    pod = {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {
            "name": args.name,
            "labels": template["metadata"]["labels"],
            "annotations": {"io.podman.annotations.init.container.type": "always"},
        },
        "spec": spec,
    }
    yaml.safe_dump(pod, sys.stdout, sort_keys=False)


if __name__ == "__main__":
    main()
