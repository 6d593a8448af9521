"""Profile site benchmark: write_site for a team of 2,500 people (SPEC §6: under 10 s).

    python benchmarks/site_speed.py [--people 2500] [--repeat 3] [--workers N] [--keep DIR]

The profiles are synthetic but shaped like a large organisation's (exceeds_pipeline.site.synthetic:
most people active a year or two over a few repositories, some for years; ~170 active days and
~12 active months each on average) and every one is validated against the profile JSON Schema
before the clock starts. Timed: a cold build into an empty folder (best and median of --repeat),
a re-run with nothing changed, and a re-run where one person changed. Prints wall and CPU
seconds (CPU includes the render workers) and the site's size.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from exceeds_pipeline.profiles.export import validate_profile
from exceeds_pipeline.site.render import write_site
from exceeds_pipeline.site.synthetic import synthetic_profiles

TARGET_SECONDS = 10.0


def timed(fn):
    t0, c0 = time.perf_counter(), os.times()
    result = fn()
    c1 = os.times()
    cpu = (c1.user - c0.user) + (c1.system - c0.system) + (c1.children_user - c0.children_user) + (
        c1.children_system - c0.children_system)
    return result, time.perf_counter() - t0, cpu


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--people", type=int, default=2500)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--workers", type=int, default=None, help="render processes (default: CPUs, at most 4)")
    parser.add_argument("--keep", type=Path, default=None, help="build the site here and keep it")
    args = parser.parse_args(argv)

    t0 = time.perf_counter()
    profiles = synthetic_profiles(args.people)
    for profile in profiles:
        validate_profile(profile)
    days = sum(len(p["activity"]) for p in profiles)
    months = sum(len(p["work_history"]) for p in profiles)
    print(f"{len(profiles):,} schema-valid profiles ({days:,} active days, {months:,} active months) "
          f"generated in {time.perf_counter() - t0:.1f} s; cpus available: {len(os.sched_getaffinity(0))}, "
          f"load average {os.getloadavg()[0]:.1f}")

    root = Path(tempfile.mkdtemp(prefix="site-bench-"))
    try:
        cold = []
        for k in range(max(1, args.repeat)):
            site = root / f"cold{k}" / "site"
            result, wall, cpu = timed(lambda: write_site(profiles, None, site, workers=args.workers))
            assert result["written"] == len(profiles), result
            cold.append((wall, cpu))
            print(f"cold build {k + 1}: {wall:6.2f} s wall, {cpu:6.2f} s cpu  ({result['written']:,} pages)")
        size = sum(f.stat().st_size for f in site.rglob("*") if f.is_file())
        print(f"site: {size / 1e6:.0f} MB, {size / len(profiles) / 1e3:.0f} kB per person page on average")

        result, wall, cpu = timed(lambda: write_site(profiles, None, site, workers=args.workers))
        assert result["written"] == 0 and not result["swapped"], result
        print(f"nothing changed: {wall:6.2f} s wall, {cpu:6.2f} s cpu  ({result['unchanged']:,} unchanged)")
        changed = list(profiles)
        changed[len(changed) // 2] = dict(changed[len(changed) // 2], summary="Changed.")
        result, wall, cpu = timed(lambda: write_site(changed, None, site, workers=args.workers))
        assert result["written"] == 1, result
        print(f"one changed:     {wall:6.2f} s wall, {cpu:6.2f} s cpu  (1 page written, the rest hard-linked)")
        if args.keep:
            shutil.rmtree(args.keep, ignore_errors=True)
            shutil.copytree(site, args.keep)
            print(f"site kept in {args.keep}")
    finally:
        shutil.rmtree(root, ignore_errors=True)

    best = min(w for w, _ in cold)
    median = statistics.median(w for w, _ in cold)
    verdict = "within" if best <= TARGET_SECONDS else "OVER"
    print(f"cold build for {len(profiles):,} people: best {best:.2f} s, median {median:.2f} s "
          f"({verdict} the {TARGET_SECONDS:.0f} s target)")
    return 0 if best <= TARGET_SECONDS else 1


if __name__ == "__main__":
    sys.exit(main())
