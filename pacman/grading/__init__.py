"""Grading student agents: exact tree tests, bug diagnosis, game tests, isolation, reports.

* :mod:`~pacman.grading.assignment`, :mod:`~pacman.grading.assignment_games`: assignments as
  TOML (questions, tests, points, limits, visibility); shipped: ``assignments/classic.toml``
  (the classic course's grading, for classic-API files) and ``assignments/default.toml`` (the
  lecture's conventions, also called ``lecture``);
* :mod:`~pacman.grading.tree_state`, :mod:`~pacman.grading.tree_tests`: a student's search on
  abstract trees through instrumented game states, against the reference search;
* :mod:`~pacman.grading.position_tests`, :mod:`~pacman.grading.position_grading`: a student's
  search on the positions of a real game, counting the states it explores;
* :mod:`~pacman.grading.variants`: deliberately wrong reference searches that name a mistake;
* :mod:`~pacman.grading.sandbox`, :mod:`~pacman.grading.worker`: the submission's own process
  and its limits, started within :mod:`pacman.contained.jail` (bubblewrap, the user it runs
  as); :mod:`~pacman.grading.policy`: what the submission may import, read and call there;
  :mod:`~pacman.grading.lockdown`: the installed grader's files closed to that user;
  :mod:`~pacman.grading.student_traceback`: the frames of the submission's own files;
* :mod:`~pacman.grading.state_server`, :mod:`~pacman.grading.position_server`,
  :mod:`~pacman.grading.remote_state`: states held by the grader (tree nodes, real positions),
  handles in the submission's process; :mod:`~pacman.grading.remote_search`: the grader's
  search asking the submission for evaluations;
* :mod:`~pacman.grading.grader`: one submission, test by test (trees in
  :mod:`~pacman.grading.tree_grading`, games in :mod:`~pacman.grading.game_grading`, question
  rules in :mod:`~pacman.grading.question_rules`, the run's limits in
  :mod:`~pacman.grading.run_limits`); :mod:`~pacman.grading.submissions`: what to grade in each
  entry of a folder; :mod:`~pacman.grading.batch`: a folder of submissions in parallel, into
  one gradebook; :mod:`~pacman.grading.gradescope` (scripts in
  :mod:`~pacman.grading.gradescope_scripts`): the Gradescope autograder bundle;
* :mod:`~pacman.grading.report`: terminal text, JSON and Gradescope's ``results.json``.
"""
