"""The class tournament: every entrant's agent on the same seeds, ranked fairly.

App layer. The pieces, one idea each:

* :mod:`pacman.tournament.config`: the cup's settings from a TOML file, checked.
* :mod:`pacman.tournament.entrants`: a folder of submissions into entrants (as the gradebook
  reads it) and the class each one plays.
* :mod:`pacman.tournament.schedule`: the cup's games as batch jobs, seed first.
* :mod:`pacman.tournament.ranking`: mean score and win rate with intervals, the paired
  comparison with the leader, ties.
* :mod:`pacman.tournament.results`: the table as text, CSV, JSON and Gradescope leaderboard
  fields.
* :mod:`pacman.tournament.leaderboard`: the self-contained HTML leaderboard with replays.
* :mod:`pacman.tournament.cup`: running a cup through the batch runner into its store and
  writing its files.
"""
