# Hostile, written in the classic course's style: the "reflex" agent and the evaluation
# function are the project's own alpha-beta and ``better`` evaluation. Targets q1 and q5.

from game import Agent
import util

from pacman.agents.evaluation import better as _better
from pacman.agents.search_agents import AlphaBetaAgent as _ShippedAlphaBeta


class ReflexAgent(Agent):
    def __init__(self, index=0):
        self.index = index
        self.shipped = _ShippedAlphaBeta(0, None, depth=2, evaluation=_better)

    def getAction(self, gameState):
        return self.shipped.get_action(gameState.engine)


def betterEvaluationFunction(currentGameState):
    return _better(currentGameState.engine)


def scoreEvaluationFunction(currentGameState):
    return currentGameState.getScore()


class MultiAgentSearchAgent(Agent):
    def __init__(self, evalFn='scoreEvaluationFunction', depth='2'):
        self.index = 0
        self.evaluationFunction = util.lookup(evalFn, globals())
        self.depth = int(depth)


class ExpectimaxAgent(MultiAgentSearchAgent):
    def getAction(self, gameState):
        return ReflexAgent().getAction(gameState)
