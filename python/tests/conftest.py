import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def repo() -> Path:
    return REPO


@pytest.fixture(scope="session")
def cli(tmp_path_factory) -> str:
    """The plangram binary built from this repository."""
    exe = tmp_path_factory.mktemp("bin") / "plangram"
    subprocess.run(["go", "build", "-o", str(exe), "./cmd/plangram"], cwd=REPO, check=True)
    return str(exe)


def golden_inputs() -> list[Path]:
    """Every input file under golden/ (not the .golden outputs), as paths relative to the repo."""
    out = []
    for p in sorted((REPO / "golden").rglob("*")):
        if p.is_file() and not p.name.endswith(".golden"):
            out.append(p.relative_to(REPO))
    return out
