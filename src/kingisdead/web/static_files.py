"""The app's own files under /static: scripts and style sheets minified, the rest as they are; text gzipped.

The sources stay readable in the package; what travels has no comments and no layout. On the table's first
load that is a fifth of the bytes a phone waits for (docs/performance.md, bench_table_paint.py). The
minifiers are rjsmin and rcssmin (ndparker): token-level, no renaming, so a stack trace still names the
functions. rjsmin keeps an unnested template literal whole; a template nested inside another's ``${}`` is
not supported, and the browser tests load every script through here.

Text files (scripts, styles, board data, the SVG) are gzipped once per version of the file, not for every
request: each visitor's first load fetches every script, and compressing them again at gzip's level 9 was a
seventh of a served test process's CPU time.
"""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
import os
from collections.abc import Callable
from email.utils import formatdate
from functools import lru_cache
from pathlib import Path

import rcssmin
import rjsmin
from starlette.datastructures import Headers
from starlette.responses import Response
from starlette.staticfiles import NotModifiedResponse, StaticFiles
from starlette.types import Scope

MINIFIERS: dict[str, Callable[[str], str]] = {".js": rjsmin.jsmin, ".css": rcssmin.cssmin}
TEXT = frozenset({*MINIFIERS, ".json", ".svg"})
"""The suffixes of the files served gzipped to a browser that accepts it (PNG is compressed already)."""


@lru_cache(maxsize=64)
def minified(path: str, modified_ns: int, size: int) -> bytes:
    """The file at ``path`` minified if a script or style sheet, else as it is; the modification time and size
    key the cache (a file edited is read again)."""
    minify = MINIFIERS.get(Path(path).suffix)
    return minify(Path(path).read_text(encoding="utf-8")).encode("utf-8") if minify else Path(path).read_bytes()


@lru_cache(maxsize=64)
def gzipped(path: str, modified_ns: int, size: int) -> bytes:
    """:func:`minified`'s body gzipped (level 9, no timestamp: the same bytes every time)."""
    return gzip.compress(minified(path, modified_ns, size), compresslevel=9, mtime=0)


@lru_cache(maxsize=64)
def etag(path: str, modified_ns: int, size: int) -> str:
    """The ETag of :func:`minified`'s body: its MD5 digest, quoted."""
    return f'"{hashlib.md5(minified(path, modified_ns, size), usedforsecurity=False).hexdigest()}"'


class MinifiedStaticFiles(StaticFiles):
    """Starlette's StaticFiles, serving ``.js`` and ``.css`` files minified, and text files (:data:`TEXT`)
    gzipped, from memory, to a client whose ``Accept-Encoding`` names gzip.

    Conditional requests still work: the ETag is the minified body's digest and Last-Modified the file's, so
    a browser revalidates with a 304 as before. Range requests on a text file get the whole file.
    """

    def file_response(self, full_path: str | os.PathLike[str], stat_result: os.stat_result, scope: Scope,
                      status_code: int = 200) -> Response:
        if Path(full_path).suffix not in TEXT:
            return super().file_response(full_path, stat_result, scope, status_code)
        key = (str(full_path), stat_result.st_mtime_ns, stat_result.st_size)
        body = minified(*key)
        headers = {"etag": etag(*key),
                   "last-modified": formatdate(stat_result.st_mtime, usegmt=True), "vary": "Accept-Encoding"}
        asked = Headers(scope=scope)
        if "gzip" in asked.get("accept-encoding", ""):
            body, headers["content-encoding"] = gzipped(*key), "gzip"
        media_type = mimetypes.guess_type(str(full_path))[0] or "text/plain"
        response = Response(body, status_code, headers=headers, media_type=media_type)
        if self.is_not_modified(response.headers, asked):
            return NotModifiedResponse(response.headers)
        return response
