"""An agent's words are cut to a bound in all, whatever their size."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from pacman.contained.protocol import cut


@given(st.one_of(st.text(max_size=60), st.text(min_size=201, max_size=400)),
       st.integers(min_value=40, max_value=200))
def test_a_cut_message_is_at_most_its_limit_and_begins_as_the_text_does(text, limit):
    shown = cut(text, limit)
    assert len(shown) <= limit
    if len(text) <= limit:
        assert shown == text
    else:
        kept = shown.rpartition("... (")[0]
        assert text.startswith(kept)
        assert shown.endswith(f"({len(text) - len(kept)} more characters)")
