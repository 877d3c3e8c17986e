"""The Vestige recorder's words match its map: a move reads "moves to space 13 (via 9)", so
every space the map draws carries its number, where a facilitator can read it."""

from __future__ import annotations

import re

from dashboards.vestige import map as vm
from dashboards.vestige.labels import event_label


def test_every_space_named_in_a_move_is_numbered_on_the_map() -> None:
    svg = vm.render_svg({"map": {}, "seats": []})
    shown = {int(n) for n in re.findall(r'<text class="space-no"[^>]*>(\d+)</text>', svg)}
    assert shown == set(vm.SPACE_AT), sorted(set(vm.SPACE_AT) - shown)
    move = event_label({"type": "move", "seat": 1, "path": [9, 13]}, {1: "Blue"})
    named = {int(n) for n in re.findall(r"space (\d+)|via (\d+)", move)[0] if n}
    assert named and named <= shown, move
