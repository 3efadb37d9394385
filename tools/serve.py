#!/usr/bin/env python3
"""Serve the built site like Netlify would, on localhost.

    python3 tools/serve.py                 # dist/ on http://localhost:8000
    python3 tools/serve.py --port 0 --dir dist

A standard-library static server that applies ``netlify.toml``'s
``[[headers]]`` (Content-Security-Policy, cache policy, ``application/wasm``)
so local runs and the e2e tests see the same headers as the deployed site,
plus Netlify's pretty URLs (``/rules`` -> ``rules.html``), its default
``Cache-Control: public, max-age=0, must-revalidate`` where no rule sets one,
and its compression: text, JavaScript, JSON, SVG and WebAssembly go out
gzip-compressed (``Content-Encoding: gzip``, ``Vary: Accept-Encoding``) to a
client that accepts it; images and zips (already compressed) as they are.
Netlify may pick brotli where the browser offers it, a few percent smaller
than gzip; the standard library has no brotli, so this server stays on gzip,
at level 9 (each file is compressed once and kept in memory).
``--no-compress`` turns it off. The e2e tests import :func:`make_server`.
"""

from __future__ import annotations

import argparse
import email.utils
import functools
import gzip
import http.server
import io
import os
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


#: Content types sent compressed (prefixes), as a CDN does.
COMPRESSED_TYPES = ("text/", "application/javascript", "application/json", "application/manifest+json",
                    "application/wasm", "image/svg+xml")
#: Smaller files are not worth a Content-Encoding.
MIN_COMPRESS_BYTES = 256


def _accepts_gzip(header: str | None) -> bool:
    """Whether an ``Accept-Encoding`` value allows gzip (``q=0`` refuses it)."""
    for item in (header or "").split(","):
        name, _, params = item.strip().partition(";")
        if name.strip().lower() in ("gzip", "*"):
            q = params.strip()
            return not (q.startswith("q=") and float(q[2:] or 0) == 0)
    return False


@functools.lru_cache(maxsize=512)
def _gzipped(path: str, mtime_ns: int, size: int) -> bytes:
    """``path``'s bytes, gzip level 9 (cached per file version; mtime 0 so the
    bytes depend on the content only)."""
    with open(path, "rb") as handle:
        return gzip.compress(handle.read(), compresslevel=9, mtime=0)


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
    # Keep-alive, as a CDN (which speaks HTTP/2) does: every response carries
    # its Content-Length, so connections are reused.
    protocol_version = "HTTP/1.1"
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **TYPES}
    rules: list = []
    quiet = False
    compress = True

    def send_head(self):
        path = self.path.split("?", 1)[0].split("#", 1)[0]
        local = Path(self.translate_path(path))
        # Netlify pretty URLs: /rules -> /rules.html
        if not local.exists() and not path.endswith("/") and local.with_name(local.name + ".html").is_file():
            self.path = path + ".html"
        if self.compress:
            compressed = self._send_compressed_head()
            if compressed is not None:
                return compressed
        return super().send_head()

    def _send_compressed_head(self):
        """Headers for a gzip-compressed body, returned as a file object, or
        None to leave the request to the plain handler (directories, missing
        files, types not compressed, a client that does not accept gzip)."""
        local = self.translate_path(self.path)
        if not os.path.isfile(local) or not _accepts_gzip(self.headers.get("Accept-Encoding")):
            return None
        ctype = self.guess_type(local)
        stat = os.stat(local)
        if not ctype.startswith(COMPRESSED_TYPES) or stat.st_size < MIN_COMPRESS_BYTES:
            return None
        if self._not_modified(stat.st_mtime):
            return None  # the plain handler answers it: 304 Not Modified
        body = _gzipped(local, stat.st_mtime_ns, stat.st_size)
        self.send_response(http.HTTPStatus.OK)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Vary", "Accept-Encoding")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Last-Modified", self.date_time_string(stat.st_mtime))
        self.end_headers()
        return io.BytesIO(body)

    def _not_modified(self, mtime: float) -> bool:
        since = self.headers.get("If-Modified-Since")
        if not since or self.headers.get("If-None-Match"):
            return False
        try:
            return int(mtime) <= email.utils.parsedate_to_datetime(since).timestamp()
        except (TypeError, ValueError, IndexError, OverflowError):
            return False

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


def allow_connect(rules, sources: list[str]):
    """``rules`` with ``sources`` (e.g. ``ws://127.0.0.1:7000``) added to every
    Content-Security-Policy's ``connect-src``: the policy of a page that was
    started with ``relay=`` naming those relays (the e2e tests' loopback relay)."""
    out = []
    for pattern, values in rules:
        values = dict(values)
        for name, value in values.items():
            if name.lower() == "content-security-policy":
                directives = [d.strip() for d in value.split(";")]
                directives = [d + " " + " ".join(sources) if d.startswith("connect-src ") else d for d in directives]
                values[name] = "; ".join(directives)
        out.append((pattern, values))
    return out


def make_server(directory: Path, host: str = "127.0.0.1", port: int = 0, *, quiet: bool = True,
                netlify_toml: Path = ROOT / "netlify.toml",
                compress: bool = True, connect_src: list[str] = ()) -> http.server.ThreadingHTTPServer:
    """A threading server for ``directory`` (port 0: a free port, see ``server_port``);
    ``compress``: gzip as Netlify does; ``connect_src``: origins added to the
    policy's ``connect-src`` (:func:`allow_connect`)."""
    rules = load_header_rules(netlify_toml)
    if connect_src:
        rules = allow_connect(rules, list(connect_src))
    handler = type("SiteHandler", (Handler,),
                   {"rules": rules, "quiet": quiet, "compress": compress})
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
    parser.add_argument("--no-compress", action="store_true", help="send files uncompressed")
    args = parser.parse_args(argv)
    if not (args.dir / "index.html").is_file():
        print(f"serve: {args.dir}/index.html not found: build first (python3 tools/build_site.py)",
              file=sys.stderr)
        return 2
    server = make_server(args.dir, args.host, args.port, quiet=args.quiet, compress=not args.no_compress)
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
