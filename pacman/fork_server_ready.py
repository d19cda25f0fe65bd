"""Imported last by the fork server (:data:`pacman.contained_process.PRELOAD`): warms the
server up, then moves every object loaded so far out of the garbage collector's reach.

Why: every contained agent is a fresh process forked from this server, per game. What the
first game of a process pays once (modules imported late, tables built on first use) would
otherwise be paid by every contained game: a short game of the default agents here pays it
for all of them (on a loaded machine the first game of a process costs about twice a later
one). And a forked child shares the server's memory until it writes to it: a garbage
collection in the child that walked the server's objects would write to nearly every page
of them and so copy them all; frozen (``gc.freeze``), they are never walked. Only the fork
server imports this module.
"""

import gc


def _warm_up() -> None:
    """One short game of the default Pacman and ghosts on the default maze (errors ignored:
    warming up is an optimisation only)."""
    try:
        from pacman.game_loop import run_game
        from pacman.layout import load_layout
        from pacman.lineup import lineup

        layout = load_layout("small_classic")
        run_game(layout, lineup(layout, "alphabeta", "directional",
                                pacman_options={"depth": "2"}), seed=0, max_moves=8)
    except Exception:  # noqa: BLE001 - see the docstring
        pass


_warm_up()
gc.freeze()
