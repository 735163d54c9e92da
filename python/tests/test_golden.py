"""parse(data).to_json() is byte for byte `plangram parse --format json`."""

import subprocess
from concurrent.futures import ThreadPoolExecutor

import plangram

from conftest import REPO, golden_inputs


def test_golden_json_identical(cli):
    paths = golden_inputs()
    assert len(paths) > 500

    def one(rel):
        want = subprocess.run([cli, "parse", "--format", "json", str(rel)], cwd=REPO, capture_output=True)
        data = (REPO / rel).read_bytes()
        if want.returncode == 2:  # a usage error: the binding raises
            return rel, None, want.stderr
        got = plangram.parse(data, filename=str(rel)).to_json_bytes()
        return rel, got, want.stdout

    with ThreadPoolExecutor(4) as ex:
        results = list(ex.map(one, paths))
    bad = [str(rel) for rel, got, want in results if got is not None and got != want]
    assert bad == []
    assert sum(got is not None for _, got, _ in results) > 500


def test_stdin_name(cli):
    """Without filename, the document is named as standard input is."""
    data = b"~~~act\nfrobnicate\n~~~\n"
    want = subprocess.run([cli, "parse", "-"], input=data, capture_output=True).stdout
    assert plangram.parse(data).to_json_bytes() == want
