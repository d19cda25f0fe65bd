"""The messages between the game and a contained agent's process.

Each message is a frame: four bytes of length (big-endian) and the body. The game sends
pickled requests (the child unpickles only what the game sends); the child answers an action
as :data:`ACTION_PREFIX` and its name, anything else as JSON ``{"status", "value"}``, so the
game never unpickles what the agent's process sends.
"""

from __future__ import annotations

import json
import os
import struct
from typing import Any

#: The first byte of an answer that is an action (the rest: its name in UTF-8).
ACTION_PREFIX = b"="
#: The first byte of a request that is a state sent as its fields without the maze.
STATE_MESSAGE = b"S"
#: The persistent id the game's maze is pickled as, once the child has it.
LAYOUT_ID = "game-layout"
#: The longest answer the game reads (longer is a malformed answer).
MAX_ANSWER = 8 << 20
#: Characters kept of an exception's message, and of a traceback (its end).
MAX_MESSAGE = 2000
MAX_TRACE = 20000
_HEADER = struct.Struct(">I")


def write_frame(fd: int, body: bytes) -> None:
    """Write one frame to ``fd`` (blocking until it is all written)."""
    data = memoryview(_HEADER.pack(len(body)) + body)
    while data:
        data = data[os.write(fd, data):]


def read_exactly(fd: int, size: int) -> bytes:
    """``size`` bytes from ``fd``; ``EOFError`` if it ends first."""
    chunks = []
    while size:
        chunk = os.read(fd, min(size, 1 << 20))
        if not chunk:
            raise EOFError("the pipe closed")
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)


def read_frame(fd: int, limit: int | None = None) -> bytes:
    """One frame's body from ``fd``; ``ValueError`` when it is longer than ``limit``."""
    (size,) = _HEADER.unpack(read_exactly(fd, _HEADER.size))
    if limit is not None and size > limit:
        raise ValueError(f"an answer of {size} bytes (at most {limit})")
    return read_exactly(fd, size)


def encode_answer(status: str, value: Any) -> bytes:
    """An answer's body: an action as its name, anything else as JSON."""
    if status == "ok" and type(value) is str:
        try:
            return ACTION_PREFIX + value.encode("utf-8")
        except UnicodeEncodeError:
            pass
    return json.dumps({"status": status, "value": value}).encode("utf-8")


def decode_answer(body: bytes) -> tuple[str, Any]:
    """``(status, value)`` of an answer; ``ValueError`` when it is malformed."""
    if body[:1] == ACTION_PREFIX:
        return "ok", body[1:].decode("utf-8")
    answer = json.loads(body.decode("utf-8"))
    if not isinstance(answer, dict) or not isinstance(answer.get("status"), str):
        raise ValueError("an answer that is not {status, value}")
    return answer["status"], answer.get("value")


def cut(text: str, limit: int = MAX_MESSAGE) -> str:
    """``text`` cut to at most ``limit`` characters in all, saying how much was left out."""
    if len(text) <= limit:
        return text
    keep = max(0, limit - len(f"... ({len(text)} more characters)"))
    return f"{text[:keep]}... ({len(text) - keep} more characters)"
