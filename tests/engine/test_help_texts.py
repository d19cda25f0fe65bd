"""Help that teaches: examples in every command's help, every line of help and listings within
80 columns, one prefix for every error line, a missing window that names its package."""

from __future__ import annotations

import shlex

import pytest

from pacman.cli import COMMANDS, EXAMPLES, HELP_WIDTH, build_parser
from tests.cli_support import run_cli

ALL_HELP = [[], *[[name] for name in COMMANDS]]




@pytest.mark.parametrize("columns", ["200", "100", "80", "60"])
@pytest.mark.parametrize("command", ALL_HELP, ids=lambda c: c[0] if c else "main")
def test_every_help_has_examples_and_fits_80_columns(capsys, monkeypatch, command, columns):
    monkeypatch.setenv("COLUMNS", columns)
    code, out, _ = run_cli(capsys, *command, "--help")
    assert code == 0
    lines = out.splitlines()
    assert HELP_WIDTH == 80
    assert all(len(line) <= 80 for line in lines), max(lines, key=len)
    examples = lines[lines.index("examples:") + 1:]
    typed = [line for line in examples if line.startswith("  pacman-arena ")]
    assert len(typed) >= 2 and all("# " in line or "# " in examples[examples.index(line) - 1]
                                   for line in typed)


@pytest.mark.parametrize("command, example", [(c, e) for c, rows in EXAMPLES.items()
                                              for e, _ in rows])
def test_every_example_is_a_valid_command_line(command, example):
    argv = shlex.split(example)
    if argv[0] not in COMMANDS:
        argv.insert(0, "play")
    args = build_parser().parse_args(argv)  # an unknown option would exit here
    assert args.command == argv[0]


def test_export_help_names_every_format(capsys):
    _, out, _ = run_cli(capsys, "--help")
    line = next(line for line in out.splitlines() if line.strip().startswith("export"))
    assert "GIF" in line and "MP4" in line and "HTML" in line


@pytest.mark.parametrize("argv", [["--list-layouts"], ["--list-agents"],
                                  ["experiment", "--list"]])
def test_listings_fit_80_columns_in_plain_text(capsys, argv):
    code, out, _ = run_cli(capsys, *argv)
    assert code == 0 and len(out.splitlines()) > 5
    assert all(len(line) <= 80 for line in out.splitlines()), max(out.splitlines(), key=len)
    assert not any(role in out for role in (":meth:", ":func:", ":class:", "``"))


@pytest.mark.parametrize("argv", [["--games", "0"], ["play", "--bogus"], ["-p", "nobody"],
                                  ["tree", "-a", "minimax", "no_such_tree.json"],
                                  ["tree", "-a", "nope", "recitation"],
                                  ["report", "no_such_store.jsonl"],
                                  ["grade", "no/such/file.py"]])
def test_every_error_line_has_the_programs_name_as_its_one_prefix(capsys, argv):
    code, out, err = run_cli(capsys, *argv)
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and lines[0].startswith("pacman-arena: "), err
    assert "error:" not in lines[0]


def test_a_missing_window_names_pygame_ce(monkeypatch):
    import pacman.display as display
    from pacman.errors import ConfigurationError

    monkeypatch.setattr(display, "window_supported", lambda: False)
    with pytest.raises(ConfigurationError, match="pygame-ce"):
        display.resolve_kind("window")


@pytest.mark.parametrize("argv, message", [
    (["--layot", "tiny"], "pacman-arena: unknown option --layot; did you mean --layout?"),
    (["grad"], "pacman-arena: unknown command 'grad'; did you mean grade?"),
    (["expriment"], "pacman-arena: unknown command 'expriment'; did you mean experiment?"),
    (["grade", "--asignment", "x"],
     "pacman-arena: unknown option --asignment; did you mean --assignment?"),
    (["tree", "recitaton"],
     "pacman-arena: 'recitaton' is neither a tree file nor a built-in tree; did you mean "
     "recitation?"),
])
def test_a_mistyped_name_gets_one_line_with_the_closest_one(capsys, argv, message):
    code, out, err = run_cli(capsys, *argv)
    assert code == 2 and out == "" and err.strip() == message


def test_the_classic_flags_keep_their_meaning(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(capsys, "-r", "-c", "-q", "-l", "tiny", "-p", "greedy", "-s", "1",
                             "--frameTime", "0")
    assert code == 0, err
    (recorded,) = tmp_path.glob("recorded-games-*.jsonl")
    assert f"recording to {recorded.name}" in err and recorded.read_text().count("\n") == 1
    args = build_parser().parse_args(["grade", "--no-graphics", "x.py"])
    assert args.no_graphics


def test_export_names_every_format_that_works(capsys, tmp_path):
    code, out, err = run_cli(capsys, "export", tmp_path / "none.jsonl", tmp_path / "game.png")
    assert code == 2 and ".gif, .mp4 or .html" in err
