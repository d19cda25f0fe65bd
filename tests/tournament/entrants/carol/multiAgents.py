# multiAgents.py, written in the classic course's style against its API (full marks).

from util import manhattanDistance
from game import Directions
import random
import util

from game import Agent
from pacman import GameState


class ReflexAgent(Agent):
    """Chooses among the best options according to the evaluation function."""

    def getAction(self, gameState: GameState):
        legalMoves = [m for m in gameState.getLegalActions() if m != Directions.STOP]
        scores = [self.evaluationFunction(gameState, action) for action in legalMoves]
        bestScore = max(scores)
        bestIndices = [index for index in range(len(scores)) if scores[index] == bestScore]
        chosenIndex = random.choice(bestIndices)
        return legalMoves[chosenIndex]

    def evaluationFunction(self, currentGameState: GameState, action):
        successorGameState = currentGameState.generatePacmanSuccessor(action)
        return betterEvaluationFunction(successorGameState)


def scoreEvaluationFunction(currentGameState: GameState):
    return currentGameState.getScore()


class MultiAgentSearchAgent(Agent):
    def __init__(self, evalFn='scoreEvaluationFunction', depth='2'):
        self.index = 0  # Pacman is always agent index 0
        self.evaluationFunction = util.lookup(evalFn, globals())
        self.depth = int(depth)


class MinimaxAgent(MultiAgentSearchAgent):
    def getAction(self, gameState: GameState):
        def value(state, agent, depth):
            if state.isWin() or state.isLose() or depth == 0:
                return self.evaluationFunction(state)
            nextAgent = (agent + 1) % state.getNumAgents()
            nextDepth = depth - 1 if nextAgent == 0 else depth
            values = [value(state.generateSuccessor(agent, a), nextAgent, nextDepth)
                      for a in state.getLegalActions(agent)]
            return max(values) if agent == 0 else min(values)

        nextAgent = 1 % gameState.getNumAgents()
        nextDepth = self.depth - 1 if nextAgent == 0 else self.depth
        best, bestAction = float('-inf'), None
        for action in gameState.getLegalActions(0):
            v = value(gameState.generateSuccessor(0, action), nextAgent, nextDepth)
            if bestAction is None or v > best:
                best, bestAction = v, action
        return bestAction


class AlphaBetaAgent(MultiAgentSearchAgent):
    def getAction(self, gameState: GameState):
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
                    if v > beta:
                        return v
                    alpha = max(alpha, v)
                return v
            v = float('inf')
            for a in state.getLegalActions(agent):
                v = min(v, value(state.generateSuccessor(agent, a), nextAgent, nextDepth, alpha, beta))
                if v < alpha:
                    return v
                beta = min(beta, v)
            return v

        nextAgent = 1 % numAgents
        nextDepth = self.depth - 1 if nextAgent == 0 else self.depth
        alpha, bestAction = float('-inf'), None
        for action in gameState.getLegalActions(0):
            v = value(gameState.generateSuccessor(0, action), nextAgent, nextDepth, alpha, float('inf'))
            if bestAction is None or v > alpha:
                alpha, bestAction = v, action
        return bestAction


class ExpectimaxAgent(MultiAgentSearchAgent):
    def getAction(self, gameState: GameState):
        def value(state, agent, depth):
            if state.isWin() or state.isLose() or depth == 0:
                return self.evaluationFunction(state)
            nextAgent = (agent + 1) % state.getNumAgents()
            nextDepth = depth - 1 if nextAgent == 0 else depth
            values = [value(state.generateSuccessor(agent, a), nextAgent, nextDepth)
                      for a in state.getLegalActions(agent)]
            if agent == 0:
                return max(values)
            return sum(values) / len(values)

        nextAgent = 1 % gameState.getNumAgents()
        nextDepth = self.depth - 1 if nextAgent == 0 else self.depth
        best, bestAction = float('-inf'), None
        for action in gameState.getLegalActions(0):
            v = value(gameState.generateSuccessor(0, action), nextAgent, nextDepth)
            if bestAction is None or v > best:
                best, bestAction = v, action
        return bestAction


def nearestFoodDistance(currentGameState: GameState):
    """Maze distance to the nearest food, by breadth-first search over the walls."""
    walls = currentGameState.getWalls()
    food = currentGameState.getFood()
    start = currentGameState.getPacmanPosition()
    frontier = util.Queue()
    frontier.push((start, 0))
    seen = {start}
    while not frontier.isEmpty():
        (x, y), d = frontier.pop()
        if food[x][y]:
            return d
        for nxt in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if not walls[nxt[0]][nxt[1]] and nxt not in seen:
                seen.add(nxt)
                frontier.push((nxt, d + 1))
    return 0


def betterEvaluationFunction(currentGameState: GameState):
    """Score, pull of the nearest food, danger of close ghosts, reward for hunting scared ones."""
    if currentGameState.isWin() or currentGameState.isLose():
        return currentGameState.getScore()
    pos = currentGameState.getPacmanPosition()
    walls = currentGameState.getWalls()
    value = currentGameState.getScore()
    value -= 9.0 * nearestFoodDistance(currentGameState) / (walls.width + walls.height)
    for ghost in currentGameState.getGhostStates():
        d = manhattanDistance(pos, ghost.getPosition())
        if ghost.scaredTimer > d:
            value += 100.0 / (d + 1)
        elif d <= 2:
            value -= 150.0 / (d + 1)
    value -= 20 * len(currentGameState.getCapsules())
    return value


better = betterEvaluationFunction
