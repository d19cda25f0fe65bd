"""Correct (classic API), but relies on the classic course's scores being floats: a search value
is told from a (move, value) pair by ``isinstance(value, float)``, as some real files do."""

import util  # noqa: F401
from game import Agent  # noqa: F401
from correct_classic import (AlphaBetaAgent, ExpectimaxAgent, MultiAgentSearchAgent,  # noqa: F401
                             ReflexAgent, better, betterEvaluationFunction,
                             scoreEvaluationFunction)


class MinimaxAgent(MultiAgentSearchAgent):
    def getAction(self, gameState):
        return self.search(gameState, 0, 0)[0]

    def search(self, state, agent, depth):
        if agent == state.getNumAgents():
            agent, depth = 0, depth + 1
        if depth == self.depth or state.isWin() or state.isLose():
            return self.evaluationFunction(state)
        best = ["", float('-inf') if agent == 0 else float('inf')]
        for action in state.getLegalActions(agent):
            found = self.search(state.generateSuccessor(agent, action), agent + 1, depth)
            score = found if isinstance(found, float) else found[1]
            if (agent == 0 and score > best[1]) or (agent != 0 and score < best[1]):
                best = [action, score]
        return best
