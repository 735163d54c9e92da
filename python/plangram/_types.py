"""The typed results: built from the library's JSON only when asked for."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Optional


@dataclass(frozen=True)
class Pos:
    """A position: byte offset, 1-based line and column."""

    offset: int
    line: int
    col: int

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> "Pos":
        return cls(d.get("offset", 0), d.get("line", 0), d.get("col", 0))


@dataclass(frozen=True)
class Span:
    """A byte range of the input, start inclusive, end exclusive."""

    start: Pos
    end: Pos

    @classmethod
    def from_json(cls, d: Optional[dict[str, Any]]) -> Optional["Span"]:
        if d is None:
            return None
        return cls(Pos.from_json(d.get("start", {})), Pos.from_json(d.get("end", {})))


@dataclass(frozen=True)
class Diagnostic:
    """One finding: severity ("error", "warning", "note", "info"), code, message, where."""

    severity: str
    code: str
    message: str
    span: Optional[Span]
    detail: str = ""
    related: list[dict[str, Any]] = field(default_factory=list)

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> "Diagnostic":
        return cls(d.get("severity", ""), d.get("code", ""), d.get("message", ""),
                   Span.from_json(d.get("span")), d.get("detail", ""), d.get("related", []))

    def format(self, file: str = "<stdin>") -> str:
        """`FILE:LINE:COL: severity: message [code]`, as the CLI prints it."""
        line, col = (self.span.start.line, self.span.start.col) if self.span else (0, 0)
        s = f"{file}:{line}:{col}: {self.severity}: {self.message}"
        return s + (f" [{self.code}]" if self.code else "")


@dataclass(frozen=True)
class Action:
    """One action: its name, params (by name), blocks and span; raw is its whole JSON object."""

    name: str
    params: dict[str, Any]
    span: Optional[Span]
    raw: dict[str, Any]

    @property
    def args(self) -> list[str]:
        return list(self.raw.get("args", []))

    @property
    def blocks(self) -> list[dict[str, Any]]:
        return list(self.raw.get("blocks", []))

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> "Action":
        return cls(d.get("name", ""), d.get("params", {}) or {}, Span.from_json(d.get("span")), d)


class Document:
    """A parsed document. Holds the library's JSON; the Python objects are
    built on first access (to_json() builds none)."""

    __slots__ = ("_json", "__dict__")

    def __init__(self, data: bytes) -> None:
        self._json = data

    def to_json(self) -> str:
        """Exactly what `plangram parse --format json` prints for the same input."""
        return self._json.decode("utf-8")

    def to_json_bytes(self) -> bytes:
        """to_json() as the bytes the CLI writes."""
        return self._json

    @cached_property
    def raw(self) -> dict[str, Any]:
        """The JSON as Python values."""
        v: dict[str, Any] = json.loads(self._json)
        return v

    @property
    def dialect(self) -> str:
        return str(self.raw.get("dialect", ""))

    @cached_property
    def actions(self) -> list[Action]:
        return [Action.from_json(a) for a in self.raw.get("actions", [])]

    @cached_property
    def diagnostics(self) -> list[Diagnostic]:
        return [Diagnostic.from_json(d) for d in self.raw.get("diagnostics", [])]

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error"]

    def __repr__(self) -> str:
        return f"<plangram.Document {len(self._json)} bytes of JSON>"


@dataclass(frozen=True)
class Change:
    """One file change of an apply: kind "A" (added), "M" (modified) or "D" (deleted)."""

    path: str
    kind: str
    moved_from: str = ""


@dataclass(frozen=True)
class ApplyResult:
    """What apply did (or, with dry_run, would do)."""

    applied: bool
    already_applied: bool
    changes: list[Change]
    diagnostics: list[Diagnostic]

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> "ApplyResult":
        return cls(bool(d.get("applied")), bool(d.get("already_applied")),
                   [Change(c["path"], c["kind"], c.get("moved_from", "")) for c in d.get("changes", [])],
                   [Diagnostic.from_json(x) for x in d.get("diagnostics", [])])


@dataclass(frozen=True)
class Event:
    """One stream event (docs/stream.md): type is "text", "thinking",
    "tool_call_start", "param_delta", "tool_call", "error", "diagnostic", "end", …; raw is
    the whole JSON object, as `plangram stream` prints it."""

    type: str
    raw: dict[str, Any]

    @property
    def id(self) -> Optional[int]:
        return self.raw.get("id")

    @property
    def name(self) -> Optional[str]:
        return self.raw.get("name")

    @property
    def text(self) -> Optional[str]:
        return self.raw.get("text")

    @property
    def params(self) -> Optional[dict[str, Any]]:
        return self.raw.get("params")

    @property
    def span(self) -> Optional[Span]:
        return Span.from_json(self.raw.get("span"))

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> "Event":
        return cls(str(d.get("type", "")), d)
