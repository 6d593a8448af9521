"""Demo file contents derived rather than stored: PNG images and lock files.

A history step names one with ``{generate: <name>, ...}``; each function takes the repository's
data (``project``: its ``<dir>.yaml`` with the current ``packages`` versions) and the step's
spec, and returns the content (``bytes`` for a binary file).
"""

from __future__ import annotations

import base64
import hashlib
import json
import struct
import zlib


def _png(width: int, height: int, rgba) -> bytes:
    """A valid PNG built by hand (stored deflate blocks, so no zlib-version dependence)."""
    raw = b"".join(
        b"\x00" + b"".join(bytes(rgba(x, y)) for x in range(width)) for y in range(height)
    )
    blocks, pos = [], 0
    while True:
        chunk = raw[pos:pos + 65535]
        pos += len(chunk)
        final = pos >= len(raw)
        blocks.append(struct.pack("<BHH", 1 if final else 0, len(chunk), 0xFFFF ^ len(chunk)) + chunk)
        if final:
            break
    stream = b"\x78\x01" + b"".join(blocks) + struct.pack(">I", zlib.adler32(raw))

    def chunk(tag: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", stream) + chunk(b"IEND", b"")


def logo(project: dict, spec: dict) -> bytes:
    """A 32x32 disc in ``spec["rgb"]`` on a transparent background."""
    def px(x, y):
        inside = (x - 15.5) ** 2 + (y - 15.5) ** 2 <= 14 ** 2
        return (*spec["rgb"], 255) if inside else (0, 0, 0, 0)

    return _png(32, 32, px)


def diagram(project: dict, spec: dict) -> bytes:
    """A 64x48 grid of blue boxes."""
    def px(x, y):
        box = (x // 16) % 2 == 0 and 8 <= y % 24 <= 16
        return (40, 90, 160, 255) if box else (250, 250, 250, 255)

    return _png(64, 48, px)


def _direct(project: dict, dev: bool) -> dict[str, str]:
    return {name: "^" + p["version"] for name, p in project["packages"].items()
            if p.get("direct") and bool(p.get("dev")) == dev}


def package_json(project: dict, spec: dict) -> str:
    """package.json: ``project["package"]`` and the direct ``packages`` at their versions."""
    data = {**project["package"], "dependencies": _direct(project, False),
            "devDependencies": _direct(project, True)}
    return json.dumps(data, indent=2) + "\n"


def package_lock(project: dict, spec: dict) -> str:
    """package-lock.json (lockfileVersion 3) of every package, with made-up integrity hashes."""
    name, version = project["package"]["name"], project["package"]["version"]
    packages: dict[str, dict] = {
        "": {"name": name, "version": version, "dependencies": _direct(project, False),
             "devDependencies": _direct(project, True)},
    }
    for dep in sorted(project["packages"]):
        p = project["packages"][dep]
        v = p["version"]
        digest = base64.b64encode(hashlib.sha512(f"{dep}@{v}".encode()).digest()).decode()
        entry = {"version": v, "resolved": f"https://registry.npmjs.org/{dep}/-/{dep}-{v}.tgz",
                 "integrity": "sha512-" + digest}
        if p.get("dev"):
            entry["dev"] = True
        if p.get("dependencies"):
            entry["dependencies"] = p["dependencies"]
        entry["license"] = "MIT"
        packages[f"node_modules/{dep}"] = entry
    lock = {"name": name, "version": version, "lockfileVersion": 3, "requires": True,
            "packages": packages}
    return json.dumps(lock, indent=2) + "\n"


def uv_lock(project: dict, spec: dict) -> str:
    """uv.lock of every package, with made-up sdist hashes."""
    out = ["version = 1", f'requires-python = "{project["requires_python"]}"', ""]
    for name in sorted(project["packages"]):
        v = project["packages"][name]["version"]
        digest = hashlib.sha256(f"{name}=={v}".encode()).hexdigest()
        out += [
            "[[package]]",
            f'name = "{name}"',
            f'version = "{v}"',
            'source = { registry = "https://pypi.org/simple" }',
            f'sdist = {{ url = "https://files.pythonhosted.org/packages/source/{name[0]}/{name}/'
            f'{name}-{v}.tar.gz", hash = "sha256:{digest}" }}',
            "",
        ]
    return "\n".join(out)


GENERATORS = {"logo": logo, "diagram": diagram, "package_json": package_json,
              "package_lock": package_lock, "uv_lock": uv_lock}
