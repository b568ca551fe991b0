#!/usr/bin/env python3
"""What deploy/k8s and the image promise beyond the Kubernetes schemas:

  * every image is named by npud's version (CMakeLists.txt's project()),
    with imagePullPolicy IfNotPresent (a new version is a new tag), and the
    Containerfile's NPUD_VERSION and every app.kubernetes.io/version label
    say the same version;
  * every container runs without privilege escalation and capabilities
    (init containers may add back single ones) on a read-only root file
    system, and every long-running one as non-root.

  k8s_policy_check.py REPOSITORY_ROOT   (exit 1 and a line per breach)
"""

import pathlib
import re
import sys

import yaml


def main():
    root = pathlib.Path(sys.argv[1])
    version = re.search(r"project\(npud VERSION ([0-9.]+)",
                        (root / "CMakeLists.txt").read_text()).group(1)
    problems = []
    containerfile = (root / "deploy/container/Containerfile").read_text()
    if f"ARG NPUD_VERSION={version}\n" not in containerfile:
        problems.append(f"Containerfile: ARG NPUD_VERSION is not {version}")
    files = sorted((root / "deploy/k8s").glob("**/*.yaml"))
    for path in files:
        for doc in yaml.safe_load_all(path.read_text()):
            if not doc:
                continue
            name = f"{path.relative_to(root)}: {doc.get('kind')} {doc.get('metadata', {}).get('name')}"
            if doc.get("kind") == "Kustomization":
                for labels in doc.get("labels", []):
                    found = labels.get("pairs", {}).get("app.kubernetes.io/version")
                    if found is not None and found != version:
                        problems.append(f"{name}: version label {found}, not {version}")
                continue
            check_object(name, doc, version, problems)
    for problem in problems:
        print(problem)
    sys.exit(1 if problems else 0)


def check_object(name, doc, version, problems):
    for labels in (doc.get("metadata", {}).get("labels", {}),
                   doc.get("spec", {}).get("template", {}).get("metadata", {}).get("labels", {})):
        found = labels.get("app.kubernetes.io/version")
        if found is not None and found != version:
            problems.append(f"{name}: version label {found}, not {version}")
    pod = doc.get("spec", {}).get("template", {}).get("spec")
    if pod is None:
        return
    pod_context = pod.get("securityContext", {})
    for kind in ("initContainers", "containers"):
        for container in pod.get(kind, []):
            where = f"{name} {kind[:-1]} {container['name']}"
            image = container["image"]
            if not image.endswith(f":{version}"):
                problems.append(f"{where}: image {image} is not tagged {version}")
            if container.get("imagePullPolicy") != "IfNotPresent":
                problems.append(f"{where}: imagePullPolicy is not IfNotPresent")
            context = container.get("securityContext", {})
            if context.get("allowPrivilegeEscalation") is not False:
                problems.append(f"{where}: allowPrivilegeEscalation is not false")
            if context.get("readOnlyRootFilesystem") is not True:
                problems.append(f"{where}: readOnlyRootFilesystem is not true")
            if context.get("capabilities", {}).get("drop") != ["ALL"]:
                problems.append(f"{where}: capabilities are not dropped (drop: [ALL])")
            if kind == "containers" and context.get("capabilities", {}).get("add"):
                problems.append(f"{where}: adds capabilities")
            non_root = context.get("runAsNonRoot", pod_context.get("runAsNonRoot"))
            if kind == "containers" and non_root is not True:
                problems.append(f"{where}: runAsNonRoot is not true")


if __name__ == "__main__":
    main()
