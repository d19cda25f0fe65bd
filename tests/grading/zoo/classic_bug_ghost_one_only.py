"""Bug (classic API): every ghost layer moves ghost 1, so ghost 2 never moves in the search.

On an abstract tree the agent index is invisible, so every tree test passes; on a real position
with two ghosts the search explores other states (and may choose other moves)."""

import util  # noqa: F401
from game import Agent  # noqa: F401
from correct_classic import (AlphaBetaAgent, ExpectimaxAgent, MultiAgentSearchAgent,  # noqa: F401
                             ReflexAgent, better, betterEvaluationFunction,
                             scoreEvaluationFunction)


class MinimaxAgent(MultiAgentSearchAgent):
    def getAction(self, gameState):
        numAgents = gameState.getNumAgents()

        def value(state, agent, depth):
            if state.isWin() or state.isLose() or depth == 0:
                return self.evaluationFunction(state)
            nextAgent = (agent + 1) % numAgents
            nextDepth = depth - 1 if nextAgent == 0 else depth
            mover = 0 if agent == 0 else 1
            values = [value(state.generateSuccessor(mover, a), nextAgent, nextDepth)
                      for a in state.getLegalActions(mover)]
            return max(values) if agent == 0 else min(values)

        best, bestAction = float('-inf'), None
        for action in gameState.getLegalActions(0):
            v = value(gameState.generateSuccessor(0, action), 1 % numAgents,
                      self.depth - 1 if numAgents == 1 else self.depth)
            if bestAction is None or v > best:
                best, bestAction = v, action
        return bestAction
