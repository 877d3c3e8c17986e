"""Map geometry (core rules §4; FACTS.md §2)."""

from engine.mandate2038.board import ADJACENT, DISTANCE, INNER, OUTER, distance, path_problem


def test_ring_sizes_and_neighbours() -> None:
    assert len(INNER) == 6 and len(OUTER) == 12
    assert ADJACENT["F"] == frozenset(INNER)
    # outer corners touch one inner tile, outer edges two (plus two outer neighbours)
    assert ADJACENT["O1"] == {"I1", "O2", "O12"}
    assert ADJACENT["O2"] == {"I1", "I2", "O1", "O3"}
    assert all(len(ADJACENT[p]) in (3, 4) for p in OUTER)


def test_distances() -> None:
    assert max(max(row.values()) for row in DISTANCE.values()) == 4
    assert distance("O1", "O7") == 4
    assert distance("F", "O5") == 2
    assert distance("F", "X9") is None
    for a in DISTANCE:
        for b in ADJACENT[a]:
            assert a in ADJACENT[b]


def test_path_problems() -> None:
    assert path_problem(["F", "I1", "O1"]) is None
    assert "share an edge" in (path_problem(["F", "O1"]) or "")
    assert "steps" in (path_problem(["F", "I1", "O1", "O2"]) or "")
    assert "not a map position" in (path_problem(["F", "Z"]) or "")
