"""Times the binding against the CLI and the Go API (docs/benchmarks.md).

    python python/benchmarks/bench.py [--cli PATH]

1 KB plan: one parse() call against one `plangram parse -` process per
document. 10 MB of acts (BenchmarkParseJSON10MB's input, which it writes):
parse(data).to_json() against that benchmark, run by this script.
"""

import argparse
import os
import re
import subprocess
import tempfile
import time
from pathlib import Path

import plangram

REPO = Path(__file__).resolve().parents[2]


def best(f, n, reps=5):
    """The best time of one call of f over reps rounds of n calls."""
    t = []
    for _ in range(reps):
        t0 = time.perf_counter()
        for _ in range(n):
            f()
        t.append((time.perf_counter() - t0) / n)
    return min(t)


def one_kb() -> bytes:
    one = (REPO / "examples/acts.md").read_bytes()
    return (one * (1024 // len(one) + 1))[:1024]


def go_ns_per_op(input_file: str) -> float:
    """BenchmarkParseJSON10MB's fastest ns/op; it writes its input to input_file."""
    env = dict(os.environ, PLANGRAM_BENCH_INPUT=input_file)
    out = subprocess.run(["go", "test", "./cmd/libplangram", "-run", "^$", "-bench", "ParseJSON10MB",
                          "-benchtime", "5x", "-count", "3"], cwd=REPO, env=env, capture_output=True, text=True,
                         check=True).stdout
    return min(float(m) for m in re.findall(r"\s([\d.]+) ns/op", out))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli")
    args = ap.parse_args()
    cli = args.cli
    if cli is None:
        cli = str(Path(tempfile.mkdtemp()) / "plangram")
        subprocess.run(["go", "build", "-o", cli, "./cmd/plangram"], cwd=REPO, check=True)
    small = one_kb()
    py = best(lambda: plangram.parse(small).to_json(), 2000)
    spawn = best(lambda: subprocess.run([cli, "parse", "-"], input=small, capture_output=True), 20)
    print(f"1 KB plan: binding {py * 1e6:.1f} µs/call, CLI spawned {spawn * 1e3:.2f} ms/doc: {spawn / py:.0f}x")
    input_file = str(Path(tempfile.mkdtemp()) / "acts10mb.md")
    go10 = go_ns_per_op(input_file) / 1e9
    big = Path(input_file).read_bytes()
    py10 = best(lambda: plangram.parse(big).to_json(), 1, reps=5)
    print(f"10 MB: parse().to_json() {py10 * 1e3:.0f} ms, Go parse+JSON {go10 * 1e3:.0f} ms: {py10 / go10:.2f}x")


if __name__ == "__main__":
    main()
