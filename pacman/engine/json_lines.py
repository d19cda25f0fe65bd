"""One reader for JSON that strangers hand us: results stores, recordings, worker replies.

:func:`load_json` parses one line (or message) of at most :data:`MAX_LINE_BYTES` bytes nested at
most :data:`MAX_DEPTH` deep (lists and objects; the project's own formats need 6). Anything else
raises :class:`JSONLimitError`, a ``ValueError`` saying which limit was passed, and never the
decoder's ``RecursionError`` or ``MemoryError``: callers that already turn a ``ValueError`` into
"line N is not JSON" name the file and the line without a traceback.
"""

from __future__ import annotations

import json

from pacman.errors import PacmanError
from typing import Any

#: Longest line of a store or recording, and longest message, accepted (bytes or characters).
MAX_LINE_BYTES = 64 * 1024 * 1024
#: Deepest nesting of lists and objects accepted.
MAX_DEPTH = 32


class JSONLimitError(PacmanError, ValueError):
    """A JSON text over :data:`MAX_LINE_BYTES` or nested deeper than :data:`MAX_DEPTH` (a
    ``ValueError`` too: every reader already turns those into its own message with the line)."""


def load_json(text: str | bytes, max_bytes: int | None = None, max_depth: int = MAX_DEPTH) -> Any:
    """The value of the JSON ``text``. Raises :class:`JSONLimitError` when it is longer than
    ``max_bytes`` (default: :data:`MAX_LINE_BYTES`) or nested deeper than ``max_depth``,
    ``ValueError`` when it is not JSON."""
    max_bytes = MAX_LINE_BYTES if max_bytes is None else max_bytes
    if len(text) > max_bytes:
        raise JSONLimitError(f"longer than {max_bytes:,} bytes")
    try:
        value = json.loads(text)
    except RecursionError:
        raise JSONLimitError(f"nested deeper than {max_depth} lists and objects") from None
    except MemoryError:
        raise JSONLimitError("too large to read") from None
    # fewer opening brackets than the limit cannot nest deeper (counting is the C library's
    # work; walking a record's long move list is not), so most lines skip the walk
    opening = text.count("[") + text.count("{") if isinstance(text, str) else \
        text.count(b"[") + text.count(b"{")
    if opening > max_depth:
        check_depth(value, max_depth)
    return value


def check_depth(value: Any, max_depth: int = MAX_DEPTH) -> None:
    """Raise :class:`JSONLimitError` if ``value`` nests lists and objects deeper than
    ``max_depth`` (checked level by level, without recursion)."""
    level = [value] if isinstance(value, (dict, list)) else []
    for _ in range(max_depth):
        level = [v for item in level for v in (item.values() if isinstance(item, dict) else item)
                 if isinstance(v, (dict, list))]
        if not level:
            return
    raise JSONLimitError(f"nested deeper than {max_depth} lists and objects")
