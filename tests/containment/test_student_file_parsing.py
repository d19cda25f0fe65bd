"""Reading which classes a student's file defines never runs it and finds exactly them."""

from __future__ import annotations

import keyword
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from pacman.lineup.student_file import defined_classes, file_without_class

names = st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,12}", fullmatch=True).filter(
    lambda n: not keyword.iskeyword(n))


@settings(max_examples=60, deadline=None)
@given(acting=st.lists(names, unique=True, max_size=5),
       others=st.lists(names, unique=True, max_size=5))
def test_defined_classes_lists_agents_first_and_runs_nothing(tmp_path_factory, acting, others):
    others = [n for n in others if n not in acting]
    folder = tmp_path_factory.mktemp("student")
    marker = folder / "ran"
    body = [f"open({str(marker)!r}, 'w')"]
    body += [f"class {n}:\n    def getAction(self, state):\n        return 'Stop'" for n in acting]
    body += [f"class {n}:\n    x = 1" for n in others]
    path = folder / "multiAgents.py"
    path.write_text("\n".join(body) + "\n")
    assert defined_classes(path) == acting + others
    error = file_without_class(str(path), "Pacman agent")
    assert error is not None and all(f"{path}:{n}" in str(error) for n in (acting + others)[:6])
    assert not marker.exists()


def test_a_file_that_is_not_python_is_one_clear_error(tmp_path):
    path = Path(tmp_path / "broken.py")
    path.write_text("class (:\n")
    error = file_without_class(str(path), "Pacman agent")
    assert error is not None and "not valid Python" in str(error)
