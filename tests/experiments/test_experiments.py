"""Every lecture experiment at a reduced size: its report states each claim with its test and
verdict (and a reason when it is not borne out), counts distinct games, tells how to watch a
game of every cell, and a run repeated with the same seed gives the same numbers."""

from __future__ import annotations

import json
import shlex
import re

import pytest

from pacman import experiments
from pacman.batch.store import read_store
from pacman.cli import main
from pacman.experiments import Settings, write_report

#: Reduced settings per experiment (fewer mazes, depths or settings than the full run).
SMALL = {
    "thrashing": {"mazes": ()},
    "coordination": {"mazes": (("coordination", 0),)},
    "informed": {"grid": [("trapped", "1.0", "2")]},
    "depth": {"depths": (1, 2)},
    "assumptions": {},
    "pruning": {},
}
GAMES = {"assumptions": 2, "coordination": 2}


def run_small(name: str, out, seed: int = 0) -> experiments.Report:
    experiment = experiments.get(name)
    settings = Settings(games=GAMES.get(name, experiment.ci_games), seed=seed, out=out,
                        workers=2)
    out.mkdir(parents=True, exist_ok=True)
    report = experiment.run(settings, **SMALL[name])
    write_report(report, settings)
    return report


@pytest.mark.parametrize("name", list(experiments.EXPERIMENTS))
def test_each_experiment_reports_claims_tests_verdicts_and_replays(name, tmp_path, capsys):
    report = run_small(name, tmp_path)
    assert report.claims, "an experiment must state what it checks"
    for claim in report.claims:
        assert claim.statistic, claim.text
        assert claim.holds or claim.reason, claim.text
    text = (tmp_path / "report.md").read_text()
    assert text.startswith("# ") and "seeds 0.." in text
    assert re.search(r"software: pacman-arena \S+(, commit [0-9a-f]{4,})?", text)
    assert "not borne out" in text or report.all_hold
    for filename, _ in report.figures:
        assert (tmp_path / filename).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    if name == "pruning":
        assert not report.watch
        return
    assert "distinct games" in text
    assert (tmp_path / report.gif[0]).read_bytes()[:6] == b"GIF89a"
    games, _ = read_store(tmp_path / "games.jsonl")
    by_index = {g.index: g for g in games}
    assert len(by_index) == len(games), "store indexes must be unique"
    for cell, command in report.watch:
        match = re.fullmatch(r"pacman-arena --replay (\S+) --game (\d+)", command)
        assert match and match.group(1) == str(tmp_path / "games.jsonl")
        game = by_index[int(match.group(2))]
        assert game.job.condition == cell.split(" (seed")[0]
        assert f"seed {game.result.seed}," in cell and f"score {game.result.score})" in cell
        # the command itself, run: it must show the game its line names
        capsys.readouterr()
        assert main([*shlex.split(command)[1:], "--display", "none", "--json"]) == 0
        shown = json.loads(capsys.readouterr().out)
        assert (f"(seed {shown['seed']}, {shown['outcome']}, score {shown['score']})"
                in cell), (cell, shown)


@pytest.mark.slow
@pytest.mark.parametrize("name", list(experiments.EXPERIMENTS))
def test_each_experiment_at_full_size_states_a_test_and_verdict_for_every_claim(name, tmp_path):
    experiment = experiments.get(name)
    settings = Settings(games=experiment.games, seed=0, out=tmp_path)
    report = experiment.run(settings)
    write_report(report, settings)
    assert report.claims
    assert all(c.statistic and (c.holds or c.reason) for c in report.claims)


def test_the_same_seed_gives_the_same_numbers(tmp_path):
    run_small("thrashing", tmp_path / "a")
    run_small("thrashing", tmp_path / "b")
    first = json.loads((tmp_path / "a" / "results.json").read_text())
    second = json.loads((tmp_path / "b" / "results.json").read_text())
    assert first == second


def test_a_rerun_resumes_and_more_games_keep_the_indexes_of_the_first(tmp_path):
    experiment = experiments.get("thrashing")
    small = Settings(games=2, seed=0, out=tmp_path, workers=1)
    experiment.run(small, mazes=())
    store = (tmp_path / "games.jsonl").read_text()
    experiment.run(small, mazes=())
    assert (tmp_path / "games.jsonl").read_text() == store  # nothing played twice
    before = {g.job.key: g.index for g in read_store(tmp_path / "games.jsonl")[0]}
    experiment.run(Settings(games=3, seed=0, out=tmp_path, workers=1), mazes=())
    after = {g.job.key: g.index for g in read_store(tmp_path / "games.jsonl")[0]}
    assert all(after[key] == index for key, index in before.items())
    assert len(set(after.values())) == len(after)


def test_cli_lists_experiments_and_rejects_unknown_names(capsys):
    assert main(["experiment", "--list"]) == 0
    listed = capsys.readouterr().out
    for name in experiments.EXPERIMENTS:
        assert name in listed
    assert main(["experiment", "trashing"]) == 2
    assert "did you mean thrashing" in capsys.readouterr().err


def test_cli_runs_an_experiment_into_the_output_folder(tmp_path, capsys):
    out = tmp_path / "report"
    assert main(["experiment", "pruning", "--games", "2", "--workers", "1", "--seed", "5",
                 "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert ("holds" in printed or "not borne out" in printed)
    assert str(out / "report.md") in printed
    text = (out / "report.md").read_text()
    assert "seeds 5..6" in text and "`pacman-arena experiment pruning --games 2" in text
