"""One game of a recording, found without holding the others: ``--replay F --game K`` and
``export F OUT --game K`` read a file of any size in the memory of one game.

:func:`find_game` reads the recording line by line, as
:func:`~pacman.engine.game.load_indexed_results` does, with the same checks and the same messages
(every line must be a recorded game or a store's header; a line over
:data:`~pacman.engine.game.MAX_RECORD_LINE` characters is refused by its number), and picks the game as
:func:`~pacman.engine.recording.select_game` does: in a results store the record whose ``index`` is
``K`` (the last of equal ones; different games with that index are refused), in a file of
``--record`` its ``K``-th game. Only the game picked so far is kept; the others are checked
and dropped as soon as they are read (a fingerprint of each game with index ``K``, to tell
repeated records from different games).
"""

from __future__ import annotations

import hashlib

from pacman.errors import ConfigurationError, ReplayError
from pacman.engine.game import GameResult, indexed_results


def _fingerprint(game: GameResult) -> str:
    digest = hashlib.blake2b(digest_size=16)
    for part in (str(game.seed), game.layout_text, "\x00".join(game.actions)):
        digest.update(part.encode("utf-8", "surrogatepass") + b"\x01")
    return digest.hexdigest()


def find_game(path: str, wanted: int | None) -> GameResult:
    """Game ``wanted`` of the recording at ``path`` (see the module docstring); ``None``: its
    first game. Raises :class:`~pacman.errors.ReplayError` for a line that is not a recorded
    game, :class:`~pacman.errors.ConfigurationError` when there is no such game or several
    different games with that index."""
    count = 0
    by_position: GameResult | None = None
    by_index: GameResult | None = None
    prints: set[str] = set()
    low: int | None = None
    high: int | None = None
    for index, game in indexed_results(path):
        count += 1
        if wanted is None or count == wanted:
            by_position = by_position or game
        if index is not None:
            low = index if low is None else min(low, index)
            high = index if high is None else max(high, index)
            if index == wanted:
                prints.add(_fingerprint(game))
                by_index = game
    if count == 0:
        raise ReplayError(f"{path}: the recording holds no game")
    if low is None or high is None:
        if by_position is None:
            raise ConfigurationError(
                f"{path}: holds {count} game{'s' if count != 1 else ''}; there is no "
                f"game {wanted} (a file of --record counts its games from 1)")
        return by_position
    if by_index is None:
        span = f"{low} to {high}" if high > low else str(low)
        raise ConfigurationError(f"{path}: no record has index {wanted} (--game K picks the "
                                 f"record whose index is K; this store holds {span})")
    if len(prints) > 1:
        raise ConfigurationError(f"{path}: {len(prints)} different games have index {wanted} "
                                 "(records of different batches); --game cannot tell them apart")
    return by_index
