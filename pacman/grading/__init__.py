"""Grading student agents: exact tree tests, bug diagnosis, game tests, isolation, reports.

* :mod:`~pacman.grading.assignment`: assignments as TOML (questions, tests, points, limits,
  visibility); the default one is ``assignments/default.toml``;
* :mod:`~pacman.grading.tree_state`, :mod:`~pacman.grading.tree_tests`: a student's search on
  abstract trees through instrumented game states, against the reference search;
* :mod:`~pacman.grading.variants`: deliberately wrong reference searches that name a mistake;
* :mod:`~pacman.grading.sandbox`, :mod:`~pacman.grading.worker`: the submission's own process,
  its limits and its defences; :mod:`~pacman.grading.jail`: bubblewrap around it;
  :mod:`~pacman.grading.confinement`: the defences it puts up itself;
* :mod:`~pacman.grading.state_server`, :mod:`~pacman.grading.remote_state`: states held by the
  grader, handles in the submission's process; :mod:`~pacman.grading.remote_search`: the
  grader's search asking the submission for evaluations;
* :mod:`~pacman.grading.grader`: one submission, test by test;
  :mod:`~pacman.grading.batch`: a folder of submissions in parallel;
* :mod:`~pacman.grading.report`: terminal text, JSON and Gradescope's ``results.json``.
"""
