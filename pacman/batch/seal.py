"""Seals: a keyed checksum on each store record a batch of this user writes.

Checking and replaying every stored game before it is counted costs about 0.3 ms of CPU a game
(see ``bench/bench_verify.py``): about 35 s of CPU for a store of 100,000 games. A record this
user's own batch wrote, from a game the engine had just played, need not be replayed again: the
batch appends ``"seal": HMAC-SHA256(key, record)`` (its first 32 hex digits) as the record's
last field, with a key only this user can read (``$XDG_CONFIG_HOME/pacman-arena/seal.key``,
or the file ``PACMAN_ARENA_SEAL_KEY`` names; created with mode 0600 on first use).

A record whose seal matches was written by such a batch and not changed since: it is counted
after its JSON is read. Every other record (no seal, a seal from another user or machine, an
edited record whose seal no longer matches) is checked in full and replayed. A seal is never
trusted for more than it says: it cannot be made without the key, and a key that cannot be
read or created only means that every record is replayed.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import os
import secrets
from pathlib import Path

#: Hex digits of a seal (128 bits of the HMAC).
DIGITS = 32
_PREFIX = b',"seal":"'
_SUFFIX = b'"}'
_SEALED_TAIL = len(_PREFIX) + DIGITS + len(_SUFFIX)


def key_path() -> Path:
    """Where the key is: ``PACMAN_ARENA_SEAL_KEY``, else under ``XDG_CONFIG_HOME`` (default
    ``~/.config``)."""
    named = os.environ.get("PACMAN_ARENA_SEAL_KEY")
    if named:
        return Path(named)
    config = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"),
                                                               ".config")
    return Path(config) / "pacman-arena" / "seal.key"


@functools.lru_cache(maxsize=8)
def _key(path: Path) -> bytes | None:
    """The key at ``path``, created if missing; ``None`` if it cannot be read or made."""
    try:
        data = path.read_bytes()
        return data if len(data) >= 32 else None
    except FileNotFoundError:
        pass
    except OSError:
        return None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fresh = secrets.token_bytes(32)
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(fresh)
        return fresh
    except FileExistsError:  # another process made it first
        try:
            data = path.read_bytes()
        except OSError:
            return None
        return data if len(data) >= 32 else None
    except OSError:
        return None


def _current_key() -> bytes | None:
    """The key of :func:`key_path` as the environment names it now (looked up once per
    naming: a store's every line asks)."""
    return _key_named(os.environ.get("PACMAN_ARENA_SEAL_KEY"),
                      os.environ.get("XDG_CONFIG_HOME"), os.environ.get("HOME"))


@functools.lru_cache(maxsize=8)
def _key_named(named: str | None, config: str | None, home: str | None) -> bytes | None:
    return _key(key_path())


def _digest(key: bytes, body: bytes) -> bytes:
    return hmac.new(key, body, hashlib.sha256).hexdigest()[:DIGITS].encode("ascii")


def seal(line: str) -> str:
    """``line`` (one JSON object, no newline) with its seal as last field; unchanged when
    there is no key."""
    key = _current_key()
    if key is None or not line.endswith("}"):
        return line
    body = line.encode("utf-8")
    return line[:-1] + _PREFIX.decode() + _digest(key, body).decode() + _SUFFIX.decode()


def is_sealed(raw: bytes) -> bool:
    """Whether the record line ``raw`` (no newline) carries a seal of this user's key that
    matches it."""
    if len(raw) <= _SEALED_TAIL or not raw.endswith(_SUFFIX):
        return False
    start = len(raw) - _SEALED_TAIL
    if raw[start:start + len(_PREFIX)] != _PREFIX:
        return False
    key = _current_key()
    if key is None:
        return False
    body = raw[:start] + b"}"
    return hmac.compare_digest(_digest(key, body), raw[start + len(_PREFIX):-len(_SUFFIX)])
