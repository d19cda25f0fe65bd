"""The documentation holds together: the README stays a first read whose two commands are the
ones CI runs, every relative link of the README, the changelog and ``docs/`` resolves (files and
anchors as GitHub renders them), and the changelog's latest release is the package's version."""

from __future__ import annotations

import json
import re
import shlex

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pacman
from tests.markdown_pages import ROOT, Link, anchors, broken, github_anchor, links

README = ROOT / "README.md"
PAGES = [README, ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").glob("*.md"))]


def test_every_relative_link_resolves():
    problems = [problem for page in PAGES for link in links(page)
                if (problem := broken(link)) is not None]
    assert not problems, "\n".join(problems)
    assert sum(len(links(page)) for page in PAGES) > 50  # the pages were read


def test_the_readme_fits_a_first_read():
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) < 350, f"README.md has {len(lines)} lines: move a section to docs/"


def test_every_docs_page_is_linked_from_the_readme():
    linked = {(README.parent / link.target.partition("#")[0]).resolve() for link in links(README)}
    assert not [page.name for page in PAGES[2:] if page.resolve() not in linked]


def quick_start_commands() -> list[str]:
    section = README.read_text(encoding="utf-8").split("\n## Quick start\n", 1)[1].split("\n## ")[0]
    return [block.strip() for block in re.findall(r"```bash\n(.*?)```", section, re.S)]


def test_the_readme_gives_two_commands_and_ci_runs_them():
    install_and_play, run_tests = quick_start_commands()
    steps = [shlex.split(step) for step in install_and_play.split("&&")]
    assert steps[0] == ["python3", "-m", "venv", ".venv"]
    # playing needs no test tools: the first install is the project alone
    assert steps[1] == [".venv/bin/pip", "install", "-e", "."]
    assert steps[2] == [".venv/bin/pacman-arena"]  # the main job on its built-in default
    extra, tests = (step.strip() for step in run_tests.split("&&"))
    assert shlex.split(extra) == [".venv/bin/pip", "install", "-e", ".[test]"]
    assert tests == ".venv/bin/python -m pytest"
    ci = [line.strip() for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
          if line.strip() and not line.lstrip().startswith("#")]
    play_install = ci.index(".venv/bin/pip install --quiet -e .")
    game = next(i for i, line in enumerate(ci) if line.startswith(".venv/bin/pacman-arena "))
    test_install = ci.index(".venv/bin/pip install --quiet -e '.[test]'")
    assert ci.index("python3 -m venv .venv") < play_install < game < test_install
    assert ci[-1] == tests


def test_the_changelog_names_the_package_version_as_its_latest_release():
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    releases = re.findall(r"^## \[(\d+\.\d+\.\d+)\] - (\d{4}-\d{2}-\d{2})$", text, re.M)
    assert releases, "no release heading '## [X.Y.Z] - YYYY-MM-DD'"
    assert releases[0][0] == pacman.__version__
    assert text.index("## [Unreleased]") < text.index(f"## [{releases[0][0]}]")


def test_the_readme_environment_example_runs():
    pytest.importorskip("gymnasium")
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    example = next(block for block in blocks if "gymnasium.make" in block)
    namespace: dict = {}
    exec(example, namespace)  # noqa: S102  (our own documentation)
    assert namespace["env"].action_space.contains(0)
    assert "action_mask" in namespace["info"]


def agent_example(page) -> tuple[str, str]:
    """The file of the page's ``Writing an agent`` example and the command that plays it."""
    section = page.read_text(encoding="utf-8").split("# Writing an agent\n", 1)[1]
    code = re.search(r"```python\n(# my_agent\.py\n.*?)```", section, re.S)
    command = re.search(r"```bash\n(pacman-arena --pacman my_agent\.py:.*?)\n```", section, re.S)
    assert code and command
    return code.group(1), command.group(1)


def test_the_readme_agent_example_plays_as_its_command_says(tmp_path, monkeypatch, capsys):
    from pacman.cli import main

    code, command = agent_example(README)
    assert agent_example(ROOT / "docs" / "agents.md") == (code, command)
    (tmp_path / "my_agent.py").write_text(code, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    arguments = shlex.split(command)[1:] + ["--display", "none", "--json", "--seed", "3",
                                            "--max-moves", "8"]
    assert main(arguments) == 0
    (result,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()
                 if line.startswith("{")]
    assert result["agents"][0] == "my_agent.py:Hungry"
    assert result["outcome"] in ("win", "loss", "move_limit") and result["moves"] > 0  # it played


# The checker itself: what it must refuse, and GitHub's anchors.

def test_broken_files_and_anchors_are_found_and_code_is_not_a_link(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "other.md").write_text("# Other page\n\n## Setup: `pip` & more\n")
    page = tmp_path / "README.md"
    page.write_text("# Title\n\n## Title\n\n"
                    "[ok](docs/other.md#setup-pip--more) [ok](#title-1) [web](https://example.org/x)\n"
                    "[gone](docs/missing.md) [bad anchor](docs/other.md#setup)\n"
                    "[self](#nothing) [out](../elsewhere.md)\n"
                    "`[in code](nowhere.md)`\n\n```markdown\n[in a block](nowhere.md)\n# Not a heading\n```\n")
    found = [broken(link, tmp_path) for link in links(page)]
    assert [reason.split(": ", 1)[1] if reason else None for reason in found] == [
        None, None, None,
        "docs/missing.md: no such file", "docs/other.md#setup: no heading with this anchor",
        "#nothing: no heading with this anchor", "../elsewhere.md: outside the repository"]
    assert anchors(page.read_text()) == {"title", "title-1"}
    assert broken(Link(page, 1, "docs/other.md"), tmp_path) is None


@pytest.mark.parametrize(("heading", "anchor"), [
    ("The classic course's command line", "the-classic-courses-command-line"),
    ("Where `originalClassic` stands", "where-originalclassic-stands"),
    ("Batches: many seeded games, tables, plots", "batches-many-seeded-games-tables-plots"),
    ("Isolation, and what the fallback cannot prevent",
     "isolation-and-what-the-fallback-cannot-prevent"),
    ("[0.1.0] - 2026-11-27", "010---2026-11-27"),
    ("PettingZoo (AEC and parallel)", "pettingzoo-aec-and-parallel"),
    ("A [linked](x.md) heading_name", "a-linked-heading_name"),
])
def test_anchors_are_githubs(heading, anchor):
    assert github_anchor(heading) == anchor


#: pieces of lines that never make a fence (a line of three or more backticks or tildes)
FRAGMENTS = st.sampled_from(["[a](missing.md)", "![b](gone.png)", "# A heading", "## Two", "text",
                             " ", "`code`", "[c](#nowhere)", "~x", "    indented"])


@settings(deadline=None)  # each example writes a file: a busy disk is not a failure
@given(st.lists(st.lists(FRAGMENTS, max_size=4).map("".join), max_size=8),
       st.sampled_from(["```", "~~~", "````"]))
def test_nothing_inside_a_fenced_block_is_a_link_or_a_heading(tmp_path_factory, lines, fence):
    page = tmp_path_factory.mktemp("page") / "page.md"
    page.write_text("\n".join(["# Page", fence + "markdown", *lines, fence, "[ok](#page)"]) + "\n")
    assert [link.target for link in links(page)] == ["#page"]
    assert anchors(page.read_text()) == {"page"}


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc")), max_size=40))
def test_an_anchor_is_its_own_anchor(heading):
    anchor = github_anchor(heading)
    assert anchor == anchor.lower() and not re.search(r"\s", anchor)
    assert github_anchor(anchor) == anchor
