"""Loading of the Go library and the calls across its C ABI.

Each call is one call into the library (cmd/libplangram); ctypes releases
the GIL while Go works. The Go runtime does not survive fork(): its threads
are gone in the child, and a call into the library loaded before the fork
never returns. A process therefore uses the library only if it loaded it
itself: a forked child that inherited a loaded library loads a fresh copy of
the file (a copy, so that the dynamic loader maps a second instance with its
own runtime) on its first call. Objects holding stream handles of another
process refuse to be used.
"""

from __future__ import annotations

import ctypes
import os
import shutil
import tempfile
import threading
from pathlib import Path
from typing import Optional

from .errors import raise_error

_NAMES = ("libplangram.so", "libplangram.dylib", "libplangram.dll")

_c = ctypes
_OUT = (_c.POINTER(_c.c_void_p), _c.POINTER(_c.c_size_t))


def library_path() -> Path:
    """The library file shipped in the package ($PLANGRAM_LIBRARY overrides)."""
    env = os.environ.get("PLANGRAM_LIBRARY")
    if env:
        return Path(env)
    here = Path(__file__).resolve().parent
    for n in _NAMES:
        if (here / n).exists():
            return here / n
    raise ImportError(f"plangram: no Go library in {here}: install the package with `pip install ./python` (it needs Go)")


def _declare(lib: ctypes.CDLL) -> ctypes.CDLL:
    docs = [_c.c_char_p, _c.c_size_t, _c.c_char_p, _c.c_size_t, *_OUT]
    for name in ("plangram_parse", "plangram_check", "plangram_apply"):
        getattr(lib, name).argtypes = docs
    lib.plangram_stream_new.argtypes = [_c.c_char_p, _c.c_size_t, _c.POINTER(_c.c_int64)]
    lib.plangram_stream_feed.argtypes = [_c.c_int64, _c.c_char_p, _c.c_size_t, *_OUT]
    lib.plangram_stream_close.argtypes = [_c.c_int64, *_OUT]
    lib.plangram_stream_free.argtypes = [_c.c_int64]
    for name in ("plangram_parse", "plangram_check", "plangram_apply", "plangram_stream_new",
                 "plangram_stream_feed", "plangram_stream_close", "plangram_stream_free"):
        getattr(lib, name).restype = _c.c_void_p  # the error string, freed by plangram_free
    lib.plangram_free.argtypes = [_c.c_void_p]
    lib.plangram_free.restype = None
    return lib


class _Loaded:
    """The library as loaded by one process."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.pid = 0
        self.lib: Optional[ctypes.CDLL] = None
        self.inherited = False  # a library was loaded before a fork


_state = _Loaded()


def _after_fork() -> None:
    # The lock may have been held by a thread that does not exist in the
    # child; the library of the parent must not be called again.
    global _state
    inherited = _state.lib is not None or _state.inherited
    _state = _Loaded()
    _state.inherited = inherited


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork)


def lib() -> ctypes.CDLL:
    """The library loaded by this process, loading it on first use."""
    st = _state
    if st.lib is not None and st.pid == os.getpid():
        return st.lib
    with st.lock:
        if st.lib is not None and st.pid != os.getpid():
            # Forked without register_at_fork running (os.fork from C).
            st.lib, st.inherited = None, True
        if st.lib is None:
            path = library_path()
            if st.inherited:
                with tempfile.TemporaryDirectory(prefix="plangram-") as d:
                    copy = Path(d) / path.name
                    shutil.copyfile(path, copy)
                    st.lib = _declare(ctypes.CDLL(str(copy)))  # mapped: the file can go
            else:
                st.lib = _declare(ctypes.CDLL(str(path)))
            st.pid = os.getpid()
        return st.lib


def pid() -> int:
    """The process whose library holds the handles made now."""
    lib()
    return _state.pid


def _take(l: ctypes.CDLL, err: Optional[int], out: _c.c_void_p, n: _c.c_size_t) -> bytes:
    if err:
        msg = _c.string_at(err).decode("utf-8", "replace")
        l.plangram_free(err)
        if out.value:
            l.plangram_free(out)
        raise_error(msg)
    if not out.value:
        return b""
    try:
        return _c.string_at(out.value, n.value)
    finally:
        l.plangram_free(out)


def call_doc(fn: str, opts: bytes, data: bytes) -> bytes:
    """parse, check or apply: options JSON and a document in, JSON out."""
    l = lib()
    out, n = _c.c_void_p(), _c.c_size_t()
    err = getattr(l, fn)(opts, len(opts), data, len(data), _c.byref(out), _c.byref(n))
    return _take(l, err, out, n)


def stream_new(opts: bytes) -> int:
    l = lib()
    h = _c.c_int64()
    err = l.plangram_stream_new(opts, len(opts), _c.byref(h))
    _take(l, err, _c.c_void_p(), _c.c_size_t())
    return h.value


def stream_feed(h: int, data: bytes) -> bytes:
    l = lib()
    out, n = _c.c_void_p(), _c.c_size_t()
    return _take(l, l.plangram_stream_feed(h, data, len(data), _c.byref(out), _c.byref(n)), out, n)


def stream_close(h: int) -> bytes:
    l = lib()
    out, n = _c.c_void_p(), _c.c_size_t()
    return _take(l, l.plangram_stream_close(h, _c.byref(out), _c.byref(n)), out, n)


def stream_free(h: int) -> None:
    l = lib()
    _take(l, l.plangram_stream_free(h), _c.c_void_p(), _c.c_size_t())
