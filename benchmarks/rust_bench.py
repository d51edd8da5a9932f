"""Build one of the Rust timing programs of ``benches/`` and print the path of its executable.

    python benchmarks/rust_bench.py sparse_bench          # builds it (bench profile) and prints its path
    "$(python benchmarks/rust_bench.py board_bench)" cram 5 7

``cargo bench --bench NAME -- ARGS`` runs one directly; scripts that time a program against a peer
call the executable itself, so that cargo's own start is not timed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

#: The repository root (the bench targets are its package's).
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir)


def executable(name: str) -> str:
    """The path of the bench target ``name``'s executable, built first (``cargo bench --no-run``)."""
    out = subprocess.run(
        ["cargo", "bench", "--quiet", "--no-run", "--bench", name, "--message-format=json"],
        check=True, capture_output=True, text=True, cwd=ROOT,
    ).stdout
    for line in out.splitlines():
        msg = json.loads(line)
        built = msg.get("reason") == "compiler-artifact" and msg.get("target", {}).get("name") == name
        if built and msg.get("executable"):
            return str(msg["executable"])
    raise SystemExit(f"cargo built no executable for the bench target {name!r}")


def load_average() -> str:
    """The load averages over 1, 5 and 15 minutes, which a timing script prints beside its times."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    print(executable(sys.argv[1]))
