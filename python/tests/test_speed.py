"""A call across the boundary is at least 20x cheaper than spawning the CLI per 1 KB document."""

import subprocess
import time

import plangram

from conftest import REPO


def test_one_kb_call_vs_cli_spawn(cli):
    one = (REPO / "examples/acts.md").read_bytes()
    doc = (one * (1024 // len(one) + 1))[:1024]

    def best(f, n, reps=3):
        ts = []
        for _ in range(reps):
            t0 = time.perf_counter()
            for _ in range(n):
                f()
            ts.append((time.perf_counter() - t0) / n)
        return min(ts)

    want = subprocess.run([cli, "parse", "-"], input=doc, capture_output=True).stdout
    assert plangram.parse(doc).to_json_bytes() == want
    call = best(lambda: plangram.parse(doc).to_json(), 300)
    spawn = best(lambda: subprocess.run([cli, "parse", "-"], input=doc, capture_output=True), 10)
    assert spawn / call >= 20, f"binding {call * 1e6:.0f} µs/call, CLI {spawn * 1e3:.1f} ms/doc"
