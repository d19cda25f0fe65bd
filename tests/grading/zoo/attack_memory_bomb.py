"""Hostile: allocates memory until something gives."""

from _native_student import MinimaxAgent as _Minimax, ReflexAgent as _Reflex


def _bomb():
    hoard = [bytearray(4 << 30)]  # 4 GB at once: more than the worker's address space
    while True:
        hoard.append(bytearray(1 << 30))


class MinimaxAgent(_Minimax):
    def get_action(self, state):
        _bomb()


class ReflexAgent(_Reflex):
    def get_action(self, state):
        _bomb()
