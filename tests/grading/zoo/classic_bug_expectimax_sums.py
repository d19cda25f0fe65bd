"""Bug (classic API): expectimax adds the ghosts' values up instead of averaging them, which
only goes unnoticed where every ghost has the same number of moves."""

import util  # noqa: F401
from game import Agent  # noqa: F401
from correct_classic import (AlphaBetaAgent, MinimaxAgent, MultiAgentSearchAgent,  # noqa: F401
                             ReflexAgent, better, betterEvaluationFunction,
                             scoreEvaluationFunction)


class ExpectimaxAgent(MultiAgentSearchAgent):
    def getAction(self, gameState):
        def value(state, agent, depth):
            if state.isWin() or state.isLose() or depth == 0:
                return self.evaluationFunction(state)
            nextAgent = (agent + 1) % state.getNumAgents()
            nextDepth = depth - 1 if nextAgent == 0 else depth
            values = [value(state.generateSuccessor(agent, a), nextAgent, nextDepth)
                      for a in state.getLegalActions(agent)]
            return max(values) if agent == 0 else sum(values)

        best, bestAction = float('-inf'), None
        for action in gameState.getLegalActions(0):
            v = value(gameState.generateSuccessor(0, action), 1, self.depth)
            if bestAction is None or v > best:
                best, bestAction = v, action
        return bestAction
