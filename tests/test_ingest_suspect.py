"""``suspect`` (the reader's cheap pre-check for values it must look at closely) gives the same
answer as the regex it replaced, on arbitrary bytes and on the shapes it exists for."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ingest.formats._common import _SUSPECT, MAX_TEXT, _long_line, suspect


def _reference(raw: bytes) -> bool:
    return bool(_SUSPECT.search(raw)) or _long_line(raw)


#: bytes drawn mostly from what the patterns look at, so that near-misses are common
_ALPHABET = st.sampled_from(list(b"0123456789eE+-.NaInfity\\uUdD89aAfF \",:{}[]\n\xff\x00"))


@settings(max_examples=600, deadline=None)
@given(st.lists(_ALPHABET, max_size=40).map(bytes))
def test_same_answer_as_the_regex_on_near_misses(raw):
    assert suspect(raw) == _reference(raw)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=200))
def test_same_answer_as_the_regex_on_arbitrary_bytes(raw):
    assert suspect(raw) == _reference(raw)


@pytest.mark.parametrize("raw,expected", [
    (b'{"n": 1234567890}', True),       # ten digits
    (b'{"n": 123456789}', False),       # nine
    (b'{"x": NaN}', True),
    (b'{"x": -Infinity}', True),
    (b'{"x": 1e308}', True),            # a three-digit exponent
    (b'{"x": 1E-300}', True),
    (b'{"x": 1e+30}', False),
    (b'{"s": "\\ud800"}', True),        # a surrogate escape
    (b'{"s": "\\u00e9"}', False),
    (b'{"s": "caf\xc3\xa9 2038"}', False),
    (b"a" * MAX_TEXT, True),            # a line long enough to hold a text too long
    (b"a\n" * MAX_TEXT, False),
])
def test_the_shapes_it_exists_for(raw, expected):
    assert suspect(raw) is expected
    assert _reference(raw) is expected
