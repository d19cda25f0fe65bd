"""Imported last by the fork server (:data:`pacman.contained_process.PRELOAD`): moves every
object loaded so far out of the garbage collector's reach (``gc.freeze``).

Why: a forked child shares the server's memory until it writes to it. A collection in the
child that walked the server's objects would write to nearly every page of them and so copy
them all; frozen, they are never walked. Only the fork server imports this module.
"""

import gc

gc.freeze()
