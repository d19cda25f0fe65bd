"""Agents whose statistics or exceptions are too big or too odd to print as they are."""

class RandomPlayer:
    def __init__(self, index=0, rng=None):
        self.rng = rng

    def get_action(self, state):
        return self.rng.choice(state.legal_actions())


class HugeStats(RandomPlayer):
    """Plays a normal game and reports 16 MB of statistics."""

    def stats(self):
        return {"blob": "x" * (16 * 1024 * 1024)}


class DeepStats(RandomPlayer):
    """Plays a normal game and reports statistics nested 100,000 lists deep."""

    def stats(self):
        deep = []
        for _ in range(100_000):
            deep = [deep]
        return {"deep": deep}


class EnormousComplaint(Exception):
    pass


class HugeMessage(RandomPlayer):
    """Raises an exception with a 40 MB message on its first move."""

    def get_action(self, state):
        raise EnormousComplaint("y" * (40 * 1024 * 1024))


class UnprintableError(Exception):
    def __str__(self):
        raise RuntimeError("no words for this")

    def __repr__(self):
        raise RuntimeError("none here either")


class StrRaises(RandomPlayer):
    """Raises an exception that cannot be turned into text."""

    def get_action(self, state):
        raise UnprintableError()
