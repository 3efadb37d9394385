#!/usr/bin/env python3
"""Serve the built site like Netlify would, on localhost.

    python3 tools/serve.py                 # dist/ on http://localhost:8000
    python3 tools/serve.py --port 0 --dir dist

A standard-library static server that applies ``netlify.toml``'s
``[[headers]]`` (Content-Security-Policy, cache policy, ``application/wasm``)
so local runs and the e2e tests see the same headers as the deployed site,
plus Netlify's pretty URLs (``/rules`` -> ``rules.html``) and its default
``Cache-Control: public, max-age=0, must-revalidate`` where no rule sets one.
The e2e tests import :func:`make_server`.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import re
import sys
import threading
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NETLIFY_DEFAULT_CACHE = "public, max-age=0, must-revalidate"

TYPES = {
    ".wasm": "application/wasm",
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".svg": "image/svg+xml",
    ".zip": "application/zip",
    ".toml": "text/plain; charset=utf-8",
    ".py": "text/plain; charset=utf-8",
}


def _pattern(path_glob: str) -> re.Pattern[str]:
    """Netlify's ``for`` pattern: ``*`` matches anything, ``:name`` one segment."""
    parts = re.split(r"(\*|:[A-Za-z_]\w*)", path_glob)
    regex = "".join(
        ".*" if part == "*" else "[^/]+" if part.startswith(":") else re.escape(part) for part in parts
    )
    return re.compile(regex + r"\Z")


def load_header_rules(netlify_toml: Path) -> list[tuple[re.Pattern[str], dict[str, str]]]:
    if not netlify_toml.is_file():
        return []
    config = tomllib.loads(netlify_toml.read_text())
    rules = []
    for rule in config.get("headers", []):
        values = {name: " ".join(str(value).split()) for name, value in rule.get("values", {}).items()}
        rules.append((_pattern(rule["for"]), values))
    return rules


def headers_for(rules, url_path: str) -> dict[str, str]:
    """Headers that apply to ``url_path`` (later rules override earlier ones)."""
    found: dict[str, str] = {}
    for pattern, values in rules:
        if pattern.match(url_path):
            found.update(values)
    return found


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **TYPES}
    rules: list = []
    quiet = False

    def send_head(self):
        path = self.path.split("?", 1)[0].split("#", 1)[0]
        local = Path(self.translate_path(path))
        # Netlify pretty URLs: /rules -> /rules.html
        if not local.exists() and not path.endswith("/") and local.with_name(local.name + ".html").is_file():
            self.path = path + ".html"
        return super().send_head()

    def end_headers(self):
        path = self.path.split("?", 1)[0]
        if path.endswith("/"):
            path += "index.html"
        extra = headers_for(self.rules, path)
        extra.setdefault("Cache-Control", NETLIFY_DEFAULT_CACHE)
        for name, value in extra.items():
            if name.lower() == "content-type":
                continue  # set by guess_type below, from the same table
            self.send_header(name, value)
        super().end_headers()

    def guess_type(self, path):
        for pattern, values in self.rules:
            if pattern.match(self.path.split("?", 1)[0]):
                for name, value in values.items():
                    if name.lower() == "content-type":
                        return value
        return super().guess_type(path)

    def log_message(self, format, *args):  # noqa: A002 (the stdlib's name)
        if not self.quiet:
            super().log_message(format, *args)


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        # A browser that drops a connection (navigation, offline test) is normal.
        if isinstance(sys.exc_info()[1], (ConnectionResetError, BrokenPipeError)):
            return
        super().handle_error(request, client_address)


def make_server(directory: Path, host: str = "127.0.0.1", port: int = 0, *, quiet: bool = True,
                netlify_toml: Path = ROOT / "netlify.toml") -> http.server.ThreadingHTTPServer:
    """A threading server for ``directory`` (port 0: a free port, see ``server_port``)."""
    handler = type("SiteHandler", (Handler,), {"rules": load_header_rules(netlify_toml), "quiet": quiet})
    return _Server((host, port), functools.partial(handler, directory=str(directory)))


def serve_in_thread(directory: Path, **kwargs):
    """Start :func:`make_server` in a daemon thread; returns ``(server, base_url)``."""
    server = make_server(directory, **kwargs)
    thread = threading.Thread(target=server.serve_forever, name="site-server", daemon=True)
    thread.start()
    host, port = server.server_address[:2]
    return server, f"http://{host}:{port}/"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Serve the built site with netlify.toml's headers.")
    parser.add_argument("--dir", type=Path, default=ROOT / "dist", help="folder to serve (default: dist/)")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--quiet", action="store_true", help="no request log")
    args = parser.parse_args(argv)
    if not (args.dir / "index.html").is_file():
        print(f"serve: {args.dir}/index.html not found: build first (python3 tools/build_site.py)",
              file=sys.stderr)
        return 2
    server = make_server(args.dir, args.host, args.port, quiet=args.quiet)
    host, port = server.server_address[:2]
    shown = "localhost" if host in ("127.0.0.1", "::1") else host
    print(f"Serving {args.dir} on http://{shown}:{port}/ (Ctrl-C to stop)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
