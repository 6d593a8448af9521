"""Build a demo repository from its data: ``data/<dir>.yaml`` and ``data/<dir>_files.yaml``.

Data (``data/``): ``demo.yaml`` holds the cast (zones, commit identities, expected people);
``<dir>.yaml`` a repository's ``history``, a list of steps run in order on the current branch:

* ``{branch: B}`` creates ``B`` at the current commit and switches to it; ``{checkout: B}``
  switches.
* a commit: ``author`` (a key of ``authors``), ``date`` (``YYYY-MM-DD HH:MM`` in the author's
  zone), ``category``, ``message`` (``{sha:LABEL:12}`` is the first 12 hex of an earlier commit's
  sha), optional ``label``, ``pr``, ``ai``, ``squash_merged_after`` (hours; then GitHub commits
  it), ``bump`` (package versions), ``renames`` (old -> new, applied first) and ``files``:
  path -> text, ``null`` (delete), or ``{content: NAME}`` (from ``<dir>_files.yaml``; else the
  current content) with ``edit: [{old, new}]`` (each replaced once) and ``append: TEXT``, or
  ``{generate: NAME, ...}`` (:mod:`exceeds_pipeline.demo.generated`). Planted facts:
  ``szz``/``fixes``/``rework_of``/``reland_of`` (a label), ``series`` (a name).
* ``{merge: B, author, date, pr, from, title}``: a GitHub merge commit of ``B``.
* ``{revert: LABEL, author, date, reason}``: ``git revert`` of that commit, with a reason.

The builder keeps every tree in memory, predicts each commit's sha (messages name earlier
commits), writes one ``git fast-import`` stream per repository and checks git's branch tips equal
the predicted ones.
"""

from __future__ import annotations

import hashlib
import re
from datetime import datetime, timezone
from pathlib import Path


from exceeds_pipeline.common.yamlfile import load_yaml
from exceeds_pipeline.demo.generated import GENERATORS
from exceeds_pipeline.demo.model import DemoCommit, DemoRepo, PullRequest
from exceeds_pipeline.ingest.gitcmd import git_text, isolated_env, run_git

DATA = Path(__file__).with_name("data")


def load(name: str):
    """A YAML file of ``data/``."""
    return load_yaml(DATA / name)


CAST = load("demo.yaml")  # zones, commit identities, expected people (see demo.generate)

# ---------------------------------------------------------------------------------------------
# Dates, messages and git objects
# ---------------------------------------------------------------------------------------------


def _when(author: dict, local: str) -> str:
    """``"2025-03-04 10:00"`` in the author's zone -> ISO string with the right offset."""
    dt = datetime.strptime(local, "%Y-%m-%d %H:%M")
    zone = CAST["zones"][author["zone"]]
    summer = any(a <= dt.date() < b for a, b in CAST["dst"].get(zone.get("dst"), ()))
    return dt.strftime("%Y-%m-%dT%H:%M:00") + (zone["summer"] if summer else zone["standard"])


def _git_time(iso: str, utc_hours_later: float | None = None) -> str:
    """git's ``<unix seconds> <+hhmm>``; with ``utc_hours_later``, that much later in UTC."""
    seconds = datetime.strptime(iso, "%Y-%m-%dT%H:%M:%S%z").timestamp()
    if utc_hours_later is None:
        return f"{int(seconds)} {iso[-5:]}"
    return f"{int(seconds + utc_hours_later * 3600)} +0000"


def _stripspace(message: str) -> str:
    """What ``git commit --cleanup=whitespace`` keeps: no trailing spaces, no leading, trailing
    or repeated blank lines, a final newline."""
    out: list[str] = []
    blank = False
    for line in message.split("\n"):
        line = line.rstrip(" \t\n\v\f\r")
        if not line:
            blank = True
            continue
        if blank and out:
            out.append("")
        out.append(line)
        blank = False
    return "".join(line + "\n" for line in out)


def _object_sha(kind: bytes, body: bytes) -> str:
    return hashlib.sha1(b"%s %d\0" % (kind, len(body)) + body).hexdigest()


def _tree_sha(files: dict[str, bytes]) -> str:
    """The sha git gives the tree of ``files`` (regular files, mode 100644)."""
    root: dict = {}
    for path, data in files.items():
        *dirs, name = path.split("/")
        node = root
        for d in dirs:
            node = node.setdefault(d, {})
        node[name] = data

    def tree(node: dict) -> str:
        entries = []
        for name, value in node.items():
            sub = isinstance(value, dict)
            sha = tree(value) if sub else _object_sha(b"blob", value)
            entries.append(((name + "/" if sub else name).encode(),
                            b"%s %s\0" % (b"40000" if sub else b"100644", name.encode()) + bytes.fromhex(sha)))
        return _object_sha(b"tree", b"".join(e for _, e in sorted(entries)))

    return tree(root)


def _data(content: bytes) -> bytes:
    return b"data %d\n" % len(content) + content + b"\n"


# ---------------------------------------------------------------------------------------------
# Builder
# ---------------------------------------------------------------------------------------------

_AUTHORS: dict[str, dict] = CAST["authors"]
_WEB_COMMITTER: dict = CAST["web_committer"]
_SHA_REF = re.compile(r"\{sha:([\w-]+):(\d+)\}")


class _Builder:
    """Runs one repository's history in memory and writes it with ``git fast-import``."""

    def __init__(self, dirname: str, path: Path):
        self.project = load(f"{dirname}.yaml")
        self.catalogue: dict[str, str] = load(f"{dirname}_files.yaml")
        self.repo = DemoRepo(self.project["name"], path, self.project.get("branch", "main"),
                             excluded_paths=dict(self.project.get("excluded_paths", {})))
        self.current = self.repo.branch
        self.branches: dict[str, str | None] = {self.current: None}  # name -> tip sha
        self.trees: dict[str, dict[str, bytes]] = {}  # sha -> files
        self.parents: dict[str, list[str]] = {}
        self.marks: dict[str, int] = {}
        self.labels: dict[str, str] = {}
        self.series: dict[str, list[str]] = {}
        self.stream: list[bytes] = []

    @property
    def tip(self) -> str | None:
        return self.branches[self.current]

    def run(self) -> DemoRepo:
        for step in self.project["history"]:
            if "branch" in step:
                if self.tip is None:
                    raise ValueError(f"{self.repo.name}: branch {step['branch']} before the first commit")
                self.branches[step["branch"]] = self.tip
                self.current = step["branch"]
                self.stream.append(b"reset refs/heads/%s\nfrom :%d\n\n" % (
                    step["branch"].encode(), self.marks[self.tip]))
            elif "checkout" in step:
                self.current = step["checkout"]
            elif "merge" in step:
                self.merge(step)
            elif "revert" in step:
                self.revert(step)
            else:
                self.commit(step)
        self.repo.series = list(self.series.values())
        self.write_repository()
        return self.repo

    # -- steps ------------------------------------------------------------------------------------

    def commit(self, step: dict) -> None:
        author = _AUTHORS[step["author"]]
        iso = _when(author, step["date"])
        committer, committed = author, _git_time(iso)
        if "squash_merged_after" in step:  # squash-merged on GitHub: GitHub commits it later
            committer, committed = _WEB_COMMITTER, _git_time(iso, step["squash_merged_after"])
        files = dict(self.trees[self.tip]) if self.tip else {}
        for old, new in (step.get("renames") or {}).items():
            files[new] = files.pop(old)
        for name, version in (step.get("bump") or {}).items():
            self.project["packages"][name]["version"] = version
        binaries = []
        for path, spec in (step.get("files") or {}).items():
            if path.startswith(('"', "/")) or "\n" in path or ".." in path.split("/"):
                raise ValueError(f"{self.repo.name}: unsupported path {path!r}")
            content = self.content(path, spec, files.get(path))
            if content is None:
                files.pop(path)
                continue
            if isinstance(content, bytes):
                binaries.append(path)
            else:
                if path == ".mailmap":
                    self.repo.mailmap = content.splitlines()
                content = content.encode("utf-8", "surrogateescape")
            files[path] = content
        message = _SHA_REF.sub(lambda m: self.labels[m[1]][: int(m[2])], step["message"])
        sha = self.write_commit(files, [self.tip], author, iso, committer, committed, message)
        self.repo.renames += [(sha, old, new) for old, new in (step.get("renames") or {}).items()]
        self.repo.binaries += [(sha, path) for path in binaries]
        self.record(sha, message, author, iso, step["category"], label=step.get("label"),
                    pr=step.get("pr"), ai_tool=step.get("ai"))
        for key, facts in (("szz", self.repo.szz), ("fixes", self.repo.fixes_trailers),
                           ("reland_of", self.repo.relands)):
            if key in step:
                facts.append((sha, self.labels[step[key]]))
        if "rework_of" in step:
            self.repo.rework.append((self.labels[step["rework_of"]], sha))
        if "series" in step:
            self.series.setdefault(step["series"], []).append(sha)

    def content(self, path: str, spec, current: bytes | None) -> str | bytes | None:
        if spec is None or isinstance(spec, str):
            return spec
        if "generate" in spec:
            return GENERATORS[spec["generate"]](self.project, spec)
        if "content" in spec:
            text = self.catalogue[spec["content"]]
        else:
            text = current.decode("utf-8", "surrogateescape")
        for edit in spec.get("edit", ()):
            if edit["old"] not in text:
                raise ValueError(f"{self.repo.name} {path}: {edit['old']!r} not found")
            text = text.replace(edit["old"], edit["new"], 1)
        return text + spec.get("append", "")

    def merge(self, step: dict) -> None:
        """``git merge --no-ff`` of a branch whose changes do not overlap the current one's."""
        merger = _AUTHORS[step["author"]]
        iso = _when(merger, step["date"])
        ours, theirs = self.tip, self.branches[step["merge"]]
        base, mine, other = self.trees[self.merge_base(ours, theirs)], self.trees[ours], self.trees[theirs]
        files = {}
        for path in sorted(mine.keys() | other.keys()):
            a, b, o = mine.get(path), other.get(path), base.get(path)
            if a != b and a != o and b != o:
                raise ValueError(f"{self.repo.name}: merging {step['merge']} conflicts on {path}")
            result = b if a == o else a
            if result is not None:
                files[path] = result
        number, title = step["pr"], step["title"]
        message = f"Merge pull request #{number} from {step['from']}\n\n{title}\n"
        sha = self.write_commit(files, [ours, theirs], merger, iso, _WEB_COMMITTER, _git_time(iso, 0), message)
        pr = self.repo.pull_requests.setdefault(number, PullRequest(number, title, None))
        pr.title, pr.merge_sha = title, sha
        self.record(sha, message, merger, iso, None, label=step.get("label"), pr=number, is_merge=True)

    def merge_base(self, a: str, b: str) -> str:
        def ancestors(sha: str) -> set[str]:
            seen, todo = set(), [sha]
            while todo:
                s = todo.pop()
                if s not in seen:
                    seen.add(s)
                    todo += self.parents[s]
            return seen

        common = ancestors(a) & ancestors(b)
        best = [c for c in common if not any(c != o and c in ancestors(o) for o in common)]
        if len(best) != 1:
            raise ValueError(f"{self.repo.name}: no single merge base of {a} and {b}")
        return best[0]

    def revert(self, step: dict) -> None:
        """``git revert`` of a labelled commit whose files did not change since."""
        author = _AUTHORS[step["author"]]
        iso = _when(author, step["date"])
        target = self.labels[step["revert"]]
        before, after = self.trees[self.parents[target][0]], self.trees[target]
        files = dict(self.trees[self.tip])
        for path in before.keys() | after.keys():
            if before.get(path) != after.get(path):
                if files.get(path) != after.get(path):
                    raise ValueError(f"{self.repo.name}: reverting {step['revert']} conflicts on {path}")
                if path in before:
                    files[path] = before[path]
                else:
                    del files[path]
        subject = self.repo.by_sha(target).subject
        message = f'Revert "{subject}"\n\nThis reverts commit {target}.\n\n{step["reason"].strip()}\n'
        sha = self.write_commit(files, [self.tip], author, iso, author, _git_time(iso), message)
        self.repo.reverts.append((sha, target))
        self.record(sha, message, author, iso, "revert", label=step.get("label"))

    # -- commits ------------------------------------------------------------------------------------

    def write_commit(self, files: dict[str, bytes], parents: list[str | None], author: dict, iso: str,
                     committer: dict, committed: str, message: str) -> str:
        """Predict the commit's sha and add it to the fast-import stream."""
        parents = [p for p in parents if p]
        message = _stripspace(message)
        who = f"{author['name']} <{author['email']}> {_git_time(iso)}"
        by = f"{committer['name']} <{committer['email']}> {committed}"
        body = (f"tree {_tree_sha(files)}\n" + "".join(f"parent {p}\n" for p in parents)
                + f"author {who}\ncommitter {by}\n\n{message}")
        sha = _object_sha(b"commit", body.encode())
        mark = self.marks[sha] = len(self.marks) + 1
        out = [b"commit refs/heads/%s\nmark :%d\n" % (self.current.encode(), mark),
               f"author {who}\ncommitter {by}\n".encode(), _data(message.encode())]
        out += [b"%s :%d\n" % (kind, self.marks[p]) for kind, p in zip((b"from", b"merge"), parents)]
        previous = self.trees[parents[0]] if parents else {}
        out += [b"D %s\n" % p.encode() for p in sorted(previous.keys() - files.keys())]
        for path, content in sorted(files.items()):
            if previous.get(path) != content:
                out += [b"M 100644 inline %s\n" % path.encode(), _data(content)]
        self.stream += [*out, b"\n"]
        self.trees[sha], self.parents[sha], self.branches[self.current] = files, parents, sha
        return sha

    def record(self, sha: str, message: str, author: dict, iso: str, category: str | None, **kw) -> None:
        commit = DemoCommit(sha=sha, subject=message.split("\n", 1)[0], person=author["person"],
                            author_date=iso, category=category,
                            is_bot=author["person"] == CAST["bot"]["key"], **kw)
        self.repo.commits.append(commit)
        if commit.label:
            self.labels[commit.label] = sha
        utc_day = datetime.fromisoformat(iso).astimezone(timezone.utc).date().isoformat()
        if utc_day != iso[:10]:
            self.repo.local_date_differs.append((sha, iso[:10], utc_day))
        if commit.pr is not None and not commit.is_merge:
            pr = self.repo.pull_requests.setdefault(commit.pr, PullRequest(commit.pr, commit.subject, None))
            pr.shas.append(sha)

    def write_repository(self) -> None:
        """``git init``, one fast-import, check git's branch tips, check out the current branch."""
        name, path = self.repo.name, self.repo.path
        env = isolated_env()
        path.mkdir(parents=True, exist_ok=True)
        run_git(None, ["init", "-q", "-b", self.repo.branch, str(path)], name, env=env)
        git_dir = path / ".git"
        stream = b"".join(self.stream) + b"done\n"
        run_git(git_dir, ["fast-import", "--quiet", "--done"], name, input=stream, env=env)
        tips = git_text(git_dir, ["for-each-ref", "--format=%(refname:short) %(objectname)", "refs/heads"],
                        name, env=env)
        expected = sorted(f"{branch} {sha}" for branch, sha in self.branches.items())
        if sorted(tips.splitlines()) != expected:
            raise RuntimeError(f"{name}: git built other commits than predicted:\n{tips}\n!=\n{expected}")
        run_git(git_dir, ["symbolic-ref", "HEAD", f"refs/heads/{self.current}"], name, env=env)
        run_git(None, ["reset", "-q", "--hard"], name, cwd=path, env=env)


def build_repository(dirname: str, path: Path) -> DemoRepo:
    """Build the repository ``data/<dirname>.yaml`` describes at ``path`` (a new directory)."""
    return _Builder(dirname, path).run()
