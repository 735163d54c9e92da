"""plangram for Python: the Go parsers, checks, apply and stream parser in-process.

Every function is one call into the Go library built from this repository
(cmd/libplangram), safe from several threads (the GIL is released while Go
works) and in forked processes. See docs/python.md.
"""

from __future__ import annotations

import json
import os
import threading
from typing import Any, Optional, Union

from . import _lib
from ._types import Action, ApplyResult, Change, Diagnostic, Document, Event, Pos, Span
from .errors import (ApplyRefused, HandleError, InputTooLarge, NothingToApply, PlangramError,
                     StreamClosed, UsageError)

__all__ = [
    "parse", "check", "apply", "Stream", "Document", "Action", "Diagnostic", "Span", "Pos",
    "ApplyResult", "Change", "Event", "PlangramError", "UsageError", "InputTooLarge",
    "ApplyRefused", "NothingToApply", "StreamClosed", "HandleError",
]

Data = Union[bytes, str]
PathLike = Union[str, "os.PathLike[str]"]


def _bytes(data: object, what: str = "data") -> bytes:
    if isinstance(data, bytes):
        return data
    if isinstance(data, str):
        return data.encode("utf-8", "surrogatepass")
    raise TypeError(f"plangram: {what} must be bytes or str, not {type(data).__name__}")


def _opts(schema: Any = None, **kw: Any) -> bytes:
    o = {k: v for k, v in kw.items() if v not in (None, False, "")}
    if schema is not None:
        if isinstance(schema, (dict, list)):
            o["schema"], o["schema_name"] = json.dumps(schema), "<schema>"
        else:
            with open(schema, encoding="utf-8") as f:
                o["schema"], o["schema_name"] = f.read(), os.fspath(schema)
    for k in ("root",):
        if k in o:
            o[k] = os.fspath(o[k])
    return json.dumps(o).encode()


def parse(data: Data, *, dialect: str = "auto", schema: Any = None, filename: Optional[str] = None,
          fence: str = "auto") -> Document:
    """Parses a document (acts, plan, search-replace, udiff, apply-patch or
    tools; "auto" tells them apart) as `plangram parse` does. schema is an
    action schema file's path or its content as a dict; filename is the name
    diagnostics use ("<stdin>" by default; a .diff or .patch name means udiff
    under auto). Diagnostics are in the document, never raised."""
    b = _bytes(data)
    return Document(_lib.call_doc("plangram_parse", _opts(schema, dialect=dialect, fence=fence, filename=filename), b))


def check(data: Data, *, root: Optional[PathLike] = None, dialect: str = "auto", schema: Any = None,
          fence: str = "auto") -> list[Diagnostic]:
    """Every diagnostic of `plangram check` for the document: the parser's
    and, with root (a project directory), the workspace rules'."""
    b = _bytes(data)
    out = json.loads(_lib.call_doc("plangram_check", _opts(schema, dialect=dialect, fence=fence, root=root), b))
    return [Diagnostic.from_json(d) for f in out.get("files", []) for d in f.get("diagnostics", [])]


def apply(data: Data, *, root: PathLike, dry_run: bool = False, dialect: str = "auto", schema: Any = None,
          filename: Optional[str] = None) -> ApplyResult:
    """Applies the document's file edits to root all or nothing, as
    `plangram apply`. Raises ApplyRefused (with .result) when a check fails,
    NothingToApply when there is no edit, PlangramError when the workspace
    cannot be written (what was written is undone)."""
    b = _bytes(data)
    out = json.loads(_lib.call_doc("plangram_apply", _opts(schema, dialect=dialect, root=root, dry_run=dry_run,
                                                           filename=filename), b))
    res = ApplyResult.from_json(out)
    if out.get("error"):
        cls = {"refused": ApplyRefused, "nothing": NothingToApply}.get(out.get("class", ""))
        if cls is not None:
            raise cls(out["error"], res)
        raise PlangramError(out["error"])
    return res


class Stream:
    """An incremental parser of a model's streamed answer (docs/stream.md):
    feed() chunks as they arrive, close() at the end; the events are the
    same whatever the chunking. tools is an OpenAI or Anthropic tools list or
    an MCP tools/list result, as Python objects. Usable from one thread at a
    time per stream (calls on one stream are serialised)."""

    def __init__(self, syntax: str = "auto", tools: Any = None, *, no_thinking: bool = False,
                 in_thinking: bool = False, exact: bool = False) -> None:
        t = json.dumps(tools) if tools is not None else None
        self._pid = _lib.pid()
        self._handle: Optional[int] = _lib.stream_new(_opts(syntax=syntax, tools=t, no_thinking=no_thinking,
                                                             in_thinking=in_thinking, exact=exact))
        self._lock = threading.Lock()

    def _h(self) -> int:
        if self._pid != os.getpid():
            raise HandleError("plangram: stream made in another process (before a fork): make a new Stream")
        if self._handle is None:
            raise HandleError("plangram: stream used after free()")
        return self._handle

    @staticmethod
    def _events(b: bytes) -> list[Event]:
        return [Event.from_json(json.loads(line)) for line in b.splitlines()]

    def feed(self, chunk: Data) -> list[Event]:
        """Feeds the next chunk; returns the events it decided."""
        b = _bytes(chunk, "chunk")
        with self._lock:
            return self._events(_lib.stream_feed(self._h(), b))

    def close(self) -> list[Event]:
        """Ends the stream; returns the last events (the last is "end")."""
        with self._lock:
            return self._events(_lib.stream_close(self._h()))

    def free(self) -> None:
        """Releases the Go-side parser; the stream cannot be used after."""
        with self._lock:
            h = self._h()
            self._handle = None
            _lib.stream_free(h)

    def __enter__(self) -> "Stream":
        return self

    def __exit__(self, *exc: object) -> None:
        if self._handle is not None and self._pid == os.getpid():
            self.free()

    def __del__(self) -> None:
        try:
            if getattr(self, "_handle", None) is not None and self._pid == os.getpid():
                _lib.stream_free(self._handle)  # type: ignore[arg-type]
        except Exception:
            pass
