"""Corpus-scale runs on Dask: parse many documents on a distributed cluster.

    from distributed import Client
    import plangram.dask
    df = plangram.dask.parse_files(paths)           # on the default client
    df.groupby("dialect").size()

Each worker process loads the Go library itself (distributed starts its
worker processes with spawn; a forked worker works too, see docs/python.md).
"""

from __future__ import annotations

import os
from typing import Any, Iterable, Optional

import plangram

#: The columns of parse_files' dataframe, in order.
COLUMNS = ["path", "dialect", "actions", "action_names", "errors", "warnings", "error_codes", "failing_tools"]


def summarise(path: "str | os.PathLike[str]", dialect: str = "auto") -> dict[str, Any]:
    """One document's row: its dialect, actions, error and warning counts,
    the codes of its errors (sorted) and the names of the actions an error
    lies in (sorted, each once)."""
    with open(path, "rb") as f:
        data = f.read()
    doc = plangram.parse(data, dialect=dialect, filename=os.fspath(path))
    errors = [d for d in doc.diagnostics if d.severity == "error"]
    failing = set()
    for a in doc.actions:
        if a.span is None:
            continue
        for d in errors:
            if d.span is not None and a.span.start.offset <= d.span.start.offset < max(a.span.end.offset, a.span.start.offset + 1):
                failing.add(a.name)
    return {
        "path": os.fspath(path),
        "dialect": doc.dialect,
        "actions": len(doc.actions),
        "action_names": [a.name for a in doc.actions],
        "errors": len(errors),
        "warnings": sum(d.severity == "warning" for d in doc.diagnostics),
        "error_codes": sorted(d.code for d in errors),
        "failing_tools": sorted(failing),
    }


def parse_files(paths: Iterable["str | os.PathLike[str]"], *, dialect: str = "auto",
                npartitions: Optional[int] = None, client: Any = None) -> Any:
    """Parses every file on the cluster (client, or the default
    distributed client, or Dask's local scheduler without one) and returns
    a pandas DataFrame with one row per document (COLUMNS), in input order.
    The paths must be readable by the workers."""
    import dask.bag as db
    import pandas as pd

    paths = [os.fspath(p) for p in paths]
    if not paths:
        return pd.DataFrame(columns=COLUMNS)
    n = npartitions or min(len(paths), 64)
    bag = db.from_sequence(paths, npartitions=n).map(summarise, dialect=dialect)
    rows = client.compute(bag).result() if client is not None else bag.compute()
    return pd.DataFrame(list(rows), columns=COLUMNS)
