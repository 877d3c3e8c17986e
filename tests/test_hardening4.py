"""Hardening, round four (issue 31): variant files are input, studies and compare check what
they read, every number a user types is bounded, and the rest of the round's findings. Each
test failed on the code before its change."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from cli.main import main
from schemas.variants import VariantError, parse_variant

ROOT = Path(__file__).resolve().parents[1]
RV = "0.8.0-rc.17-test"
HEAD = f'name = "x"\ngame = "mandate2038"\nrules_version = "{RV}"\n'


def _show(path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(["variant", "show", str(path)])
    cap = capsys.readouterr()
    return code, cap.out + cap.err


# --- variant files are input ----------------------------------------------------------------


def test_the_key_scanner_uses_no_backtracking_expression(monkeypatch: pytest.MonkeyPatch) -> None:
    # the scanner's old expression took 45 s on a 60 KB upload (quadratic backtracking on a
    # long dotted key); the scanner now walks each line once and compiles no expression
    import schemas.variants as sv

    class NoRegex:
        def __getattr__(self, name: str) -> object:
            raise AssertionError(f"re.{name} called by the key scanner")

    monkeypatch.setattr(sv, "re", NoRegex())
    lines = sv._key_lines('a = 1\n"x.y".z = 2\n[changes]\n  scoring . "c.1" = 3\nfoo\n'
                          "[ abilities ]\npaused = []\n" + "a." * 20_000 + "\n")
    assert lines == {"a": 1, "x.y.z": 2, "changes": 3, "changes.scoring.c.1": 4,
                     "abilities": 6, "abilities.paused": 7}


def test_a_variant_file_over_the_size_cap_is_refused(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "big.toml"
    path.write_text(HEAD + "[changes]\n" + "# x\n" * 20_000)
    code, out = _show(path, capsys)
    assert code == 2 and f"{path}: cannot be read: larger than" in out
    with pytest.raises(VariantError, match="at most"):
        parse_variant(path.read_text(), "upload.toml")  # the Record page's upload


@pytest.mark.parametrize("kind", ["fifo", "dev-zero", "folder"])
def test_a_variant_path_that_is_not_a_regular_file_is_refused(
        kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "v.toml"
    if kind == "fifo":
        os.mkfifo(path)  # no writer: opening it for reading used to block for ever
    elif kind == "dev-zero":
        path.symlink_to("/dev/zero")
    else:
        path.mkdir()
    code, out = _show(path, capsys)
    assert code == 2 and f"{path}: cannot be read: not a regular file" in out, out
    code = main(["validate", str(ROOT / "data/samples/audit-examples/select_program_twice.json"),
                 "--variant", str(path)])
    assert code == 2 and "not a regular file" in capsys.readouterr().err


@pytest.mark.parametrize("body, words", [
    ("[changes]\nd = " + "[" * 3000 + "]" * 3000 + "\n", "nested too deeply"),
    ("[changes]\n" + "a." * 40 + "b = 1\n", "a path of more than 12 parts"),
    ('[changes]\n"scoring.customer_capability.\u0661" = 5\n', "ASCII letters, digits"),
    ('[changes]\n"scoring.customer_capability.\u00b2" = 5\n', "ASCII letters, digits"),
    ('[options]\npartnership-range = ["either-partner"]\n', "a value is a number, a text"),
    ("[changes]\ndossier_compute = [[1], [2]]\n", "a value is a number, a text"),
    ('[changes]\n"dossier.\\u001b[2J" = 1\n', "ASCII letters, digits"),
])
def test_a_malformed_variant_is_a_clear_error_not_a_crash(
        body: str, words: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "v.toml"
    path.write_text(HEAD + body, encoding="utf-8")
    code, out = _show(path, capsys)
    assert code == 2 and f"{path}:" in out and words in out, out
    assert "internal error" not in out and "\x1b" not in out


def test_a_malformed_variant_on_the_record_page_is_a_message(tmp_path: Path) -> None:
    from dashboards.variant_pick import stamp_of

    for body in ("[changes]\nd = " + "[" * 3000 + "]" * 3000 + "\n",
                 '[changes]\n"scoring.customer_capability.\u00b2" = 5\n',
                 '[options]\npartnership-range = ["either-partner"]\n'):
        stamp, problems = stamp_of(HEAD + body, "upload.toml", "mandate2038")
        assert stamp is None and problems and problems[0].startswith("upload.toml")


@pytest.mark.parametrize("name", ["x\\n", "x\\r"])
def test_a_variant_name_with_control_characters_is_refused(name: str) -> None:
    with pytest.raises(VariantError) as exc:
        parse_variant(HEAD.replace('"x"', f'"{name}"'), "v.toml")
    assert all("\n" not in str(p) and "\x1b" not in str(p) for p in exc.value.problems)


def test_variant_show_prints_escapes_not_obeys_them(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "v.toml"
    path.write_text(HEAD + 'description = "\\u001b[2Jwiped\\u009b"\n[changes]\n'
                    "dossier_compute = 2\n")
    code, out = _show(path, capsys)
    assert code == 0 and "\\x1b[2Jwiped\\x9b" in out and "\x1b" not in out


def _stamped(tmp_path: Path, stamp: dict[str, object]) -> Path:
    src = sorted((ROOT / "data/samples/simulated").glob("*.json"))[0]
    doc = json.loads(src.read_text())
    doc["header"]["variant"] = stamp
    path = tmp_path / "stamped.json"
    path.write_text(json.dumps(doc))
    return path


def test_a_log_stamped_with_20000_changes_is_refused_not_replayed_20000_times(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _stamped(tmp_path, {"name": "big", "hash": "0" * 16, "paused": [],
                               "changes": {f"scoring.x{i}": 1 for i in range(20_000)}})
    assert main(["validate", str(path)]) == 2
    out = capsys.readouterr().out
    assert "20,000 changes; a variant makes at most 64" in out and "UNREADABLE" in out


def test_a_stamp_name_with_a_newline_is_refused(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    path = _stamped(tmp_path, {"name": "big\n", "hash": "0" * 16,
                               "changes": {"dossier.compute_per_commit": 2}})
    assert main(["validate", str(path)]) == 2
    assert "variant.name" in capsys.readouterr().out
