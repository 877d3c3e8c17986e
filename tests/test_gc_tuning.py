"""The bulk-play garbage-collector settings are scoped: restored on exit, even after an error,
and cyclic garbage made inside is still collected."""

from __future__ import annotations

import gc
import weakref

import pytest

from ingest.gc_tuning import BULK_THRESHOLDS, bulk_play


class _Node:
    pass


def test_bulk_play_restores_thresholds_and_unfreezes() -> None:
    before = gc.get_threshold()
    with bulk_play():
        assert gc.get_threshold() == BULK_THRESHOLDS
        assert gc.get_freeze_count() > 0
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0
    with pytest.raises(RuntimeError), bulk_play():
        raise RuntimeError("a game failed")
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0


def test_cycles_made_while_playing_are_collected() -> None:
    with bulk_play():
        a, b = _Node(), _Node()
        a.other, b.other = b, a  # type: ignore[attr-defined]
        ref = weakref.ref(a)
        del a, b
        gc.collect()
        assert ref() is None
