"""Hostile: no search code at all; asks the grader's own reference search for the answer.

Each search agent rebuilds the tree it is shown from the state, runs the grader's reference
search on it, and replays exactly the successors and evaluations the reference made. Targets
q2-q4 (the tree tests).
"""

from types import SimpleNamespace


def _replay(agent, state, algorithm):
    from pacman.grading.tree_tests import reference_search

    root = state._node
    plies = {node.id: node.path.count("/") for node in root.walk()}
    tree = SimpleNamespace(root=root, source="<stolen>", plies=plies,
                           num_agents=state._rec.num_agents)
    observation = reference_search(tree, algorithm, agent.depth).reference
    states = {root.id: state}
    for node_id in observation.generated:
        for parent in list(states.values()):
            child = next((c for c in parent._node.children if c.id == node_id), None)
            if child is not None:
                states[node_id] = parent.successor(child.action, parent.turn)
                break
    for node_id in observation.evaluated:
        agent.evaluation(states[node_id])
    return observation.action


class _Cheat:
    algorithm = "minimax"

    def __init__(self, index=0, rng=None, *, depth: int = 2, evaluation=None):
        self.index, self.depth, self.evaluation = index, depth, evaluation

    def get_action(self, state):
        return _replay(self, state, self.algorithm)


class MinimaxAgent(_Cheat):
    algorithm = "minimax"


class AlphaBetaAgent(_Cheat):
    algorithm = "alphabeta"


class ExpectimaxAgent(_Cheat):
    algorithm = "expectimax"
