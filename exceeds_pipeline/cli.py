"""The `exceeds` command: materialize, query, profile, demo, ui (SPEC §2)."""

import argparse
import json
import os
import sys
from pathlib import Path

from exceeds_pipeline import config as cfg


def _common(parser: argparse.ArgumentParser, with_config: bool = True) -> None:
    if with_config:
        parser.add_argument("--config", help="config YAML (default: $EXCEEDS_CONFIG or exceeds.yaml)")
    parser.add_argument("--data-dir", help="data directory (default: $EXCEEDS_DATA_DIR or data/)")


def _lock_timeout(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--lock-timeout",
        type=float,
        metavar="SECONDS",
        help="if another exceeds run is in progress on the data dir, wait at most this long, "
        "then give up with exit code 3 (default: wait until it has finished)",
    )


def _report(outcome, echo=print) -> int:
    failed = outcome.failed_repos
    if failed:
        echo(f"failed repositories: {', '.join(failed)} (their stored data was kept; fix and re-run)")
    if not outcome.published:
        echo("the database was not published: " + outcome.publish_error)
    if outcome.ok:
        echo(f"done in {outcome.seconds:.1f}s")
    return 0 if outcome.ok else 1


def cmd_materialize(args) -> int:
    from exceeds_pipeline.runner import run_pipeline

    data_dir = cfg.data_dir(args.data_dir)
    outcome = run_pipeline(cfg.config_path(args.config), data_dir, lock_timeout=args.lock_timeout)
    if outcome.published:
        print(f"published database: {data_dir / 'exceeds.duckdb'}")
        print(f"profile site: {data_dir / 'exports' / 'site' / 'index.html'}")
    return _report(outcome)


def cmd_demo(args) -> int:
    from exceeds_pipeline.demo.generate import build_demo_repositories, write_demo_config
    from exceeds_pipeline.runner import run_pipeline

    data_dir = cfg.data_dir(args.data_dir)
    demo_dir = data_dir / "demo"

    def build_demo() -> Path:
        print(f"building demo repositories in {demo_dir / 'repos'}")
        repos = build_demo_repositories(demo_dir / "repos", overwrite=True)
        # The project's exceeds.yaml points at data/demo/repos; another data dir gets its own config.
        config_path = cfg.PROJECT_ROOT / "exceeds.yaml"
        if data_dir != cfg.data_dir(None) or not config_path.exists():
            config_path = write_demo_config(demo_dir / "exceeds.demo.yaml", repos)
        return config_path

    outcome = run_pipeline(None, data_dir, lock_timeout=args.lock_timeout, prepare=build_demo)
    if not outcome.published:
        return _report(outcome)
    print(f"published database: {data_dir / 'exceeds.duckdb'}")
    print(f"profile site: {data_dir / 'exports' / 'site' / 'index.html'} (or: exceeds serve --data-dir {data_dir})")
    print(f'try: exceeds query "SELECT person_id, count(*) FROM counted_commits GROUP BY 1" --data-dir {data_dir}')
    return _report(outcome)


def _connect_published(args):
    import duckdb

    path = cfg.data_dir(args.data_dir) / "exceeds.duckdb"
    if not path.exists():
        raise SystemExit(f"no published database at {path}; run `exceeds materialize` (or `exceeds demo`) first")
    return duckdb.connect(str(path), read_only=True)


def cmd_query(args) -> int:
    con = _connect_published(args)
    try:
        rel = con.sql(args.sql)
        if rel is None:
            return 0
        if args.format == "table":
            rel.show(max_width=10_000, max_rows=args.max_rows)
        else:
            frame = rel.pl()
            if args.format == "csv":
                import polars as pl

                nested = [c for c, t in frame.schema.items() if t.is_nested()]
                frame = frame.with_columns(
                    pl.col(c).map_elements(lambda v: json.dumps(v.to_list() if hasattr(v, "to_list") else v, default=str), return_dtype=pl.String)
                    for c in nested
                )
                sys.stdout.write(frame.write_csv())
            else:
                sys.stdout.write(frame.write_json() + "\n")
    except Exception as exc:  # duckdb errors: show the message, not a traceback
        print(f"query failed: {exc}", file=sys.stderr)
        return 2
    finally:
        con.close()
    return 0


def cmd_profile(args) -> int:
    con = _connect_published(args)
    try:
        tables = {r[0] for r in con.execute("SELECT table_name FROM duckdb_tables()").fetchall()}
        if "profiles" not in tables:
            print("this database has no profiles yet", file=sys.stderr)
            return 2
        who = args.person.strip().lower()
        row = con.execute(
            """
            SELECT pr.profile FROM profiles pr JOIN people p USING (person_id)
            WHERE lower(p.person_id) = $who OR lower(p.display_name) = $who
               OR list_contains(list_transform(p.emails, e -> lower(e)), $who)
            ORDER BY (lower(p.person_id) = $who) DESC LIMIT 1
            """,
            {"who": who},
        ).fetchone()
    finally:
        con.close()
    if row is None:
        print(f"no profile for {args.person!r} (try a person id, e-mail or name)", file=sys.stderr)
        return 1
    profile = json.loads(row[0]) if isinstance(row[0], str) else row[0]
    try:
        print(json.dumps(profile, indent=2, ensure_ascii=False))
    except BrokenPipeError:  # `exceeds profile x | head`: the reader has what it wanted
        sys.stdout = None
    return 0


def cmd_serve(args) -> int:
    from exceeds_pipeline.site.serve import SiteNotFound, serve_site

    site = cfg.data_dir(args.data_dir) / "exports" / "site"
    try:
        serve_site(site, args.port)
    except SiteNotFound as exc:
        print(str(exc), file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"cannot serve on port {args.port}: {exc.strerror or exc}; choose another with --port N",
              file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        pass
    return 0


def cmd_ui(args) -> int:
    from exceeds_pipeline.defs.resources import settings_for
    from exceeds_pipeline.runner import check_data_dir, prepare_instance

    settings = settings_for(args.config, args.data_dir)
    settings.config  # an invalid config is reported here, not as a code-location error
    check_data_dir(settings.data)
    # `dagster dev` loads the code location in processes of its own: it is told which config
    # and data dir to build the definitions for through their environment.
    env = {**os.environ, "DAGSTER_HOME": str(prepare_instance()),
           "EXCEEDS_CONFIG": settings.config_path, "EXCEEDS_DATA_DIR": settings.data_dir}
    os.chdir(cfg.PROJECT_ROOT)
    dagster = Path(sys.executable).with_name("dagster")
    argv = [str(dagster), "dev", "-w", str(cfg.PROJECT_ROOT / "workspace.yaml"), *args.dagster_args]
    os.execve(argv[0], argv, env)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="exceeds", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("materialize", help="run the whole asset graph for every configured repository")
    _common(p)
    _lock_timeout(p)
    p.set_defaults(func=cmd_materialize)

    p = sub.add_parser("demo", help="build the bundled demo repositories and materialize them")
    _common(p, with_config=False)
    _lock_timeout(p)
    p.set_defaults(func=cmd_demo)

    p = sub.add_parser("query", help="run SQL against the published database (read-only)")
    p.add_argument("sql")
    p.add_argument("--format", choices=["table", "csv", "json"], default="table")
    p.add_argument("--max-rows", type=int, default=100)
    _common(p, with_config=False)
    p.set_defaults(func=cmd_query)

    p = sub.add_parser("profile", help="print one person's profile JSON (by id, e-mail or name)")
    p.add_argument("person")
    _common(p, with_config=False)
    p.set_defaults(func=cmd_profile)

    p = sub.add_parser("serve", help="serve the profile site on localhost (read-only)")
    p.add_argument("--port", type=int, default=8000)
    _common(p, with_config=False)
    p.set_defaults(func=cmd_serve)

    p = sub.add_parser("ui", help="start the Dagster UI on this project (dagster dev)")
    _common(p)
    p.set_defaults(func=cmd_ui)

    args, extra = parser.parse_known_args(argv)
    if args.command == "ui":
        args.dagster_args = extra  # e.g. `exceeds ui -p 3001` passes `-p 3001` to dagster dev
    elif extra:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(line_buffering=True)  # progress shows up at once in logs, too
    from exceeds_pipeline.locks import LockTimeout

    try:
        return args.func(args)
    except cfg.ConfigError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    except LockTimeout as exc:
        print(str(exc), file=sys.stderr)
        return 3
    except KeyboardInterrupt:
        print("interrupted: the run was stopped and nothing from it was published "
              "(run the command again to finish the job)", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
