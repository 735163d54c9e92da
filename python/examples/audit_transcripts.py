"""Audits a folder of model replies on a Dask cluster: the share of replies
with errors, by diagnostic code, and the tools (actions) that fail most.

    python python/examples/audit_transcripts.py golden/ [--workers 2]
"""

import argparse
from collections import Counter
from pathlib import Path

from distributed import Client, LocalCluster

import plangram.dask

SUFFIXES = {".md", ".markdown", ".txt", ".diff", ".patch"}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--top", type=int, default=10)
    args = ap.parse_args()
    paths = sorted(p for p in Path(args.folder).rglob("*") if p.is_file() and p.suffix.lower() in SUFFIXES)
    with LocalCluster(n_workers=args.workers, processes=True, threads_per_worker=1) as cluster, Client(cluster) as client:
        df = plangram.dask.parse_files(paths, client=client)
    n = len(df)
    print(f"{n} replies, {(df.errors > 0).sum()} with errors ({(df.errors > 0).mean():.1%})")
    print("\nshare of replies with an error of code:")
    codes = Counter(c for cs in df.error_codes for c in set(cs))
    for code, k in codes.most_common(args.top):
        print(f"  {code:32} {k / n:6.1%}  ({k})")
    print("\ntools that fail most (replies where an error lies in the action):")
    for tool, k in Counter(t for ts in df.failing_tools for t in ts).most_common(args.top):
        print(f"  {tool:32} {k}")
    print("\nby dialect:")
    print(df.groupby("dialect").agg(replies=("path", "size"), with_errors=("errors", lambda e: int((e > 0).sum()))).to_string())


if __name__ == "__main__":
    main()
