"""The app's own files under /static: scripts and style sheets minified, the rest as they are.

The sources stay readable in the package; what travels has no comments and no layout. On the table's first
load that is a fifth of the bytes a phone waits for (docs/performance.md, bench_table_paint.py). The
minifiers are rjsmin and rcssmin (ndparker): token-level, no renaming, so a stack trace still names the
functions. rjsmin keeps an unnested template literal whole; a template nested inside another's ``${}`` is
not supported, and the browser tests load every script through here.
"""

from __future__ import annotations

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


@lru_cache(maxsize=64)
def minified(path: str, modified_ns: int, size: int) -> bytes:
    """The file at ``path`` minified; the modification time and size key the cache (a file edited is read again)."""
    minify = MINIFIERS[Path(path).suffix]
    return minify(Path(path).read_text(encoding="utf-8")).encode("utf-8")


class MinifiedStaticFiles(StaticFiles):
    """Starlette's StaticFiles, serving ``.js`` and ``.css`` files minified.

    Conditional requests still work: the ETag is the minified body's digest and Last-Modified the file's, so
    a browser revalidates with a 304 as before. Range requests on a minified file get the whole file.
    """

    def file_response(self, full_path: str | os.PathLike[str], stat_result: os.stat_result, scope: Scope,
                      status_code: int = 200) -> Response:
        if Path(full_path).suffix not in MINIFIERS:
            return super().file_response(full_path, stat_result, scope, status_code)
        body = minified(str(full_path), stat_result.st_mtime_ns, stat_result.st_size)
        headers = {"etag": f'"{hashlib.md5(body, usedforsecurity=False).hexdigest()}"',
                   "last-modified": formatdate(stat_result.st_mtime, usegmt=True)}
        media_type = mimetypes.guess_type(str(full_path))[0] or "text/plain"
        response = Response(body, status_code, headers=headers, media_type=media_type)
        if self.is_not_modified(response.headers, Headers(scope=scope)):
            return NotModifiedResponse(response.headers)
        return response
