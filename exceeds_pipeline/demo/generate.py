"""Deterministic demo repositories: two small but realistic projects with planted facts.

``build_demo_repositories(dest)`` scripts two git repositories (``demo/webapp`` and
``demo/mlkit``) with fixed people, dates, offsets and content, so every build produces the same
commit shas. Each returned :class:`DemoRepo` is also a manifest of what was planted (which commit
is the revert, the reland, the numbered series, the AI-assisted commits, the renames, ...), and
:data:`PEOPLE` lists the humans and the bot with the identity rule that should join their e-mails.
Tests elsewhere assert the pipeline finds these facts; the generator's tests check git agrees.

The story, January 2025 to February 2026:

* ``demo/webapp`` -- "Nimbus Tasks", a Flask API with a TypeScript client. Pull requests land as
  ``Merge pull request #N from login/branch`` merge commits. Has a ``.mailmap``, a lock file with
  dependabot bumps, a vendored ``third_party/`` file, a generated ``*.min.js``, a PNG logo, a
  ``[1/3]..[3/3]`` series, Claude and Copilot co-author trailers and a ``Fixes:`` trailer.
* ``demo/mlkit`` -- a tensor-ops library with CUDA kernels. Pull requests are squash-merged
  (``Subject (#N)``, committed by GitHub). Has a ``git revert`` and its ``Reland "..."``, Aider
  commits (``aider:`` prefix and co-author trailer), a kernel directory move, a ``uv.lock``.

Identity traps: Maya commits with a personal address joined by ``.mailmap`` and once with an
upper-case address; Diego uses two GitHub noreply addresses with the same numeric id in webapp
and a plain address in mlkit (same name, but nothing else joins them: two people); Sam uses
different names and addresses in the two repositories, joined only by the config's identities.
"""

from __future__ import annotations

import base64
import hashlib
import json
import shutil
import struct
import zlib
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

import yaml

from exceeds_pipeline.demo.gitscript import GitScript

__all__ = [
    "BOT",
    "CONFIG_IDENTITIES",
    "DemoCommit",
    "DemoPerson",
    "DemoRepo",
    "PEOPLE",
    "PullRequest",
    "build_demo_repositories",
    "manifest",
    "write_demo_config",
]

# ---------------------------------------------------------------------------------------------
# People
# ---------------------------------------------------------------------------------------------

# Daylight-saving windows (dates, inclusive start, exclusive end) for the zones the cast lives in.
_DST = {
    "eu": [(date(2025, 3, 30), date(2025, 10, 26)), (date(2026, 3, 29), date(2026, 10, 25))],
    "us": [(date(2025, 3, 9), date(2025, 11, 2)), (date(2026, 3, 8), date(2026, 11, 1))],
}


@dataclass(frozen=True)
class _Zone:
    standard: str  # "+0100"
    summer: str | None = None
    rule: str | None = None  # key of _DST

    def offset(self, day: date) -> str:
        if self.summer and any(a <= day < b for a, b in _DST[self.rule or ""]):
            return self.summer
        return self.standard


SINGAPORE = _Zone("+0800")
BUENOS_AIRES = _Zone("-0300")
KOLKATA = _Zone("+0530")
WARSAW = _Zone("+0100", "+0200", "eu")
LONDON = _Zone("+0000", "+0100", "eu")
LOS_ANGELES = _Zone("-0800", "-0700", "us")


@dataclass(frozen=True)
class DemoPerson:
    """One expected person after identity resolution (``key`` is the generator's, not a slug).

    ``emails`` are the addresses exactly as written in commits; ``names`` the author names used;
    ``merged_by`` the rules that must join them: ``mailmap``, ``email`` (case-insensitive
    equality, across repositories too), ``noreply_id`` (same GitHub user id), ``config``.
    """

    key: str
    name: str
    emails: tuple[str, ...]
    names: tuple[str, ...]
    repos: tuple[str, ...]
    merged_by: tuple[str, ...] = ()
    is_bot: bool = False


@dataclass(frozen=True)
class _Author:
    name: str
    email: str
    person: str
    zone: _Zone

    @property
    def who(self) -> tuple[str, str]:
        return (self.name, self.email)


MAYA = _Author("Maya Chen", "maya@nimbuslabs.io", "maya", SINGAPORE)
MAYA_PERSONAL = _Author("maya", "maya.chen@gmail.com", "maya", SINGAPORE)
MAYA_UPPER = _Author("Maya Chen", "Maya@NimbusLabs.io", "maya", SINGAPORE)
DIEGO_GH = _Author("Diego Ramírez", "48213+dramirez@users.noreply.github.com", "diego-gh", BUENOS_AIRES)
DIEGO_GH_RENAMED = _Author("Diego Ramírez", "48213+diego-r@users.noreply.github.com", "diego-gh", BUENOS_AIRES)
DIEGO = _Author("Diego Ramírez", "diego@ramirez.dev", "diego", BUENOS_AIRES)
PRIYA = _Author("Priya Natarajan", "priya@nimbuslabs.io", "priya", KOLKATA)
PRIYA_AIDER = _Author("Priya Natarajan (aider)", "priya@nimbuslabs.io", "priya", KOLKATA)
TOMASZ = _Author("Tomasz Kowalski", "tomasz.kowalski@nimbuslabs.io", "tomasz", WARSAW)
TOMEK = _Author("Tomek Kowalski", "tomasz.kowalski@nimbuslabs.io", "tomasz", WARSAW)
JORDAN = _Author("Jordan Blake", "jordan@nimbuslabs.io", "jordan", LOS_ANGELES)
SAM = _Author("Sam Okafor", "sam.okafor@nimbuslabs.io", "sam", LONDON)
SAMUEL = _Author("Samuel Okafor", "sam@okafor.me", "sam", LONDON)
DEPENDABOT = _Author(
    "dependabot[bot]", "49699333+dependabot[bot]@users.noreply.github.com", "dependabot", _Zone("+0000")
)
GITHUB = ("GitHub", "noreply@github.com")  # committer of web merges and squash merges

WEBAPP = "demo/webapp"
MLKIT = "demo/mlkit"

PEOPLE: tuple[DemoPerson, ...] = (
    DemoPerson("maya", "Maya Chen", ("maya@nimbuslabs.io", "maya.chen@gmail.com", "Maya@NimbusLabs.io"),
               ("Maya Chen", "maya"), (WEBAPP, MLKIT), ("mailmap", "email")),
    DemoPerson("diego-gh", "Diego Ramírez",
               ("48213+dramirez@users.noreply.github.com", "48213+diego-r@users.noreply.github.com"),
               ("Diego Ramírez",), (WEBAPP,), ("noreply_id",)),
    DemoPerson("diego", "Diego Ramírez", ("diego@ramirez.dev",), ("Diego Ramírez",), (MLKIT,)),
    DemoPerson("priya", "Priya Natarajan", ("priya@nimbuslabs.io",),
               ("Priya Natarajan", "Priya Natarajan (aider)"), (MLKIT,), ("email",)),
    DemoPerson("tomasz", "Tomasz Kowalski", ("tomasz.kowalski@nimbuslabs.io",),
               ("Tomasz Kowalski", "Tomek Kowalski"), (WEBAPP, MLKIT), ("email",)),
    DemoPerson("jordan", "Jordan Blake", ("jordan@nimbuslabs.io",), ("Jordan Blake",), (WEBAPP,)),
    DemoPerson("sam", "Sam Okafor", ("sam.okafor@nimbuslabs.io", "sam@okafor.me"),
               ("Sam Okafor", "Samuel Okafor"), (WEBAPP, MLKIT), ("config",)),
)
BOT = DemoPerson("dependabot", "dependabot[bot]", (DEPENDABOT.email,), (DEPENDABOT.name,),
                 (WEBAPP, MLKIT), is_bot=True)

# Same display name, nothing else in common: must stay two people (never merge on a name alone).
NAME_ONLY_NOT_MERGED = ("diego-gh", "diego")

# The demo config's manual identities (SPEC section 3); without them "sam" is two people.
CONFIG_IDENTITIES = [
    {"id": "sam-okafor", "name": "Sam Okafor", "emails": ["sam.okafor@nimbuslabs.io", "sam@okafor.me"]},
]

WEBAPP_MAILMAP = ["Maya Chen <maya@nimbuslabs.io> <maya.chen@gmail.com>"]

CLAUDE_TRAILER = "Co-authored-by: Claude <noreply@anthropic.com>"
COPILOT_TRAILER = "Co-authored-by: Copilot <175728472+Copilot@users.noreply.github.com>"
AIDER_TRAILER = "Co-authored-by: aider (anthropic/claude-3-5-sonnet-20241022) <noreply@aider.chat>"

# ---------------------------------------------------------------------------------------------
# Manifest types
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DemoCommit:
    """One scripted commit. ``category`` is what the generator meant (None for merges)."""

    sha: str
    subject: str
    person: str
    author_date: str  # ISO 8601 with the author's offset, as given to git
    category: str | None
    label: str | None = None
    pr: int | None = None
    ai_tool: str | None = None  # declared AI tool, named as enrich.ai_tools names it
    is_merge: bool = False
    is_bot: bool = False


@dataclass
class PullRequest:
    number: int
    title: str
    merge_sha: str | None  # merge commit (webapp); None when squash-merged
    shas: list[str] = field(default_factory=list)  # the non-merge commits of the change


@dataclass
class DemoRepo:
    """A built demo repository and the facts planted in it (all shas are full 40-hex)."""

    name: str
    path: Path
    branch: str = "main"
    commits: list[DemoCommit] = field(default_factory=list)  # in creation order
    pull_requests: dict[int, PullRequest] = field(default_factory=dict)
    reverts: list[tuple[str, str]] = field(default_factory=list)  # (revert, reverted)
    relands: list[tuple[str, str]] = field(default_factory=list)  # (reland, original)
    series: list[list[str]] = field(default_factory=list)  # [1/N] .. [N/N] shas in order
    fixes_trailers: list[tuple[str, str]] = field(default_factory=list)  # (fix, named by Fixes:)
    szz: list[tuple[str, str]] = field(default_factory=list)  # (fix, commit its deleted lines blame to)
    rework: list[tuple[str, str]] = field(default_factory=list)  # (original, rewrite < 21 days later)
    renames: list[tuple[str, str, str]] = field(default_factory=list)  # (sha, old path, new path)
    binaries: list[tuple[str, str]] = field(default_factory=list)  # (sha, path) binary changes
    excluded_paths: dict[str, str] = field(default_factory=dict)  # path -> binary/vendored/lock_file/generated
    local_date_differs: list[tuple[str, str, str]] = field(default_factory=list)  # (sha, local, UTC date)
    mailmap: list[str] = field(default_factory=list)

    @property
    def head(self) -> str:
        return self.commits[-1].sha if self.commits else ""

    def sha(self, label: str) -> str:
        """The sha of the commit planted under ``label`` (KeyError if none)."""
        for c in self.commits:
            if c.label == label:
                return c.sha
        raise KeyError(label)

    def by_sha(self, sha: str) -> DemoCommit:
        return next(c for c in self.commits if c.sha == sha)

    @property
    def merges(self) -> list[str]:
        return [c.sha for c in self.commits if c.is_merge]

    @property
    def ai_commits(self) -> dict[str, str]:
        return {c.sha: c.ai_tool for c in self.commits if c.ai_tool}

    @property
    def bot_commits(self) -> list[str]:
        return [c.sha for c in self.commits if c.is_bot]


# ---------------------------------------------------------------------------------------------
# Script recorder
# ---------------------------------------------------------------------------------------------


def _when(author: _Author, local: str) -> str:
    """``"2025-03-04 10:00"`` in the author's zone -> ISO string with the right offset."""
    dt = datetime.strptime(local, "%Y-%m-%d %H:%M")
    return dt.strftime("%Y-%m-%dT%H:%M:00") + author.zone.offset(dt.date())


def _utc_later(iso: str, hours: float) -> str:
    dt = datetime.fromisoformat(iso).astimezone(timezone.utc) + timedelta(hours=hours)
    return dt.strftime("%Y-%m-%dT%H:%M:%S+0000")


class _Script:
    def __init__(self, name: str, path: Path):
        self.git = GitScript.init(path)
        self.repo = DemoRepo(name=name, path=path)

    def text(self, rel: str) -> str:
        return (self.repo.path / rel).read_text("utf-8")

    def edit(self, rel: str, *pairs: tuple[str, str]) -> str:
        """The current content of ``rel`` with each ``old`` replaced once by ``new``."""
        content = self.text(rel)
        for old, new in pairs:
            if old not in content:
                raise AssertionError(f"{rel}: {old!r} not found")
            content = content.replace(old, new, 1)
        return content

    def append(self, rel: str, extra: str) -> str:
        return self.text(rel) + extra

    def _record(self, sha: str, message: str, author: _Author, iso: str, category, **kw) -> str:
        commit = DemoCommit(sha=sha, subject=message.split("\n", 1)[0], person=author.person,
                            author_date=iso, category=category, is_bot=author is DEPENDABOT, **kw)
        self.repo.commits.append(commit)
        utc_day = datetime.fromisoformat(iso).astimezone(timezone.utc).date().isoformat()
        if utc_day != iso[:10]:
            self.repo.local_date_differs.append((sha, iso[:10], utc_day))
        if kw.get("pr") is not None and not kw.get("is_merge"):
            pr = self.repo.pull_requests.setdefault(kw["pr"], PullRequest(kw["pr"], commit.subject, None))
            pr.shas.append(sha)
        return sha

    def commit(self, author: _Author, local: str, message: str, category: str, *, files=None,
               renames=None, label=None, pr=None, ai=None, squash_merged_after: float | None = None) -> str:
        iso = _when(author, local)
        committer = committer_date = None
        if squash_merged_after is not None:  # squash-merged on GitHub: GitHub commits it later
            committer, committer_date = GITHUB, _utc_later(iso, squash_merged_after)
        sha = self.git.commit(message, author=author.who, date=iso, committer=committer,
                              committer_date=committer_date, files=files, renames=renames)
        for old, new in (renames or {}).items():
            self.repo.renames.append((sha, old, new))
        for path, content in (files or {}).items():
            if isinstance(content, bytes):
                self.repo.binaries.append((sha, path))
        return self._record(sha, message, author, iso, category, label=label, pr=pr, ai_tool=ai)

    def merge_pr(self, merger: _Author, local: str, number: int, login_branch: str, title: str,
                 branch: str, label=None) -> str:
        iso = _when(merger, local)
        message = f"Merge pull request #{number} from {login_branch}\n\n{title}\n"
        sha = self.git.merge(branch, message, author=merger.who, date=iso, committer=GITHUB,
                             committer_date=_utc_later(iso, 0))
        pr = self.repo.pull_requests.setdefault(number, PullRequest(number, title, None))
        pr.title, pr.merge_sha = title, sha
        return self._record(sha, message, merger, iso, None, label=label, pr=number, is_merge=True)

    def revert(self, author: _Author, local: str, target: str, reason: str, label=None) -> str:
        iso = _when(author, local)
        sha = self.git.revert(target, author=author.who, date=iso, reason=reason)
        self.repo.reverts.append((sha, target))
        message = self.git.git("log", "-1", "--format=%B", sha)
        return self._record(sha, message, author, iso, "revert", label=label)


# ---------------------------------------------------------------------------------------------
# Deterministic file helpers
# ---------------------------------------------------------------------------------------------


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


def _logo(primary: tuple[int, int, int]) -> bytes:
    def px(x, y):
        inside = (x - 15.5) ** 2 + (y - 15.5) ** 2 <= 14 ** 2
        return (*primary, 255) if inside else (0, 0, 0, 0)

    return _png(32, 32, px)


def _diagram() -> bytes:
    def px(x, y):
        box = (x // 16) % 2 == 0 and 8 <= y % 24 <= 16
        return (40, 90, 160, 255) if box else (250, 250, 250, 255)

    return _png(64, 48, px)


def _integrity(name: str, version: str) -> str:
    return "sha512-" + base64.b64encode(hashlib.sha512(f"{name}@{version}".encode()).digest()).decode()


_NPM_TREE = {  # name -> (version, deps, dev)
    "axios": ("1.7.9", {"follow-redirects": "^1.15.6", "form-data": "^4.0.0", "proxy-from-env": "^1.1.0"}, False),
    "follow-redirects": ("1.15.9", {}, False),
    "form-data": ("4.0.1", {"asynckit": "^0.4.0", "combined-stream": "^1.0.8", "mime-types": "^2.1.12"}, False),
    "asynckit": ("0.4.0", {}, False),
    "combined-stream": ("1.0.8", {"delayed-stream": "~1.0.0"}, False),
    "delayed-stream": ("1.0.0", {}, False),
    "mime-types": ("2.1.35", {"mime-db": "1.52.0"}, False),
    "mime-db": ("1.52.0", {}, False),
    "proxy-from-env": ("1.1.0", {}, False),
    "typescript": ("5.7.3", {}, True),
    "vite": ("6.0.7", {"esbuild": "^0.24.2", "postcss": "^8.4.49", "rollup": "^4.23.0"}, True),
    "esbuild": ("0.24.2", {}, True),
    "postcss": ("8.4.49", {"nanoid": "^3.3.7", "picocolors": "^1.1.1", "source-map-js": "^1.2.1"}, True),
    "nanoid": ("3.3.8", {}, True),
    "picocolors": ("1.1.1", {}, True),
    "source-map-js": ("1.2.1", {}, True),
    "rollup": ("4.30.1", {}, True),
    "vitest": ("2.1.8", {}, True),
}


def _package_json(versions: dict[str, str]) -> str:
    data = {
        "name": "nimbus-tasks-web",
        "version": "1.0.0",
        "private": True,
        "type": "module",
        "scripts": {"dev": "vite", "build": "tsc && vite build", "test": "vitest run"},
        "dependencies": {"axios": "^" + versions["axios"]},
        "devDependencies": {k: "^" + versions[k] for k in ("typescript", "vite", "vitest")},
    }
    return json.dumps(data, indent=2) + "\n"


def _package_lock(versions: dict[str, str]) -> str:
    packages: dict[str, dict] = {
        "": {
            "name": "nimbus-tasks-web",
            "version": "1.0.0",
            "dependencies": {"axios": "^" + versions["axios"]},
            "devDependencies": {k: "^" + versions[k] for k in ("typescript", "vite", "vitest")},
        }
    }
    for name in sorted(_NPM_TREE):
        _, deps, dev = _NPM_TREE[name]
        version = versions[name]
        entry = {
            "version": version,
            "resolved": f"https://registry.npmjs.org/{name}/-/{name}-{version}.tgz",
            "integrity": _integrity(name, version),
        }
        if dev:
            entry["dev"] = True
        if deps:
            entry["dependencies"] = deps
        entry["license"] = "MIT"
        packages[f"node_modules/{name}"] = entry
    lock = {"name": "nimbus-tasks-web", "version": "1.0.0", "lockfileVersion": 3, "requires": True,
            "packages": packages}
    return json.dumps(lock, indent=2) + "\n"


_PY_LOCK = {"numpy": "2.2.1", "pyyaml": "6.0.2", "pytest": "8.3.4", "iniconfig": "2.0.0",
            "packaging": "24.2", "pluggy": "1.5.0", "tqdm": "4.67.1"}


def _uv_lock(versions: dict[str, str]) -> str:
    out = ['version = 1', 'requires-python = ">=3.10"', ""]
    for name in sorted(versions):
        v = versions[name]
        digest = hashlib.sha256(f"{name}=={v}".encode()).hexdigest()
        out += [
            "[[package]]",
            f'name = "{name}"',
            f'version = "{v}"',
            'source = { registry = "https://pypi.org/simple" }',
            f'sdist = {{ url = "https://files.pythonhosted.org/packages/source/{name[0]}/{name}/{name}-{v}.tar.gz", '
            f'hash = "sha256:{digest}" }}',
            "",
        ]
    return "\n".join(out)


_SPARKLINE_MIN_JS = (
    '/*! sparkline v2.4.1 | MIT */!function(t,e){"object"==typeof exports&&"undefined"!=typeof module'
    '?module.exports=e():"function"==typeof define&&define.amd?define(e):(t=t||self).Sparkline=e()}'
    '(this,function(){"use strict";function t(t,e){var n=Math.min.apply(null,e),r=Math.max.apply(null,e)'
    ',i=t.width/(e.length-1||1),o=(r-n)||1;return e.map(function(e,r){return[r*i,t.height-(e-n)/o*t.height]})}'
    'return function(e,n){var r=e.getContext("2d"),i=t(e,n);r.clearRect(0,0,e.width,e.height),r.beginPath(),'
    'i.forEach(function(t,e){e?r.lineTo(t[0],t[1]):r.moveTo(t[0],t[1])}),r.strokeStyle="#3b82f6",r.stroke()}});\n'
)

_PURIFY_JS = """\
/*! @license DOMPurify 3.2.3 | (c) Cure53 and other contributors | Released under the Apache
 * license 2.0 and Mozilla Public License 2.0 | github.com/cure53/DOMPurify/blob/3.2.3/LICENSE */
// Vendored subset: only sanitize() for plain-text-with-links task descriptions.

(function (global, factory) {
  typeof exports === 'object' && typeof module !== 'undefined' ? module.exports = factory() :
  typeof define === 'function' && define.amd ? define(factory) :
  (global = typeof globalThis !== 'undefined' ? globalThis : global || self, global.DOMPurify = factory());
})(this, (function () { 'use strict';

  const ALLOWED_TAGS = ['a', 'b', 'br', 'code', 'em', 'i', 'li', 'ol', 'p', 'pre', 'strong', 'ul'];
  const ALLOWED_ATTR = ['href', 'title'];
  const SAFE_URL = /^(?:(?:https?|mailto):|[^a-z]|[a-z+.-]+(?:[^a-z+.:-]|$))/i;

  function clean(node) {
    for (const child of Array.from(node.childNodes)) {
      if (child.nodeType === 1) {
        const tag = child.nodeName.toLowerCase();
        if (!ALLOWED_TAGS.includes(tag)) {
          child.replaceWith(...Array.from(child.childNodes));
          continue;
        }
        for (const attr of Array.from(child.attributes)) {
          const name = attr.name.toLowerCase();
          if (!ALLOWED_ATTR.includes(name) || (name === 'href' && !SAFE_URL.test(attr.value))) {
            child.removeAttribute(attr.name);
          }
        }
        clean(child);
      } else if (child.nodeType !== 3) {
        child.remove();
      }
    }
  }

  function sanitize(dirty) {
    const doc = new DOMParser().parseFromString(`<body>${dirty}</body>`, 'text/html');
    clean(doc.body);
    return doc.body.innerHTML;
  }

  return { sanitize, version: '3.2.3' };
}));
"""

_DLPACK_H = """\
/*!
 *  Copyright (c) 2017 by Contributors
 * \\file dlpack.h
 * \\brief The common header of DLPack.  Vendored from dmlc/dlpack v1.0 (Apache-2.0).
 */
#ifndef DLPACK_DLPACK_H_
#define DLPACK_DLPACK_H_

#include <stddef.h>
#include <stdint.h>

#define DLPACK_MAJOR_VERSION 1
#define DLPACK_MINOR_VERSION 0

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  kDLCPU = 1,
  kDLCUDA = 2,
  kDLCUDAHost = 3,
  kDLROCM = 10,
} DLDeviceType;

typedef struct {
  DLDeviceType device_type;
  int32_t device_id;
} DLDevice;

typedef enum {
  kDLInt = 0U,
  kDLUInt = 1U,
  kDLFloat = 2U,
  kDLBfloat = 4U,
} DLDataTypeCode;

typedef struct {
  uint8_t code;
  uint8_t bits;
  uint16_t lanes;
} DLDataType;

typedef struct {
  void* data;
  DLDevice device;
  int32_t ndim;
  DLDataType dtype;
  int64_t* shape;
  int64_t* strides;
  uint64_t byte_offset;
} DLTensor;

typedef struct DLManagedTensor {
  DLTensor dl_tensor;
  void* manager_ctx;
  void (*deleter)(struct DLManagedTensor* self);
} DLManagedTensor;

#ifdef __cplusplus
}  // DLPACK_EXTERN_C
#endif
#endif  // DLPACK_DLPACK_H_
"""


def _dependabot_message(dep: str, old: str, new: str, ecosystem: str, url: str, kind: str) -> str:
    return (
        f"Bump {dep} from {old} to {new}\n\n"
        f"Bumps [{dep}]({url}) from {old} to {new}.\n"
        f"- [Release notes]({url}/releases)\n"
        f"- [Commits]({url}/compare/v{old}...v{new})\n\n"
        "---\n"
        "updated-dependencies:\n"
        f"- dependency-name: {dep}\n"
        f"  dependency-version: {new}\n"
        f"  dependency-type: {kind}\n"
        "  update-type: version-update:semver-patch\n"
        "...\n\n"
        "Signed-off-by: dependabot[bot] <support@github.com>\n"
    )


# ---------------------------------------------------------------------------------------------
# demo/webapp
# ---------------------------------------------------------------------------------------------

_WEB_README = """\
# Nimbus Tasks

A small task tracker: a Flask API (`api/`) and a TypeScript web client (`web/`).

## Running locally

    pip install -e .
    python -m api.app
"""

_WEB_PYPROJECT = """\
[project]
name = "nimbus-tasks"
version = "0.1.0"
requires-python = ">=3.11"
dependencies = ["flask>=3.0"]

[project.optional-dependencies]
dev = ["pytest>=8.3"]
"""

_APP_PY = '''\
"""Application factory for the Nimbus Tasks API."""

from flask import Flask

from api import handlers


def create_app(config: dict | None = None) -> Flask:
    app = Flask(__name__)
    app.config.update(config or {})
    app.register_blueprint(handlers.bp)
    return app


if __name__ == "__main__":
    create_app().run(debug=True)
'''

_HANDLERS_PY = '''\
"""HTTP handlers for tasks."""

from flask import Blueprint, abort, jsonify, request

bp = Blueprint("tasks", __name__, url_prefix="/tasks")

_TASKS: dict[int, dict] = {}
_NEXT_ID = 1


@bp.get("")
def list_tasks():
    return jsonify(sorted(_TASKS.values(), key=lambda t: t["id"]))


@bp.post("")
def create_task():
    global _NEXT_ID
    payload = request.get_json(force=True)
    task = {"id": _NEXT_ID, "title": payload["title"], "done": False}
    _TASKS[task["id"]] = task
    _NEXT_ID += 1
    return jsonify(task), 201


@bp.get("/<int:task_id>")
def get_task(task_id: int):
    task = _TASKS.get(task_id)
    if task is None:
        abort(404)
    return jsonify(task)


@bp.post("/<int:task_id>/done")
def complete_task(task_id: int):
    task = _TASKS.get(task_id)
    if task is None:
        abort(404)
    task["done"] = True
    return jsonify(task)
'''

_TEST_HANDLERS_PY = '''\
from api.app import create_app


def client():
    return create_app({"TESTING": True}).test_client()


def test_create_and_get_task():
    c = client()
    created = c.post("/tasks", json={"title": "Write docs"}).get_json()
    assert created["title"] == "Write docs"
    assert c.get(f"/tasks/{created['id']}").get_json() == created


def test_missing_task_is_404():
    assert client().get("/tasks/999").status_code == 404
'''

_MODELS_PY = '''\
"""Task model and request validation."""

from dataclasses import asdict, dataclass, field


@dataclass
class Task:
    id: int
    title: str
    done: bool = False
    tags: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        return asdict(self)


def validate_task(payload: dict) -> dict:
    title = payload.get("title")
    if not isinstance(title, str):
        raise ValueError("title must be a string")
    return {"title": title.strip()}
'''

_STORAGE_PY = '''\
"""SQLite-backed task storage."""

import sqlite3

SCHEMA = """
CREATE TABLE IF NOT EXISTS tasks (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    title TEXT NOT NULL,
    done INTEGER NOT NULL DEFAULT 0
)
"""


class TaskStore:
    def __init__(self, path: str = ":memory:"):
        self.conn = sqlite3.connect(path, check_same_thread=False)
        self.conn.row_factory = sqlite3.Row
        self.conn.execute(SCHEMA)

    def add(self, title: str) -> dict:
        cur = self.conn.execute("INSERT INTO tasks (title) VALUES (?)", (title,))
        self.conn.commit()
        return self.get(cur.lastrowid)

    def get(self, task_id: int) -> dict | None:
        row = self.conn.execute("SELECT * FROM tasks WHERE id = ?", (task_id,)).fetchone()
        return dict(row) if row else None

    def list(self) -> list[dict]:
        return [dict(r) for r in self.conn.execute("SELECT * FROM tasks ORDER BY id")]

    def complete(self, task_id: int) -> dict | None:
        self.conn.execute("UPDATE tasks SET done = 1 WHERE id = ?", (task_id,))
        self.conn.commit()
        return self.get(task_id)
'''

_TEST_STORAGE_PY = '''\
from api.storage import TaskStore


def test_add_and_complete():
    store = TaskStore()
    task = store.add("Ship it")
    assert task["done"] == 0
    assert store.complete(task["id"])["done"] == 1


def test_list_is_ordered_by_id():
    store = TaskStore()
    for title in ("a", "b", "c"):
        store.add(title)
    assert [t["title"] for t in store.list()] == ["a", "b", "c"]
'''

_API_TS = """\
export interface Task {
  id: number;
  title: string;
  done: boolean;
}

const BASE = "/tasks";

export async function listTasks(): Promise<Task[]> {
  const res = await fetch(BASE);
  if (!res.ok) throw new Error(`listTasks failed: ${res.status}`);
  return res.json();
}

export async function createTask(title: string): Promise<Task> {
  const res = await fetch(BASE, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ title }),
  });
  if (!res.ok) throw new Error(`createTask failed: ${res.status}`);
  return res.json();
}

export async function completeTask(id: number): Promise<Task> {
  const res = await fetch(`${BASE}/${id}/done`, { method: "POST" });
  if (!res.ok) throw new Error(`completeTask failed: ${res.status}`);
  return res.json();
}
"""

_MAIN_TS = """\
import { listTasks } from "./api";

async function main(): Promise<void> {
  const root = document.getElementById("app");
  if (!root) return;
  const tasks = await listTasks();
  root.textContent = `${tasks.length} tasks`;
}

main();
"""

_TSCONFIG = """\
{
  "compilerOptions": {
    "target": "ES2022",
    "module": "ESNext",
    "moduleResolution": "bundler",
    "strict": true,
    "lib": ["ES2022", "DOM"],
    "outDir": "dist"
  },
  "include": ["web/src"]
}
"""

_TASKLIST_TS = """\
import { Task, completeTask } from "../api";

export class TaskList {
  constructor(private root: HTMLElement, private tasks: Task[]) {}

  render(): void {
    this.root.innerHTML = "";
    const ul = document.createElement("ul");
    for (const task of this.tasks) {
      const li = document.createElement("li");
      li.textContent = task.title;
      if (task.done) li.classList.add("done");
      li.addEventListener("click", () => this.toggle(task));
      ul.appendChild(li);
    }
    this.root.appendChild(ul);
  }

  private async toggle(task: Task): Promise<void> {
    const updated = await completeTask(task.id);
    this.tasks = this.tasks.map((t) => (t.id === updated.id ? updated : t));
    this.render();
  }
}
"""

_CI_YML = """\
name: CI

on:
  push:
    branches: [main]
  pull_request:

jobs:
  api:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-python@v5
        with:
          python-version: "3.11"
      - run: pip install -e '.[dev]'
      - run: pytest -q

  web:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with:
          node-version: 20
          cache: npm
      - run: npm ci
      - run: npx tsc --noEmit
"""

_DOCKERFILE = """\
FROM python:3.11-slim

WORKDIR /srv
COPY pyproject.toml ./
COPY api ./api
RUN pip install --no-cache-dir .

ENV FLASK_APP=api.app:create_app
EXPOSE 8000
CMD ["flask", "run", "--host=0.0.0.0", "--port=8000"]
"""

_SESSION_PY = '''\
"""Session storage for logged-in users."""

import secrets
import time
from typing import Protocol


class SessionStore(Protocol):
    def create(self, user_id: int) -> str: ...

    def user_for(self, token: str) -> int | None: ...

    def revoke(self, token: str) -> None: ...


class MemorySessionStore:
    def __init__(self, ttl_seconds: int = 3600):
        self.ttl = ttl_seconds
        self._sessions: dict[str, tuple[int, float]] = {}

    def create(self, user_id: int) -> str:
        token = secrets.token_urlsafe(32)
        self._sessions[token] = (user_id, time.monotonic() + self.ttl)
        return token

    def user_for(self, token: str) -> int | None:
        entry = self._sessions.get(token)
        if entry is None or entry[1] < time.monotonic():
            return None
        return entry[0]

    def revoke(self, token: str) -> None:
        self._sessions.pop(token, None)
'''

_REDIS_SESSION_PY = '''\


class RedisSessionStore:
    """Sessions in Redis, so several API workers share logins."""

    def __init__(self, client, ttl_seconds: int = 3600, prefix: str = "session:"):
        self.client = client
        self.ttl = ttl_seconds
        self.prefix = prefix

    def create(self, user_id: int) -> str:
        token = secrets.token_urlsafe(32)
        self.client.set(self.prefix + token, user_id, ex=self.ttl)
        return token

    def user_for(self, token: str) -> int | None:
        value = self.client.get(self.prefix + token)
        return int(value) if value is not None else None

    def revoke(self, token: str) -> None:
        self.client.delete(self.prefix + token)
'''

_AUTH_PY = '''\
"""Login and logout."""

from flask import Blueprint, current_app, jsonify, request

bp = Blueprint("auth", __name__, url_prefix="/auth")

USERS = {"demo": ("demo-password", 1)}


@bp.post("/login")
def login():
    payload = request.get_json(force=True)
    user = USERS.get(payload.get("username", ""))
    if user is None or user[0] != payload.get("password"):
        return jsonify(error="invalid credentials"), 401
    token = current_app.config["SESSIONS"][user[1]] = f"token-{user[1]}"
    return jsonify(token=token)
'''

_DASHBOARD_TS = """\
import { Task } from "./api";

declare const Sparkline: (canvas: HTMLCanvasElement, values: number[]) => void;

export function renderDashboard(root: HTMLElement, tasks: Task[]): void {
  const done = tasks.filter((t) => t.done).length;
  const open = tasks.length - done;
  const header = document.createElement("h2");
  header.textContent = `Dashboard`;
  root.appendChild(header);
  const summary = document.createElement("p");
  summary.textContent = `${open} open, ${done} done`;
  root.appendChild(summary);
  const canvas = document.createElement("canvas");
  canvas.width = 240;
  canvas.height = 40;
  root.appendChild(canvas);
  Sparkline(canvas, weeklyCounts(tasks));
}

function weeklyCounts(tasks: Task[]): number[] {
  const counts = new Array(8).fill(0);
  tasks.forEach((t, i) => (counts[i % 8] += t.done ? 1 : 0));
  return counts;
}
"""

_DASHBOARD_GRID_TS = """\
import { Task } from "./api";

declare const Sparkline: (canvas: HTMLCanvasElement, values: number[]) => void;

interface Card {
  title: string;
  value: string;
}

export function renderDashboard(root: HTMLElement, tasks: Task[]): void {
  const grid = document.createElement("div");
  grid.className = "dashboard-grid";
  const done = tasks.filter((t) => t.done).length;
  const cards: Card[] = [
    { title: "Open", value: String(tasks.length - done) },
    { title: "Done", value: String(done) },
  ];
  for (const card of cards) grid.appendChild(renderCard(card));
  const canvas = document.createElement("canvas");
  canvas.width = 240;
  canvas.height = 40;
  grid.appendChild(canvas);
  root.replaceChildren(grid);
  Sparkline(canvas, weeklyCounts(tasks));
}

function renderCard(card: Card): HTMLElement {
  const el = document.createElement("section");
  el.className = "card";
  el.innerHTML = `<h3>${card.title}</h3><p>${card.value}</p>`;
  return el;
}

function weeklyCounts(tasks: Task[]): number[] {
  const counts = new Array(8).fill(0);
  tasks.forEach((t, i) => (counts[i % 8] += t.done ? 1 : 0));
  return counts;
}
"""

_SETTINGS_YAML = """\
# Runtime settings for the API; override with NIMBUS_* environment variables.
server:
  host: 0.0.0.0
  port: 8000
database:
  path: /var/lib/nimbus/tasks.db
sessions:
  backend: memory
  ttl_seconds: 3600
"""


def _build_webapp(path: Path) -> DemoRepo:  # noqa: PLR0915 - a script, read top to bottom
    s = _Script(WEBAPP, path)
    r = s.repo
    npm = {name: spec[0] for name, spec in _NPM_TREE.items()}
    r.excluded_paths.update({
        "package-lock.json": "lock_file",
        "third_party/purify/purify.js": "vendored",
        "third_party/purify/README.md": "vendored",
        "web/public/js/sparkline.min.js": "generated",
        "web/public/logo.png": "binary",
    })

    # -- January 2025: project start -----------------------------------------------------------
    s.commit(MAYA_PERSONAL, "2025-01-06 10:12", "Initial commit", "feature", label="initial", files={
        "README.md": _WEB_README, "pyproject.toml": _WEB_PYPROJECT, "api/__init__.py": '"""Nimbus Tasks API."""\n',
        "api/app.py": _APP_PY, "api/handlers.py": _HANDLERS_PY, "tests/test_handlers.py": _TEST_HANDLERS_PY,
        ".gitignore": "__pycache__/\n*.egg-info/\nnode_modules/\ndist/\n",
    })
    s.commit(MAYA_PERSONAL, "2025-01-08 21:40", "Add task model and SQLite storage", "feature", files={
        "api/models.py": _MODELS_PY, "api/storage.py": _STORAGE_PY, "tests/test_storage.py": _TEST_STORAGE_PY,
    })
    s.commit(JORDAN, "2025-01-14 09:05", "Add web client skeleton with Vite and TypeScript", "feature", files={
        "web/src/api.ts": _API_TS, "web/src/main.ts": _MAIN_TS, "tsconfig.json": _TSCONFIG,
        "package.json": _package_json(npm), "package-lock.json": _package_lock(npm),
        "web/index.html": '<!doctype html>\n<html lang="en">\n  <head><meta charset="utf-8" />'
                          "<title>Nimbus Tasks</title></head>\n  <body>\n    <div id=\"app\"></div>\n"
                          '    <script type="module" src="/src/main.ts"></script>\n  </body>\n</html>\n',
    })
    s.commit(TOMASZ, "2025-01-20 14:30", "build: Add CI workflow running pytest and tsc", "build",
             files={".github/workflows/ci.yml": _CI_YML})
    s.git.write_mailmap(WEBAPP_MAILMAP)
    r.mailmap = list(WEBAPP_MAILMAP)
    s.commit(MAYA, "2025-01-27 11:00", "chore: Add .mailmap for my personal address", "chore", label="mailmap")

    # -- February: first pull requests ----------------------------------------------------------
    s.git.branch("jblake/task-list", checkout=True)
    s.commit(JORDAN, "2025-02-03 10:20", "Add TaskList component", "feature", pr=4,
             files={"web/src/components/TaskList.ts": _TASKLIST_TS,
                    "web/src/main.ts": _MAIN_TS.replace('import { listTasks } from "./api";',
                                                        'import { listTasks } from "./api";\n'
                                                        'import { TaskList } from "./components/TaskList";')
                    .replace("  root.textContent = `${tasks.length} tasks`;",
                             "  new TaskList(root, tasks).render();")})
    s.commit(JORDAN, "2025-02-04 16:45", "Style completed tasks in the list", "feature", pr=4,
             files={"web/src/styles.css": "li.done {\n  text-decoration: line-through;\n  color: #6b7280;\n}\n"})
    s.git.checkout("main")
    s.commit(MAYA, "2025-02-05 15:10", "test: Cover 404 for completing a missing task", "test",
             files={"tests/test_handlers.py": s.append("tests/test_handlers.py", '''

def test_complete_missing_task_is_404():
    assert client().post("/tasks/42/done").status_code == 404
''')})
    s.merge_pr(MAYA, "2025-02-05 17:30", 4, "jblake/task-list", "Add a task list to the web client",
               "jblake/task-list", label="merge_pr4")

    s.git.branch("dramirez/dockerfile", checkout=True)
    s.commit(DIEGO_GH, "2025-02-10 18:25", "Add Dockerfile for the API server", "build", pr=5,
             files={"Dockerfile": _DOCKERFILE, ".dockerignore": ".git\nnode_modules\n__pycache__\n"})
    s.git.checkout("main")
    s.merge_pr(TOMASZ, "2025-02-11 09:00", 5, "dramirez/dockerfile", "Add Dockerfile", "dramirez/dockerfile")

    s.commit(MAYA, "2025-02-18 13:05", "Add support for task due dates", "feature", label="due_dates", files={
        "api/models.py": s.edit(
            "api/models.py",
            ("from dataclasses import asdict, dataclass, field\n",
             "from dataclasses import asdict, dataclass, field\nfrom datetime import date\n"),
            ("    done: bool = False\n", "    done: bool = False\n    due: date | None = None\n"),
            ('    return {"title": title.strip()}\n',
             '    due = payload.get("due")\n    if due is not None:\n        due = date.fromisoformat(due)\n'
             '    return {"title": title.strip(), "due": due}\n'),
        ),
        "tests/test_models.py": 'from datetime import date\n\nfrom api.models import validate_task\n\n\n'
                                'def test_due_date_is_parsed():\n'
                                '    assert validate_task({"title": "x", "due": "2025-03-01"})["due"] == date(2025, 3, 1)\n',
    })

    # -- March: docs, logo, session series --------------------------------------------------------
    s.commit(SAM, "2025-03-03 10:40", "docs: Document local development setup", "docs", files={
        "README.md": s.append("README.md", "\n## Development\n\nRun the API tests with `pytest -q` and the "
                              "client with `npm run dev`.\nThe client proxies `/tasks` to the API on port 8000.\n"),
    })
    s.commit(JORDAN, "2025-03-12 11:15", "Add app logo", "feature", label="logo",
             files={"web/public/logo.png": _logo((59, 130, 246))})
    series = [
        s.commit(TOMASZ, "2025-03-20 16:00", "[1/3] api: Extract SessionStore interface", "refactor",
                 label="series_1", files={"api/session.py": _SESSION_PY.split("\n\nclass MemorySessionStore")[0] + "\n"}),
        s.commit(TOMASZ, "2025-03-21 12:30", "[2/3] api: Add memory and Redis SessionStore backends", "feature",
                 label="series_2", files={"api/session.py": _SESSION_PY + _REDIS_SESSION_PY}),
        s.commit(TOMASZ, "2025-03-24 10:10", "[3/3] api: Use SessionStore for login sessions", "feature",
                 label="series_3", files={
                     "api/auth.py": _AUTH_PY.replace(
                         '    token = current_app.config["SESSIONS"][user[1]] = f"token-{user[1]}"\n',
                         '    token = current_app.config["SESSIONS"].create(user[1])\n'),
                     "api/app.py": s.edit("api/app.py",
                                          ("from api import handlers\n", "from api import auth, handlers\n"
                                           "from api.session import MemorySessionStore\n"),
                                          ("    app.config.update(config or {})\n",
                                           "    app.config.setdefault(\"SESSIONS\", MemorySessionStore())\n"
                                           "    app.config.update(config or {})\n    app.register_blueprint(auth.bp)\n")),
                     "config/settings.yaml": _SETTINGS_YAML,
                 }),
    ]
    r.series.append(series)

    # -- April: rename, dependabot, Claude --------------------------------------------------------
    s.commit(MAYA, "2025-04-02 14:20", "refactor: Move task handlers into api/routes/tasks.py", "refactor",
             label="rename_handlers", renames={"api/handlers.py": "api/routes/tasks.py"}, files={
                 "api/routes/__init__.py": "",
                 "api/routes/tasks.py": s.edit("api/handlers.py",
                                               ('"""HTTP handlers for tasks."""', '"""Routes under /tasks."""')),
                 "api/app.py": s.edit("api/app.py", ("from api import auth, handlers\n", "from api import auth\n"
                                                     "from api.routes import tasks\n"),
                                      ("app.register_blueprint(handlers.bp)", "app.register_blueprint(tasks.bp)")),
             })
    s.git.branch("dependabot/npm_and_yarn/axios-1.8.2", checkout=True)
    npm["axios"] = "1.8.2"
    s.commit(DEPENDABOT, "2025-04-09 06:12",
             _dependabot_message("axios", "1.7.9", "1.8.2", "npm", "https://github.com/axios/axios",
                                 "direct:production"),
             "build", label="dependabot_axios", pr=11,
             files={"package.json": _package_json(npm), "package-lock.json": _package_lock(npm)})
    s.git.checkout("main")
    s.merge_pr(JORDAN, "2025-04-09 08:30", 11, "nimbuslabs/dependabot/npm_and_yarn/axios-1.8.2",
               "Bump axios from 1.7.9 to 1.8.2", "dependabot/npm_and_yarn/axios-1.8.2")

    s.commit(JORDAN, "2025-04-15 15:50",
             "feat(web): Add keyboard shortcuts to the task list\n\n"
             "j/k move the selection, x completes the selected task, / focuses the search box.\n\n"
             "🤖 Generated with [Claude Code](https://claude.com/claude-code)\n\n" + CLAUDE_TRAILER + "\n",
             "feature", label="claude", ai="Claude Code", files={
                 "web/src/shortcuts.ts": """\
export type Action = "next" | "previous" | "complete" | "search";

const KEYMAP: Record<string, Action> = { j: "next", k: "previous", x: "complete", "/": "search" };

export function bindShortcuts(target: Document, handle: (action: Action) => void): () => void {
  const listener = (event: KeyboardEvent) => {
    if (event.target instanceof HTMLInputElement) return;
    const action = KEYMAP[event.key];
    if (action) {
      event.preventDefault();
      handle(action);
    }
  };
  target.addEventListener("keydown", listener);
  return () => target.removeEventListener("keydown", listener);
}
""",
                 "web/src/shortcuts.test.ts": """\
import { describe, expect, it } from "vitest";
import { bindShortcuts } from "./shortcuts";

describe("bindShortcuts", () => {
  it("maps j to next", () => {
    const seen: string[] = [];
    const unbind = bindShortcuts(document, (a) => seen.push(a));
    document.dispatchEvent(new KeyboardEvent("keydown", { key: "j" }));
    unbind();
    expect(seen).toEqual(["next"]);
  });
});
""",
             })
    s.commit(DIEGO_GH, "2025-04-22 19:35", "Fix crash when due date is an empty string", "bug",
             label="fix_empty_due", files={
                 "api/models.py": s.edit("api/models.py", ("    if due is not None:\n", "    if due:\n")),
                 "tests/test_models.py": s.append("tests/test_models.py", '\n\ndef test_empty_due_date_is_none():\n'
                                                  '    assert validate_task({"title": "x", "due": ""})["due"] is None\n'),
             })
    r.szz.append((r.sha("fix_empty_due"), r.sha("due_dates")))

    # -- May: pagination (Copilot), dashboard and its quick rewrite -----------------------------
    s.commit(MAYA, "2025-05-06 10:30",
             "feat(api): Add pagination to GET /tasks\n\n"
             "Adds ?limit= and ?offset= query parameters and a `next` link in the response.\n\n"
             + COPILOT_TRAILER + "\n",
             "feature", label="pagination", ai="GitHub Copilot", files={
                 "api/storage.py": s.edit("api/storage.py", (
                     '    def list(self) -> list[dict]:\n'
                     '        return [dict(r) for r in self.conn.execute("SELECT * FROM tasks ORDER BY id")]\n',
                     '    def list(self, limit: int = 50, offset: int = 0) -> list[dict]:\n'
                     '        rows = self.conn.execute(\n'
                     '            "SELECT * FROM tasks ORDER BY id LIMIT ? OFFSET ?", (limit, offset)\n'
                     '        )\n'
                     '        return [dict(r) for r in rows]\n\n'
                     '    def count(self) -> int:\n'
                     '        return self.conn.execute("SELECT COUNT(*) FROM tasks").fetchone()[0]\n')),
                 "api/routes/tasks.py": s.edit("api/routes/tasks.py", (
                     '@bp.get("")\ndef list_tasks():\n'
                     '    return jsonify(sorted(_TASKS.values(), key=lambda t: t["id"]))\n',
                     '@bp.get("")\ndef list_tasks():\n'
                     '    limit = min(int(request.args.get("limit", 50)), 200)\n'
                     '    offset = int(request.args.get("offset", 0))\n'
                     '    tasks = sorted(_TASKS.values(), key=lambda t: t["id"])\n'
                     '    page = tasks[offset : offset + limit]\n'
                     '    body = {"items": page, "next": None}\n'
                     '    if offset + limit <= len(tasks):\n'
                     '        body["next"] = f"/tasks?limit={limit}&offset={offset + limit}"\n'
                     '    return jsonify(body)\n')),
             })
    s.commit(SAM, "2025-05-13 12:00", "test: Cover pagination edge cases", "test", files={
        "tests/test_pagination.py": '''\
from api.app import create_app


def test_first_page_links_to_second():
    c = create_app({"TESTING": True}).test_client()
    for i in range(3):
        c.post("/tasks", json={"title": f"t{i}"})
    body = c.get("/tasks?limit=2").get_json()
    assert [t["title"] for t in body["items"]] == ["t0", "t1"]
    assert body["next"] == "/tasks?limit=2&offset=2"


def test_limit_is_capped():
    c = create_app({"TESTING": True}).test_client()
    assert c.get("/tasks?limit=1000").status_code == 200
''',
    })
    s.commit(JORDAN, "2025-05-20 13:25", "Add dashboard with weekly sparkline", "feature", label="dashboard",
             files={"web/src/dashboard.ts": _DASHBOARD_TS, "web/public/js/sparkline.min.js": _SPARKLINE_MIN_JS})
    s.commit(JORDAN, "2025-05-29 10:05", "Rewrite dashboard layout with CSS grid cards", "refactor",
             label="dashboard_rewrite", files={
                 "web/src/dashboard.ts": _DASHBOARD_GRID_TS,
                 "web/src/styles.css": s.append("web/src/styles.css", "\n.dashboard-grid {\n  display: grid;\n"
                                                "  grid-template-columns: repeat(auto-fill, minmax(120px, 1fr));\n"
                                                "  gap: 12px;\n}\n"),
             })
    r.rework.append((r.sha("dashboard"), r.sha("dashboard_rewrite")))

    # -- June: vendoring, an XSS fix late in the evening in California --------------------------
    s.commit(TOMASZ, "2025-06-03 09:45", "Vendor DOMPurify to sanitize task descriptions", "chore",
             label="vendor_purify", files={
                 "third_party/purify/purify.js": _PURIFY_JS,
                 "third_party/purify/README.md": "DOMPurify 3.2.3, trimmed to `sanitize()`. Update with "
                                                 "`scripts/vendor.sh purify`.\n",
             })
    s.commit(JORDAN, "2025-06-12 22:40", "fix: Escape HTML in task titles rendered by the dashboard",
             "bug", label="fix_xss_late", files={
                 "web/src/dashboard.ts": s.edit("web/src/dashboard.ts", (
                     "  el.innerHTML = `<h3>${card.title}</h3><p>${card.value}</p>`;\n",
                     "  const h3 = document.createElement(\"h3\");\n  h3.textContent = card.title;\n"
                     "  const p = document.createElement(\"p\");\n  p.textContent = card.value;\n"
                     "  el.append(h3, p);\n")),
             })
    r.szz.append((r.sha("fix_xss_late"), r.sha("dashboard_rewrite")))
    s.git.branch("dependabot/npm_and_yarn/vite-6.2.5", checkout=True)
    npm["vite"] = "6.2.5"
    s.commit(DEPENDABOT, "2025-06-24 05:50",
             _dependabot_message("vite", "6.0.7", "6.2.5", "npm", "https://github.com/vitejs/vite",
                                 "direct:development"), "build", pr=16,
             files={"package.json": _package_json(npm), "package-lock.json": _package_lock(npm)})
    s.git.checkout("main")
    s.merge_pr(TOMASZ, "2025-06-24 10:00", 16, "nimbuslabs/dependabot/npm_and_yarn/vite-6.2.5",
               "Bump vite from 6.0.7 to 6.2.5", "dependabot/npm_and_yarn/vite-6.2.5")

    # -- July: perf, CSV export PR (renamed GitHub login), month-boundary commit -----------------
    s.commit(MAYA, "2025-07-08 16:15", "perf: Cache task counts between requests", "perf", files={
        "api/storage.py": s.edit("api/storage.py",
                                 ("    def count(self) -> int:\n"
                                  '        return self.conn.execute("SELECT COUNT(*) FROM tasks").fetchone()[0]\n',
                                  "    def count(self) -> int:\n"
                                  "        if self._count is None:\n"
                                  '            self._count = self.conn.execute("SELECT COUNT(*) FROM tasks").fetchone()[0]\n'
                                  "        return self._count\n"),
                                 ("        self.conn.execute(SCHEMA)\n",
                                  "        self.conn.execute(SCHEMA)\n        self._count: int | None = None\n"),
                                 ("        self.conn.commit()\n        return self.get(cur.lastrowid)\n",
                                  "        self.conn.commit()\n        self._count = None\n"
                                  "        return self.get(cur.lastrowid)\n")),
    })
    s.git.branch("diego-r/csv-export", checkout=True)
    s.commit(DIEGO_GH_RENAMED, "2025-07-15 17:00", "Add support for exporting tasks as CSV", "feature",
             label="csv_export", pr=19, files={"api/export.py": '''\
"""CSV export of tasks."""

import csv
import io

FIELDS = ["id", "title", "done", "due"]


def tasks_to_csv(tasks: list[dict]) -> str:
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=FIELDS, extrasaction="ignore")
    writer.writeheader()
    for task in tasks:
        writer.writerow({**task, "done": "yes" if task.get("done") else "no"})
    return buf.getvalue()
''',
             "api/routes/tasks.py": s.append("api/routes/tasks.py", '''

@bp.get("/export.csv")
def export_csv():
    from api.export import tasks_to_csv

    body = tasks_to_csv(sorted(_TASKS.values(), key=lambda t: t["id"]))
    return body, 200, {"Content-Type": "text/csv; charset=utf-8"}
''')})
    s.commit(DIEGO_GH_RENAMED, "2025-07-16 11:20", "Add CSV export tests", "test", pr=19, files={
        "tests/test_export.py": 'from api.export import tasks_to_csv\n\n\ndef test_header_and_done_flag():\n'
                                '    out = tasks_to_csv([{"id": 1, "title": "a", "done": True}])\n'
                                '    assert out.splitlines() == ["id,title,done,due", "1,a,yes,"]\n',
    })
    s.git.checkout("main")
    s.merge_pr(MAYA, "2025-07-17 09:30", 19, "diego-r/csv-export", "Export tasks as CSV", "diego-r/csv-export")
    s.commit(JORDAN, "2025-07-31 21:15", "Add dark mode toggle", "feature", label="month_boundary", files={
        "web/src/theme.ts": """\
const KEY = "nimbus-theme";

export function initTheme(button: HTMLButtonElement): void {
  const saved = localStorage.getItem(KEY);
  if (saved === "dark") document.documentElement.classList.add("dark");
  button.addEventListener("click", () => {
    const dark = document.documentElement.classList.toggle("dark");
    localStorage.setItem(KEY, dark ? "dark" : "light");
  });
}
""",
        "web/src/styles.css": s.append("web/src/styles.css", "\n.dark body {\n  background: #111827;\n"
                                       "  color: #f9fafb;\n}\n"),
    })

    # -- August/September: build, docs, a Fixes: trailer -------------------------------------------
    s.commit(TOMASZ, "2025-08-12 08:50", "build: Use Python 3.12 in Docker image and CI", "build", files={
        "Dockerfile": s.edit("Dockerfile", ("FROM python:3.11-slim", "FROM python:3.12-slim")),
        ".github/workflows/ci.yml": s.edit(".github/workflows/ci.yml", ('python-version: "3.11"',
                                                                        'python-version: "3.12"')),
    })
    s.commit(SAM, "2025-08-26 15:30", "docs: Add API reference for /tasks endpoints", "docs", files={
        "docs/api.md": """\
# API reference

## `GET /tasks`

Query parameters: `limit` (default 50, at most 200) and `offset` (default 0).
Returns `{"items": [...], "next": "/tasks?..." | null}`.

## `POST /tasks`

Body: `{"title": "...", "due": "YYYY-MM-DD"}`. Returns the created task with status 201.

## `POST /tasks/<id>/done`

Marks a task done. Returns 404 when the task does not exist.

## `GET /tasks/export.csv`

All tasks as CSV with the columns `id,title,done,due`.
""",
    })
    pagination = r.sha("pagination")
    s.commit(MAYA, "2025-09-09 11:45",
             "Fix off-by-one in pagination next link\n\n"
             "The last full page linked to an empty page.\n\n"
             f'Fixes: {pagination[:12]} ("feat(api): Add pagination to GET /tasks")\n',
             "bug", label="fix_pagination", files={
                 "api/routes/tasks.py": s.edit("api/routes/tasks.py", ("    if offset + limit <= len(tasks):\n",
                                                                       "    if offset + limit < len(tasks):\n")),
                 "tests/test_pagination.py": s.append("tests/test_pagination.py", '''

def test_last_full_page_has_no_next():
    c = create_app({"TESTING": True}).test_client()
    for i in range(2):
        c.post("/tasks", json={"title": f"t{i}"})
    assert c.get("/tasks?limit=2").get_json()["next"] is None
'''),
             })
    r.fixes_trailers.append((r.sha("fix_pagination"), pagination))
    r.szz.append((r.sha("fix_pagination"), pagination))
    s.commit(JORDAN, "2025-09-23 14:00", "chore: Enable strict null checks in eslint config", "chore", files={
        "eslint.config.js": 'export default [\n  {\n    files: ["web/src/**/*.ts"],\n    rules: {\n'
                            '      "@typescript-eslint/no-non-null-assertion": "error",\n'
                            '      "@typescript-eslint/strict-boolean-expressions": "warn",\n    },\n  },\n];\n',
    })

    # -- October/November: binary update, labels PR, auth fix ----------------------------------------
    s.git.branch("dependabot/npm_and_yarn/typescript-5.8.3", checkout=True)
    npm["typescript"] = "5.8.3"
    s.commit(DEPENDABOT, "2025-10-07 06:05",
             _dependabot_message("typescript", "5.7.3", "5.8.3", "npm", "https://github.com/microsoft/TypeScript",
                                 "direct:development"), "build", pr=24,
             files={"package.json": _package_json(npm), "package-lock.json": _package_lock(npm)})
    s.git.checkout("main")
    s.merge_pr(JORDAN, "2025-10-07 09:10", 24, "nimbuslabs/dependabot/npm_and_yarn/typescript-5.8.3",
               "Bump typescript from 5.7.3 to 5.8.3", "dependabot/npm_and_yarn/typescript-5.8.3")
    s.commit(TOMASZ, "2025-10-14 13:30", "chore: Update logo to the new brand colour", "chore",
             label="logo_update", files={"web/public/logo.png": _logo((16, 185, 129))})
    s.git.branch("maya/labels", checkout=True)
    s.commit(MAYA, "2025-10-28 10:00", "Add support for task labels", "feature", label="labels", pr=27, files={
        "api/labels.py": '''\
"""Task labels: short, case-insensitive tags."""

import re

_LABEL = re.compile(r"^[a-z0-9][a-z0-9-]{0,31}$")


def normalize_label(raw: str) -> str:
    label = raw.strip().lower()
    if not _LABEL.match(label):
        raise ValueError(f"invalid label: {raw!r}")
    return label


def add_label(task: dict, raw: str) -> dict:
    labels = set(task.get("labels", []))
    labels.add(normalize_label(raw))
    return {**task, "labels": sorted(labels)}
''',
    })
    s.commit(MAYA, "2025-10-29 09:20", "Add label tests and filter /tasks by label", "feature", pr=27, files={
        "tests/test_labels.py": 'import pytest\n\nfrom api.labels import add_label, normalize_label\n\n\n'
                                'def test_normalize():\n    assert normalize_label(" Bug ") == "bug"\n\n\n'
                                'def test_invalid():\n    with pytest.raises(ValueError):\n'
                                '        normalize_label("no spaces")\n\n\n'
                                'def test_add_is_idempotent():\n'
                                '    assert add_label({"labels": ["bug"]}, "BUG")["labels"] == ["bug"]\n',
        "api/routes/tasks.py": s.edit("api/routes/tasks.py", (
            '    tasks = sorted(_TASKS.values(), key=lambda t: t["id"])\n',
            '    tasks = sorted(_TASKS.values(), key=lambda t: t["id"])\n'
            '    if label := request.args.get("label"):\n'
            '        tasks = [t for t in tasks if label in t.get("labels", [])]\n')),
    })
    s.git.checkout("main")
    s.merge_pr(JORDAN, "2025-10-30 18:00", 27, "maya/labels", "Task labels", "maya/labels")
    s.commit(DIEGO_GH_RENAMED, "2025-11-04 20:10", "fix: Return 401 instead of 500 when login body is missing",
             "bug", files={
                 "api/auth.py": s.edit("api/auth.py", ("    payload = request.get_json(force=True)\n",
                                                       "    payload = request.get_json(silent=True) or {}\n")),
             })
    s.commit(SAM, "2025-11-18 11:25", "Add support for webhooks on task completion", "feature", files={
        "api/webhooks.py": '''\
"""Outgoing webhooks, fired when a task is completed."""

import json
import urllib.request


class WebhookSender:
    def __init__(self, urls: list[str], timeout: float = 5.0):
        self.urls = urls
        self.timeout = timeout

    def task_completed(self, task: dict) -> list[int]:
        body = json.dumps({"event": "task.completed", "task": task}).encode()
        statuses = []
        for url in self.urls:
            req = urllib.request.Request(url, data=body, headers={"Content-Type": "application/json"})
            with urllib.request.urlopen(req, timeout=self.timeout) as resp:
                statuses.append(resp.status)
        return statuses
''',
        "config/settings.yaml": s.append("config/settings.yaml", "webhooks:\n  urls: []\n  timeout_seconds: 5\n"),
    })

    # -- December 2025 - February 2026 -------------------------------------------------------------
    s.commit(JORDAN, "2025-12-02 10:30", "refactor(web): Move the API client into web/src/api/client.ts",
             "refactor", label="rename_client", renames={"web/src/api.ts": "web/src/api/client.ts"}, files={
                 "web/src/api/client.ts": s.edit("web/src/api.ts", ('const BASE = "/tasks";',
                                                                    'const BASE = import.meta.env.VITE_API ?? "/tasks";')),
                 "web/src/api/index.ts": 'export * from "./client";\n',
             })
    s.commit(TOMASZ, "2025-12-09 15:00", "Add rate limiting to the login endpoint", "feature", files={
        "api/ratelimit.py": '''\
"""A small fixed-window rate limiter keyed by client address."""

import time


class RateLimiter:
    def __init__(self, limit: int, window_seconds: float):
        self.limit = limit
        self.window = window_seconds
        self._hits: dict[str, tuple[float, int]] = {}

    def allow(self, key: str) -> bool:
        now = time.monotonic()
        start, count = self._hits.get(key, (now, 0))
        if now - start >= self.window:
            start, count = now, 0
        if count >= self.limit:
            return False
        self._hits[key] = (start, count + 1)
        return True
''',
        "tests/test_ratelimit.py": 'from api.ratelimit import RateLimiter\n\n\ndef test_blocks_after_limit():\n'
                                   '    rl = RateLimiter(2, 60)\n'
                                   '    assert [rl.allow("ip") for _ in range(3)] == [True, True, False]\n',
    })
    s.commit(MAYA, "2026-01-13 09:40", "Fix crash when a label contains non-ASCII letters", "bug",
             label="fix_label_unicode", files={
                 "api/labels.py": s.edit("api/labels.py", ('_LABEL = re.compile(r"^[a-z0-9][a-z0-9-]{0,31}$")',
                                                           '_LABEL = re.compile(r"^\\w[\\w-]{0,31}$")')),
                 "tests/test_labels.py": s.append("tests/test_labels.py",
                                                  '\n\ndef test_unicode_label():\n'
                                                  '    assert normalize_label("Größe") == "größe"\n'),
             })
    r.szz.append((r.sha("fix_label_unicode"), r.sha("labels")))
    s.commit(JORDAN, "2026-02-03 16:20", "chore: Remove unused favicon link and legacy styles", "chore", files={
        "web/src/styles.css": s.edit("web/src/styles.css", ("  color: #6b7280;\n", "  opacity: 0.6;\n")),
    })
    s.commit(MAYA, "2026-02-17 10:00", "docs: Add changelog for 1.2.0", "docs", files={
        "CHANGELOG.md": """\
# Changelog

## 1.2.0 (2026-02-17)

- Task labels and filtering by label.
- Webhooks on task completion.
- Rate limiting on login.
- Fixed: crash on non-ASCII labels, pagination `next` link on the last page.

## 1.1.0 (2025-07-31)

- CSV export, dark mode, dashboard.
""",
    })
    return r


# ---------------------------------------------------------------------------------------------
# demo/mlkit
# ---------------------------------------------------------------------------------------------

_ML_README = """\
# mlkit

Small, fast tensor ops for training loops: fused CUDA kernels with PyTorch-free Python fallbacks.

```python
from mlkit import ops
y = ops.softmax(x)
```
"""

_ML_PYPROJECT = """\
[project]
name = "mlkit"
version = "0.1.0"
requires-python = ">=3.10"
dependencies = ["numpy>=2.0", "pyyaml>=6.0"]

[dependency-groups]
dev = ["pytest>=8.3"]
"""

_OPS_PY = '''\
"""Reference (NumPy) implementations; CUDA kernels replace them when the extension is built."""

import numpy as np

try:
    from mlkit import _C  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - CPU-only install
    _C = None


def layer_norm(x: np.ndarray, eps: float = 1e-5) -> np.ndarray:
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps)


def gelu(x: np.ndarray) -> np.ndarray:
    return 0.5 * x * (1.0 + np.tanh(0.7978845608 * (x + 0.044715 * x**3)))
'''

_TEST_OPS_PY = '''\
import numpy as np

from mlkit import ops


def test_layer_norm_zero_mean_unit_var():
    x = np.random.default_rng(0).normal(size=(4, 16))
    y = ops.layer_norm(x)
    np.testing.assert_allclose(y.mean(axis=-1), 0, atol=1e-6)
    np.testing.assert_allclose(y.var(axis=-1), 1, atol=1e-3)


def test_gelu_is_zero_at_zero():
    assert ops.gelu(np.zeros(1))[0] == 0
'''

_OPS_H = """\
#pragma once

#include <cuda_runtime.h>

namespace mlkit {

void layer_norm_forward(const float* x, float* y, int rows, int cols, float eps, cudaStream_t stream);

}  // namespace mlkit
"""

_BINDINGS_CPP = """\
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "ops.h"

namespace py = pybind11;

PYBIND11_MODULE(_C, m) {
  m.doc() = "mlkit CUDA kernels";
  m.def("layer_norm_forward", [](size_t x, size_t y, int rows, int cols, float eps) {
    mlkit::layer_norm_forward(reinterpret_cast<const float*>(x), reinterpret_cast<float*>(y), rows, cols, eps,
                              nullptr);
  });
}
"""

_CMAKE = """\
cmake_minimum_required(VERSION 3.24)
project(mlkit LANGUAGES CXX CUDA)

set(CMAKE_CXX_STANDARD 17)
set(CMAKE_CUDA_STANDARD 17)
set(CMAKE_CUDA_ARCHITECTURES 80 86)

find_package(pybind11 CONFIG REQUIRED)

pybind11_add_module(_C
  csrc/bindings.cpp
  csrc/layernorm.cu
)
target_include_directories(_C PRIVATE csrc)
install(TARGETS _C DESTINATION mlkit)
"""

_LAYERNORM_CU = """\
#include <cuda_runtime.h>

#include "ops.h"

namespace mlkit {

__global__ void layer_norm_kernel(const float* __restrict__ x, float* __restrict__ y, int cols, float eps) {
  const float* row = x + blockIdx.x * cols;
  float* out = y + blockIdx.x * cols;
  __shared__ float s_mean, s_var;

  float sum = 0.f, sq = 0.f;
  for (int i = threadIdx.x; i < cols; i += blockDim.x) {
    const float v = row[i];
    sum += v;
    sq += v * v;
  }
  sum = warp_sum(sum);
  sq = warp_sum(sq);
  if (threadIdx.x == 0) {
    s_mean = sum / cols;
    s_var = sq / cols - s_mean * s_mean;
  }
  __syncthreads();

  const float inv = rsqrtf(s_var + eps);
  for (int i = threadIdx.x; i < cols; i += blockDim.x) out[i] = (row[i] - s_mean) * inv;
}

void layer_norm_forward(const float* x, float* y, int rows, int cols, float eps, cudaStream_t stream) {
  layer_norm_kernel<<<rows, 32, 0, stream>>>(x, y, cols, eps);
}

}  // namespace mlkit
"""

_WARP_H = """\
#pragma once

namespace mlkit {

__device__ __forceinline__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_xor_sync(0xffffffff, v, offset);
  return v;
}

}  // namespace mlkit
"""

_SOFTMAX_CU = """\
#include <cuda_runtime.h>
#include <float.h>

#include "ops.h"

namespace mlkit {

template <int BLOCK>
__global__ void softmax_kernel(const float* __restrict__ x, float* __restrict__ y, int cols) {
  __shared__ float buf[BLOCK];
  const float* row = x + blockIdx.x * cols;
  float* out = y + blockIdx.x * cols;

  float m = -FLT_MAX;
  for (int i = threadIdx.x; i < cols; i += blockDim.x) m = fmaxf(m, row[i]);
  buf[threadIdx.x] = m;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) buf[threadIdx.x] = fmaxf(buf[threadIdx.x], buf[threadIdx.x + s]);
    __syncthreads();
  }
  m = buf[0];
  __syncthreads();

  float sum = 0.f;
  for (int i = threadIdx.x; i < cols; i += blockDim.x) sum += __expf(row[i] - m);
  buf[threadIdx.x] = sum;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) buf[threadIdx.x] += buf[threadIdx.x + s];
    __syncthreads();
  }
  const float inv = 1.f / buf[0];
  for (int i = threadIdx.x; i < cols; i += blockDim.x) out[i] = __expf(row[i] - m) * inv;
}

void softmax_forward(const float* x, float* y, int rows, int cols, cudaStream_t stream) {
  const int threads = cols < 1024 ? cols : 1024;
  softmax_kernel<1024><<<rows, threads, 0, stream>>>(x, y, cols);
}

}  // namespace mlkit
"""

_SOFTMAX_PY = '''

def softmax(x: np.ndarray, axis: int = -1) -> np.ndarray:
    shifted = x - x.max(axis=axis, keepdims=True)
    e = np.exp(shifted)
    return e / e.sum(axis=axis, keepdims=True)
'''

_SOFTMAX_TEST = '''

def test_softmax_rows_sum_to_one():
    x = np.random.default_rng(1).normal(size=(8, 5000))
    np.testing.assert_allclose(ops.softmax(x).sum(axis=-1), 1.0, rtol=1e-6)
'''

_OPTIM_PY = '''\
"""Optimizers operating on lists of NumPy parameter arrays."""

import numpy as np


class SGD:
    def __init__(self, params: list[np.ndarray], lr: float = 0.01, momentum: float = 0.0):
        self.params = params
        self.lr = lr
        self.momentum = momentum
        self._velocity = [np.zeros_like(p) for p in params]

    def step(self, grads: list[np.ndarray]) -> None:
        for p, g, v in zip(self.params, grads, self._velocity):
            v *= self.momentum
            v += g
            p -= self.lr * v
'''

_DATA_PY = '''\
"""Mini-batch iteration over in-memory arrays."""

import numpy as np


class DataLoader:
    def __init__(self, x: np.ndarray, y: np.ndarray, batch_size: int = 32, shuffle: bool = True, seed: int = 0):
        if len(x) != len(y):
            raise ValueError("x and y must have the same length")
        self.x, self.y = x, y
        self.batch_size = batch_size
        self.shuffle = shuffle
        self.rng = np.random.default_rng(seed)

    def __len__(self) -> int:
        return (len(self.x) + self.batch_size - 1) // self.batch_size

    def __iter__(self):
        order = np.arange(len(self.x))
        if self.shuffle:
            order = self.rng.permutation(len(self.x))
        for start in range(0, len(order), self.batch_size):
            idx = order[start : start + self.batch_size]
            yield self.x[idx], self.y[idx]
'''


def _build_mlkit(path: Path) -> DemoRepo:  # noqa: PLR0915 - a script, read top to bottom
    s = _Script(MLKIT, path)
    r = s.repo
    py_lock = dict(_PY_LOCK)
    r.excluded_paths.update({
        "uv.lock": "lock_file",
        "third_party/dlpack/dlpack.h": "vendored",
        "docs/images/kernels.png": "binary",
    })

    s.commit(PRIYA, "2025-01-09 11:30", "Initial commit: NumPy reference ops", "feature", label="initial", files={
        "README.md": _ML_README, "pyproject.toml": _ML_PYPROJECT, "mlkit/__init__.py": '__version__ = "0.1.0"\n',
        "mlkit/ops.py": _OPS_PY, "tests/test_ops.py": _TEST_OPS_PY, "uv.lock": _uv_lock(py_lock),
        ".gitignore": "build/\n*.so\n__pycache__/\n",
    })
    s.commit(PRIYA, "2025-01-16 15:00", "Add CMake build and layer norm CUDA kernel", "feature",
             label="layernorm", files={
                 "CMakeLists.txt": _CMAKE, "csrc/ops.h": _OPS_H, "csrc/bindings.cpp": _BINDINGS_CPP,
                 "csrc/layernorm.cu": _LAYERNORM_CU.replace('#include "ops.h"\n', '#include "ops.h"\n#include "warp.cuh"\n'),
                 "csrc/warp.cuh": _WARP_H,
             })
    s.commit(TOMASZ, "2025-01-23 10:00", "Add GitHub Actions CI (#3)", "build", pr=3, squash_merged_after=2,
             files={".github/workflows/ci.yml": """\
name: CI
on: [push, pull_request]
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: astral-sh/setup-uv@v5
      - run: uv sync --frozen
      - run: uv run pytest -q
"""})
    s.commit(DIEGO, "2025-02-05 17:45", "Add DataLoader with shuffling and batching (#4)", "feature",
             label="dataloader", pr=4, squash_merged_after=20, files={
                 "mlkit/data.py": _DATA_PY,
                 "tests/test_data.py": 'import numpy as np\n\nfrom mlkit.data import DataLoader\n\n\n'
                                       'def test_batches_cover_everything():\n'
                                       '    x = np.arange(10)\n'
                                       '    seen = np.concatenate([b for b, _ in DataLoader(x, x, batch_size=3)])\n'
                                       '    assert sorted(seen) == list(range(10))\n',
             })
    s.commit(PRIYA, "2025-02-19 12:10", "Add support for GELU activation in CUDA (#6)", "feature",
             pr=6, squash_merged_after=5, files={
                 "csrc/ops.h": s.edit("csrc/ops.h", ("}  // namespace mlkit\n",
                                                     "void gelu_forward(const float* x, float* y, int n, cudaStream_t stream);\n\n"
                                                     "}  // namespace mlkit\n")),
                 "csrc/gelu.cu": """\
#include <cuda_runtime.h>

#include "ops.h"

namespace mlkit {

__global__ void gelu_kernel(const float* __restrict__ x, float* __restrict__ y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const float v = x[i];
    y[i] = 0.5f * v * (1.f + tanhf(0.7978845608f * (v + 0.044715f * v * v * v)));
  }
}

void gelu_forward(const float* x, float* y, int n, cudaStream_t stream) {
  gelu_kernel<<<(n + 255) / 256, 256, 0, stream>>>(x, y, n);
}

}  // namespace mlkit
""",
                 "CMakeLists.txt": s.edit("CMakeLists.txt", ("  csrc/layernorm.cu\n", "  csrc/layernorm.cu\n  csrc/gelu.cu\n")),
             })
    s.commit(MAYA_UPPER, "2025-03-05 09:15", "docs: Add installation guide (#7)", "docs", pr=7,
             squash_merged_after=3, label="maya_upper", files={
                 "docs/install.md": """\
# Installing mlkit

CPU-only (NumPy fallbacks):

    uv pip install mlkit

With CUDA kernels (needs CUDA 12 and a C++17 compiler):

    uv pip install --no-binary mlkit mlkit
    python -c "import mlkit.ops as o; print(o._C is not None)"
""",
             })
    s.commit(SAMUEL, "2025-03-18 16:40", "test: Add gradient checks for layer norm (#8)", "test", pr=8,
             squash_merged_after=18, files={
                 "tests/test_gradcheck.py": '''\
import numpy as np

from mlkit import ops


def numeric_grad(f, x, eps=1e-6):
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        d = np.zeros_like(x)
        d[i] = eps
        g[i] = (f(x + d).sum() - f(x - d).sum()) / (2 * eps)
    return g


def test_layer_norm_gradient_sums_to_zero():
    x = np.random.default_rng(2).normal(size=(2, 6))
    g = numeric_grad(ops.layer_norm, x)
    np.testing.assert_allclose(g.sum(axis=-1), 0, atol=1e-4)
''',
             })

    # -- April: feature, revert, reland -------------------------------------------------------------
    softmax = s.commit(
        PRIYA, "2025-04-01 14:00", "Add fused softmax CUDA kernel (#10)\n\n"
        "One block per row, shared-memory max/sum reductions, NumPy fallback in ops.softmax.\n",
        "feature", label="softmax", pr=10, squash_merged_after=4, files={
            "csrc/softmax.cu": _SOFTMAX_CU,
            "csrc/ops.h": s.edit("csrc/ops.h", ("}  // namespace mlkit\n",
                                                "void softmax_forward(const float* x, float* y, int rows, int cols,"
                                                " cudaStream_t stream);\n\n}  // namespace mlkit\n")),
            "mlkit/ops.py": s.append("mlkit/ops.py", _SOFTMAX_PY),
            "tests/test_ops.py": s.append("tests/test_ops.py", _SOFTMAX_TEST),
            "CMakeLists.txt": s.edit("CMakeLists.txt", ("  csrc/gelu.cu\n", "  csrc/gelu.cu\n  csrc/softmax.cu\n")),
        })
    revert = s.revert(TOMASZ, "2025-04-03 08:20", softmax,
                      "softmax_forward launches up to 1024 threads per row; rows longer than 1024 on\n"
                      "sm_80 read past the shared buffer and produce NaNs in the nightly run.",
                      label="revert")
    reland_cu = (_SOFTMAX_CU
                 .replace("  const int threads = cols < 1024 ? cols : 1024;\n"
                          "  softmax_kernel<1024><<<rows, threads, 0, stream>>>(x, y, cols);\n",
                          "  const int threads = cols < 256 ? ((cols + 31) / 32) * 32 : 256;\n"
                          "  softmax_kernel<256><<<rows, threads, 0, stream>>>(x, y, cols);\n"))
    reland = s.commit(
        PRIYA, "2025-04-15 10:30",
        'Reland "Add fused softmax CUDA kernel"\n\n'
        f"This is a reland of commit {softmax[:12]}.\n\n"
        "The original launched up to 1024 threads with a 1024-float buffer but rows wider than\n"
        "the block wrapped past it. Now the block is at most 256 threads, a multiple of 32.\n\n"
        "Original change's description:\n"
        "> Add fused softmax CUDA kernel (#10)\n"
        ">\n"
        "> One block per row, shared-memory max/sum reductions, NumPy fallback in ops.softmax.\n",
        "feature", label="reland", files={
            "csrc/softmax.cu": reland_cu,
            "csrc/ops.h": s.edit("csrc/ops.h", ("}  // namespace mlkit\n",
                                                "void softmax_forward(const float* x, float* y, int rows, int cols,"
                                                " cudaStream_t stream);\n\n}  // namespace mlkit\n")),
            "mlkit/ops.py": s.append("mlkit/ops.py", _SOFTMAX_PY),
            "tests/test_ops.py": s.append("tests/test_ops.py", _SOFTMAX_TEST),
            "CMakeLists.txt": s.edit("CMakeLists.txt", ("  csrc/gelu.cu\n", "  csrc/gelu.cu\n  csrc/softmax.cu\n")),
        })
    r.relands.append((reland, softmax))
    assert revert != reland

    s.commit(PRIYA_AIDER, "2025-04-29 18:05", "aider: Add gradient clipping to SGD optimizer", "feature",
             label="aider_prefix", ai="Aider", files={
                 "mlkit/optim.py": _OPTIM_PY.replace(
                     "    def step(self, grads: list[np.ndarray]) -> None:\n",
                     "    def step(self, grads: list[np.ndarray], max_norm: float | None = None) -> None:\n"
                     "        if max_norm is not None:\n"
                     "            total = np.sqrt(sum(float((g**2).sum()) for g in grads))\n"
                     "            if total > max_norm:\n"
                     "                grads = [g * (max_norm / total) for g in grads]\n"),
                 "tests/test_optim.py": 'import numpy as np\n\nfrom mlkit.optim import SGD\n\n\n'
                                        'def test_clipping_limits_update():\n'
                                        '    p = [np.zeros(2)]\n'
                                        '    SGD(p, lr=1.0).step([np.array([3.0, 4.0])], max_norm=1.0)\n'
                                        '    np.testing.assert_allclose(p[0], [-0.6, -0.8])\n',
             })

    # -- May-July ---------------------------------------------------------------------------------
    s.commit(DIEGO, "2025-05-14 19:20", "Fix crash when batch size is larger than the dataset (#14)", "bug",
             label="fix_batch", pr=14, squash_merged_after=15, files={
                 "mlkit/data.py": s.edit("mlkit/data.py", (
                     "        return (len(self.x) + self.batch_size - 1) // self.batch_size\n",
                     "        return max(1, -(-len(self.x) // max(self.batch_size, 1)))\n")),
             })
    r.szz.append((r.sha("fix_batch"), r.sha("dataloader")))
    s.commit(TOMEK, "2025-05-27 09:00", "build: Enable sm_90 in CUDA architectures (#15)", "build", pr=15,
             squash_merged_after=1, label="tomek", files={
                 "CMakeLists.txt": s.edit("CMakeLists.txt", ("set(CMAKE_CUDA_ARCHITECTURES 80 86)",
                                                             "set(CMAKE_CUDA_ARCHITECTURES 80 86 90)")),
             })
    s.commit(PRIYA, "2025-06-10 13:45", "perf: Vectorize layer norm loads with float4 (#17)", "perf", pr=17,
             squash_merged_after=26, files={
                 "csrc/layernorm.cu": s.edit("csrc/layernorm.cu", (
                     "  for (int i = threadIdx.x; i < cols; i += blockDim.x) {\n"
                     "    const float v = row[i];\n"
                     "    sum += v;\n"
                     "    sq += v * v;\n"
                     "  }\n",
                     "  const float4* row4 = reinterpret_cast<const float4*>(row);\n"
                     "  for (int i = threadIdx.x; i < cols / 4; i += blockDim.x) {\n"
                     "    const float4 v = row4[i];\n"
                     "    sum += v.x + v.y + v.z + v.w;\n"
                     "    sq += v.x * v.x + v.y * v.y + v.z * v.z + v.w * v.w;\n"
                     "  }\n")),
             })
    s.commit(SAMUEL, "2025-06-24 17:10",
             "Add support for cosine learning-rate schedule (#18)\n\n" + AIDER_TRAILER + "\n",
             "feature", label="aider_trailer", pr=18, ai="Aider", squash_merged_after=40, files={
                 "mlkit/schedule.py": '''\
"""Learning-rate schedules."""

import math


def cosine(step: int, total_steps: int, base_lr: float, warmup: int = 0, min_lr: float = 0.0) -> float:
    if step < warmup:
        return base_lr * (step + 1) / warmup
    progress = min(1.0, (step - warmup) / max(1, total_steps - warmup))
    return min_lr + 0.5 * (base_lr - min_lr) * (1 + math.cos(math.pi * progress))
''',
                 "tests/test_schedule.py": 'from mlkit.schedule import cosine\n\n\ndef test_endpoints():\n'
                                           '    assert cosine(0, 100, 1.0) == 1.0\n'
                                           '    assert abs(cosine(100, 100, 1.0)) < 1e-12\n',
             })
    s.commit(MAYA, "2025-07-08 11:00", "feat(data): Add streaming dataset from JSONL files (#20)", "feature",
             label="jsonl", pr=20, squash_merged_after=6, files={
                 "mlkit/jsonl.py": '''\
"""Stream training examples from JSON Lines files without loading them in memory."""

import json
from collections.abc import Iterator
from pathlib import Path


def iter_jsonl(path: str | Path) -> Iterator[dict]:
    with open(path, encoding="utf-8") as fh:
        for line in fh.read().split("\\n"):
            yield json.loads(line)
''',
                 "configs/train.yaml": "data:\n  train: data/train.jsonl\n  batch_size: 64\n"
                                       "optim:\n  name: sgd\n  lr: 0.1\n  momentum: 0.9\n"
                                       "schedule:\n  name: cosine\n  warmup: 500\n",
             })
    s.commit(PRIYA, "2025-07-22 10:15", "refactor: Move CUDA kernels under csrc/kernels (#21)", "refactor",
             label="rename_kernels", pr=21, squash_merged_after=2,
             renames={"csrc/softmax.cu": "csrc/kernels/softmax.cu", "csrc/layernorm.cu": "csrc/kernels/layernorm.cu",
                      "csrc/gelu.cu": "csrc/kernels/gelu.cu"},
             files={
                 "csrc/kernels/softmax.cu": s.edit("csrc/softmax.cu", ('#include "ops.h"', '#include "../ops.h"')),
                 "csrc/kernels/layernorm.cu": s.edit("csrc/layernorm.cu", ('#include "ops.h"', '#include "../ops.h"'),
                                                     ('#include "warp.cuh"', '#include "../warp.cuh"')),
                 "csrc/kernels/gelu.cu": s.edit("csrc/gelu.cu", ('#include "ops.h"', '#include "../ops.h"')),
                 "CMakeLists.txt": s.edit("CMakeLists.txt",
                                          ("  csrc/layernorm.cu\n  csrc/gelu.cu\n  csrc/softmax.cu\n",
                                           "  csrc/kernels/layernorm.cu\n  csrc/kernels/gelu.cu\n"
                                           "  csrc/kernels/softmax.cu\n")),
             })

    # -- August-October ---------------------------------------------------------------------------
    s.commit(DIEGO, "2025-08-05 18:30", "fix: Use a stable permutation so shuffling is reproducible (#22)", "bug",
             pr=22, squash_merged_after=30, files={
                 "mlkit/data.py": s.edit("mlkit/data.py", ("            order = self.rng.permutation(len(self.x))\n",
                                                           "            order = np.argsort(self.rng.random(len(self.x)),"
                                                           " kind=\"stable\")\n")),
             })
    s.commit(PRIYA, "2025-08-19 12:00", "docs: Add kernel architecture overview and diagram (#23)", "docs",
             label="diagram", pr=23, squash_merged_after=3, files={
                 "docs/images/kernels.png": _diagram(),
                 "docs/architecture.md": """\
# Kernel architecture

![kernels](images/kernels.png)

Every op has a NumPy reference in `mlkit/ops.py` and, when built, a CUDA kernel in
`csrc/kernels/`. Row-wise ops (softmax, layer norm) launch one block per row and reduce in
shared memory; element-wise ops (GELU) launch one thread per element.
""",
             })
    s.commit(PRIYA, "2025-09-01 03:10", "Fix softmax reduction when the block size is not a power of two",
             "bug", label="fix_softmax_reduction", files={
                 "csrc/kernels/softmax.cu": s.edit("csrc/kernels/softmax.cu",
                                                   ("  for (int s = blockDim.x / 2; s > 0; s >>= 1) {\n"
                                                    "    if (threadIdx.x < s) buf[threadIdx.x] = fmaxf",
                                                    "  for (int s = BLOCK / 2; s > 0; s >>= 1) {\n"
                                                    "    if (threadIdx.x < s && threadIdx.x + s < blockDim.x)"
                                                    " buf[threadIdx.x] = fmaxf"),
                                                   ("  for (int s = blockDim.x / 2; s > 0; s >>= 1) {\n"
                                                    "    if (threadIdx.x < s) buf[threadIdx.x] += ",
                                                    "  for (int s = BLOCK / 2; s > 0; s >>= 1) {\n"
                                                    "    if (threadIdx.x < s && threadIdx.x + s < blockDim.x)"
                                                    " buf[threadIdx.x] += ")),
             })
    r.szz.append((r.sha("fix_softmax_reduction"), reland))
    s.commit(TOMASZ, "2025-09-16 14:20", "Vendor dlpack.h for zero-copy tensor exchange (#26)", "chore",
             label="vendor_dlpack", pr=26, squash_merged_after=4, files={
                 "third_party/dlpack/dlpack.h": _DLPACK_H,
                 "CMakeLists.txt": s.edit("CMakeLists.txt", ("target_include_directories(_C PRIVATE csrc)",
                                                             "target_include_directories(_C PRIVATE csrc third_party)")),
             })
    s.commit(SAMUEL, "2025-10-01 10:50", "test: Add benchmarks for softmax and layer norm (#27)", "test", pr=27,
             squash_merged_after=22, files={
                 "benchmarks/bench_ops.py": '''\
"""Micro-benchmarks: python benchmarks/bench_ops.py [--rows N] [--cols N]."""

import argparse
import time

import numpy as np

from mlkit import ops


def bench(fn, x, repeat=20):
    fn(x)
    start = time.perf_counter()
    for _ in range(repeat):
        fn(x)
    return (time.perf_counter() - start) / repeat * 1e3


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=4096)
    parser.add_argument("--cols", type=int, default=1024)
    args = parser.parse_args()
    x = np.random.default_rng(0).normal(size=(args.rows, args.cols)).astype(np.float32)
    for name in ("softmax", "layer_norm"):
        print(f"{name:12s} {bench(getattr(ops, name), x):8.3f} ms")


if __name__ == "__main__":
    main()
''',
             })
    s.commit(DIEGO, "2025-10-15 20:40", "Add support for bfloat16 inputs in DataLoader (#28)", "feature", pr=28,
             squash_merged_after=14, files={
                 "mlkit/data.py": s.edit("mlkit/data.py", (
                     "        self.x, self.y = x, y\n",
                     "        if x.dtype.name == \"bfloat16\":\n"
                     "            x = x.astype(np.float32)\n"
                     "        self.x, self.y = x, y\n")),
             })
    s.commit(PRIYA, "2025-10-29 11:00", "chore: Bump version to 0.3.0 (#29)", "chore", pr=29, squash_merged_after=1,
             files={"mlkit/__init__.py": '__version__ = "0.3.0"\n',
                    "pyproject.toml": s.edit("pyproject.toml", ('version = "0.1.0"', 'version = "0.3.0"'))})

    # -- November 2025 - February 2026 --------------------------------------------------------------
    jsonl = r.sha("jsonl")
    s.commit(MAYA, "2025-11-12 10:20",
             "Fix crash when a JSONL file ends with a newline (#30)\n\n"
             "json.loads('') raised on the empty string after the final newline.\n\n"
             f'Fixes: {jsonl[:12]} ("feat(data): Add streaming dataset from JSONL files (#20)")\n',
             "bug", label="fix_jsonl", pr=30, squash_merged_after=5, files={
                 "mlkit/jsonl.py": s.edit("mlkit/jsonl.py", (
                     '        for line in fh.read().split("\\n"):\n            yield json.loads(line)\n',
                     "        for line in fh:\n            if line.strip():\n                yield json.loads(line)\n")),
                 "tests/test_jsonl.py": 'from mlkit.jsonl import iter_jsonl\n\n\n'
                                        'def test_trailing_newline(tmp_path):\n'
                                        '    p = tmp_path / "a.jsonl"\n'
                                        '    p.write_text(\'{"a": 1}\\n{"a": 2}\\n\')\n'
                                        '    assert [r["a"] for r in iter_jsonl(p)] == [1, 2]\n',
             })
    r.fixes_trailers.append((r.sha("fix_jsonl"), jsonl))
    r.szz.append((r.sha("fix_jsonl"), jsonl))
    s.commit(TOMASZ, "2025-12-03 09:30", "build: Add Dockerfile with CUDA 12.6 base image (#32)", "build", pr=32,
             squash_merged_after=3, files={"Dockerfile": """\
FROM nvidia/cuda:12.6.3-devel-ubuntu24.04

RUN apt-get update && apt-get install -y --no-install-recommends python3 python3-venv cmake \\
    && rm -rf /var/lib/apt/lists/*
COPY --from=ghcr.io/astral-sh/uv:0.5 /uv /usr/local/bin/uv
WORKDIR /src
COPY . .
RUN uv sync --frozen && uv pip install --no-binary mlkit .
CMD ["uv", "run", "pytest", "-q"]
"""})
    s.commit(PRIYA, "2025-12-17 15:30",
             "feat(ops): Add rotary position embedding kernel (#33)\n\n"
             "Applies RoPE in place on [rows, heads, head_dim] query/key tensors.\n\n" + CLAUDE_TRAILER + "\n",
             "feature", label="rope", pr=33, ai="Claude Code", squash_merged_after=8, files={
                 "csrc/kernels/rope.cu": """\
#include <cuda_runtime.h>

#include "../ops.h"

namespace mlkit {

__global__ void rope_kernel(float* __restrict__ q, const float* __restrict__ cos_t, const float* __restrict__ sin_t,
                            int heads, int head_dim) {
  const int row = blockIdx.x;
  const int half = head_dim / 2;
  for (int i = threadIdx.x; i < heads * half; i += blockDim.x) {
    const int h = i / half, d = i % half;
    float* base = q + (row * heads + h) * head_dim;
    const float c = cos_t[row * half + d], s = sin_t[row * half + d];
    const float a = base[d], b = base[d + half];
    base[d] = a * c - b * s;
    base[d + half] = a * s + b * c;
  }
}

void rope_forward(float* q, const float* cos_t, const float* sin_t, int rows, int heads, int head_dim,
                  cudaStream_t stream) {
  rope_kernel<<<rows, 128, 0, stream>>>(q, cos_t, sin_t, heads, head_dim);
}

}  // namespace mlkit
""",
                 "CMakeLists.txt": s.edit("CMakeLists.txt", ("  csrc/kernels/softmax.cu\n",
                                                             "  csrc/kernels/softmax.cu\n  csrc/kernels/rope.cu\n")),
             })
    s.commit(DIEGO, "2026-01-07 16:00", "refactor: Simplify DataLoader batching (#34)", "refactor", pr=34,
             squash_merged_after=19, files={
                 "mlkit/data.py": s.edit("mlkit/data.py", (
                     "        for start in range(0, len(order), self.batch_size):\n"
                     "            idx = order[start : start + self.batch_size]\n"
                     "            yield self.x[idx], self.y[idx]\n",
                     "        for idx in np.array_split(order, len(self)):\n"
                     "            yield self.x[idx], self.y[idx]\n")),
             })
    s.commit(SAMUEL, "2026-01-21 12:15", "docs: Document rotary embeddings (#35)", "docs", pr=35,
             squash_merged_after=2, files={
                 "docs/rope.md": "# Rotary position embeddings\n\n`rope_forward(q, cos, sin)` rotates each pair "
                                 "`(q[d], q[d + head_dim/2])`\nby the angle for its position. `head_dim` must be even.\n",
             })
    s.commit(PRIYA, "2026-02-04 10:45", "Fix NaN in rotary kernel for odd head dims (#36)", "bug",
             label="fix_rope", pr=36, squash_merged_after=6, files={
                 "csrc/kernels/rope.cu": s.edit("csrc/kernels/rope.cu", (
                     "  const int half = head_dim / 2;\n",
                     "  const int half = head_dim / 2;  // odd head_dim: the last element is left as is\n"
                     "  if (half == 0) return;\n")),
             })
    py_lock["numpy"] = "2.2.3"
    s.commit(DEPENDABOT, "2026-02-18 05:30",
             _dependabot_message("numpy", "2.2.1", "2.2.3", "uv", "https://github.com/numpy/numpy",
                                 "direct:production").replace("Bump numpy from 2.2.1 to 2.2.3\n",
                                                              "Bump numpy from 2.2.1 to 2.2.3 (#37)\n", 1),
             "build", label="dependabot_numpy", pr=37, squash_merged_after=5,
             files={"uv.lock": _uv_lock(py_lock)})
    return r


# ---------------------------------------------------------------------------------------------
# Public entry points
# ---------------------------------------------------------------------------------------------

_BUILDERS = {"webapp": _build_webapp, "mlkit": _build_mlkit}


def build_demo_repositories(dest: str | Path, *, overwrite: bool = False) -> list[DemoRepo]:
    """Build ``dest/webapp`` and ``dest/mlkit``; the same bytes (and shas) on every run.

    Refuses to touch an existing non-empty target unless ``overwrite`` (which deletes only those
    two directories).
    """
    dest = Path(dest)
    repos = []
    for dirname, build in _BUILDERS.items():
        target = dest / dirname
        if target.exists() and any(target.iterdir()):
            if not overwrite:
                raise FileExistsError(f"{target} exists; pass overwrite=True to rebuild the demo")
            shutil.rmtree(target)
        repos.append(build(target))
    return repos


def write_demo_config(dest_config_path: str | Path, repos: list[DemoRepo], *,
                      include_identities: bool = True) -> Path:
    """Write an exceeds config (SPEC section 3) pointing at the built repos (absolute paths)."""
    config: dict = {
        "repositories": [
            {"path": str(Path(r.path).resolve()), "name": r.name, "branch": r.branch} for r in repos
        ]
    }
    if include_identities:
        config["identities"] = [dict(i, emails=list(i["emails"])) for i in CONFIG_IDENTITIES]
    path = Path(dest_config_path)
    path.parent.mkdir(parents=True, exist_ok=True)
    header = "# Demo repositories built by exceeds_pipeline.demo.generate (exceeds demo).\n"
    path.write_text(header + yaml.safe_dump(config, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return path


def _to_plain(value):
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, dict):
        return {str(k): _to_plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_to_plain(v) for v in value]
    if hasattr(value, "__dataclass_fields__"):
        return {k: _to_plain(getattr(value, k)) for k in value.__dataclass_fields__}
    return value


def manifest(repos: list[DemoRepo]) -> dict:
    """Everything planted, as plain JSON-able data (people, bot, identities, per-repo facts)."""
    return {
        "people": _to_plain(list(PEOPLE)),
        "bots": _to_plain([BOT]),
        "name_only_not_merged": list(NAME_ONLY_NOT_MERGED),
        "config_identities": _to_plain(CONFIG_IDENTITIES),
        "repositories": [
            {**_to_plain(r), "head": r.head, "merges": r.merges, "ai_commits": r.ai_commits,
             "bot_commits": r.bot_commits}
            for r in repos
        ],
    }


if __name__ == "__main__":  # python -m exceeds_pipeline.demo.generate DEST
    import sys

    out = Path(sys.argv[1] if len(sys.argv) > 1 else "demo-repos")
    built = build_demo_repositories(out, overwrite=True)
    write_demo_config(out / "exceeds-demo.yaml", built)
    for repo in built:
        print(f"{repo.name}: {len(repo.commits)} commits, head {repo.head[:12]} at {repo.path}")
