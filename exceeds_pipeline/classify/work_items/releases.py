"""Release steps: which commits make or prepare a release, the relation that joins one release's
steps, and a release item's title.
"""

from __future__ import annotations

from datetime import timedelta

import polars as pl

from exceeds_pipeline.classify.categories import (
    BUILD_PATH, DOCS_PATH, LEADING_MARK, PACKAGING_PATH, REBUILT_FILES, RELEASE_TITLE, carries_code, code_lines, release_subject,
    without_release_type,
)
from exceeds_pipeline.classify.changelog import CHANGELOG_PATH
from exceeds_pipeline.classify.work_items.shared import (
    CLOSING_REFS, DECLARED_TYPE, GENERIC_FILES, PACKAGE_MANIFEST, PR_SUFFIX, VERSION_FILE, _consecutive_pairs, dependency_update,
)
from exceeds_pipeline.enrich.exclusions import excluded_as

# A bump named by the word alone, of the project's version file only, makes a release: Mike
# Perham's `bump`, `bump, release`, `bump [ciskip]` set lib/sidekiq/version.rb (60 + 13 of them).
BARE_BUMP = (r"(?i)^\W*bump(?:s|ed)?(?:\s*(?:,|and)\s*(?:release|prep(?:are)?(?:\s+for\s+release)?|changes)!?)?"
             r"\W*(?:\[\s*ci\s*skip\s*\]|\[ciskip\])?\W*$")


# The project's version set, said as an update to it alone (Newtonsoft.Json's `Update to
# 13.0.4`, the commit tagged 13.0.4) or as its prerelease label dropped (`Remove prerelease for
# 13.0.3`, tagged 13.0.3): a release when it changes only the version's files and build files
# (a dependency is named before `to`: `Update mocha to 10.2.0`).
UPDATE_TO_VERSION = (r"(?i)^\W*(?:(?:update[sd]?|set|change[sd]?)\s+to|remove[sd]?\s+(?:the\s+)?pre-?release(?:\s+(?:suffix|label|tag))?\s+(?:for|from))"
                     r"\s+v?\d+(?:\.\d+)+(?:[-+.]?[0-9a-z][0-9a-z.+-]*)?[.!]?\s*(?:\(#\d+\))?\s*$")


# A subject worded as a repair or a revert, after a type (`fix(deps): ...`, `ci: fix the
# playground build`, `Revert "..."`).
REPAIR_OR_REVERT = (rf"(?i){DECLARED_TYPE}(?:fix(?:e[sd]|ing)?|repair(?:s|ed)?|revert(?:s|ed)?)\b"
                    r"|^\W*(?:fix|revert)(?:\([^)\n]*\))?!?:")


def makes_release() -> pl.Expr:
    """The commit's subject makes a release (categories.release_subject)."""
    return release_subject(pl.col("subject"))


# A document a release updates beside its notes: who to thank, the list of versions (curl's
# docs/THANKS, docs/VERSIONS.md).
RELEASE_RECORD = r"(?i)(?:^|/)(?:THANKS|CREDITS|VERSIONS)(?:\.[a-z]+)?$"
# Words of a subject that speaks of dependencies (`Bump quasi and aster dependencies`, `go.mod:
# Upgrade CertMagic and quic-go`): a tagged commit so worded is a change of its own.
DEPENDENCY_WORDS = r"(?i)\b(?:dependenc(?:y|ies)|deps?|upgrade[sd]?|versions?\s+of)\b"
# A tag that marks a pre-release (`v2.12.0-rc0`, curl's `rc-8_22_0-1`, `1.0.0-beta.2`): alone it
# makes no release of the commit it points at.
PRERELEASE_TAG = r"(?i)(?:^|[^a-z])(?:rc|alpha|beta|pre|preview|dev|nightly|snapshot|canary)\.?\d*(?:[^a-z]|$)"
# A tag's version, digits joined by dots or underscores (curl's `curl-8_21_0`), with what comes
# before it (a package: ripgrep's `grep-cli-0.1.10`).
_TAG_VERSION = r"^(.*?)[-_@/ ]?[vV]?(\d+(?:[._]\d+)+(?:-\d+)?)$"


def tag_release_name(tag: pl.Expr, repo: pl.Expr) -> pl.Expr:
    """What a version tag releases, written as a release subject (`curl-8_21_0` of curl/curl ->
    `8.21.0`, `grep-cli-0.1.10` -> `grep-cli 0.1.10`, `v3.25.56` -> `3.25.56`); null for a tag that
    names no version or a pre-release."""
    parts = tag.str.extract_groups(_TAG_VERSION)
    version = parts.struct.field("2").str.replace_all("_", ".")
    package = parts.struct.field("1").str.strip_chars("-_@/ ")
    own = (package == "") | package.str.to_lowercase().is_in(["v", "release", "rel", "version"]) \
        | (package.str.to_lowercase() == repo.str.extract(r"([^/]+)$", 1).str.to_lowercase())
    return (pl.when(tag.str.contains(PRERELEASE_TAG) | version.is_null()).then(pl.lit(None, pl.String))
            .when(own).then(version).otherwise(pl.concat_str(package, pl.lit(" "), version)))


def release_flags(work: pl.DataFrame, file_changes: pl.DataFrame | None, tags: pl.DataFrame | None = None) -> pl.DataFrame:
    """`work` with `_release` (its subject makes a release, or it is a bare `bump` of the version
    file alone: BARE_BUMP), `_release_step` (that, or it
    changes only changelogs, package manifests, lock files and version files: GENERIC_FILES,
    and is not a dependency update the changelog lists as a change of its own: express's
    `deps: qs@6.9.7` with its line in History.md, the night before 4.17.3; ripgrep's `deps:
    update everything` of Cargo.lock on release day is a step; or it opens the next version,
    NEXT_SECTION, in such files or build files: okhttp's `Prepare next development version.`
    sets the SNAPSHOT version in a Gradle convention plugin)
    and `_release_dir`: the one top-level folder all its files are in when it changes the
    package manifest at its top (sinatra's `v1.4.0` of rack-protection/ with
    rack-protection/rack-protection.gemspec: a release of rack-protection, not of Sinatra),
    and `_opening`: its subject sets a development version (`This is 7.0-dev`, `Prep
    0.14-dev`), which opens the next release and makes none: a step, not a release.

    `tags` (repo, sha, tag): a commit a version tag points at (`tag_release_name`) that changes
    only the release's records (changelogs, manifests, lock and version files, RELEASE_RECORD:
    curl's RELEASE-NOTES with docs/VERSIONS.md or docs/THANKS; documents such as the README beside
    them, not alone), and is no dependency update, feature or fix, is a release too, though its
    subject names none (curl's releases are tagged on `RELEASE-NOTES: synced`: its profile had
    read "60 releases, the latest 7.64.1" in 2026); so is the last such record before a tag on a
    change (`_with_anchored_tags`). `_release_name` is what a release is named from: the
    subject, or else the tag."""
    tags = _version_tags(tags)
    work = _with_tag_name(work, tags)
    work = work.with_columns(makes_release().alias("_makes"),  # (read once: a long pattern)
                             _versions(_tag_version(pl.col("_tag_name"))).list.first().alias("_tag_v"))
    makes = pl.col("_makes")
    opening = makes & pl.col("subject").fill_null("").str.contains(DEV_VERSION)
    release = makes & ~opening
    work = work.with_columns(opening.alias("_opening"))
    if file_changes is None or file_changes.height == 0:
        return _with_post_release(work.with_columns(
            release.alias("_release"), makes.alias("_release_step"), pl.lit(None, pl.String).alias("_release_dir"),
            pl.lit(None, pl.UInt64).alias("_paths"), pl.col("subject").alias("_release_name")).drop("_makes", "_tag_name"))
    path = pl.col("path").fill_null("")
    top = path.str.extract(r"^([^/]+)/", 1)
    # the top-level folders that hold a package of their own (a manifest at their top): a release
    # commit of files in one of them releases that package, its manifest changed or not
    # (sinatra's `v1.1.0` of rack-protection/README.md alone had been a second "Release 1.1.0"
    # of Sinatra)
    package_dirs = (file_changes.filter(path.str.contains(PACKAGE_MANIFEST) & path.str.count_matches("/").eq(1))
                    .select("repo", top.alias("_top")).unique().with_columns(pl.lit(True).alias("_package_dir")))
    steps = (
        file_changes.with_columns(top.alias("_top")).join(package_dirs, on=["repo", "_top"], how="left")
        .select("repo", "sha", pl.col("_package_dir").fill_null(False), path.str.contains(GENERIC_FILES).alias("_g"), "_top",
                            path.str.contains(BUILD_PATH).alias("_b"),
                            path.str.contains(CHANGELOG_PATH).alias("_changelog"), path.str.contains(RELEASE_RECORD).alias("_record"),
                            path.str.contains(DOCS_PATH).alias("_document"),
                            excluded_as(file_changes, "generated", "binary").alias("_built"),
                            path.alias("_path"))
        .group_by("repo", "sha").agg(
            pl.col("_g").all().alias("_only_records"),
            pl.col("_path").str.contains(VERSION_FILE).all().alias("_only_version"),
            # (a file that holds the project's version: not Go's go.mod, which holds none)
            (pl.col("_path").str.contains(VERSION_FILE) | (pl.col("_path").str.contains(PACKAGE_MANIFEST)
                                                          & ~pl.col("_path").str.contains(r"(?:^|/)go\.mod$"))).any().alias("_versioned"),
            pl.col("_changelog").all().alias("_only_changelog"),
            # (with the README's install lines, the man page's version and the release checklist,
            # but not documents alone)
            ((pl.col("_g") | pl.col("_changelog") | pl.col("_record") | pl.col("_document")).all()
             & (pl.col("_g") | pl.col("_changelog") | pl.col("_record")).any()).alias("_only_notes"),
            pl.col("_path").str.contains(PACKAGING_PATH).all().alias("_only_packaging"),
            pl.col("_built").all().alias("_only_built"),
            pl.col("_path").str.contains(RELEASE_CHECKLIST).all().alias("_only_checklist"),
            (pl.col("_g") | pl.col("_b")).all().alias("_only_build"),
            pl.col("_changelog").any().alias("_announced"),
            pl.col("_path").sort().str.join("\n").hash().alias("_paths"),
            pl.when((pl.col("_top").n_unique() == 1) & pl.col("_top").is_not_null().all() & pl.col("_package_dir").any())
            .then(pl.col("_top").first()).alias("_release_dir"))
    )
    # A package at its version (`ripgrep 14.1.1`, `grep-cli-0.1.10`, `create-vite@5.2.1`) is a
    # release of this repository's code only when it is the repository or a folder the commit
    # touches; else a dependency at its version (babashka's `Jline 4.3.1` of deps.edn and
    # project.clj: 25 of Michiel Borkent's 246 "releases").
    # (read only for the commits whose subject names a package at its version: few)
    named = (work.filter(makes).select("repo", "sha", release_package(pl.col("subject")).str.to_lowercase()
                                       .str.strip_chars("@ ").alias("_package")).drop_nulls("_package"))
    package = pl.col("_package")
    touched = (
        file_changes.join(named, on=["repo", "sha"], how="semi").select("repo", "sha", path.alias("_path"))
        .group_by("repo", "sha").agg(
            # the folders and the words of the file names it touches (Sidekiq's Pro-Changes.md)
            pl.col("_path").str.to_lowercase().str.split("/").explode()
            .append(pl.col("_path").str.to_lowercase().str.extract_all(r"[a-z0-9]+").explode()).unique().alias("_parts"),
            # its own version file (babashka's resources/BABASHKA_VERSION: `bb v0.0.35`)
            (pl.col("_path").str.contains(VERSION_FILE) | pl.col("_path").str.contains(r"(?:^|/)[A-Z0-9_-]*VERSION(?:\.txt)?$")).any()
            .alias("_own_version"))
    )
    # a commit that closes an issue, or says it repairs or reverts something, is a change of its
    # own, unless it only writes the changelog or the version
    repair = (pl.col("subject").fill_null("").str.contains(f"{CLOSING_REFS}|{REPAIR_OR_REVERT}")
              & ~pl.col("_only_changelog").fill_null(False) & ~pl.col("_only_version").fill_null(False))
    own = (package.is_null() | pl.col("_parts").is_null() | pl.col("_own_version").fill_null(False)
           | (package == pl.col("repo").str.extract(r"([^/]+)$", 1).str.to_lowercase())
           | pl.col("_parts").list.contains(package)
           | pl.col("_parts").list.contains(package.str.extract(r"([^-/@]+)$", 1)))
    # ... and no pull request that changes the code under a version's name (`carries_code`: zod's
    # `Zod 4.1 (#5130)`, 3,803 lines, a feature) ...; read for the few release subjects of pull requests
    squashed = work.filter(makes & pl.col("subject").fill_null("").str.contains(PR_SUFFIX)).select("repo", "sha")
    coded = code_lines(file_changes.join(squashed, on=["repo", "sha"], how="semi")) if squashed.height else \
        squashed.with_columns(pl.lit(None, pl.Int64).alias("_l_code"))
    # that the classifier reads as a change, not release work
    change = pl.col("category").is_in(["feature", "bug", "perf", "refactor"]).fill_null(False) if "category" in work.columns \
        else pl.lit(False)
    own = own & ~(carries_code(pl.col("subject"), pl.col("_l_code")) & change)
    return _with_post_release(_with_announced_release(_with_rebuilt_for_release(
        work.join(steps, on=["repo", "sha"], how="left", maintain_order="left")
        .join(named, on=["repo", "sha"], how="left", maintain_order="left")
        .join(touched, on=["repo", "sha"], how="left", maintain_order="left")
        .join(coded, on=["repo", "sha"], how="left", maintain_order="left")
        # (not a commit that is a change of its own, though tagged: caddy's `go.mod: Upgrade
        # dependencies` tagged v2.11.0, zod's `Fix types` tagged v3.17.3)
        # (nor one the classifier reads as a feature or a fix: git's `Make GIT-VERSION-GEN
        # tolerate missing git describe command again`, tagged v1.0.13)
        .with_columns((pl.col("_only_notes").fill_null(False) & ~dependency_update(pl.col("subject").fill_null(""))
                       & ~pl.col("subject").fill_null("").str.contains(DEPENDENCY_WORDS) & ~repair
                       & ~(pl.col("category").is_in(["feature", "bug"]).fill_null(False) if "category" in work.columns
                           else pl.lit(False))).alias("_taggable"))
        .pipe(_with_anchored_tags, tags, makes & own)
        # (and names no other version than the tag's: angular/components' `bump version to
        # 6.0.0-beta.4 w/ changelog` carries tag 5.2.4, eslint's `0.1.0-dev` tag v0.0.9)
        .with_columns((pl.col("_tag_name").is_not_null() & pl.col("_taggable")
                       & (_versions(pl.col("subject").fill_null("").str.replace(PR_SUFFIX, ""))
                          .list.set_difference(_versions(pl.col("_tag_name"))).list.len() == 0))
                      .alias("_tagged"))
        .with_columns(((release & own) | (pl.col("subject").fill_null("").str.contains(BARE_BUMP)
                                  & pl.col("_only_version").fill_null(False))
                       | (pl.col("subject").fill_null("").str.contains(UPDATE_TO_VERSION)
                          & pl.col("_only_build").fill_null(False)) | pl.col("_tagged")).alias("_release"),
                      # (named as its subject names it where the two differ: rq's `Bump version to
                      # 2.7.0` is tagged v2.7; by the tag, with its package, where they agree:
                      # ripgrep's `grep: release 0.2.4`, tagged grep-0.2.4)
                      pl.when(pl.col("_tagged") & (release_title(pl.col("subject")).is_null()
                                                   | ((release_version(pl.col("subject")).str.replace(r"^v", "")
                                                       == _tag_version(pl.col("_tag_name")))
                                                      & release_package(pl.col("subject")).is_null())))
                      .then("_tag_name").otherwise("subject").alias("_release_name"))
        .with_columns((pl.col("_release") | (makes & own) | (pl.col("_only_records").fill_null(False) & ~(
            pl.col("_announced").fill_null(False) & dependency_update(pl.col("subject")))
            # a commit that closes an issue, or says it repairs or reverts something (`repair`),
            # is a change of its own, unless it only writes the changelog or the version (Sidekiq's
            # `Require redis-rb 4.5.0, fixes #5394`, the gemspec, just before a bump; vue's
            # `fix(deps): move @babel/types back to dependencies` and `fix(build): revert "build:
            # add production/development export conditions"` 52 s and 33 min before releases;
            # not jekyll's `Update history ... Closes #1038`)
            & ~repair)
            | (pl.col("_only_build").fill_null(False) & pl.col("subject").fill_null("").str.contains(NEXT_SECTION)))
            .alias("_release_step"))
        .drop("_only_records", "_only_build", "_only_version", "_only_changelog", "_parts", "_own_version", "_package", "_makes",
              "_tag_name", "_tagged", "_taggable", "_only_notes", "_l_code", "_versioned")
    )).drop("_announced")).drop("_only_packaging", "_only_checklist", "_only_built")


def _versions(text: pl.Expr) -> pl.Expr:
    """The version numbers a text names, trailing zeros left out (`v8.5` and `8.5.0` agree)."""
    return text.str.extract_all(r"\d+(?:\.\d+)+").list.eval(pl.element().str.replace(r"(?:\.0)+$", ""))


def _tag_version(name: pl.Expr) -> pl.Expr:
    """The version of a release name `tag_release_name` gives (`grep-cli 0.1.10` -> `0.1.10`)."""
    return name.str.extract(r"(\S+)$", 1)


def _version_tags(tags: pl.DataFrame | None) -> pl.DataFrame | None:
    """The version tags of `tags` (repo, sha, tag, and `_tag_t` where given) with `_tag`, what
    each releases (`tag_release_name`); read once for the tagged commits and the anchors."""
    if tags is None or tags.height == 0:
        return None
    return tags.with_columns(tag_release_name(pl.col("tag"), pl.col("repo")).alias("_tag")).drop_nulls("_tag")


def _with_tag_name(work: pl.DataFrame, tags: pl.DataFrame | None) -> pl.DataFrame:
    """`work` with `_tag_name`: what the version tag pointing at the commit releases
    (`_version_tags`; of several, the repository's own, else the first by name), or null."""
    if tags is None or tags.height == 0:
        return work.with_columns(pl.lit(None, pl.String).alias("_tag_name"))
    named = (tags.select("repo", "sha", pl.col("_tag").alias("_tag_name"))
             .sort("repo", "sha", pl.col("_tag_name").str.contains(" "), "_tag_name")
             .unique(["repo", "sha"], keep="first"))
    return work.join(named, on=["repo", "sha"], how="left", maintain_order="left")


def _with_anchored_tags(work: pl.DataFrame, tags: pl.DataFrame | None, released: pl.Expr) -> pl.DataFrame:
    """A version tag on a commit that is no release record (a fix, a merge, a bot's bump: jq's
    jq-1.8.2 on a dependabot commit three days after `Update NEWS.md and AUTHORS for 1.8.2`)
    names the release its maintainer prepared last: the latest release record (`_taggable`) at
    most TAG_ANCHOR_GAP before the tagged commit that sets the version (a manifest or version
    file) or names the tag's version, unless a commit that makes a release by its subject
    (`released`) came later. `tags` (`_version_tags`) needs `_tag_t`, when the tagged commit was
    written."""
    if tags is None or tags.height == 0 or "_tag_t" not in tags.columns:
        return work
    # (a release its subject names, not one it only prepares: fd's `Prepare 8.1.0 release`)
    made = released & release_title(pl.col("subject")).is_not_null()
    named = tags.select("repo", "sha", "_tag_t", "_tag").join(work.filter(pl.col("_taggable") | made).select("repo", "sha"),
                                                             on=["repo", "sha"], how="anti")
    candidates = work.filter((pl.col("_taggable") & pl.col("_tag_name").is_null()) | made).select(
        "repo", "_n", "_t", made.alias("_made"), pl.col("_versioned").fill_null(False),
        pl.col("subject").fill_null("").str.replace(PR_SUFFIX, "").alias("_subject"))
    if named.height == 0 or candidates.height == 0:
        return work
    version = _tag_version(pl.col("_tag"))
    near = (named.join(candidates, on="repo")
            .filter((pl.col("_t") <= pl.col("_tag_t")) & (pl.col("_tag_t") - pl.col("_t") <= TAG_ANCHOR_GAP)
                    & (pl.col("_made") | pl.col("_versioned") | pl.col("_subject").str.contains(version, literal=True)))
            .sort("_t", "_n").group_by("repo", "sha", maintain_order=True).last()
            # (a release its subject already names is made)
            .filter(~pl.col("_made"))
            # (one release per record: the first tag after it)
            .sort("_tag_t").unique("_n", keep="first", maintain_order=True))
    return work.join(near.select("_n", pl.col("_tag").alias("_anchored")), on="_n", how="left", maintain_order="left") \
        .with_columns(pl.coalesce("_tag_name", "_anchored").alias("_tag_name")).drop("_anchored")


def _with_announced_release(work: pl.DataFrame) -> pl.DataFrame:
    """A commit that writes the changelog and names a version its author releases at most
    ANNOUNCED_GAP later, outside pull requests, is a step of that release, whatever else it
    touches (click's `Corrected changelog for 2.2`: CHANGES and the version in click/__init__.py,
    52 seconds before `This is 2.2`; ripgrep's `changelog: 15.2.0`, with the man page's date, a
    minute before the session that releases each crate and then 15.2.0)."""
    version = pl.col("subject").fill_null("").str.replace(PR_SUFFIX, "").str.extract_all(r"\d+(?:\.\d+)+").alias("_v")
    writers = (work.filter(pl.col("_announced").fill_null(False) & ~pl.col("_release") & pl.col("pr_number").is_null())
               .select("repo", "person_id", "_n", "_t", version).explode("_v").drop_nulls("_v"))
    released = _releases(work, release_version(pl.col("_release_name")).str.replace(r"^v", "").alias("_v")).drop_nulls("_v")
    announced = _released_soon(writers, released, on=["repo", "person_id", "_v"])
    return work.with_columns((pl.col("_release_step") | announced).alias("_release_step"))


def _with_post_release(work: pl.DataFrame) -> pl.DataFrame:
    """`work` with `_post_of`: the `_n` of the release commit a commit finishes, and such a
    commit a release step. Within POST_RELEASE_GAP after its author's release commit, outside
    pull requests:

    * the next commit, undoing the release commit's lines (the same files, each line it added
      deleted and each it deleted added): composer's release script sets the version in
      Composer.php (`Release 2.10.2`), then `Reverting release version changes` sets it back;
    * a commit that names the version released and is no fix or feature of it: jekyll's
      `Release 3.5.2`, then `Update site for v3.5.2`, `Add release post for v3.5.2` and `3.5.2:
      thank the contributors` (not lodash's `quick fix for 0.5.1 for IE`, a change);
    * a commit of the distribution packages alone (PACKAGING_PATH): ripgrep's `pkg/brew: update
      tap`, the Homebrew formula set to the release half an hour after it;
    * a commit of built files alone that the released version's tag points at: bat's `Bump
      version to v0.22`, then `Update binary assets` (the syntax cache built again), tagged v0.22.0.

    (`_tag_v`, the version of the tag on the commit, is read here and dropped.)"""
    by = ["repo", "person_id"]
    version = pl.col("_release_name").fill_null("").str.replace(PR_SUFFIX, "").str.extract(_RELEASE_VERSION, 1)
    change = pl.col("category").is_in(["feature", "bug"]).fill_null(False) if "category" in work.columns else pl.lit(False)
    if "_paths" not in work.columns:
        work = work.with_columns(pl.lit(None, pl.UInt64).alias("_paths"))
    packaging = pl.col("_only_packaging").fill_null(False) if "_only_packaging" in work.columns else pl.lit(False)
    # (its built files alone: not whatever change was at the tip when its author tagged, zod's
    # `Test deploy` and `Update snapshot`, ripgrep's `fix ci`, fd's `Update jemalloc to 5.3`)
    tagged = ((pl.col("_tag_v") == _versions(pl.col("_rel_v")).list.first()).fill_null(False)
              & pl.col("_only_built").fill_null(False)) if "_only_built" in work.columns else pl.lit(False)
    stream = work.sort("repo", "person_id", "_t", "_n").with_columns(
        pl.when(pl.col("_release")).then(pl.col("_n")).forward_fill().over(by).alias("_rel_n"),
        pl.when(pl.col("_release")).then(version).forward_fill().over(by).alias("_rel_v"),
        pl.when(pl.col("_release")).then(pl.col("_t")).forward_fill().over(by).alias("_rel_t"),
        pl.col("subject").fill_null("").str.extract_all(r"\d+(?:\.\d+)+(?:[-.]?(?:rc|alpha|beta|pre)\.?\d*)?").alias("_named"),
        ((pl.col("_paths") == pl.col("_paths").shift(1).over(by)) & pl.col("_release").shift(1).over(by)
         & (pl.col("lines_added") > 0)
         & (pl.col("lines_added") == pl.col("lines_deleted").shift(1).over(by))
         & (pl.col("lines_deleted") == pl.col("lines_added").shift(1).over(by))).fill_null(False).alias("_undoes"),
    )
    post = (~pl.col("_release") & pl.col("_rel_n").is_not_null() & pl.col("pr_number").is_null()
            & ((pl.col("_t") - pl.col("_rel_t")) <= POST_RELEASE_GAP)
            & (pl.col("_undoes") | (~change & (pl.col("_named").list.contains(pl.col("_rel_v")).fill_null(False) | tagged))
               | packaging))
    finishing = stream.filter(post).select("_n", pl.col("_rel_n").cast(pl.UInt32).alias("_post_of"))
    return work.join(finishing, on="_n", how="left", maintain_order="left") \
        .with_columns((pl.col("_release_step") | pl.col("_post_of").is_not_null()).alias("_release_step")) \
        .drop("_tag_v", strict=False)


def _with_rebuilt_for_release(work: pl.DataFrame) -> pl.DataFrame:
    """`work` with `_rebuilt_for_release`: its files built again (REBUILT_FILES) at most
    RELEASE_GAP before the author's next commit, a release commit; such a commit is a release
    step (lodash's `Rebuild lodash and docs.`, the built files and the docs with the new version,
    then `Bump to v4.17.15.` a minute or some hours later, nothing in between)."""
    after = (pl.col("_t").shift(-1).over("repo", "person_id", order_by=["_t", "_n"]) - pl.col("_t"))
    next_release = pl.col("_release").shift(-1).over("repo", "person_id", order_by=["_t", "_n"]).fill_null(False)
    prep = (pl.col("subject").fill_null("").str.to_lowercase().str.contains(REBUILT_FILES)
            & next_release & (after <= RELEASE_GAP) & pl.col("pr_number").is_null())
    # (and, within the hour before one of the author's releases, the release's date set in a
    # file, a line or two, and the release checklist kept: ripgrep's `doc: update date in man
    # page template` and `doc: move CHANGELOG update before dependency updates` of
    # RELEASE-CHECKLIST.md, the two minutes before `globset-0.4.17` of 15.0.0)
    dated = (pl.col("subject").fill_null("").str.contains(RELEASE_DATE) & (pl.col("lines_added") <= 2)
             & (pl.col("lines_deleted") <= 2))
    checklist = pl.col("_only_checklist").fill_null(False) if "_only_checklist" in work.columns else pl.lit(False)
    candidates = work.filter((dated | checklist) & pl.col("pr_number").is_null()).select("repo", "person_id", "_n", "_t")
    prep = prep | _released_soon(candidates, _releases(work))
    return work.with_columns(prep.fill_null(False).alias("_rebuilt_for_release")) \
        .with_columns((pl.col("_release_step") | pl.col("_rebuilt_for_release")).alias("_release_step"))


def _releases(work: pl.DataFrame, *extra: pl.Expr) -> pl.DataFrame:
    """The release commits of `work`: repo, person_id, `_rn` and `_rt` (their `_n` and `_t`) and `extra`."""
    return work.filter(pl.col("_release")).select("repo", "person_id", pl.col("_n").alias("_rn"), pl.col("_t").alias("_rt"), *extra)


def _released_soon(candidates: pl.DataFrame, released: pl.DataFrame, on: list[str] | None = None) -> pl.Expr:
    """True for the commits of `candidates` (repo, person_id, `_n`, `_t`; few) whose author makes a
    release of `released` (`_releases`; matched on `on` too), not that commit, at most
    ANNOUNCED_GAP after them."""
    soon = (candidates.join(released, on=on or ["repo", "person_id"])
            .filter((pl.col("_rn") != pl.col("_n")) & (pl.col("_rt") >= pl.col("_t"))
                    & (pl.col("_rt") - pl.col("_t") <= ANNOUNCED_GAP)))["_n"]
    return pl.col("_n").is_in(soon.implode())


def release_edges(work: pl.DataFrame) -> pl.DataFrame:
    """A release made of several commits by one author, each at most RELEASE_GAP after the one
    before (the version bump, the changelog heading, each package's manifest and lock file):
    one release item. A run of consecutive release steps (`release_flags`) outside pull
    requests joins when it holds a release commit; other work in between ends the run. The
    changelog opened for the next version (NEXT_SECTION) within OPENING_GAP after a
    release is its last step, and ends the run too; so are the commits that finish it
    (`_with_post_release`: the version set back, the version named)."""
    outside = pl.col("pr_number").is_null() & pl.col("_prev_pr").is_null()
    folder = pl.col("_release_dir") if "_release_dir" in work.columns else None
    stream = work.sort("repo", "person_id", "_t", "_n").with_columns(
        pl.when(pl.col("_release")).then(release_package(pl.col("_release_name"), folder)).alias("_package"),
    ).with_columns(
        # the package of the author's last release so far ("" for a release that names none)
        pl.when(pl.col("_release")).then(pl.col("_package").fill_null(""))
        .forward_fill().over("repo", "person_id").alias("_last_package"),
    ).with_columns(
        pl.col("_last_package").shift(1).alias("_prev_package"),
        pl.col("_release_step").shift(1).alias("_prev_step"),
        pl.col("_release").shift(1).alias("_prev_release"),
        # (a release that names no version, sinatra's bare `bump version`, is a step of the
        # release the next ones name)
        (pl.col("_release") & release_version(pl.col("_release_name")).is_not_null()).shift(1).alias("_prev_ends"),
        # (a commit that finished a release ends its run too: composer's next release, 2.3.10
        # the same day as 2.2.17, opens with its own `Update changelog`)
        pl.col("_post_of").is_not_null().shift(1).alias("_prev_post"),
        pl.col("pr_number").shift(1).alias("_prev_pr"),
        pl.col("subject").fill_null("").str.contains(NEXT_SECTION).alias("_opens_next"),
        # (a touch-up written minutes after a release, fd's `Update CHANGELOG` nine minutes after
        # `Updates for fd 8.5.1`, is that release's, not the first step of the next one; one that
        # names a version, `changelog: 1.2.1`, is)
        (pl.col("_release").shift(1).over("repo", "person_id").fill_null(False)
         & (pl.col("_t") - pl.col("_t").shift(1).over("repo", "person_id") <= POST_RELEASE_GAP)
         & ~pl.col("subject").fill_null("").str.contains(r"\d\.\d")).alias("_touch_up"),
    ).with_columns(pl.col("_opens_next").shift(1).alias("_prev_opens_next"), pl.col("_touch_up").shift(1).alias("_prev_touch_up"))
    pairs = _consecutive_pairs(stream, ["repo", "person_id"])
    # The changelog opened for the next version minutes after a release, or after a commit that
    # finished it, closes it (requests' "Prepare changelog for next release", ripgrep's
    # "changelog: start next section" after `pkg/brew: update tap`).
    # (the release or the opening may be a pull request, and the opening come hours later:
    # black's squashed `Prepare release 24.3.0 (#4279)`, then `Add new change template` pushed
    # 23 minutes later; `Add new release template (#4228)` 35 minutes after #4226; `New
    # changelog` 1.5 hours after 24.4.2)
    post = (~pl.col("_release") & pl.col("_release_step") & pl.col("_opens_next")
            & (pl.col("_prev_release").fill_null(False) | pl.col("_prev_post").fill_null(False)) & (pl.col("_gap") <= OPENING_GAP))
    after_post = pairs.filter(post).select(pl.col("_b").alias("_a"))
    # A step links to the one before it; a release commit ends its run (two releases of one
    # day, 4.9.0 and 3.17.1, are two items), and so does the next version's opening, after a
    # release or not (okhttp's `Prepare next development version.` after a failed `Prepare for
    # release .` had joined the 5.0.0-alpha.16 release four hours later).
    links = pairs.join(after_post.with_columns(pl.lit(True).alias("_after_post")), on="_a", how="left").with_columns(
        (pl.col("_release_step") & pl.col("_prev_step").fill_null(False) & ~pl.col("_prev_ends").fill_null(False)
         & ~pl.col("_prev_post").fill_null(False) & ~pl.col("_after_post").fill_null(False) & ~pl.col("_prev_opens_next").fill_null(False)
         & ~(pl.col("_prev_touch_up").fill_null(False) & pl.col("_release")) & (pl.col("_gap") <= RELEASE_GAP) & outside)
        .alias("_link"), post.alias("_post"))
    # A monorepo's release session: each package released in turn, minutes apart, then the
    # whole (ripgrep 15.0.0: globset-0.4.17, its `deps: bump to globset 0.4.17`, ignore-0.4.24, ...,
    # grep-0.4.0, 15.0.0 within 13 minutes, had been 13 items). The next release of another
    # package right after a release step joins it; the same package released again is another
    # release.
    # (and so does a step that is no release, the top version's changelog heading before it:
    # ripgrep 15.2.0's `changelog: 15.2.0` came between grep-searcher-0.1.17 and 15.2.0)
    session = (pl.col("_release_step") & pl.col("_prev_step").fill_null(False) & (pl.col("_prev_package").fill_null("") != "")
               & (~pl.col("_release") | (pl.col("_package").fill_null("") != pl.col("_prev_package")))
               & (pl.col("_gap") <= PACKAGE_SESSION_GAP) & outside)
    links = links.with_columns(pl.col("_link") | session.fill_null(False))
    runs = stream.join(links.select(pl.col("_b").alias("_n"), "_link"), on="_n", how="left", maintain_order="left") \
        .with_columns((~pl.col("_link").fill_null(False)).cum_sum().alias("_run"))
    # only a run that makes a release is joined
    releasing = runs.filter(pl.col("_link").fill_null(False) & pl.col("_release").any().over("_run"))
    return pl.concat([links.join(releasing.select(pl.col("_n").alias("_b")), on="_b", how="semi").select("_a", "_b"),
                      links.filter(pl.col("_post")).select("_a", "_b"), _same_release(work).filter(outside).select("_a", "_b"),
                      work.filter(pl.col("_post_of").is_not_null()).select(pl.col("_post_of").alias("_a"), pl.col("_n").alias("_b"))]) \
        .select(pl.col("_a").cast(pl.UInt32), pl.col("_b").cast(pl.UInt32))


def _same_release(work: pl.DataFrame) -> pl.DataFrame:
    """Pairs of consecutive release commits of one author that release the same version at most
    RELEASE_GAP apart, whatever came between (bat's `Bump version to 0.16.0`, then `Update
    syntaxes`, then the empty `v0.16.0` that tags it: one release, not two; retrofit's `Prepare
    for 1.1.0.` with the Maven release plugin's `prepare release parent-1.1.0` minutes later)."""
    folder = pl.col("_release_dir") if "_release_dir" in work.columns else None
    named = pl.concat_str(release_package(pl.col("_release_name"), folder).fill_null(""), pl.lit(" "),
                          release_version(pl.col("_release_name")))
    releases = (work.filter(pl.col("_release")).with_columns(named.alias("_version"))
                .sort("repo", "person_id", "_t", "_n")
                .with_columns(pl.col("pr_number").shift(1).alias("_prev_pr"), pl.col("_version").shift(1).alias("_prev_version")))
    # apart by when each was committed where known: a release prepared a day earlier and pushed
    # with its tag is one release
    time = pl.col("committed_at") if "committed_at" in releases.columns else pl.col("_t")
    releases = releases.with_columns((time - time.shift(1)).alias("_apart"))
    return _consecutive_pairs(releases, ["repo", "person_id"]).filter(
        (pl.col("_version") == pl.col("_prev_version")).fill_null(False) & (pl.col("_apart") <= RELEASE_GAP))


RELEASE_GAP = timedelta(hours=24)
# The document of how a release is made (ripgrep's RELEASE-CHECKLIST.md, RELEASING.md).
RELEASE_CHECKLIST = r"(?i)(?:^|/)releas(?:e|ing)[-_]?(?:checklist|process|guide|howto|notes-template)?\.(?:md|rst|txt|adoc)$"
# A subject that sets a date (`doc: update date in man page template`, `NEWS: set release date`).
RELEASE_DATE = r"(?i)^\W*(?:[\w./-]+:\s*)?(?:update[sd]?|bump(?:s|ed)?|set|change[sd]?)\s+(?:the\s+)?(?:release\s+)?dates?\b"
# A tag on a commit that is no release record names the release prepared at most this long before it.
TAG_ANCHOR_GAP = timedelta(days=3)
# A commit that writes the changelog for the release its author makes next, this soon before it.
ANNOUNCED_GAP = timedelta(hours=1)
# One package's release follows another's in one release session at most this soon.
PACKAGE_SESSION_GAP = timedelta(minutes=10)


# A commit that finishes a release (the version set back, the version named), this soon after it.
POST_RELEASE_GAP = timedelta(hours=1)
# A release's last step: the changelog opened for the next version, the author's next commit
# this soon after it.
OPENING_GAP = timedelta(hours=4)
# A development version, the next release's opening: click's `This is 7.0-dev`, `Bump to
# 2.1.0.dev0`, `3.0.0-SNAPSHOT`.
# (and an R package's development version: `1.1.3.9000`, usethis's `Increment version number to
# 1.1.3.9000` after 1.1.3)
_DEV_MARK = r"(?:[-.]?dev\d*|-snapshot)"
_DEV_SUFFIX = rf"(?:{_DEV_MARK}|\.90\d\d)"
_DEV_VERSION = rf"\d{_DEV_SUFFIX}\b[.!]?(?:\s*\(#\d+\))?\s*$"
DEV_VERSION = rf"(?i){_DEV_VERSION}"
NEXT_SECTION = (rf"(?i){_DEV_VERSION}|\b(?:next|new|upcoming)\s+(?:release|version|section|dev(?:elopment)?|cycle)\b"
                r"|\bunreleased\b|\bback\s+to\s+dev(?:elopment)?\b"
                # black's `New changelog`, `new changelog template`, `Add new change template`,
                # `Add new CHANGES.md template`
                r"|\bnew\s+change(?:s|log)?(?:\.\w+)?(?:\s+(?:template|section|skeleton))?\s*(?:\(#\d+\))?\s*$"
                r"|\bchange(?:s|log)?(?:\.\w+)?\s+template\b")
# The version a release subject ends with (`v` and trailing punctuation left out), and the
# package it names before it (`grep-cli-0.1.10`, `create-vite@5.2.1`, `ripgrep 14.1.1`).
_RELEASE_VERSION = r"v?(\d+(?:\.\d+)+(?:[-+.]?[0-9A-Za-z][0-9A-Za-z.+-]*?)?)[.,;:!]?\s*$"
_RELEASE_PACKAGE = r"(?i)^\s*([a-z0-9_.@/-]+?)[ @-]v?\d+(?:\.\d+)+\S*\s*$"
# words of a release subject that are no package's name (`Bumped v5.11.3`, `Tagged 2.0`,
# AutoMapper's `Marking 7.0.1`; a release candidate, dplyr's `RC 1.2.1`; hugo's `Relase 0.49.1`)
_NOT_PACKAGE = r"(?i)^(?:v|ver|version|release[sd]?|releasing|rel[ae]{1,2}s[ea]?|rc|tag|tagged|bump(?:s|ed|ing)?|publish(?:es|ed|ing)?|prep(?:are[sd]?|aring)?|mark(?:s|ed|ing)?|almost|cut|for|next|now|to)$"


def release_package(subject: pl.Expr, folder: pl.Expr | None = None) -> pl.Expr:
    """The package a release commit's subject names (`grep-cli-0.1.10` -> `grep-cli`), or else
    `folder` (`release_flags`' `_release_dir`); null for a release of the whole repository."""
    text = _release_text(subject)
    package = (pl.when(text.str.contains(RELEASE_TITLE)).then(pl.lit(None, pl.String))
               .otherwise(text.str.extract(_RELEASE_PACKAGE, 1)))
    package = pl.when(package.str.contains(_NOT_PACKAGE)).then(pl.lit(None, pl.String)).otherwise(package)
    return package if folder is None else pl.coalesce(package, folder)


def release_title(subject: pl.Expr, folder: pl.Expr | None = None) -> pl.Expr:
    """`Release <version>` (`Release <package> <version>` when the subject names a package, or
    else `folder`: the package folder whose manifest the release commit changes) of a
    release commit's subject (RELEASE_SUBJECT): `14.1.1` or `14.1.1 release` -> `Release 14.1.1`, `grep-cli-0.1.10`
    -> `Release grep-cli 0.1.10`, `Release v3.4.1 (#88)` -> `Release 3.4.1`; null when no
    version can be read, or when the subject prepares the release (`Prepare 3.11.0 release`:
    nlohmann/json's license headers the day before 3.11.0, named as its author named them)."""
    version = pl.when(~_release_text(subject).str.contains(r"(?i)^\s*prepar")).then(release_version(subject))
    package = release_package(subject, folder)
    return pl.when(version.is_not_null()).then(
        pl.concat_str(pl.lit("Release "), pl.coalesce(package + pl.lit(" "), pl.lit("")), version))


def opening_title(subject: pl.Expr) -> pl.Expr:
    """`Start <version> development` of a subject that sets a development version (DEV_VERSION:
    `This is 7.0-dev`, `Prep 0.14-dev` -> `Start 7.0 development`)."""
    version = release_version(subject).str.replace(rf"(?i){_DEV_MARK}$", "")  # (R's `.9000` stays: no release)
    return pl.concat_str(pl.lit("Start "), version, pl.lit(" development"))


def release_version(subject: pl.Expr) -> pl.Expr:
    """The version a release commit's subject names, prepared or made (`Prepare for 1.1.0.`,
    `1.4.3 release`: the version before the word); null when it names none."""
    return _release_text(subject).str.extract(_RELEASE_VERSION, 1)


def _release_text(subject: pl.Expr) -> pl.Expr:
    """A release subject as its package and version are read from: its PR suffix, a leading
    mark, a trailing `release` (`1.4.3 release`: the version before the word; `3.7.4 release
    prep`) and a trailing aside with no number (`This is 3.0 (clonk clonk)`) left out."""
    return (without_release_type(subject.str.replace(PR_SUFFIX, "")).str.replace(LEADING_MARK, "").str.replace(r"\s+\([^()\d\n]*\)\s*$", "")
            .str.replace(r"(?i)\s+release(?:\s+prep(?:aration|ared)?)?[.!]?\s*$", ""))
