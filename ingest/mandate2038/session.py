"""The designers' playtest session folder: ``receipt.json``, ``scores.json`` and ``notes.md``.

The folder (FACTS.md §11.2, written by their ``npm run playtest:new``) becomes one *partial* log
(``header.detail = "partial"``):

* ``receipt.json`` is validated against their published schema (a copy ships in
  ``data/templates/playtest-receipt.schema.json``). Every violation is a finding naming the file,
  line and column. Its identity fields go to ``header.receipt``; its factions (the designers'
  ids such as ``imperial_research_lab``) become our seats 1..N in the listed order.
* ``notes.md``: the Timing section (Setup, Era I..IV, Final scoring) becomes ``phase`` and
  ``era_start`` events with times counted from ``playedAt``; bullets of "Rules questions and
  interventions" become ``rules_lookup`` / ``intervention`` observations; other sections become
  observations of a fitting category of the observation protocol. "Players and factions" gives
  player names; an optional "Provenance" section (our addition) marks illustrative examples.
* ``scores.json``: ``finalStandings`` becomes a ``checkpoint`` (label "final standings") and a
  ``final_record`` (winners, offline penalties); ``scoringBySource`` becomes one
  ``observation`` (category ``other``, text ``scoring by source: ...``) per seat, because the
  canonical log has no per-source score field yet (see docs/notes/formats.md).
"""

from __future__ import annotations

import datetime as dt
import json
import re
from functools import lru_cache
from pathlib import Path, PurePosixPath
from typing import Any

from ingest.formats._common import LoadedLog, Problems, unreadable, validate
from ingest.formats.jsonlog import load_json_document

SESSION_MARKER = "receipt.json"
SCHEMA_PATH = Path(__file__).resolve().parents[2] / "data" / "templates" / "playtest-receipt.schema.json"

#: the designers' faction ids (FACTS.md §1), their short keys and names -> our faction ids
FACTION_IDS: dict[str, str] = {
    "coalition_lab": "dovetalis", "platform_empire": "loopfold",
    "imperial_research_lab": "mirevanta", "vertical_empire": "kestralyn",
    "safety_laboratory": "orisonix", "foundry": "corthaven",
    "coalition": "dovetalis", "platform": "loopfold", "imperial": "mirevanta",
    "vertical": "kestralyn", "safety": "orisonix",
    "dovetalis": "dovetalis", "loopfold": "loopfold", "mirevanta": "mirevanta",
    "kestralyn": "kestralyn", "orisonix": "orisonix", "corthaven": "corthaven",
    "dovetalis labs": "dovetalis", "loopfold ai": "loopfold", "mirevanta works": "mirevanta",
}
#: observation categories of the protocol data/protocols/mandate2038-observation/v1.json
CATEGORIES = frozenset({
    "rules_lookup", "intervention", "deviation", "unresolved_question", "timing", "negotiation",
    "politics", "research", "infrastructure", "dossier", "audit", "surprise", "confusion",
    "friction", "identity", "timeline", "strategy", "recovery", "other",
})
_PREFIX_CATEGORY = {"decision": "strategy", "question": "rules_lookup", "lookup": "rules_lookup",
                    "unresolved": "unresolved_question", "open question": "unresolved_question"}
ROMAN = {"i": 1, "ii": 2, "iii": 3, "iv": 4, "1": 1, "2": 2, "3": 3, "4": 4}


def our_faction(designers_id: str) -> str | None:
    """Our faction id for a designers' faction id, short key or name (None if unknown)."""
    return FACTION_IDS.get(designers_id.strip().lower())


@lru_cache(maxsize=1)
def _receipt_validator() -> Any:
    import jsonschema

    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker())


def _obj(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _parse_datetime(value: Any) -> dt.datetime | None:
    if not isinstance(value, str):
        return None
    try:
        return dt.datetime.fromisoformat(value)
    except ValueError:
        return None


# --- receipt.json -------------------------------------------------------------------------------


def _receipt(files: dict[str, bytes], source: str, probs: Problems) -> tuple[dict[str, Any] | None, str | None]:
    src = f"{source}#receipt.json"
    obj, positions, index, reason, line, col = load_json_document(files[SESSION_MARKER])
    if reason is not None or index is None:
        return None, f"{src}" + (f":{line}:{col}" if line else "") + f": {reason}"
    if not isinstance(obj, dict):
        return None, f"{src}:1:1: the receipt is not a JSON object"
    for err in sorted(_receipt_validator().iter_errors(obj), key=lambda e: list(map(str, e.absolute_path))):
        path = tuple(err.absolute_path)
        while path and path not in positions:
            path = path[:-1]
        ln, cl = index.line_col(positions[path]) if path in positions else (1, 1)
        where = ".".join(str(p) for p in err.absolute_path) or "(top level)"
        probs.error(ln, cl, f"receipt.json does not match the designers' receipt schema v1 at {where}: {err.message}")
    played = obj.get("playedAt")
    if isinstance(played, str) and _parse_datetime(played) is None:
        ln, cl = index.line_col(positions.get(("playedAt",), 0))
        probs.error(ln, cl, f"receipt.json playedAt {played!r} is not an ISO 8601 date-time")
    return obj, None


def _identity(receipt: dict[str, Any]) -> dict[str, Any]:
    game = _obj(receipt.get("game"))
    kit = _obj(receipt.get("physicalKit"))
    conf = _obj(receipt.get("configuration"))
    ident: dict[str, Any] = {
        "session_id": receipt.get("sessionId"),
        "played_at": _parse_datetime(receipt.get("playedAt")),
        "rules_version": game.get("version"),
        "executable_version": game.get("executableVersion"),
        "source_commit": game.get("sourceCommit"),
        "ruleset_fingerprint": game.get("rulesetFingerprint"),
        "playtest_kit_fingerprint": game.get("playtestKitFingerprint"),
        "variant_fingerprint": game.get("variantFingerprint"),
        "kit_id": kit.get("kitId"),
        "component_revision": kit.get("componentRevision"),
        "executable_revision": kit.get("executableRevision"),
        "kit_label": kit.get("label"),
        "mixed_revisions": kit.get("mixedRevisions"),
        "kit_exceptions": kit.get("exceptions"),
        "board_seed": conf.get("boardSeed"),
        "rules_deviations": receipt.get("rulesDeviations"),
        "facilitator_interventions": receipt.get("facilitatorInterventions"),
    }
    out: dict[str, Any] = {}
    for k, v in ident.items():
        if k in ("kit_exceptions", "rules_deviations", "facilitator_interventions"):
            if isinstance(v, list) and all(isinstance(x, str) for x in v):
                out[k] = v
        elif k == "mixed_revisions":
            if isinstance(v, bool):
                out[k] = v
        elif k == "played_at":
            if v is not None:
                out[k] = v
        elif isinstance(v, str):
            out[k] = v
    return out


# --- notes.md -----------------------------------------------------------------------------------

_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
_BULLET = re.compile(r"^\s*(?:[-*+]|[0-9]+[.)])\s+(.*)$")
_RANGE = re.compile(r"([0-9]{1,2}):([0-9]{2})\s*(?:-|–|—|to)\s*([0-9]{1,2}):([0-9]{2})")
_MINUTES = re.compile(r"([0-9]+(?:\.[0-9]+)?)\s*(?:min\b|mins\b|minutes\b|m\b|′)", re.I)
_ERA_LABEL = re.compile(r"^\s*(?:\*\*)?era\s+(iv|iii|ii|i|[1-4])\b(?:\*\*)?\s*[:\-–—]?\s*", re.I)
_RULE = re.compile(r"§\s*([0-9]+[A-Z]?(?:\.[0-9]+)?)")
_SEAT = re.compile(r"\bseat\s+([1-6])\b", re.I)
_PAREN_MIN = re.compile(r"\(\s*([0-9]+(?:\.[0-9]+)?)\s*min(?:utes?)?\s*\)", re.I)


def _sections(text: str) -> list[tuple[str, int, list[tuple[int, str]]]]:
    """(heading, line, [(line, item text)]) for each section; an item is a bullet with its
    continuation lines, or a paragraph."""
    out: list[tuple[str, int, list[tuple[int, str]]]] = []
    current: tuple[str, int, list[tuple[int, str]]] = ("", 0, [])
    item: list[str] = []
    item_line = 0

    def flush() -> None:
        nonlocal item
        if item:
            current[2].append((item_line, " ".join(s.strip() for s in item).strip()))
        item = []

    for n, line in enumerate(text.split("\n"), 1):
        h = _HEADING.match(line)
        if h:
            flush()
            out.append(current)
            current = (h.group(2).strip(), n, [])
            continue
        b = _BULLET.match(line)
        if b:
            flush()
            item, item_line = [b.group(1)], n
        elif not line.strip():
            flush()
        elif item:
            item.append(line)
        else:
            item, item_line = [line], n
    flush()
    out.append(current)
    return [s for s in out if s[0] or s[2]]


def _slug(s: str) -> str:
    return re.sub(r"[^a-z0-9]+", " ", s.lower()).strip()


def _timing(items: list[tuple[int, str]], played: dt.datetime | None, probs: Problems,
            src: str) -> list[tuple[int, dict[str, Any]]]:
    """Phase and era_start events from the Timing section."""
    spans: dict[str, tuple[int, dt.datetime | None, float | None]] = {}
    order = ["setup", "era1", "era2", "era3", "era4", "final_scoring"]
    for n, text in items:
        label, _, rest = text.partition(":")
        key = _slug(label.replace("*", ""))
        key = {"setup": "setup", "final scoring": "final_scoring", "scoring": "final_scoring",
               "era i": "era1", "era ii": "era2", "era iii": "era3", "era iv": "era4",
               "era 1": "era1", "era 2": "era2", "era 3": "era3", "era 4": "era4"}.get(key, key)
        if key in ("total", "total duration", "game"):
            continue
        if key not in order or not _:
            probs.error(n, 1, f"Timing line not understood: expected 'Setup: 18 min', "
                        f"'Era I: 19:20-19:42' ... or 'Final scoring: 6 min', found {text!r}")
            continue
        start: dt.datetime | None = None
        minutes: float | None = None
        r = _RANGE.search(rest)
        if r and played is not None:
            h1, m1, h2, m2 = (int(x) for x in r.groups())
            try:
                start = played.replace(hour=h1, minute=m1, second=0, microsecond=0)
                end = played.replace(hour=h2, minute=m2, second=0, microsecond=0)
            except ValueError:
                probs.error(n, 1, f"not a valid time range in {text!r}")
                continue
            if end < start:
                end += dt.timedelta(days=1)
            minutes = (end - start).total_seconds() / 60
        mm = _MINUTES.search(rest)
        if mm and minutes is None:
            minutes = float(mm.group(1))
        if start is None and minutes is None:
            probs.error(n, 1, f"no duration in Timing line {text!r} (write '18 min' or '19:02-19:20')")
            continue
        spans[key] = (n, start, minutes)
    if not spans:
        return []
    events: list[tuple[int, dict[str, Any]]] = []
    clock = played
    for key in order:
        if key not in spans:
            clock = None
            continue
        n, start, minutes = spans[key]
        t = start or clock
        ev: dict[str, Any]
        if key == "setup":
            ev = {"type": "phase", "name": "setup"}
        elif key == "final_scoring":
            ev = {"type": "phase", "name": "final_scoring"}
        else:
            ev = {"type": "era_start", "era": int(key[3])}
        if t is not None:
            ev["t"] = t
        events.append((n, ev))
        clock = t + dt.timedelta(minutes=minutes) if t is not None and minutes is not None else None
        if key == "setup":
            end_ev: dict[str, Any] = {"type": "phase", "name": "setup_end"}
            if clock is not None:
                end_ev["t"] = clock
            events.append((n, end_ev))
        if key == "final_scoring":
            end_ev = {"type": "phase", "name": "game_end"}
            if clock is not None:
                end_ev["t"] = clock
            events.append((n, end_ev))
    return events


def _observation(text: str, default: str) -> tuple[int | None, dict[str, Any]]:
    """An observation from one notes item: (Era it names or None, event)."""
    era: int | None = None
    m = _ERA_LABEL.match(text)
    if m:
        era = ROMAN[m.group(1).lower()]
        text = text[m.end():]
    category = default
    head, sep, rest = text.partition(":")
    slug = _slug(head.replace("*", "")).replace(" ", "_")
    if sep and len(head) <= 30:
        if slug in CATEGORIES:
            category, text = slug, rest.strip()
        elif slug.replace("_", " ") in _PREFIX_CATEGORY:
            category, text = _PREFIX_CATEGORY[slug.replace("_", " ")], rest.strip()
    m = _ERA_LABEL.match(text)
    if m and era is None:  # "Intervention: Era II: ..."
        era = ROMAN[m.group(1).lower()]
        text = text[m.end():]
    ev: dict[str, Any] = {"type": "observation", "category": category, "text": text.strip()}
    r = _RULE.search(text)
    if r:
        ev["rule"] = f"core rules §{r.group(1)}"
    s = _SEAT.search(text)
    if s:
        ev["seat"] = int(s.group(1))
    mins = _PAREN_MIN.search(text)
    if mins:
        ev["minutes"] = float(mins.group(1))
    return era, ev


def _notes(data: bytes, source: str, played: dt.datetime | None, header: dict[str, Any],
           probs: Problems) -> tuple[list[tuple[int, dict[str, Any]]], list[tuple[int | None, int, dict[str, Any]]]]:
    """(timed structure events, observations with their Era) from notes.md."""
    src = f"{source}#notes.md"
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        probs.error(None, None, f"not UTF-8 text (byte offset {err.start}); the notes were not read")
        return [], []
    timing: list[tuple[int, dict[str, Any]]] = []
    observations: list[tuple[int | None, int, dict[str, Any]]] = []
    for heading, _hline, items in _sections(text):
        slug = _slug(heading)
        if not heading and items:
            # text before the first heading: the title line is kept out; the rest is a note
            continue
        if slug.startswith("timing"):
            timing = _timing(items, played, probs, src)
        elif slug.startswith("players"):
            for _n, item in items:
                m = re.match(r"^\s*(?:\*\*)?seat\s+([1-6])(?:\*\*)?\s*[:\-–—]\s*(.+?)\s*$", item, re.I)
                if not m:
                    continue
                seat, rest = int(m.group(1)), m.group(2)
                player = re.split(r"\s+[-–—(]|\s*,", rest)[0].strip()
                for s in header.get("seats", []):
                    if s["seat"] == seat and player:
                        s["player"] = player
        elif slug.startswith("provenance"):
            for _n, item in items:
                key, _, value = item.partition(":")
                k = _slug(key)
                if k == "illustrative":
                    header.setdefault("provenance", {})["illustrative"] = value.strip().lower() in ("yes", "true")
                elif k == "description":
                    header.setdefault("provenance", {})["description"] = value.strip()
                elif k in ("facilitator", "venue"):
                    header[k] = value.strip()
        elif slug.startswith("rules questions"):
            for n, item in items:
                low = item.lower()
                default = "intervention" if low.startswith(("intervention", "intervened", "facilitator")) else "rules_lookup"
                era, ev = _observation(item, default)
                observations.append((era, n, ev))
        elif slug.startswith("decisions") or slug.startswith("surprises"):
            for n, item in items:
                era, ev = _observation(item, "other")
                observations.append((era, n, ev))
        elif slug.startswith("postgame"):
            for n, item in items:
                first = item.strip().split(" ", 1)[0].strip(".,:;!").lower()
                if first in ("yes", "no"):
                    observations.append((None, n, {"type": "survey", "item": "could_explain_winner",
                                                   "value": first == "yes"}))
                era, ev = _observation(item, "other")
                observations.append((era, n, ev))
        else:
            for n, item in items:
                era, ev = _observation(item, "other")
                if ev["category"] == "other":
                    ev["text"] = f"{heading}: {ev['text']}"
                observations.append((era, n, ev))
    return timing, observations


# --- scores.json --------------------------------------------------------------------------------


def _scores(data: bytes, source: str, seat_of: dict[str, int], n_seats: int,
            probs: Problems) -> list[tuple[int, dict[str, Any]]]:
    obj, positions, index, reason, line, col = load_json_document(data)
    if reason is not None or index is None:
        probs.error(line, col, f"{reason}; the scores were not read")
        return []
    if not isinstance(obj, dict):
        probs.error(1, 1, "expected a JSON object with finalStandings and scoringBySource")
        return []

    def where(path: tuple[Any, ...]) -> tuple[int, int]:
        return index.line_col(positions.get(path, 0))

    def seat_for(entry: dict[str, Any], path: tuple[Any, ...]) -> int | None:
        fid = entry.get("factionId", entry.get("faction"))
        if isinstance(fid, str):
            ours = our_faction(fid) or fid
            if ours in seat_of:
                return seat_of[ours]
        seat = entry.get("seat")
        if isinstance(seat, int) and not isinstance(seat, bool) and 1 <= seat <= n_seats:
            return seat
        ln, cl = where(path)
        probs.error(ln, cl, f"entry names no faction at the table (factionId) or seat 1..{n_seats}; skipped")
        return None

    events: list[tuple[int, dict[str, Any]]] = []
    standings = obj.get("finalStandings", [])
    if not isinstance(standings, list):
        ln, cl = where(("finalStandings",))
        probs.error(ln, cl, "finalStandings is not a list")
        standings = []
    values: list[dict[str, Any]] = []
    winners: list[int] = []
    offline: dict[int, int] = {}
    fields = {"mandate": ("mandate", "score"), "runway": ("runway",), "compute": ("compute",),
              "capability": ("capability",), "customers": ("customers",), "trust": ("trust",),
              "scrutiny": ("scrutiny",)}
    for i, entry in enumerate(standings):
        path = ("finalStandings", i)
        if not isinstance(entry, dict):
            ln, cl = where(path)
            probs.error(ln, cl, f"finalStandings[{i}] is not an object; skipped")
            continue
        seat = seat_for(entry, path)
        if seat is None:
            continue
        sv: dict[str, Any] = {"seat": seat}
        for ours, keys in fields.items():
            for k in keys:
                v = entry.get(k)
                if isinstance(v, int) and not isinstance(v, bool):
                    sv[ours] = v
                    break
        values.append(sv)
        if entry.get("winner") is True or entry.get("rank") == 1:
            winners.append(seat)
        pen = entry.get("offlinePenalty", entry.get("offlineFacilities"))
        if isinstance(pen, int) and not isinstance(pen, bool):
            offline[seat] = abs(pen)
    line_of = where(("finalStandings",))[0] if ("finalStandings",) in positions else 1
    record: dict[str, Any] = {}
    if winners:
        record["winners"] = sorted(winners)
    if offline:
        record["offline"] = offline
    by_source = obj.get("scoringBySource", [])
    if not isinstance(by_source, list):
        ln, cl = where(("scoringBySource",))
        probs.error(ln, cl, "scoringBySource is not a list")
        by_source = []
    per_seat: dict[int, list[str]] = {}
    first_line: dict[int, int] = {}
    for i, entry in enumerate(by_source):
        path = ("scoringBySource", i)
        if not isinstance(entry, dict):
            ln, cl = where(path)
            probs.error(ln, cl, f"scoringBySource[{i}] is not an object; skipped")
            continue
        seat = seat_for(entry, path)
        if seat is None:
            continue
        source_name = entry.get("source")
        amount = next((entry[k] for k in ("mandate", "points", "amount", "score") if k in entry), None)
        if not isinstance(source_name, str) or not isinstance(amount, int | float) or isinstance(amount, bool):
            ln, cl = where(path)
            probs.error(ln, cl, f"scoringBySource[{i}] needs a source (text) and mandate (a number); skipped")
            continue
        per_seat.setdefault(seat, []).append(f"{source_name} {amount:+g}")
        first_line.setdefault(seat, where(path)[0])
        if source_name.lower().replace(" ", "_") in ("offline", "offline_penalty", "offline_facilities") and seat not in offline:
            offline[seat] = abs(int(amount))
            record["offline"] = offline
    for seat in sorted(per_seat):
        events.append((first_line[seat], {
            "type": "observation", "category": "other", "seat": seat,
            "text": "scoring by source (scores.json): " + ", ".join(per_seat[seat]),
        }))
    if values:
        # the standings are after final scoring; the checkpoint goes just before it, so the
        # offline penalty (final scoring step 2) is added back to the Mandate
        for sv in values:
            if "mandate" in sv and sv["seat"] in offline and sv["mandate"] >= 0:
                # a negative standing is impossible after the penalty (core rules §11: never
                # below zero Mandate): it is kept as recorded so that the audit reports it
                sv["mandate"] += offline[sv["seat"]]
        label = "final standings (scores.json)" + (", Mandate before the offline penalty" if offline else "")
        events.insert(0, (line_of, {"type": "checkpoint", "label": label, "seats": values}))
    if record:
        events.append((line_of, {"type": "final_record", **record}))
    return events


# --- the folder -------------------------------------------------------------------------------


def read_session_files(files: dict[str, bytes], source: str, raw: bytes) -> LoadedLog:
    """Read a session folder given as ``{relative name: bytes}``. Never raises."""
    if SESSION_MARKER not in files:
        return unreadable(source, "session-folder", raw, "no receipt.json in the session folder")
    probs = Problems(f"{source}#receipt.json")
    receipt, fatal = _receipt(files, source, probs)
    if receipt is None:
        return unreadable(source, "session-folder", raw, f"the receipt could not be read: {fatal}")
    game = _obj(receipt.get("game"))
    conf = _obj(receipt.get("configuration"))
    played = _parse_datetime(receipt.get("playedAt"))
    header: dict[str, Any] = {
        "game": "mandate2038",
        "session_type": receipt.get("evidenceType"),
        "detail": "partial",
        "seats": [],
        "receipt": _identity(receipt),
        "provenance": {"source_format": "session-folder", "source_name": PurePosixPath(source).name},
    }
    if isinstance(game.get("version"), str):
        header["rules_version"] = game["version"]
    if played is not None:
        header["date"] = played.date()
    factions: list[Any] = conf["factions"] if isinstance(conf.get("factions"), list) else []
    seat_of: dict[str, int] = {}
    for i, fid in enumerate(factions, 1):
        if not isinstance(fid, str):
            continue
        ours = our_faction(fid)
        if ours is None:
            probs.error(None, None, f"receipt.json configuration.factions[{i - 1}] {fid!r} is not a "
                        "known faction (designers' ids: coalition_lab, platform_empire, imperial_research_lab, "
                        "vertical_empire, safety_laboratory, foundry); kept as written")
            ours = fid
        seat_of.setdefault(ours, i)
        seat_of.setdefault(fid, i)
        header["seats"].append({"seat": i, "faction": ours})
    count = conf.get("playerCount")
    if isinstance(count, int) and factions and count != len(factions):
        probs.error(None, None, f"receipt.json configuration.playerCount is {count} but {len(factions)} factions are listed")
    notes_name = receipt.get("notesFile") if isinstance(receipt.get("notesFile"), str) else "notes.md"
    scores_name = receipt.get("scoresFile") if isinstance(receipt.get("scoresFile"), str) else "scores.json"
    timing: list[tuple[int, dict[str, Any]]] = []
    observations: list[tuple[int | None, int, dict[str, Any]]] = []
    if notes_name in files:
        notes_probs = Problems(f"{source}#{notes_name}")
        timing, observations = _notes(files[notes_name], source, played, header, notes_probs)
        probs.findings += notes_probs.findings
    elif "notesFile" in receipt:
        probs.error(None, None, f"receipt.json names notesFile {notes_name!r}, which is not in the folder")
    scores: list[tuple[int, dict[str, Any]]] = []
    if scores_name in files:
        scores_probs = Problems(f"{source}#{scores_name}")
        scores = _scores(files[scores_name], source, seat_of, len(header["seats"]), scores_probs)
        probs.findings += scores_probs.findings
    elif "scoresFile" in receipt:
        probs.error(None, None, f"receipt.json names scoresFile {scores_name!r}, which is not in the folder")
    events, lines = _assemble(timing, observations, scores)
    obj = {"format": "playtest-log", "format_version": 1, "header": header, "events": events}
    return validate(obj, source=source, fmt="session-folder", raw=raw, header_line=None,
                    event_lines=lines, problems=probs.findings)


def _assemble(timing: list[tuple[int, dict[str, Any]]],
              observations: list[tuple[int | None, int, dict[str, Any]]],
              scores: list[tuple[int, dict[str, Any]]]) -> tuple[list[dict[str, Any]], list[int | None]]:
    """Order: timing (observations naming an Era go at that Era's end), the other
    observations, then final scoring with the scores, then game end. Each event's line is
    its line in the file it came from (notes.md or scores.json)."""
    out: list[tuple[int, dict[str, Any]]] = []
    by_era: dict[int, list[tuple[int, dict[str, Any]]]] = {}
    loose: list[tuple[int, dict[str, Any]]] = []
    eras_present = {ev["era"] for _, ev in timing if ev["type"] == "era_start"}
    for era, n, ev in observations:
        if era is not None and era in eras_present:
            by_era.setdefault(era, []).append((n, ev))
        else:
            loose.append((n, ev))
    game_end = [(n, ev) for n, ev in timing if ev.get("name") == "game_end"]
    final = [(n, ev) for n, ev in timing if ev.get("name") == "final_scoring"]
    current: int | None = None
    for n, ev in timing:
        if ev.get("name") in ("game_end", "final_scoring"):
            continue
        if ev["type"] == "era_start":
            if current is not None:
                out += by_era.pop(current, [])
            current = ev["era"]
        out.append((n, ev))
    if current is not None:
        out += by_era.pop(current, [])
    out += loose
    checkpoints = [(n, ev) for n, ev in scores if ev["type"] == "checkpoint"]
    out += checkpoints
    if final:
        out += final
    elif scores:
        out.append((scores[0][0], {"type": "phase", "name": "final_scoring"}))
    out += [(n, ev) for n, ev in scores if ev["type"] != "checkpoint"]
    out += game_end
    return [ev for _, ev in out], [n for n, _ in out]
