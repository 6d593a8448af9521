"""One person per human (SPEC §5 Identity, Bots), from commits of real git repositories."""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone
from pathlib import Path

import polars as pl
import pytest

from exceeds_pipeline_tests.gitscript import GitScript
from exceeds_pipeline.identity.bots import compile_patterns, is_bot_identity
from exceeds_pipeline.identity.people import ConfiguredIdentity, identity_key_expr, resolve_people
from exceeds_pipeline.ingest.git_log import log_commits
from exceeds_pipeline_tests.conftest import git_out

SAFE_ID = re.compile(r"^[a-z0-9][a-z0-9._-]*$")


class Repo:
    def __init__(self, path: Path):
        self.git = GitScript.init(path)
        self.n = 0

    def commit(self, author: tuple[str, str], message: str | None = None) -> str:
        self.n += 1
        return self.git.commit(
            message or f"change {self.n}", author=author,
            date=datetime(2025, 1, 1, 12, tzinfo=timezone.utc) + timedelta(days=self.n),
            files={"log.txt": f"{self.n}\n"},
        )

    def raw(self, name: str = "acme/app") -> pl.DataFrame:
        shas = git_out(self.git.path, "rev-list", "HEAD").split()
        commits, _ = log_commits(self.git.path / ".git", name, shas, self.git.head())
        return commits


def people_by_email(people: pl.DataFrame) -> dict[str, dict]:
    return {e: row for row in people.iter_rows(named=True) for e in row["emails"]}


def person_of(raw: pl.DataFrame, identity_map: pl.DataFrame) -> dict[str, str]:
    """{sha: person_id} for every commit, through the identity map."""
    joined = raw.with_columns(identity_key_expr().alias("identity_key")).join(
        identity_map, on="identity_key", how="left")
    assert joined["person_id"].null_count() == 0
    return dict(joined.select("sha", "person_id").iter_rows())


@pytest.fixture
def repo(tmp_path) -> Repo:
    return Repo(tmp_path / "repo")


def test_mailmap_joins_two_addresses(repo):
    repo.git.write_mailmap(["Ada Lovelace <ada@example.com> <ada@old.example.com>"])
    a1 = repo.commit(("ada", "ada@old.example.com"))
    a2 = repo.commit(("Ada Lovelace", "ada@example.com"))
    a3 = repo.commit(("Ada Lovelace", "ada@example.com"))
    b = repo.commit(("Bob Builder", "bob@example.org"))
    raw = repo.raw()
    people, idmap = resolve_people(raw)
    assert people.height == 2
    ada = people_by_email(people)["ada@example.com"]
    assert (ada["person_id"], ada["display_name"], ada["commits"]) == ("ada-lovelace", "Ada Lovelace", 3)
    assert ada["is_bot"] is False
    owners = person_of(raw, idmap)
    assert owners[a1] == owners[a2] == owners[a3] == "ada-lovelace"
    assert owners[b] == "bob-builder"


def test_a_mailmap_handle_yields_to_the_real_name_written_in_the_commits(repo):
    """hugo's .mailmap maps 'Bjørn Erik Pedersen' to 'bep': the profile is still titled with the
    real name he wrote (4,515 commits). A real name the .mailmap gives wins over any written one."""
    repo.git.write_mailmap(["bep <bep@example.com> Bjørn Erik Pedersen <bep@example.com>",
                            "Ann Lee <ann@example.com> <ann@old.example.com>"])
    for _ in range(3):
        repo.commit(("Bjørn Erik Pedersen", "bep@example.com"))
    repo.commit(("bep", "bep@example.com"))
    for _ in range(3):
        repo.commit(("A. Lee Smith", "ann@old.example.com"))
    repo.commit(("Cy", "cy@example.com"))
    for _ in range(2):  # a release tool under its owner's plus-address goes by its handle
        repo.commit(("bepreleaser", "bep+bepreleaser@example.com"))
    repo.commit(("Bjørn Erik Pedersen", "bep+bepreleaser@example.com"))
    people = people_by_email(resolve_people(repo.raw())[0])
    releaser = people["bep+bepreleaser@example.com"]
    assert (releaser["display_name"], releaser["person_id"], releaser["is_bot"]) == ("bepreleaser", "bepreleaser", True)
    bep = people["bep@example.com"]
    assert (bep["display_name"], bep["person_id"], bep["commits"]) == ("Bjørn Erik Pedersen", "bjorn-erik-pedersen", 4)
    assert people["ann@example.com"]["display_name"] == "Ann Lee"
    assert people["cy@example.com"]["display_name"] == "Cy"


def test_mailmap_of_one_repository_joins_the_address_in_another(tmp_path):
    a = Repo(tmp_path / "a")
    a.git.write_mailmap(["Ada Lovelace <ada@example.com> <ada@old.example.com>"])
    a.commit(("ada", "ada@old.example.com"))
    b = Repo(tmp_path / "b")
    sha_b = b.commit(("ada", "ada@old.example.com"))  # no mailmap in this repository
    raw = pl.concat([a.raw("a"), b.raw("b")])
    people, idmap = resolve_people(raw)
    assert people.height == 1
    assert person_of(raw, idmap)[sha_b] == people["person_id"][0]


def test_email_equality_is_case_insensitive(repo):
    s1 = repo.commit(("Bob Builder", "Bob@Example.ORG"))
    s2 = repo.commit(("bob", "bob@example.org"))
    s3 = repo.commit(("Bob Builder", " bob@EXAMPLE.org"))
    raw = repo.raw()
    people, idmap = resolve_people(raw)
    assert people.height == 1
    row = people.row(0, named=True)
    assert row["emails"] == ["bob@example.org"]
    assert row["display_name"] == "Bob Builder"  # the most used name
    assert sorted(row["names"]) == ["Bob Builder", "bob"]
    owners = person_of(raw, idmap)
    assert owners[s1] == owners[s2] == owners[s3] == "bob-builder"


def test_github_noreply_id_and_login_join(repo):
    s1 = repo.commit(("Octo Cat", "123456+octocat@users.noreply.github.com"))
    s2 = repo.commit(("octocat", "octocat@users.noreply.github.com"))
    s3 = repo.commit(("Octo Cat", "123456+OctoCat@users.noreply.github.com"))
    other = repo.commit(("Someone", "999+someone@users.noreply.github.com"))
    raw = repo.raw()
    people, idmap = resolve_people(raw)
    assert people.height == 2
    owners = person_of(raw, idmap)
    assert owners[s1] == owners[s2] == owners[s3] == "octo-cat"
    assert owners[other] == "someone"


def test_config_identities_join_listed_emails(repo):
    c1 = repo.commit(("Carol", "carol@work.example.com"))
    c2 = repo.commit(("carol x", "Carol@Home.example.com"))
    c3 = repo.commit(("CX", "cx@users.noreply.github.com"))
    d = repo.commit(("Dan", "dan@example.com"))
    raw = repo.raw()
    ident = ConfiguredIdentity(
        "carol-x", "Carol Xavier",
        ("carol@work.example.com", "carol@home.example.com", "never-committed@example.com"),
    )
    people, idmap = resolve_people(raw, [ident])
    carol = people.filter(pl.col("person_id") == "carol-x").row(0, named=True)
    assert carol["display_name"] == "Carol Xavier"
    assert carol["emails"] == ["carol@home.example.com", "carol@work.example.com"]
    owners = person_of(raw, idmap)
    assert owners[c1] == owners[c2] == "carol-x"
    assert owners[c3] != "carol-x"  # not listed: not joined
    assert owners[d] == "dan"
    assert set(people["person_id"]) == {"carol-x", "cx", "dan"}


def test_same_name_different_emails_stays_two_people(repo):
    s1 = repo.commit(("Sam Smith", "sam@alpha.example.com"))
    s2 = repo.commit(("Sam Smith", "sam@beta.example.com"))
    s3 = repo.commit(("Sam Smith", ""))  # no e-mail at all: kept apart, too
    raw = repo.raw()
    people, idmap = resolve_people(raw)
    assert people.height == 3
    owners = person_of(raw, idmap)
    assert len({owners[s1], owners[s2], owners[s3]}) == 3
    assert owners[s1] == "sam-smith"  # the earliest keeps the plain slug
    assert re.fullmatch(r"sam-smith-[0-9a-f]{6}", owners[s2])
    assert re.fullmatch(r"sam-smith-[0-9a-f]{6}", owners[s3])
    assert set(people["display_name"]) == {"Sam Smith"}


def test_person_ids_are_stable_across_runs(repo):
    repo.commit(("Sam Smith", "sam@alpha.example.com"))
    repo.commit(("Sam Smith", "sam@beta.example.com"))
    repo.commit(("Ada Lovelace", "ada@example.com"))
    raw = repo.raw()
    _, first = resolve_people(raw)
    _, second = resolve_people(raw.reverse())
    _, third = resolve_people(raw.sample(fraction=1.0, shuffle=True, seed=7))
    assert first.sort("identity_key").rows() == second.sort("identity_key").rows() == third.sort(
        "identity_key").rows()
    # later commits by a newcomer do not renumber anybody
    repo.commit(("Sam Smith", "sam@gamma.example.com"))
    repo.commit(("Zed", "zed@example.com"))
    _, later = resolve_people(repo.raw())
    before = dict(first.iter_rows())
    after = dict(later.iter_rows())
    assert {k: after[k] for k in before} == before
    assert after["sam@gamma.example.com"] not in before.values()


BOTS = [
    ("dependabot[bot]", "49699333+dependabot[bot]@users.noreply.github.com"),
    ("github-actions[bot]", "41898282+github-actions[bot]@users.noreply.github.com"),
    ("k8s-ci-robot", "k8s-ci-robot@users.noreply.github.com"),
    ("generatedunixname89002005287564", "generatedunixname89002005287564@fb.com"),
    ("Facebook Community Bot", "facebook-github-bot@users.noreply.github.com"),
]
HUMANS = [
    ("Jean Talbot", "jean.talbot@example.com"),
    ("Abbot", "abbot@example.com"),
    ("Robotham", "robotham@example.com"),
]


def test_bots(repo):
    shas = {who: repo.commit(who) for who in BOTS + HUMANS}
    raw = repo.raw()
    people, idmap = resolve_people(raw, bot_patterns=["^generatedunixname"])
    owners = person_of(raw, idmap)
    bot_flag = dict(people.select("person_id", "is_bot").iter_rows())
    for who in BOTS:
        assert bot_flag[owners[shas[who]]] is True, who
    for who in HUMANS:
        assert bot_flag[owners[shas[who]]] is False, who
    # Meta's service accounts are bots by default, without any config pattern (SPEC §5)
    people2, idmap2 = resolve_people(raw)
    flags2 = dict(people2.select("person_id", "is_bot").iter_rows())
    assert flags2[person_of(raw, idmap2)[shas[BOTS[3]]]] is True


def test_bot_rules_directly():
    extra = compile_patterns(["^generatedunixname"])
    assert is_bot_identity("renovate[bot]", "")
    assert is_bot_identity("ci_bot", "")
    assert is_bot_identity("Some Name", "pytorchmergebot@users.noreply.github.com")
    assert is_bot_identity("", "generatedunixname1@fb.com", extra)
    assert is_bot_identity("", "generatedunixname1@fb.com")  # built in
    assert is_bot_identity("generatedunixname499836121", "x@meta.com")
    assert is_bot_identity("", "noreply+537391475639613@fb.com")
    assert is_bot_identity("Facebook GitHub Bot", "")
    assert is_bot_identity("Claude", "noreply@anthropic.com")  # Claude Code as the author
    assert is_bot_identity("Cursor Agent", "cursoragent@cursor.com")
    assert is_bot_identity("meta-codesync[bot]", "215208954+meta-codesync[bot]@users.noreply.github.com")
    assert not is_bot_identity("Xu Zhao", "xzhao9@fb.com")
    assert not is_bot_identity("Jane Generated", "jane@meta.com")
    assert not is_bot_identity("Jean Talbot", "talbot@example.com")
    assert not is_bot_identity("Talbot", "jtalbot@example.com")
    # jekyll's bot: a handle run together with "bot", as both name and address
    assert is_bot_identity("jekyllbot", "jekyllbot@jekyllrb.com")
    assert not is_bot_identity("talbot", "talbot@example.com")
    assert not is_bot_identity("jekyllbot", "parker@example.com")
    # release automation named for its tool, by its name or its plus-address tag
    assert is_bot_identity("hugoreleaser", "bjorn.erik.pedersen+hugoreleaser@gmail.com")
    assert is_bot_identity("Bjørn Erik Pedersen", "bjorn.erik.pedersen+hugoreleaser@gmail.com")
    assert is_bot_identity("goreleaser", "bot@example.com")
    assert not is_bot_identity("Bjørn Erik Pedersen", "bjorn.erik.pedersen@gmail.com")
    assert not is_bot_identity("Ann Releaser", "ann.releaser@example.com")


def test_a_bot_email_makes_the_whole_person_a_bot(repo):
    repo.git.write_mailmap(["Dependabot <49699333+dependabot[bot]@users.noreply.github.com> <deps@example.com>"])
    s = repo.commit(("Release Helper", "deps@example.com"))
    raw = repo.raw()
    people, idmap = resolve_people(raw)
    pid = person_of(raw, idmap)[s]
    assert people.filter(pl.col("person_id") == pid)["is_bot"].item() is True


WEIRD_NAMES = [
    ("../../etc", "dots@example.com"),
    ("/", "slash@example.com"),
    ("--rm -rf", "dash@example.com"),
    ("x" * 500, "long@example.com"),
    ("🚀🔥", "rocket@example.com"),
    ("🚀", "🚀@example.com"),
    ("C:\\Windows\\System32", "win@example.com"),
    ("Zoë Ångström-Łukasiewicz", "zoe@example.com"),
    ("名前", "名前@example.jp"),
]


def test_person_ids_are_safe_file_names(repo, tmp_path):
    shas = {who: repo.commit(who) for who in WEIRD_NAMES}
    raw = repo.raw()
    people, idmap = resolve_people(raw)
    owners = person_of(raw, idmap)
    ids = people["person_id"].to_list()
    assert len(ids) == len(set(ids)) == len(WEIRD_NAMES)
    out = tmp_path / "profiles"
    out.mkdir()
    for pid in ids:
        assert SAFE_ID.match(pid), pid
        assert len(pid) <= 80 and pid not in (".", "..")
        path = out / f"{pid}.json"
        path.write_text("{}")
        assert path.resolve().parent == out.resolve()
    assert owners[shas[WEIRD_NAMES[3]]] == "x" * 60
    assert owners[shas[WEIRD_NAMES[4]]] == "rocket"
    assert owners[shas[WEIRD_NAMES[7]]] == "zoe-angstrom-lukasiewicz"  # Ł spelt L


def test_no_commits_gives_empty_tables(repo):
    repo.commit(("A", "a@example.com"))
    people, idmap = resolve_people(repo.raw().clear())
    assert people.height == idmap.height == 0
    assert "person_id" in people.columns and "identity_key" in idmap.columns


def test_config_identity_can_list_an_address_the_mailmap_rewrites(repo):
    """People list the addresses they committed with; the mailmap may have rewritten them."""
    repo.git.write_mailmap(["Ada Lovelace <ada@example.com> <ada@old.example.com>"])
    s1 = repo.commit(("ada", "ada@old.example.com"))
    s2 = repo.commit(("Ada L.", "ada@other.example.com"))
    raw = repo.raw()
    ident = ConfiguredIdentity("ada", "Ada", ("ada@old.example.com", "ada@other.example.com"))
    people, idmap = resolve_people(raw, [ident])
    owners = person_of(raw, idmap)
    assert owners[s1] == owners[s2] == "ada"
    assert people.height == 1


def test_a_shared_address_the_mailmap_splits_by_name_is_not_merged(repo):
    """A shared address (`dev@company.com`) that the mailmap assigns to different people by
    commit name must not join those people back together."""
    repo.git.write_mailmap([
        "Alice Archer <alice@company.com> Alice <dev@company.com>",
        "Bob Baker <bob@company.com> Bob <dev@company.com>",
    ])
    alice = repo.commit(("Alice", "dev@company.com"))
    bob = repo.commit(("Bob", "dev@company.com"))
    someone = repo.commit(("Build Box", "dev@company.com"))  # not in the mailmap
    alice2 = repo.commit(("Alice Archer", "alice@company.com"))
    raw = repo.raw()
    people, idmap = resolve_people(raw)
    owners = person_of(raw, idmap)
    assert owners[alice] == owners[alice2] == "alice-archer"
    assert owners[bob] == "bob-baker"
    assert owners[someone] not in ("alice-archer", "bob-baker")
    assert people.height == 3


def test_sync_accounts_committed_by_a_bot_are_bots_but_people_landed_by_a_bot_are_not(repo):
    ship = ("Facebook GitHub Bot", "facebook-github-bot@users.noreply.github.com")
    codesync = ("meta-codesync[bot]", "215208954+meta-codesync[bot]@users.noreply.github.com")
    dates = iter(datetime(2025, 2, 1, tzinfo=timezone.utc) + timedelta(hours=h) for h in range(100))

    def land(author, committer, n):
        return repo.git.commit(f"sync {n}", author=author, committer=committer, date=next(dates),
                               files={"log.txt": f"{n}\n"})

    sync = land(("svc8731234", "svc8731234@corp.example"), codesync, 1)
    land(("svc8731234", "svc8731234@corp.example"), ship, 2)
    human = land(("Xu Zhao", "xzhao9@fb.com"), ship, 3)
    # a machine-like handle that commits for itself is not a sync account
    handle = land(("dev4242424", "dev4242424@example.com"), ("dev4242424", "dev4242424@example.com"), 4)
    raw = repo.raw()
    people, idmap = resolve_people(raw)
    owners = person_of(raw, idmap)
    flag = dict(people.select("person_id", "is_bot").iter_rows())
    assert flag[owners[sync]] is True
    assert flag[owners[human]] is False
    assert flag[owners[handle]] is False


def test_employer_tags_leave_display_names_and_ids(repo):
    a = repo.commit(("William Wen (Meta Employee)", "williamwen@meta.com"))
    repo.commit(("William Wen (Meta Employee)", "williamwen@meta.com"))
    repo.commit(("William Wen", "williamwen@meta.com"))
    b = repo.commit(("Animesh Jain (Meta Employee)", "anijain@umich.edu"))
    c = repo.commit(("Ann Lee [Acme employee]", "ann@acme.example"))
    d = repo.commit(("David Kemp (Work)", "dkemp@media.example"))
    e = repo.commit(("Tim Sweña (Swast)", "tswast@example.com"))  # a handle, not a tag
    f = repo.commit(("Paul (xobb) Chubatyy", "xobb@example.com"))
    raw = repo.raw()
    people, idmap = resolve_people(raw)
    owners = person_of(raw, idmap)
    by_id = {r["person_id"]: r for r in people.iter_rows(named=True)}
    assert owners[a] == "william-wen" and by_id["william-wen"]["display_name"] == "William Wen"
    assert by_id["william-wen"]["names"] == ["William Wen"]
    assert owners[b] == "animesh-jain" and by_id["animesh-jain"]["display_name"] == "Animesh Jain"
    assert by_id[owners[c]]["display_name"] == "Ann Lee"
    assert owners[d] == "david-kemp" and by_id["david-kemp"]["display_name"] == "David Kemp"
    assert by_id[owners[e]]["display_name"] == "Tim Sweña (Swast)"
    assert by_id[owners[f]]["display_name"] == "Paul (xobb) Chubatyy"
    # the tag never joins two people: same name, different e-mail stays apart
    assert len(people) == 6


def test_an_organisation_tag_named_by_the_own_email_domain_is_dropped(repo):
    a = repo.commit(("Bo Li (Red Hat Inc.)", "boli@redhat.example"))
    repo.commit(("Bo Li", "boli@redhat.example"))
    b = repo.commit(("Cara Diaz [Globex]", "cdiaz@mail.globex.example"))
    c = repo.commit(("Dee Moss (Globex)", "dee@gmail.example"))  # not her e-mail's organisation
    d = repo.commit(("Eli (eli)", "eli@eli.example"))  # too short to tell from a handle
    raw = repo.raw()
    people, idmap = resolve_people(raw)
    owners = person_of(raw, idmap)
    by_id = {r["person_id"]: r for r in people.iter_rows(named=True)}
    assert owners[a] == "bo-li" and by_id["bo-li"]["names"] == ["Bo Li"]
    assert by_id[owners[b]]["display_name"] == "Cara Diaz"
    assert by_id[owners[c]]["display_name"] == "Dee Moss (Globex)"
    assert by_id[owners[d]]["display_name"] == "Eli (eli)"


def test_a_mailto_prefix_is_no_part_of_the_address(repo):
    """elinks: `mailto:bicave@superonline.com` was another person than bicave@superonline.com."""
    repo.commit(("Bicave", "mailto:bicave@superonline.com"))
    repo.commit(("Bicave", "bicave@superonline.com"))
    people, _ = resolve_people(repo.raw())
    assert people.height == 1


def test_the_display_name_is_the_real_name_used_for_work_not_the_merging_handle(repo):
    """pallets: 'Rowlando13' (9 commits, 240 merges clicked on GitHub) was shown for Eddie
    Girling; redis: 'yoav-steinberg' (49) for Yoav Steinberg (6)."""
    for _ in range(3):
        repo.commit(("Eddie Girling", "eddie@example.com"))
    for _ in range(5):
        repo.commit(("Rowlando13", "eddie@example.com"))
    repo.git.branch("side", checkout=True)
    repo.commit(("Eddie Girling", "eddie@example.com"))
    repo.git.checkout("main")
    for i in range(3):  # merges clicked through under the account's handle
        repo.git.branch(f"topic{i}", checkout=True)
        repo.commit(("Ann Other", "ann@example.com"))
        repo.git.checkout("main")
        repo.git.merge(f"topic{i}", f"Merge pull request #{i + 1} from ann/topic{i}", author=("Rowlando13", "eddie@example.com"))
    people = people_by_email(resolve_people(repo.raw())[0])
    assert people["eddie@example.com"]["display_name"] == "Eddie Girling"


def test_one_commit_naming_two_addresses_of_one_real_name_joins_them(repo):
    """Author and committer with one real name and two addresses, or an author's own
    `Co-authored-by:` trailer with another address, make one person, when the other address
    authored under that name too; a one-word handle, a namesake trailer, a committer who never
    authored, and someone else's trailer join nothing."""
    work = repo.git.commit("work address", author=("Sam Smith", "sam@work.example.com"),
                           files={"a.txt": "1\n"})
    home = repo.git.commit("home address, applying the work patch", author=("Sam Smith", "sam@work.example.com"),
                           committer=("Sam Smith", "sam@home.example.com"), files={"a.txt": "2\n"})
    own = repo.git.commit("own commit from home", author=("Sam Smith", "sam@home.example.com"), files={"a.txt": "3\n"})
    squash = repo.git.commit("Squashed pull request (#7)\n\nCo-authored-by: Ann Lee <ann@laptop.example.com>\n",
                             author=("Ann Lee", "ann@desk.example.com"), files={"b.txt": "1\n"})
    laptop = repo.git.commit("laptop", author=("Ann Lee", "ann@laptop.example.com"), files={"b.txt": "2\n"})
    pair = repo.git.commit("pairing\n\nCo-authored-by: Dee Young <dee@example.com>\n",
                           author=("Cy Young", "cy@example.com"), files={"c.txt": "1\n"})
    dee = repo.git.commit("dee", author=("Dee Young", "dee@example.com"), files={"c.txt": "2\n"})
    handle = repo.git.commit("handle", author=("dev", "dev@one.example.com"),
                             committer=("dev", "dev@two.example.com"), files={"d.txt": "1\n"})
    handle2 = repo.git.commit("handle 2", author=("dev", "dev@two.example.com"), files={"d.txt": "2\n"})
    lone = repo.git.commit("committed from an address that authored nothing", author=("Bo Li", "bo@one.example.com"),
                           committer=("Bo Li", "bo@ci.example.com"), files={"e.txt": "1\n"})
    raw = repo.raw()
    people, idmap = resolve_people(raw)
    owners = person_of(raw, idmap)
    assert owners[work] == owners[home] == owners[own] == "sam-smith"
    assert owners[squash] == owners[laptop] == "ann-lee"
    assert owners[pair] != owners[dee]
    assert owners[handle] != owners[handle2]
    by_email = people_by_email(people)
    assert set(by_email["sam@work.example.com"]["emails"]) == {"sam@work.example.com", "sam@home.example.com"}
    assert by_email["bo@one.example.com"]["emails"] == ["bo@one.example.com"]
    assert owners[lone] == "bo-li"
    assert people.height == 7  # Sam, Ann, Cy, Dee, the two handles, Bo


def test_a_handle_committed_by_its_own_github_account_joins_it(repo):
    """bat: 390 commits of `sharkdp <davidpeter@web.de>` were committed by `David Peter
    <sharkdp@users.noreply.github.com>`, an address that authored commits too: the login is the
    handle, one commit names both addresses, one person. A login that only commits, or an
    address that stands for nobody (`no-reply@hidden`), joins nothing."""
    github = ("David Peter", "sharkdp@users.noreply.github.com")
    handle = repo.git.commit("work", author=("sharkdp", "davidpeter@web.de"), committer=github, files={"a.txt": "1\n"})
    own = repo.git.commit("own", author=github, files={"a.txt": "2\n"})
    lone = repo.git.commit("committed by a login that authored nothing", author=("mika", "mika@example.com"),
                           committer=("Mika", "mika@users.noreply.github.com"), files={"b.txt": "1\n"})
    hidden = repo.git.commit("hidden", author=("kim", "no-reply@hidden"),
                             committer=("Kim Park", "kim@users.noreply.github.com"), files={"c.txt": "1\n"})
    kim = repo.git.commit("kim", author=("Kim Park", "kim@users.noreply.github.com"), files={"c.txt": "2\n"})
    raw = repo.raw()
    people, idmap = resolve_people(raw)
    owners = person_of(raw, idmap)
    assert owners[handle] == owners[own] == "david-peter"
    assert owners[lone] == "mika"
    assert owners[hidden] != owners[kim]
    assert set(people_by_email(people)["davidpeter@web.de"]["emails"]) == {"davidpeter@web.de", "sharkdp@users.noreply.github.com"}
