#!/usr/bin/env python3
"""Builds dist/ksql-<version>-py3-none-<platform>.whl with Go and Python's
standard library only (no build backend, no network):

    python3 python/build_wheel.py [--outdir DIR]

It compiles ksql.so with `go build -buildmode=c-shared ./cmd/ksql-ext` and
zips it with python/ksql/__init__.py and the dist-info files a wheel needs.
The wheel is platform-specific (a Go c-shared library needs glibc's dynamic
loader), so it is tagged for this machine's platform, e.g. linux_x86_64.
"""
import argparse
import base64
import hashlib
import os
import re
import subprocess
import sys
import sysconfig
import tempfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
# A fixed timestamp makes two builds of the same library the same wheel.
ZIP_DATE = (2020, 1, 1, 0, 0, 0)


def version():
    """ksql's version is the one ksql_version() reports."""
    path = os.path.join(ROOT, "ext", "functions", "config.go")
    with open(path, encoding="utf-8") as f:
        m = re.search(r'const Version = "([^"]+)"', f.read())
    if not m:
        sys.exit(f"build_wheel: no `const Version = \"...\"` in {path}")
    return m.group(1)


def platform_tag():
    plat = sysconfig.get_platform()  # e.g. linux-x86_64
    if not plat.startswith("linux-"):
        sys.exit(f"build_wheel: only Linux (glibc) wheels are built, not {plat}")
    return plat.replace("-", "_").replace(".", "_")


def build_library(tmp):
    so = os.path.join(tmp, "ksql.so")
    cmd = ["go", "build", "-trimpath", "-buildmode=c-shared", "-o", so, "./cmd/ksql-ext"]
    print("build_wheel:", " ".join(cmd), file=sys.stderr)
    env = dict(os.environ, CGO_ENABLED="1")
    try:
        subprocess.run(cmd, cwd=ROOT, env=env, check=True)
    except FileNotFoundError:
        sys.exit("build_wheel: `go` is not on PATH (Go 1.26 from go.dev)")
    except subprocess.CalledProcessError as e:
        sys.exit(f"build_wheel: go build failed (exit {e.returncode}); see its output above")
    return so


def metadata(ver):
    with open(os.path.join(HERE, "README.md"), encoding="utf-8") as f:
        long = f.read()
    return (
        "Metadata-Version: 2.1\n"
        "Name: ksql\n"
        f"Version: {ver}\n"
        "Summary: Kernel methods inside SQLite, as a loadable extension for Python's sqlite3\n"
        "Requires-Python: >=3.8\n"
        "Provides-Extra: numpy\n"
        'Requires-Dist: numpy; extra == "numpy"\n'
        "Description-Content-Type: text/markdown\n"
        "\n" + long
    )


def record_line(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}\n"


def write_wheel(outdir, so_path):
    ver, tag = version(), "py3-none-" + platform_tag()
    info = f"ksql-{ver}.dist-info"
    with open(os.path.join(HERE, "ksql", "__init__.py"), "rb") as f:
        init = f.read()
    with open(so_path, "rb") as f:
        so = f.read()
    wheel = (
        "Wheel-Version: 1.0\n"
        "Generator: ksql python/build_wheel.py\n"
        "Root-Is-Purelib: false\n"
        f"Tag: {tag}\n"
    )
    files = [
        ("ksql/__init__.py", init, 0o644),
        ("ksql/ksql.so", so, 0o755),
        (f"{info}/METADATA", metadata(ver).encode(), 0o644),
        (f"{info}/WHEEL", wheel.encode(), 0o644),
    ]
    record = "".join(record_line(n, d) for n, d, _ in files) + f"{info}/RECORD,,\n"
    files.append((f"{info}/RECORD", record.encode(), 0o644))

    os.makedirs(outdir, exist_ok=True)
    path = os.path.join(outdir, f"ksql-{ver}-{tag}.whl")
    tmp = path + ".part"
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data, mode in files:
            zi = zipfile.ZipInfo(name, ZIP_DATE)
            zi.external_attr = (0o100000 | mode) << 16
            zi.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(zi, data)
    os.replace(tmp, path)
    return path


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--outdir", default=os.path.join(ROOT, "dist"),
                    help="where the wheel goes (default: dist/ at the top of the checkout)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="ksql-wheel-") as tmp:
        path = write_wheel(os.path.abspath(args.outdir), build_library(tmp))
    print(path)


if __name__ == "__main__":
    main()
