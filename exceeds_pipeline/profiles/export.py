"""Profile JSON files: ``<exports>/profiles/<person_id>.json`` and ``<exports>/index.json``.

Every profile is validated against the shipped JSON Schema (``profile.schema.json``, draft
2020-12) before anything is written. Each file is written atomically (temporary file in the same
folder, then rename), the index last; profile files of people no longer present are removed.

File names stay inside the exports folder whatever the id: an id that is a plain file name
(letters, digits, ``.``, ``_``, ``-``; not starting with a dot; at most 100 characters; not a
reserved device name on Windows) is used as it is, anything else (``/``, ``\\``, ``..``, NUL,
control characters, very long ids, ...) is replaced by a slug of it plus a short hash, so two
different ids never share a file. ``index.json`` maps every id to its file.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
import unicodedata
from datetime import datetime, timezone
from functools import lru_cache
from importlib import resources
from pathlib import Path

import fastjsonschema
import jsonschema
import orjson

__all__ = ["INDEX_VERSION", "load_schema", "parse_profile", "profile_json", "safe_file_stem", "validate_profile",
           "write_exports"]

INDEX_VERSION = "1.0.0"
SCHEMA_RESOURCE = "profile.schema.json"
MAX_STEM = 100
_PLAIN = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9._-]*$")
_WINDOWS_RESERVED = re.compile(r"^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$", re.IGNORECASE)


@lru_cache(maxsize=1)
def load_schema() -> dict:
    """The profile JSON Schema shipped with the package."""
    text = resources.files("exceeds_pipeline.profiles").joinpath(SCHEMA_RESOURCE).read_text("utf-8")
    return json.loads(text)


def _inline_refs(node, defs: dict):
    """The schema with its local ``#/$defs/...`` references replaced by their targets.

    The profile schema has no recursive definitions; inlining them makes validation several
    times faster (no reference resolution per array element) and changes nothing else.
    """
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/") and len(node) == 1 + ("description" in node):
            target = _inline_refs(defs[ref[len("#/$defs/"):]], defs)
            return {**target, **({"description": node["description"]} if "description" in node else {})}
        return {k: (v if k == "$defs" else _inline_refs(v, defs)) for k, v in node.items()}
    if isinstance(node, list):
        return [_inline_refs(v, defs) for v in node]
    return node


@lru_cache(maxsize=1)
def _validator() -> jsonschema.protocols.Validator:
    schema = load_schema()
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    inlined = _inline_refs(schema, schema.get("$defs", {}))
    return cls(inlined, format_checker=cls.FORMAT_CHECKER)


@lru_cache(maxsize=1)
def _fast_validator():
    """The same schema compiled to Python by fastjsonschema (draft-07 keywords suffice: the refs
    are inlined and the schema uses nothing newer than `const`/`propertyNames`)."""
    schema = dict(_inline_refs(load_schema(), load_schema().get("$defs", {})))
    schema.pop("$defs", None)
    schema["$schema"] = "http://json-schema.org/draft-07/schema#"
    return fastjsonschema.compile(schema)


def validate_profile(profile: dict) -> None:
    """Raise ``jsonschema.ValidationError`` (naming the person) if ``profile`` is invalid.

    The compiled validator accepts valid profiles fast; anything it rejects goes to the
    reference validator (draft 2020-12), which decides and names the problem.
    """
    try:
        _fast_validator()(profile)
        return
    except fastjsonschema.JsonSchemaException:
        pass
    error = jsonschema.exceptions.best_match(_validator().iter_errors(profile))
    if error is not None:
        where = "/".join(str(p) for p in error.absolute_path) or "(top level)"
        error.message = f"profile {profile.get('id')!r}: {where}: {error.message}"
        raise error


def safe_file_stem(person_id: str) -> str:
    """A file name stem for ``person_id`` that cannot leave the folder (see module doc)."""
    pid = str(person_id)
    if (
        pid
        and len(pid) <= MAX_STEM
        and _PLAIN.match(pid)
        and ".." not in pid
        and not _WINDOWS_RESERVED.match(pid)
    ):
        return pid
    ascii_text = unicodedata.normalize("NFKD", pid).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")[:60].strip("-") or "person"
    digest = hashlib.sha256(pid.encode("utf-8", "surrogatepass")).hexdigest()[:10]
    return f"{slug}-{digest}"


def _atomic_write(path: Path, data: bytes) -> None:
    # No read-and-compare first: every profile carries the run's generated_at, so none is ever
    # unchanged (on git/git the reads cost 0.5 s of a publish for nothing).
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        # tmp + rename keeps every file whole for readers; one fsync per file would cost
        # seconds on thousands of profiles, so durability is left to the file system.
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def profile_json(document: dict, indent: bool = False) -> bytes:
    """The document as UTF-8 JSON (compact, or indented by 2 as ``json.dumps(indent=2)`` lays it
    out), keys in the order built.

    orjson writes it 20x faster than the standard library (whose encoder is pure Python as soon
    as it indents: 4 s for git/git's 2,460 profiles). What orjson refuses (a lone surrogate from
    an undecodable byte, an integer beyond 64 bits) goes through the standard encoder, the
    surrogate replaced: it must not abort the export.
    """
    try:
        return orjson.dumps(document, option=orjson.OPT_INDENT_2 if indent else 0)
    except TypeError:
        text = json.dumps(document, ensure_ascii=False, indent=2 if indent else None,
                          separators=None if indent else (",", ":"), default=str)
        return text.encode("utf-8", errors="replace")


def parse_profile(text: str | bytes) -> dict:
    """A profile document from its JSON text (the `profiles` table's `profile` column)."""
    return orjson.loads(text)


def _dump(document: dict) -> bytes:
    return profile_json(document, indent=True) + b"\n"


def write_exports(profiles: list[dict], exports_dir: str | os.PathLike, generated_at: str | None = None) -> dict:
    """Validate and write every profile and the index; return the index document.

    Nothing is written if any profile is invalid or two ids collide on one file name.
    """
    root = Path(exports_dir)
    folder = root / "profiles"
    files: dict[str, str] = {}
    taken: dict[str, str] = {}
    for profile in profiles:
        validate_profile(profile)
        pid = profile["id"]
        if pid in files:
            raise ValueError(f"two profiles have the id {pid!r}")
        stem = safe_file_stem(pid)
        if stem.lower() in taken:  # case-insensitive file systems
            stem = f"{stem}-{hashlib.sha256(pid.encode('utf-8', 'surrogatepass')).hexdigest()[:10]}"
            if stem.lower() in taken:
                raise ValueError(f"ids {taken[stem.lower()]!r} and {pid!r} map to the same file name")
        taken[stem.lower()] = pid
        files[pid] = f"{stem}.json"

    folder.mkdir(parents=True, exist_ok=True)
    resolved = folder.resolve()
    for profile in profiles:
        target = folder / files[profile["id"]]
        if target.resolve().parent != resolved:  # belt and braces: never write outside
            raise ValueError(f"refusing to write {target} outside {folder}")
        _atomic_write(target, _dump(profile))

    keep = set(files.values())
    for stale in folder.glob("*.json"):
        if stale.name not in keep and stale.is_file():
            stale.unlink()
    for leftover in folder.glob(".*.tmp"):  # from a run killed half-way
        leftover.unlink(missing_ok=True)

    stamp = generated_at or max((p["generated_at"] for p in profiles), default=None) or (
        datetime.now(timezone.utc).isoformat().replace("+00:00", "Z")
    )
    index = {
        "schema_version": INDEX_VERSION,
        "profile_schema_version": load_schema()["properties"]["schema_version"]["const"],
        "generated_at": stamp,
        "count": len(profiles),
        "profiles": [
            {
                "id": p["id"],
                "name": p["name"],
                "file": f"profiles/{files[p['id']]}",
                "commits": p["stats"]["commits"],
                "features": p["stats"]["features"],
                "bugs": p["stats"]["bugs"],
                "activity_months": p["stats"]["activity_months"],
                "first_month": p["stats"].get("first_month"),
                "last_month": p["stats"].get("last_month"),
                "repositories": [r["name"] for r in p["repositories"]],
            }
            for p in profiles
        ],
    }
    _atomic_write(root / "index.json", _dump(index))
    return index
