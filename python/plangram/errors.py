"""The exceptions plangram raises."""

from __future__ import annotations

from typing import NoReturn


class PlangramError(Exception):
    """An error of the Go library, with the message the CLI prints."""


class UsageError(PlangramError, ValueError):
    """Bad options: an unknown dialect, a schema or tools list that does not load, a bad root."""


class InputTooLarge(PlangramError):
    """An input (a document, or a chunk fed to a stream) over the library's limit (256 MiB)."""


class ApplyRefused(PlangramError):
    """apply wrote nothing: a check failed (the diagnostics say which) or there was nothing to apply."""

    def __init__(self, message: str, result: object = None) -> None:
        super().__init__(message)
        self.result = result


class NothingToApply(ApplyRefused):
    """apply wrote nothing: the plan has no file edit (as `plangram apply` exit 1)."""


class StreamClosed(PlangramError):
    """A stream was fed or closed after close()."""


class HandleError(PlangramError):
    """A stream used after free, or made in another process (before a fork)."""


_CLASSES: dict[str, type[PlangramError]] = {
    "usage": UsageError,
    "limit": InputTooLarge,
    "refused": ApplyRefused,
    "nothing": NothingToApply,
    "closed": StreamClosed,
    "handle": HandleError,
}


def raise_error(s: str) -> NoReturn:
    """Raises the exception of an error string "CLASS\\tMESSAGE" of the library."""
    cls, _, msg = s.partition("\t")
    raise _CLASSES.get(cls, PlangramError)(msg)
