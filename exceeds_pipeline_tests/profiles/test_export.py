"""Profile exports: validated, atomic, stale files removed, file names that stay inside."""

from __future__ import annotations

import copy
import json
import os

import jsonschema
import pytest

from exceeds_pipeline.profiles import safe_file_stem, write_exports
from exceeds_pipeline_tests.profiles.test_profiles import build, items_of
from exceeds_pipeline_tests.rollups.frames import commit, commits_frame, fc, files_frame


@pytest.fixture(scope="module")
def base_profile():
    commits = commits_frame([commit("a" * 40, "ada", "2025-01-02T10:00", category="feature", item="A")])
    (p,) = build(commits, files_frame([fc("a" * 40, "a.py", 3)]), items_of(commits))
    return p


def with_id(profile, pid):
    p = copy.deepcopy(profile)
    p["id"] = pid
    return p


def test_write_exports_writes_profiles_and_index_and_removes_stale(tmp_path, base_profile):
    out = tmp_path / "exports"
    index = write_exports([with_id(base_profile, "ada"), with_id(base_profile, "bob")], out)
    assert sorted(os.listdir(out / "profiles")) == ["ada.json", "bob.json"]
    assert json.loads((out / "profiles" / "ada.json").read_text("utf-8")) == with_id(base_profile, "ada")
    on_disk = json.loads((out / "index.json").read_text("utf-8"))
    assert on_disk == index and index["count"] == 2
    assert [e["file"] for e in index["profiles"]] == ["profiles/ada.json", "profiles/bob.json"]
    assert index["profiles"][0]["commits"] == 1

    (out / "profiles" / ".bob.json.x1.tmp").write_text("half-written")  # a killed run
    (out / "profiles" / "notes.txt").write_text("mine")
    write_exports([with_id(base_profile, "bob")], out)
    assert sorted(os.listdir(out / "profiles")) == ["bob.json", "notes.txt"]  # Ada is gone
    assert json.loads((out / "index.json").read_text("utf-8"))["count"] == 1


def test_invalid_profile_writes_nothing(tmp_path, base_profile):
    bad = with_id(base_profile, "bob")
    bad["stats"]["commits"] = -1
    with pytest.raises(jsonschema.ValidationError):
        write_exports([with_id(base_profile, "ada"), bad], tmp_path / "exports")
    assert not (tmp_path / "exports").exists()


@pytest.mark.parametrize("pid", [
    "../evil", "../../etc/passwd", "a/b", "a\\b", "nul\x00byte", "x" * 300, "..", ".", ".hidden", "CON",
    "lpt1.txt", "", "名前", "-rf", "a..b",
])
def test_file_names_stay_inside_the_exports_folder(tmp_path, base_profile, pid):
    stem = safe_file_stem(pid)
    assert stem and len(stem) <= 100 and not stem.startswith((".", "-"))
    assert "/" not in stem and "\\" not in stem and "\x00" not in stem and ".." not in stem
    out = tmp_path / "exports"
    before = set(os.listdir(tmp_path))
    index = write_exports([with_id(base_profile, pid or "x"), with_id(base_profile, "ok")], out)
    written = sorted(p.name for p in (out / "profiles").iterdir())
    assert len(written) == 2 and all((out / "profiles" / n).is_file() for n in written)
    assert set(os.listdir(tmp_path)) - before == {"exports"}
    assert {e["file"] for e in index["profiles"]} == {f"profiles/{n}" for n in written}


def test_distinct_ids_never_share_a_file(tmp_path, base_profile):
    assert safe_file_stem("william-wen") == "william-wen"
    assert safe_file_stem("a/b") != safe_file_stem("a\\b")
    index = write_exports([with_id(base_profile, "Ada"), with_id(base_profile, "ada")], tmp_path)
    files = [e["file"] for e in index["profiles"]]
    assert len(set(f.lower() for f in files)) == 2
    with pytest.raises(ValueError, match="two profiles"):
        write_exports([with_id(base_profile, "ada"), with_id(base_profile, "ada")], tmp_path)


def test_undecodable_text_does_not_abort_the_export(tmp_path, base_profile):
    p = with_id(base_profile, "ada")
    p["name"] = "Ad\udce9"  # a byte that was not UTF-8, kept as a surrogate
    write_exports([p], tmp_path)
    assert json.loads((tmp_path / "profiles" / "ada.json").read_text("utf-8"))["name"] == "Ad?"


def test_files_are_laid_out_as_json_dumps_indent_2(tmp_path, base_profile):
    # written by orjson for speed; a reader (or a diff between runs) sees the standard layout
    p = with_id(base_profile, "zoë")
    p["quality"]["correctness"]["value"] = 0.8333333333333334
    write_exports([p], tmp_path)
    (entry,) = json.loads((tmp_path / "index.json").read_text("utf-8"))["profiles"]
    text = (tmp_path / entry["file"]).read_text("utf-8")
    assert text == json.dumps(p, ensure_ascii=False, indent=2) + "\n"
    assert "zoë" in text and "0.8333333333333334" in text
