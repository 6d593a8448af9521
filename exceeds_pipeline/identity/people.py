"""One person per human, across every repository (SPEC §5 Identity).

Identities are joined, in this order of evidence:
1. `.mailmap` (applied by git itself: commits carry `mailmap_email`), and the raw->mapped pairs it
   produced in any repository also join that raw e-mail elsewhere;
2. e-mail equality, case-insensitive;
3. GitHub noreply addresses with the same numeric id or login
   (`123+login@users.noreply.github.com` and `login@users.noreply.github.com`);
   and one commit that names two addresses under one real name: its author and its committer
   (`Victor Zverovich <viz@fb.com>` committed by `Victor Zverovich <...@gmail.com>`), or its
   author and a `Co-authored-by:` trailer of the author's own name (GitHub writes one for each
   address a squashed pull request's commits were made with), when the other address authored
   commits under that name too, or a handle committed by its own account's noreply address
   (`sharkdp <davidpeter@web.de>` committed by `<sharkdp@users.noreply.github.com>`), when that
   address authored commits too (:func:`_self_links`);
4. the config's `identities` (explicit e-mail lists with a chosen id).
A name alone never joins two identities (in 3, one commit pairs the two addresses). Commits
without any e-mail are keyed by name, kept apart from every identity that has an e-mail.

Display names are the most used name after removing employer tags such as "(Meta Employee)"
(:func:`display_name_expr`, patterns in ``names.yaml``) and an "(Org)" that names the
organisation of the author's own e-mail domain (:func:`without_domain_tag_expr`); tags never
join or split identities.
Person ids are slugs of the display name (the most used name), made unique with a short hash of
the person's first e-mail when two people share a name; config identities keep their own id.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

import polars as pl


from exceeds_pipeline.common.union_find import UnionFind
from exceeds_pipeline.common.yamlfile import load_yaml
from exceeds_pipeline.identity.bots import compile_patterns, is_bot_identity, is_sync_account

_NAMES_DATA = load_yaml(Path(__file__).with_name("names.yaml"))
EMPLOYER_TAGS: tuple[str, ...] = tuple(_NAMES_DATA["employer_tags"])

_NOREPLY = re.compile(r"^(?:(\d+)\+)?([^@]+)@users\.noreply\.github\.com$", re.IGNORECASE)
_COAUTHOR = r"(?im)^[ \t]*co-authored-by:[ \t]*([^<\n]*?)[ \t]*<([^>\n]*)>"
# A real name: two words or more with letters ("Yoav Steinberg"), not a handle ("dev", "root").
_REAL_NAME = r"\pL\S*\s+\S*\pL"

PEOPLE_SCHEMA = {
    "person_id": pl.String,
    "display_name": pl.String,
    "emails": pl.List(pl.String),
    "names": pl.List(pl.String),
    "is_bot": pl.Boolean,
    "commits": pl.Int64,
    "first_at": pl.Datetime("us", "UTC"),
    "last_at": pl.Datetime("us", "UTC"),
}
IDENTITY_MAP_SCHEMA = {"identity_key": pl.String, "person_id": pl.String}


@dataclass(frozen=True)
class ConfiguredIdentity:
    id: str
    name: str | None
    emails: tuple[str, ...]


_ASCII_LETTERS = str.maketrans(_NAMES_DATA["ascii_letters"])


def slugify(text: str, max_len: int = 60) -> str:
    """Lower-case ASCII words joined by '-': safe as a file name on every system."""
    ascii_text = unicodedata.normalize("NFKD", text.translate(_ASCII_LETTERS)).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")
    return slug[:max_len].strip("-")


def display_name_expr(column: str = "mailmap_name") -> pl.Expr:
    """The name without employer tags (``names.yaml``), blanks collapsed; null stays null."""
    expr = pl.col(column)
    for tag in EMPLOYER_TAGS:
        expr = expr.str.replace_all(f"(?i){tag}", "")
    return expr.str.replace_all(r"\s+", " ").str.strip_chars()


def without_domain_tag_expr(name: str = "mailmap_name", email: str = "mailmap_email") -> pl.Expr:
    """The name without a trailing "(Org)" / "[Org]" that names the organisation of the
    author's own e-mail domain ("Ann Lee (Acme)" with ann@acme.com, "Bo Li (Red Hat Inc.)" with
    bo@redhat.com): an employer tag with no telltale word, told from a nickname by the e-mail.
    A tag equal to the address's local part is the person's handle and stays."""
    parts = pl.col(name).cast(pl.String).str.extract_groups(r"^(.*\S)[ \t]*[(\[]([^()\[\]]+)[)\]][ \t]*$")
    tag = parts.struct.field("2").str.to_lowercase().str.replace(
        r"[ \t,]+(?:inc|llc|ltd|limited|corp|corporation|company|co|gmbh|ag|sa|bv|plc)\.?$", "")
    whole = tag.str.replace_all(r"[^a-z0-9]+", "")
    first = tag.str.extract(r"^\W*([a-z0-9]+)", 1)
    address = pl.col(email).cast(pl.String).str.to_lowercase()
    labels = "." + address.str.extract(r"@(.+)\.[^.]+$", 1) + "."  # the domain without its TLD
    handle = address.str.extract(r"^([^@]+)@", 1).str.replace_all(r"[^a-z0-9]+", "")
    matches = ((labels.str.contains("." + whole + ".", literal=True)
                | labels.str.contains("." + first + ".", literal=True))
               & (first.str.len_chars() >= 3) & (whole != handle))  # "(eli)" of eli@eli.dev: a handle
    return pl.when(matches.fill_null(False)).then(parts.struct.field("1")).otherwise(pl.col(name))


def identity_key_expr() -> pl.Expr:
    """Key a commit's author by lower-cased mailmapped e-mail (by name when there is none); a
    `mailto:` some tools wrote before the address is no part of it (elinks)."""
    email = pl.col("mailmap_email").str.strip_chars().str.to_lowercase().str.strip_prefix("mailto:")
    return (
        pl.when(email.is_null() | (email == ""))
        .then(pl.lit("name:") + pl.col("mailmap_name").str.strip_chars())
        .otherwise(email)
    )


def _plain_name(expr: pl.Expr) -> pl.Expr:
    return expr.str.to_lowercase().str.replace_all(r"\s+", " ").str.strip_chars()


# An address that stands for nobody in particular (`no-reply@hidden`, `none@none`): anyone's.
_PLACEHOLDER = r"(?i)^(?:no-?reply|none|nobody|unknown|invalid)@|@(?:hidden|localhost|none|invalid|unknown)$"


def _login(address: pl.Expr) -> pl.Expr:
    """The GitHub login of a noreply address (`123+sharkdp@users.noreply.github.com`), else null."""
    return address.str.to_lowercase().str.extract(r"^(?:\d+\+)?([^@]+)@users\.noreply\.github\.com$", 1)


def _handle(name: pl.Expr) -> pl.Expr:
    """A name that is one word, as a login is (`sharkdp`)."""
    return name.str.contains(r"^[a-z0-9][a-z0-9-]*$")


def _self_links(keyed: pl.LazyFrame, names: pl.DataFrame, raw_to_keys: dict[str, set[str]],
                key_set: set[str]) -> list[tuple[str, str]]:
    """(identity key, identity key) pairs that one commit names as one real name: the author and
    the committer, or the author and a co-author trailer, with the same name of two words or more
    and different addresses, the other address an author's under that same name (so a trailer
    or a committer that never authored anything joins nothing); or one side's name is the login
    of the other side's GitHub noreply address, an author's address too. An address that several
    identities share (a mailmap splitting it by name) joins nothing; bots join nothing."""
    columns = keyed.collect_schema().names()
    sides = []
    if {"committer_name", "committer_email"} <= set(columns):
        sides.append(keyed.select("identity_key", "mailmap_name", pl.col("committer_name").alias("_other_name"),
                                  pl.col("committer_email").alias("_other_email")))
    if "message" in columns:
        sides.append(
            keyed.filter(pl.col("message").str.contains("(?i)co-authored-by"))
            .select("identity_key", "mailmap_name", pl.col("message").str.extract_all(_COAUTHOR).alias("_trailer"))
            .explode("_trailer", empty_as_null=False)
            .select("identity_key", "mailmap_name",
                    pl.col("_trailer").str.extract(_COAUTHOR, 1).alias("_other_name"),
                    pl.col("_trailer").str.extract(_COAUTHOR, 2).alias("_other_email")))
    if not sides:
        return []
    pairs = (
        pl.concat(sides)
        .with_columns(_plain_name(pl.col("mailmap_name")).alias("_name"),
                      _plain_name(display_name_expr("_other_name")).alias("_other"),
                      pl.col("_other_email").str.strip_chars().str.to_lowercase().str.strip_prefix("mailto:")
                      .alias("_address"))
        # ... or a GitHub handle and its own account's noreply address: bat's `sharkdp
        # <davidpeter@web.de>` commits, 390 of them committed by `David Peter
        # <sharkdp@users.noreply.github.com>` (one commit, two addresses, the login the name)
        .with_columns(((_handle(pl.col("_name")) & (_login(pl.col("_address")) == pl.col("_name")))
                       | (_handle(pl.col("_other")) & (_login(pl.col("identity_key")) == pl.col("_other")))).alias("_by_login"))
        .filter(((pl.col("_name") == pl.col("_other")) & pl.col("_name").str.contains(_REAL_NAME) | pl.col("_by_login"))
                & (pl.col("_address") != pl.col("identity_key")) & (pl.col("_address") != ""))
        .group_by("identity_key", "_name", "_address").agg(pl.col("_by_login").any()).collect()
    )
    if pairs.height == 0:
        return []
    authored: dict[str, set[str]] = {}
    for key, name in names.select("identity_key", _plain_name(pl.col("mailmap_name"))).iter_rows():
        if name:
            authored.setdefault(key, set()).add(name)
    links = []
    for key, name, address, by_login in pairs.select("identity_key", "_name", "_address", "_by_login").iter_rows():
        others = raw_to_keys.get(address, set()) | ({address} if address in key_set else set())
        if len(others) != 1 or is_bot_identity(name, address) or is_bot_identity(name, key) \
                or re.search(_PLACEHOLDER, address) or re.search(_PLACEHOLDER, key):
            continue
        other = next(iter(others))
        if other != key and (name in authored.get(other, ()) or (by_login and authored.get(other))):
            links.append((key, other))
    return links


def resolve_people(
    commits: pl.DataFrame | pl.LazyFrame,
    identities: list[ConfiguredIdentity] = (),
    bot_patterns: list[str] = (),
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """(people, identity_map) from raw commits of all repositories.

    `identity_map` maps every identity key (see identity_key_expr) to its person_id.
    """
    lf = commits.lazy() if isinstance(commits, pl.DataFrame) else commits
    # Per distinct identity: how often each name is used, when, and which raw e-mails map to it.
    keyed = lf.with_columns(
        identity_key_expr().alias("identity_key"),
        pl.col("author_email").str.strip_chars().str.to_lowercase().alias("raw_email"),
    ).with_columns(display_name_expr().alias("mailmap_name")).with_columns(
        without_domain_tag_expr().alias("mailmap_name"))
    merge = pl.col("is_merge").fill_null(False) if "is_merge" in lf.collect_schema().names() else pl.lit(False)
    names = (
        keyed.group_by("identity_key", "mailmap_name")
        .agg(pl.len().alias("n"), (~merge).sum().alias("n_work"), pl.col("authored_at").max().alias("last"))
        .collect()
    )
    keys = (
        keyed.group_by("identity_key")
        .agg(
            pl.len().alias("commits"),
            pl.col("authored_at").min().alias("first_at"),
            pl.col("authored_at").max().alias("last_at"),
            pl.col("raw_email").unique().alias("raw_emails"),
        )
        .collect()
    )
    # The names as written (before the .mailmap): a real name there stands in for a handle the
    # .mailmap gives every commit (hugo maps 'Bjørn Erik Pedersen' to 'bep').
    written = (
        keyed.with_columns(display_name_expr("author_name").alias("_written"))
        .with_columns(without_domain_tag_expr("_written", "author_email").alias("_written"))
        .group_by("identity_key", "_written")
        .agg(pl.len().alias("n"), (~merge).sum().alias("n_work"), pl.col("authored_at").max().alias("last"))
        .filter(pl.col("_written").fill_null("").str.contains(_REAL_NAME))
        .rename({"_written": "mailmap_name"})
        .collect()
    )
    committers = keyed.select(
        "identity_key",
        pl.col("committer_name").fill_null("").alias("_cn"),
        pl.col("committer_email").fill_null("").alias("_ce"),
    ).unique().collect()
    pairs = committers.select("_cn", "_ce").unique()
    pair_bot = pairs.with_columns(
        pl.Series("_cbot", [is_bot_identity(n, e) for n, e in pairs.iter_rows()], dtype=pl.Boolean)
    )
    bot_committed = dict(
        committers.join(pair_bot, on=["_cn", "_ce"], how="left")
        .group_by("identity_key").agg(pl.col("_cbot").all())
        .iter_rows()
    )
    if keys.height == 0:
        return pl.DataFrame(schema=PEOPLE_SCHEMA), pl.DataFrame(schema=IDENTITY_MAP_SCHEMA)

    uf = UnionFind()
    all_keys = keys["identity_key"].to_list()
    key_set = set(all_keys)
    for key in all_keys:
        uf.find(key)
    # 1. mailmap pairs seen in any repository join the raw e-mail wherever it appears unmapped,
    #    unless the mailmap sends that address to several people (a shared address told apart
    #    by commit name, like `dev@company.com`): then it says nothing about who is who.
    raw_to_keys: dict[str, set[str]] = {}
    for key, raw_emails in zip(all_keys, keys["raw_emails"].to_list()):
        for raw in raw_emails or ():
            if raw:
                raw_to_keys.setdefault(raw, set()).add(key)
    for raw, mapped_keys in raw_to_keys.items():
        mapped = mapped_keys - {raw}
        if raw in key_set and len(mapped) == 1:
            uf.union(next(iter(mapped)), raw)
    # 3. GitHub noreply ids and logins.
    github: dict[str, str] = {}
    for key in all_keys:
        m = _NOREPLY.match(key)
        if m:
            for token in (f"gh-id:{m.group(1)}" if m.group(1) else None, f"gh-login:{m.group(2).lower()}"):
                if token:
                    if token in github:
                        uf.union(github[token], key)
                    else:
                        github[token] = key
    #    One commit naming two addresses of one real name (author and committer, or author and
    #    an own co-author trailer): one human, not two namesakes.
    for key, other in _self_links(keyed, names, raw_to_keys, key_set):
        uf.union(key, other)
    # 4. Config identities.
    forced: dict[str, ConfiguredIdentity] = {}
    for ident in identities:
        emails = [e.strip().lower() for e in ident.emails]
        for e in emails:
            uf.find(e)
            for key in raw_to_keys.get(e, ()):  # an address as committed, before the mailmap
                uf.union(e, key)
        for e in emails[1:]:
            uf.union(emails[0], e)
        forced[uf.find(emails[0])] = ident
    forced = {uf.find(root): ident for root, ident in forced.items()}

    clusters = pl.DataFrame(
        {"identity_key": all_keys, "cluster": [uf.find(k) for k in all_keys]}
    )
    stats = keys.join(clusters, on="identity_key")
    name_stats = names.join(clusters, on="identity_key")
    # The most used real name: a name of two words or more ("Yoav Steinberg") before a handle
    # ("yoav-steinberg", "Rowlando13"), then the name of the most commits of work (the merges a
    # maintainer clicks through on GitHub carry the account's handle), then of all commits. A
    # real name the .mailmap gives comes first; one written in the commits only where the
    # .mailmap gives none.
    by_name = ["cluster", "mailmap_name"]
    agg = [pl.col("n").sum(), pl.col("n_work").sum(), pl.col("last").max()]
    mapped = name_stats.group_by(by_name).agg(*agg).with_columns(
        pl.col("mailmap_name").fill_null("").str.contains(_REAL_NAME).alias("_real"), pl.lit(True).alias("_mapped"))
    as_written = written.join(clusters, on="identity_key").group_by(by_name).agg(*agg).with_columns(
        pl.lit(True).alias("_real"), pl.lit(False).alias("_mapped"))
    ranked = pl.concat([mapped, as_written], how="diagonal_relaxed").sort(
        ["cluster", "_real", "_mapped", "n_work", "n", "last", "mailmap_name"],
        descending=[False, True, True, True, True, True, False])
    best_names = ranked.group_by("cluster", maintain_order=True).agg(
        pl.col("mailmap_name").first().alias("display_name"),
        pl.col("mailmap_name").filter(pl.col("_mapped")).alias("names"),
        # a bot goes by its most used name: hugo's `hugoreleaser` (976 commits), not the owner's
        # real name on 7 of them
        pl.col("mailmap_name").sort_by(pl.col("_mapped").cast(pl.Int64) * pl.col("n"), descending=True, maintain_order=True)
        .first().alias("_most_used"))
    people = (
        stats.group_by("cluster")
        .agg(
            pl.col("identity_key").sort().alias("keys"),
            pl.col("identity_key").replace_strict(bot_committed, default=False, return_dtype=pl.Boolean)
            .all().alias("_bot_committed"),
            pl.col("raw_emails").list.explode(keep_nulls=False, empty_as_null=False).unique().sort().alias("raw_emails"),
            pl.col("commits").sum(),
            pl.col("first_at").min(),
            pl.col("last_at").max(),
        )
        .join(best_names, on="cluster", how="left")
        .sort(["first_at", "cluster"])
    )

    patterns = compile_patterns(bot_patterns)
    rows = []
    for row in people.iter_rows(named=True):  # one row per person, not per commit
        ident = forced.get(row["cluster"])
        emails = sorted(
            {k for k in row["keys"] if not k.startswith("name:")} | {e for e in row["raw_emails"] or () if e}
        )
        is_bot = (
            any(is_bot_identity(n or "", "", patterns) for n in row["names"] or ())
            or any(is_bot_identity("", e, patterns) for e in emails)
            or is_sync_account(row["names"] or (), row["_bot_committed"])
        )
        display = (ident.name if ident and ident.name else None) or (
            row["_most_used"] if is_bot else row["display_name"]) or row["display_name"] or (
            emails[0].split("@")[0] if emails else "unknown"
        )
        rows.append((row, ident, emails, display, is_bot))

    taken = {ident.id for ident in forced.values()}
    ids: list[str] = []
    for row, ident, emails, display, _ in rows:
        if ident:
            ids.append(ident.id)
            continue
        base = slugify(display) or slugify(emails[0].split("@")[0] if emails else "") or "person"
        pid = base
        if pid in taken:
            seed = emails[0] if emails else row["keys"][0]
            pid = f"{base}-{hashlib.sha1(seed.encode()).hexdigest()[:6]}"
        taken.add(pid)
        ids.append(pid)

    people_df = pl.DataFrame(
        {
            "person_id": ids,
            "display_name": [r[3] for r in rows],
            "emails": [r[2] for r in rows],
            "names": [sorted(set(n for n in (r[0]["names"] or ()) if n)) for r in rows],
            "is_bot": [r[4] for r in rows],
            "commits": [r[0]["commits"] for r in rows],
            "first_at": [r[0]["first_at"] for r in rows],
            "last_at": [r[0]["last_at"] for r in rows],
        },
        schema=PEOPLE_SCHEMA,
    )
    cluster_to_id = pl.DataFrame({"cluster": [r[0]["cluster"] for r in rows], "person_id": ids})
    identity_map = clusters.join(cluster_to_id, on="cluster").select("identity_key", "person_id")
    return people_df, identity_map.sort("identity_key")
