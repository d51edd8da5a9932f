"""Load the built documentation in a real headless browser and fail on any console error.

Serves ``docs/_build/html`` from a local ``http.server`` on 127.0.0.1, opens the home page, an API
page and a rendered notebook page in Chromium (the distribution's package, driven by Playwright's
Python package; no browser is downloaded), and fails when a page does not load, lacks what it should
show, or logs an error to the console (or throws one, or a request fails). Screenshots go to
``--screenshots`` (default ``docs/_build/screenshots``).

Set-up on Debian or Ubuntu, once::

    apt-get install -y chromium
    pip install playwright          # the Python package only: no `playwright install`

Then, after ``sphinx-build -b html docs docs/_build/html``::

    python docs/check_site.py [--chromium /usr/bin/chromium]
"""

from __future__ import annotations

import argparse
import functools
import http.server
import shutil
import sys
import threading
from pathlib import Path

HERE = Path(__file__).resolve().parent

# (path, text the page must contain, screenshot name)
PAGES = [
    ("index.html", "Getting started", "home.png"),
    ("api/generated/grundy.Position.html", "winning_moves", "api_position.png"),
    ("examples/nim_and_mex.html", "nim-sum of [10, 12, 5] = 3", "notebook_nim_and_mex.png"),
]


def find_chromium(given: str | None) -> str:
    for name in ([given] if given else []) + ["chromium", "chromium-browser", "google-chrome"]:
        path = shutil.which(name) if name else None
        if path:
            return path
    sys.exit("no Chromium found: apt-get install -y chromium (or pass --chromium PATH)")


def serve(root: Path) -> tuple[http.server.ThreadingHTTPServer, str]:
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(root)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, default=HERE / "_build" / "html")
    parser.add_argument("--chromium", help="path of the Chromium executable (default: found on PATH)")
    parser.add_argument("--screenshots", type=Path, default=HERE / "_build" / "screenshots")
    args = parser.parse_args()

    from playwright.sync_api import sync_playwright

    if not (args.site / "index.html").exists():
        sys.exit(f"no site at {args.site}: build it first (sphinx-build -b html docs docs/_build/html)")
    args.screenshots.mkdir(parents=True, exist_ok=True)
    server, base = serve(args.site)
    problems: list[str] = []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=find_chromium(args.chromium), headless=True)
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            errors: list[str] = []
            page.on("console", lambda m: errors.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
            page.on("pageerror", lambda e: errors.append(f"uncaught: {e}"))
            page.on("requestfailed", lambda r: errors.append(f"request failed: {r.url} ({r.failure})"))
            page.on("response", lambda r: errors.append(f"HTTP {r.status}: {r.url}") if r.status >= 400 else None)
            for path, must_show, shot in PAGES:
                errors.clear()
                response = page.goto(base + path, wait_until="networkidle")
                status = response.status if response else None
                text = page.inner_text("body")
                page.screenshot(path=str(args.screenshots / shot), full_page=False)
                found = must_show in text
                print(
                    f"{path}: HTTP {status}, title {page.title()!r}, {len(text)} characters of text, "
                    f"{'shows' if found else 'MISSING'} {must_show!r}, {len(errors)} console errors"
                )
                if status != 200:
                    problems.append(f"{path}: HTTP {status}")
                if not found:
                    problems.append(f"{path}: does not show {must_show!r}")
                problems += [f"{path}: {e}" for e in errors]
            browser.close()
    finally:
        server.shutdown()
    for problem in problems:
        print("FAIL", problem, file=sys.stderr)
    print(f"screenshots in {args.screenshots}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
