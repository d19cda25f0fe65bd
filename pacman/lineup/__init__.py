"""From text to agents: a game's line-up (:mod:`pacman.lineup.build`), agent options
from strings (:mod:`pacman.lineup.options`), code found by name or file
(:mod:`pacman.lineup.plugins`), the agents a recording names
(:mod:`pacman.lineup.recorded_agents`) and a student's classic file
(:mod:`pacman.lineup.student_file`)."""
