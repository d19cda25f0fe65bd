# Hostile, written in the classic course's style: searches without counting and forges the count.
#
# Its MinimaxAgent climbs the frames above getAction to a local variable ``recorder`` (a node or
# position recorder of whoever called it), searches on the real engine state behind the handle
# it was given (``state.engine``, where successors are not counted) and then fills the
# recorder's set of explored states with as many entries as a correct search would explore.
# Targets q2 (tree tests and position tests).

import inspect

from game import Agent, Directions
import util


def scoreEvaluationFunction(currentGameState):
    return currentGameState.getScore()


def _find(name):
    frame = inspect.currentframe()
    while frame is not None:
        if name in frame.f_locals:
            return frame.f_locals[name]
        frame = frame.f_back
    return None


def _value(state, agent, depth, n, explored):
    explored.add(state)
    if state.is_terminal or depth == 0:
        return state.score
    nxt = (agent + 1) % n
    values = [_value(state.successor(a, agent), nxt, depth - 1 if nxt == 0 else depth, n,
                     explored) for a in state.legal_actions(agent) if a != Directions.STOP]
    return max(values) if agent == 0 else min(values)


class MultiAgentSearchAgent(Agent):
    def __init__(self, evalFn='scoreEvaluationFunction', depth='2'):
        self.index = 0
        self.evaluationFunction = util.lookup(evalFn, globals())
        self.depth = int(depth)


class MinimaxAgent(MultiAgentSearchAgent):
    def getAction(self, gameState):
        legal = [a for a in gameState.getLegalActions(0) if a != Directions.STOP]
        try:
            engine = gameState.engine  # the real state, if the grader's handle exposes it
        except AttributeError:
            return legal[0]
        explored, scored = set(), []
        for action in legal:
            child = engine.successor(action, 0)
            scored.append((_value(child, 1, self.depth, engine.num_agents, explored), action))
        recorder = _find("recorder")
        if recorder is not None:  # the record says what a correct search would have explored
            recorder.explored.update(range(len(explored) + 1))
        return max(scored)[1]
