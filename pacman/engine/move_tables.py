"""The per-cell move tables of a maze, and the read-only dicts that publish them."""

from __future__ import annotations

from pacman.engine.directions import MOVES, REVERSE, STOP, VECTORS


class ReadOnlyDict(dict):
    """A dict that refuses every change: the per-cell move tables of a :class:`Layout`.

    A subclass rather than a ``MappingProxyType`` because the rules look moves up with the
    inherited C ``dict.get`` at full speed.
    """

    __slots__ = ()

    def _refuse(self, *args, **kwargs):
        raise TypeError("a maze's move tables are read-only")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = _refuse
    __ior__ = _refuse

    def __reduce__(self):
        return (ReadOnlyDict, (dict(self),))


def read_only(table: tuple) -> tuple:
    """``table`` with every dict in it (nested ones too) made a :class:`ReadOnlyDict`."""
    def freeze(value):
        return ReadOnlyDict({k: freeze(v) for k, v in value.items()}) \
            if isinstance(value, dict) else value
    return tuple(freeze(entry) for entry in table)


def move_tables(width: int, height: int, walls: int, open_cells: tuple[int, ...]
            ) -> dict[str, tuple]:
    """The move tables of a maze, by field name of :class:`~pacman.engine.layout.Layout`. The rules
    read these private tables of plain dicts (the interpreter's fastest look-up); the layout
    makes read-only copies (:func:`read_only`) for everyone else on first use."""
    size = width * height
    neighbours: list[dict[str, int] | None] = [None] * size
    for cell in open_cells:
        x, y = cell % width, cell // width
        moves = {}
        for action in MOVES:
            dx, dy = VECTORS[action]
            nx, ny = x + dx, y + dy
            if 0 <= nx < width and 0 <= ny < height:
                target = ny * width + nx
                if not walls >> target & 1:
                    moves[action] = target
        neighbours[cell] = moves
    pacman_moves: list[dict[str, int] | None] = [None] * size
    pacman_actions: list[tuple[str, ...]] = [()] * size
    ghost_moves: list[dict[str, dict[str, int]] | None] = [None] * size
    ghost_actions: list[dict[str, tuple[str, ...]] | None] = [None] * size
    for cell in open_cells:
        moves = neighbours[cell] or {}  # set for every open cell above
        assert moves is not None
        pacman_moves[cell] = {**moves, STOP: cell}
        pacman_actions[cell] = tuple(moves) + (STOP,)
        by_direction: dict[str, dict[str, int]] = {}
        for last in (*MOVES, STOP):
            allowed = {a: t for a, t in moves.items() if a != REVERSE[last]}
            by_direction[last] = allowed or dict(moves)
        ghost_moves[cell] = by_direction
        ghost_actions[cell] = {d: tuple(m) for d, m in by_direction.items()}
    return {"_neighbours": tuple(neighbours), "_pacman_moves": tuple(pacman_moves),
            "pacman_actions": tuple(pacman_actions), "_ghost_moves": tuple(ghost_moves),
            "_ghost_actions": tuple(ghost_actions),
            "adjacency": tuple(tuple(m.values()) if m else () for m in neighbours)}
