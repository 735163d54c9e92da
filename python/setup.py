"""Build hook: compiles the Go C ABI (cmd/libplangram) into the package.

`pip install ./python` runs `go build -buildmode=c-shared` against the Go
module at the repository root (the parent of this directory, or
$PLANGRAM_GO_MODULE), so the wheel carries the library for its platform.
"""

import os
import subprocess
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

HERE = Path(__file__).resolve().parent


def libname() -> str:
    if sys.platform == "darwin":
        return "libplangram.dylib"
    if sys.platform == "win32":
        return "libplangram.dll"
    return "libplangram.so"


class BuildGo(build_py):
    def run(self) -> None:
        super().run()
        module = Path(os.environ.get("PLANGRAM_GO_MODULE", HERE.parent)).resolve()
        if not (module / "go.mod").is_file():
            raise SystemExit(f"plangram: no go.mod at {module}: set PLANGRAM_GO_MODULE to the plangram Go module")
        dest = Path(self.build_lib, "plangram", libname()).resolve()
        dest.parent.mkdir(parents=True, exist_ok=True)
        env = dict(os.environ, CGO_ENABLED="1")
        subprocess.run(
            ["go", "build", "-buildmode=c-shared", "-o", str(dest), "./cmd/libplangram"],
            cwd=module, env=env, check=True,
        )
        header = dest.with_suffix(".h")
        if header.exists():
            header.unlink()


class BinaryDistribution(Distribution):
    """The wheel carries a platform library: it is not pure Python."""

    def has_ext_modules(self) -> bool:
        return True


setup(cmdclass={"build_py": BuildGo}, distclass=BinaryDistribution)
