"""A stranger's harmless agent: plays at random."""


class Quiet:
    def __init__(self, index=0, rng=None):
        self.rng = rng

    def get_action(self, state):
        return self.rng.choice(state.legal_actions())
