"""Every lecture experiment at its reduced (CI) size: its claims hold, its report is written,
and a run repeated with the same seed gives the same numbers."""

from __future__ import annotations

import json

import pytest

from pacman import experiments
from pacman.cli import main
from pacman.experiments import Settings, write_report


def run_small(name: str, out, seed: int = 0) -> experiments.Report:
    experiment = experiments.get(name)
    settings = Settings(games=experiment.ci_games, seed=seed, out=out, workers=2)
    out.mkdir(parents=True, exist_ok=True)
    report = experiment.run(settings)
    write_report(report, settings)
    return report


@pytest.mark.parametrize("name", list(experiments.MODULES))
def test_each_experiment_bears_out_its_claims_at_ci_size(name, tmp_path):
    report = run_small(name, tmp_path)
    assert report.claims, "an experiment must state what it checks"
    failing = [(c.text, c.evidence) for c in report.claims if not c.holds]
    assert failing == []
    text = (tmp_path / "report.md").read_text()
    assert text.startswith("# ") and "seeds 0.." in text and "pacman-arena" in text
    for filename, _ in report.figures:
        assert (tmp_path / filename).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.slow
@pytest.mark.parametrize("name", list(experiments.MODULES))
def test_each_experiment_bears_out_its_claims_at_full_size(name, tmp_path):
    experiment = experiments.get(name)
    settings = Settings(games=experiment.games, seed=0, out=tmp_path)
    report = experiment.run(settings)
    assert [(c.text, c.evidence) for c in report.claims if not c.holds] == []


def test_the_same_seed_gives_the_same_numbers(tmp_path):
    run_small("thrashing", tmp_path / "a")
    run_small("thrashing", tmp_path / "b")
    first = json.loads((tmp_path / "a" / "results.json").read_text())
    second = json.loads((tmp_path / "b" / "results.json").read_text())
    assert first == second


def test_a_rerun_resumes_from_the_store_of_the_output_folder(tmp_path):
    run_small("thrashing", tmp_path)
    store = (tmp_path / "games.jsonl").read_text()
    run_small("thrashing", tmp_path)
    assert (tmp_path / "games.jsonl").read_text() == store  # nothing played twice


def test_cli_lists_experiments_and_rejects_unknown_names(capsys):
    assert main(["experiment", "--list"]) == 0
    listed = capsys.readouterr().out
    for name in experiments.MODULES:
        assert name in listed
    assert main(["experiment", "trashing"]) == 2
    assert "did you mean thrashing" in capsys.readouterr().err


def test_cli_runs_an_experiment_into_the_output_folder(tmp_path, capsys):
    out = tmp_path / "report"
    assert main(["experiment", "thrashing", "--games", "3", "--workers", "1", "--seed", "5",
                 "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "holds" in printed and str(out / "report.md") in printed
    text = (out / "report.md").read_text()
    assert "seeds 5..7" in text and "--games 3" in text
