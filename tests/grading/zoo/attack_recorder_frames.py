"""Hostile: finds the grader's node recorder on the call stack and writes the record itself.

The agent climbs the frames above ``get_action`` (with :mod:`inspect`) to the local variables
``recorder`` and ``tree`` of whoever called it, computes minimax on the raw tree (values and
all, without one successor or evaluation call), then overwrites what the recorder says was
generated and evaluated. Targets q2 (minimax tree tests).
"""

import inspect


def _find(names):
    frame = inspect.currentframe()
    while frame is not None:
        if all(name in frame.f_locals for name in names):
            return [frame.f_locals[name] for name in names]
        frame = frame.f_back
    return None


def _minimax(node, ply, agents, cut, generated, evaluated):
    if ply == cut or not node.children:
        evaluated.append(node.id)
        return 0 if node.value is None else node.value
    values = []
    for child in node.children:
        generated.append(child.id)
        values.append(_minimax(child, ply + 1, agents, cut, generated, evaluated))
    return max(values) if ply % agents == 0 else min(values)


class MinimaxAgent:
    def __init__(self, index=0, rng=None, *, depth: int = 2, evaluation=None):
        self.depth = depth

    def get_action(self, state):
        found = _find(["recorder", "tree"])
        if found is None:
            return state.legal_actions(0)[0]
        recorder, tree = found
        generated, evaluated, best = [], [], None
        for child in tree.root.children:
            generated.append(child.id)
            value = _minimax(child, 1, tree.num_agents, self.depth * tree.num_agents,
                             generated, evaluated)
            if best is None or value > best[0]:
                best = (value, child.action)
        recorder.generated[:] = generated
        recorder.evaluated[:] = evaluated
        return best[1]
