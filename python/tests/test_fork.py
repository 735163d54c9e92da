"""A process that called plangram forks; the child calls plangram (docs/python.md, "Fork").

The Go runtime loaded before a fork never returns from a call in the child:
the package loads a fresh copy of the library there. A hang is a failure:
every child is waited for with a timeout."""

import multiprocessing
import os
import signal
import threading
import time

import pytest

import plangram

DOC = "~~~act\nwrite_file a.py\n~~~\n\n~~~\nx = 1\n~~~\n" * 50


def wait(pid, timeout=60):
    end = time.time() + timeout
    while time.time() < end:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return status
        time.sleep(0.02)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    pytest.fail("the forked child hung")


def child_work(want):
    assert plangram.parse(DOC).to_json() == want
    s = plangram.Stream(syntax="acts")
    s.feed(DOC)
    assert s.close()[-1].type == "end"
    ts = [threading.Thread(target=lambda: [plangram.parse(DOC * 20) for _ in range(8)]) for _ in range(3)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork")
def test_fork_after_use_while_threads_call():
    want = plangram.parse(DOC).to_json()
    stop = threading.Event()

    def busy():  # Go is working in the parent when it forks
        while not stop.is_set():
            plangram.parse(DOC * 20)

    ts = [threading.Thread(target=busy) for _ in range(2)]
    for t in ts:
        t.start()
    try:
        for _ in range(3):
            pid = os.fork()
            if pid == 0:
                code = 1
                try:
                    child_work(want)
                    # and a grandchild of a child that loaded its own copy
                    gpid = os.fork()
                    if gpid == 0:
                        os._exit(0 if plangram.parse(DOC).to_json() == want else 1)
                    code = os.waitstatus_to_exitcode(wait(gpid))
                finally:
                    os._exit(code)
            assert os.waitstatus_to_exitcode(wait(pid)) == 0
    finally:
        stop.set()
        for t in ts:
            t.join()
    assert plangram.parse(DOC).to_json() == want  # the parent is unaffected


def _pool_job(i):
    return plangram.parse(DOC * (i + 1)).to_json()


@pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(), reason="no fork")
def test_multiprocessing_fork_pool():
    want = [plangram.parse(DOC * (i + 1)).to_json() for i in range(8)]
    with multiprocessing.get_context("fork").Pool(2) as pool:
        assert pool.map_async(_pool_job, range(8)).get(timeout=120) == want


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork")
def test_stream_of_parent_refused_in_child():
    s = plangram.Stream()
    s.feed("hello")
    pid = os.fork()
    if pid == 0:
        try:
            s.feed("more")
            os._exit(1)
        except plangram.HandleError:
            os._exit(0)
        except BaseException:
            os._exit(2)
    assert os.waitstatus_to_exitcode(wait(pid)) == 0
    assert s.close()[-1].type == "end"  # still the parent's
