"""Bug for the classic course (right for the lecture's convention): alpha-beta prunes on
equality (v >= beta, v <= alpha); the classic course prunes only on strict inequality."""

import util  # noqa: F401
from game import Agent  # noqa: F401
from correct_classic import (ExpectimaxAgent, MinimaxAgent, MultiAgentSearchAgent,  # noqa: F401
                             ReflexAgent, better, betterEvaluationFunction,
                             scoreEvaluationFunction)


class AlphaBetaAgent(MultiAgentSearchAgent):
    def getAction(self, gameState):
        numAgents = gameState.getNumAgents()

        def value(state, agent, depth, alpha, beta):
            if state.isWin() or state.isLose() or depth == 0:
                return self.evaluationFunction(state)
            nextAgent = (agent + 1) % numAgents
            nextDepth = depth - 1 if nextAgent == 0 else depth
            if agent == 0:
                v = float('-inf')
                for a in state.getLegalActions(agent):
                    v = max(v, value(state.generateSuccessor(agent, a), nextAgent, nextDepth, alpha, beta))
                    if v >= beta:
                        return v
                    alpha = max(alpha, v)
                return v
            v = float('inf')
            for a in state.getLegalActions(agent):
                v = min(v, value(state.generateSuccessor(agent, a), nextAgent, nextDepth, alpha, beta))
                if v <= alpha:
                    return v
                beta = min(beta, v)
            return v

        alpha, bestAction = float('-inf'), None
        for action in gameState.getLegalActions(0):
            v = value(gameState.generateSuccessor(0, action), 1 % numAgents, self.depth, alpha, float('inf'))
            if bestAction is None or v > alpha:
                alpha, bestAction = v, action
        return bestAction
