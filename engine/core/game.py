"""A game's declaration: everything a game contributes to the toolkit, checked once.

A game is a Python package that declares one object: its ruleset (the pure functions of
:class:`engine.core.ruleset.Ruleset`) plus what every other layer needs to know about it (its
formats, warehouse tables, location parts, timed phases, unwritten-rule options, analytics
vocabulary, board picture, recorder and extra pages). The package names that object in the
``playtest.games`` entry-point group of its ``pyproject.toml``::

    [project.entry-points."playtest.games"]
    mygame = "mygame:GAME"

and :mod:`engine.core.registry` finds it with ``importlib.metadata.entry_points``. Mandate 2038
and Vestige are declared the same way (the toolkit's own ``pyproject.toml``).

:class:`Game` is the declaration's base class: it carries the default of every optional member,
so a subclass writes only what it has. :func:`check_declaration` (called by
``registry.register``) refuses a declaration missing a required member or with a malformed one,
naming it, and fills in the defaults of an object that does not subclass :class:`Game` once, so
nothing downstream needs ``getattr(ruleset, name, default)``. docs/notes/game-declaration.md
describes every member.
"""

from __future__ import annotations

import functools
import importlib
import importlib.machinery
import importlib.util
import inspect
import re
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from schemas.findings import Where

#: The entry-point group a game package declares itself in (docs/engine.md "Declaring a game").
ENTRY_POINT_GROUP = "playtest.games"

#: The DuckDB types a declared table column may have (ingest/warehouse/schema.py maps each to a
#: polars dtype).
COLUMN_TYPES: frozenset[str] = frozenset({
    "VARCHAR", "INTEGER", "DOUBLE", "BOOLEAN", "TIMESTAMP", "DATE", "JSON", "VARCHAR[]",
    "INTEGER[]",
})

_ID = re.compile(r"^[a-z][a-z0-9_]*$")
_TABLE = re.compile(r"^[a-z][a-z0-9_]*$")
_REF = re.compile(r"^[A-Za-z_][\w.]*:[A-Za-z_][\w.]*$")
_URL_PATH = re.compile(r"^[a-z0-9][a-z0-9_-]*$")

#: the location parts the warehouse stores (a column each of a finding's ``where``, of the
#: events and observations tables): a declared location part must be one of these ...
STORED_LOCATION_PARTS: tuple[str, ...] = tuple(
    n for n in Where.model_fields if n not in ("event", "line", "seat"))
#: ... or, after them, a turn number, which the warehouse does not store (a finding's event
#: index places it in its turn; a game keeps its turns in its own tables)
FINER_LOCATION_PARTS: tuple[str, ...] = ("turn",)


class GameDeclarationError(ValueError):
    """A game declaration that cannot be registered: a duplicate id, a missing or malformed
    member. The message names the game and the member."""


def resolve(ref: str | Callable[..., Any]) -> Any:
    """A declared reference: a callable as is, or ``"module:attribute"`` imported now."""
    if callable(ref):
        return ref
    module, sep, name = str(ref).partition(":")
    if not sep or not module or not name:
        raise GameDeclarationError(f"{ref!r} is not a 'module:attribute' reference")
    obj: Any = importlib.import_module(module)
    for part in name.split("."):
        obj = getattr(obj, part)
    return obj


_BINDING = re.compile(
    r"^(?:async[ \t]+def|def|class)[ \t]+(\w+)"  # a function or class at top level
    r"|^(\w+)[ \t]*(?::[^=\n]*)?=(?!=)"  # an assignment (annotated or not)
    r"|^from[ \t]+[\w.]+[ \t]+import[ \t]+(\([^)]*\)|[^\n]*)"  # names imported from a module
    r"|^import[ \t]+([^\n]*)", re.M)


@functools.lru_cache(maxsize=256)
def _top_names(path: Path, mtime: float) -> frozenset[str]:
    """The names a module's source visibly binds at its top level (read, never run)."""
    text = path.read_text(encoding="utf-8", errors="replace")
    names: set[str] = set()
    for m in _BINDING.finditer(text):
        if m.group(1) or m.group(2):
            names.add(m.group(1) or m.group(2))
            continue
        listed = (m.group(3) or m.group(4) or "").split("#")[0].strip("()")
        for item in listed.replace("\n", ",").split(","):
            words = item.split()
            if words:
                names.add(words[-1] if "as" in words[1:] else words[0].split(".")[0])
    return frozenset(names)


def locate(ref: str) -> None:
    """Check that ``"module:attribute"`` resolves, without running the module when it can: the
    module is found on the import path, and when its source visibly binds the attribute's
    first name at top level that is enough; else the module is imported and asked (so a typo
    is always caught, and the app's modules are not imported by every command). Raises
    :class:`GameDeclarationError` saying what does not resolve."""
    module, sep, name = ref.partition(":")
    if not sep or not _REF.match(ref):
        raise GameDeclarationError(f"{ref!r} is not a 'module:attribute' reference")
    first = name.split(".")[0]
    if module in sys.modules:
        if not hasattr(sys.modules[module], first):
            raise GameDeclarationError(f"the module {module!r} has no {first!r}")
        return
    parts = module.split(".")
    try:
        spec = importlib.util.find_spec(parts[0])
        for k in range(1, len(parts)):
            where = spec.submodule_search_locations if spec is not None else None
            if where is None:
                spec = None
                break
            spec = importlib.machinery.PathFinder.find_spec(".".join(parts[:k + 1]), list(where))
    except (ImportError, ValueError) as err:
        raise GameDeclarationError(f"the module {module!r} cannot be found: {err}") from err
    if spec is None:
        raise GameDeclarationError(f"no module named {module!r}")
    origin = Path(spec.origin) if spec.origin and spec.has_location else None
    if origin is not None and origin.suffix == ".py" and origin.is_file():
        try:
            names = _top_names(origin, origin.stat().st_mtime)
        except OSError as err:
            raise GameDeclarationError(f"the module {module!r} cannot be read: {err}") from err
        if first in names:
            return
    # not visibly bound (or no source to read): the module is imported to be sure
    try:
        resolve(ref)
    except GameDeclarationError:
        raise
    except Exception as err:  # noqa: BLE001 - a guest's import may raise anything
        raise GameDeclarationError(f"importing it raised {type(err).__name__}: {err}") from err


@dataclass(frozen=True, slots=True)
class Format:
    """One file format of a game's logs besides canonical JSON (which every game has).

    * ``name``: what ``playtest convert --to`` takes (``notation``, ``csv``, ...). Inputs are
      first sorted by kind: a name of ``notation`` or ``csv`` is also the kind a nameless
      upload is sniffed as (a sheet has a ``time`` column row; anything else not JSON or a zip
      is notation).
    * ``suffixes``: the file suffixes (lower case, with the dot) read in this format.
    * ``reader``: ``(data: bytes, name: str) -> ingest.formats.LoadedLog`` (never raises on
      bad content), as a callable or ``"module:function"`` (imported when first used).
    * ``writer``: ``(log) -> str`` or ``"module:function"``; None when the format is read only.
    * ``mark``: a regular expression (bytes) that finds this game's logs of this format in the
      first 20,000 bytes whatever their suffix (``[game vestige]``); None: by suffix only.
    """

    name: str
    suffixes: tuple[str, ...]
    reader: str | Callable[..., Any]
    writer: str | Callable[..., Any] | None = None
    mark: bytes | None = None
    label: str = ""

    def read(self, data: bytes, name: str) -> Any:
        """Read ``data`` (named ``name``) with this format's reader."""
        return resolve(self.reader)(data, name)

    def write(self, log: Any) -> str:
        """The text of ``log`` in this format."""
        if self.writer is None:
            raise ValueError(f"the {self.name} format is read only")
        return str(resolve(self.writer)(log))

    def marks(self, head: bytes) -> bool:
        """Whether ``head`` (an input's first bytes) carries this game's mark."""
        return self.mark is not None and re.search(self.mark, head) is not None


@dataclass(frozen=True, slots=True)
class Folder:
    """A game's session folder (``Game.session_folder``): a folder, or a zip of one, holding the
    file ``marker`` is read as one of this game's logs (``playtest ingest`` of a folder, a
    ``.zip`` upload).

    * ``marker``: the file name (no folder) whose presence makes a folder this game's
      (``receipt.json``); unique across games.
    * ``reader``: ``(files: dict[str, bytes], source: str, raw: bytes) -> LoadedLog`` (the
      folder's files by relative name, its name for messages, the bytes archived), never
      raising on bad content, as a callable or ``"module:function"`` (imported when first used).
    """

    marker: str
    reader: str | Callable[..., Any]

    def read(self, files: dict[str, bytes], source: str, raw: bytes) -> Any:
        """Read a folder's ``files`` with this game's folder reader."""
        return resolve(self.reader)(files, source, raw)


@dataclass(frozen=True, slots=True)
class Page:
    """A page a game adds to the app (besides the shared ones). ``script`` is the path of a
    Streamlit page file (absolute, or relative to the game package's folder) or a
    ``"module:function"`` that draws the page; ``url_path`` is unique across games."""

    title: str
    script: str
    url_path: str
    icon: str | None = None


@dataclass(frozen=True, slots=True)
class Vocabulary:
    """The words the analytics pages use for a game, as id -> label (the label is what a
    designer reads; the id is what the engine records):

    * ``score_sources``: the ledger's ``source`` values (Scoring sources page);
    * ``end_conditions``: the outcome's ``ending`` values (End conditions page);
    * ``phases``: the timed phases' ids (Duration page), see ``Game.timed_phases``;
    * ``evidence_labels``: why a game counts, or not, as evidence (``games.evidence_reasons``);
    * ``location_labels``: each location part's name in text (``era`` -> ``Era``);
    * ``seat_role``: what the header's ``faction`` is in this game (``Faction``, ``Colour``).
    """

    score_sources: Mapping[str, str] = field(default_factory=dict)
    end_conditions: Mapping[str, str] = field(default_factory=dict)
    phases: Mapping[str, str] = field(default_factory=dict)
    evidence_labels: Mapping[str, str] = field(default_factory=dict)
    location_labels: Mapping[str, str] = field(default_factory=dict)
    seat_role: str = "Faction"

    def label(self, kind: str, value: str | None) -> str:
        """The label of ``value`` in the ``kind`` mapping (``score_sources``, ...); an id with
        no label is shown with its underscores as spaces and a capital first letter."""
        if value is None:
            return "-"
        table: Mapping[str, str] = getattr(self, kind)
        if value in table:
            return table[value]
        text = str(value).replace("_", " ").replace("-", " ")
        return text[:1].upper() + text[1:]


@dataclass(frozen=True, slots=True)
class BalanceMetric:
    """One balance metric of a game (docs/balance.md "A game's metrics"): ``id``, the
    ``label`` a designer reads, its ``definition`` in words, and ``compute``: a SELECT over the
    warehouse tables (``game_id``, optional ``key`` and ``value``: ingest.balance) or a
    ``"module:function"``; the designers' ``threshold`` (``bound`` ``"max"``: at most,
    ``"min"``: at least) and its ``source``, where the game publishes one (None: no verdict)."""

    id: str
    label: str
    definition: str
    compute: str
    threshold: float | None = None
    bound: str = "max"
    source: str = ""


@dataclass(frozen=True, slots=True)
class Balance:
    """A game's balance metrics (the Balance page draws them); ``section``: a
    ``"module:function"`` ``(db, filters)`` drawing the game's own Balance section instead of
    the shared table of its metrics, or None."""

    metrics: tuple[BalanceMetric, ...] = ()
    section: str | None = None


def is_sql(compute: str) -> bool:
    """Whether a metric's ``compute`` is a SELECT (else a ``"module:function"``)."""
    return not _REF.match(compute.strip())


@dataclass(frozen=True, slots=True)
class Knob:
    """One bounded number of a game a variant may change: ``path`` in the game's values
    (``DesignerLoop.values``), ``min``..``max``, and what it means (the rule, with its page)."""

    name: str
    path: str
    min: float
    max: float
    why: str = ""


@dataclass(frozen=True, slots=True)
class DesignerLoop:
    """How the designers' loop (docs/variants.md: variant -> study -> compare) plays a game.
    Each code member is a ``"module:attribute"`` checked at registration:

    * ``play``: ``(seed, index, players, variant: VariantStamp | None) -> dict`` of one game's
      study rows (``games``, ``seats``, ``metrics`` lists; ingest.study.GameRows), played by
      the shared study runner (ingest/study.py: Ray or local processes, Parquet, resume);
    * ``study``: instead, the game's own study parts (an ``ingest.study.StudyParts``);
    * ``values``: ``() -> dict`` of the numbers the knobs' paths address (a game without a
      content pack); ``knobs``: the bounded numbers a variant may change;
    * ``metrics``: metric id -> what it measures (``playtest compare``'s rows);
    * ``calibrate``: ``(args) -> str``, ``playtest calibrate``'s report of a study of this game
      beside its designers' published figures (None: the game publishes none).
    """

    play: str | None = None
    study: str | None = None
    values: str | None = None
    knobs: tuple[Knob, ...] = ()
    metrics: Mapping[str, str] = field(default_factory=dict)
    calibrate: str | None = None


class Game:
    """Base class of a game declaration: the default of every optional member.

    A subclass (or any object with the same members) sets the required members
    (:data:`REQUIRED_VALUES`, :data:`REQUIRED_FUNCTIONS`); registration checks them.
    """

    # --- optional members (defaults) ------------------------------------------------------
    #: a TypeAdapter validating a whole event list at once (a fast path), or None
    events_adapter: Any = None
    #: True when ``apply`` sets the sink's location itself (then callers need not)
    apply_locates: bool = False
    #: True when ``setup`` plays a header's rules variant (docs/variants.md); else a log with a
    #: variant is replayed as printed and says so
    plays_variants: bool = False
    #: event types the log may still hold once ``ended(state)`` is true (a table's final record
    #: after the end); any other is ``log/event-after-game-end``
    after_end_events: frozenset[str] = frozenset({"observation", "survey", "phase"})
    #: provenance (DESIGN.md §5; engine.core.findings.FindingSink): finding code -> the values
    #: its check reads: a finding links to a slip only when a value it reads is in doubt (a
    #: game that declares none: every finding stands on its own)
    reads: Mapping[str, tuple[str, ...]] = MappingProxyType({})
    #: slip code -> the values of its seat it puts in doubt (``*``: every value)
    doubts: Mapping[str, tuple[str, ...]] = MappingProxyType({})
    #: value name -> the words a note names it by
    value_words: Mapping[str, str] = MappingProxyType({})
    #: simulation: the player counts and bot names the simulator accepts (() = no simulator)
    player_counts: tuple[int, ...] = ()
    bot_names: tuple[str, ...] = ()
    #: file formats besides canonical JSON
    formats: tuple[Format, ...] = ()
    #: the game's session folder (a folder or zip holding a marker file; see :class:`Folder`)
    #: and ``"module:Model"`` of its content pack's pydantic model (``schemas.packs.load_pack``
    #: validates ``data/content/<game>/<rules_version>/pack.json`` with it; ``schemas.export``
    #: publishes its JSON Schema); None: the game has none
    session_folder: Folder | None = None
    content_pack: str | None = None
    #: the phases the Duration page times, in play order (ids of ``vocabulary.phases``)
    timed_phases: tuple[str, ...] = ()
    #: ``"module:function"`` ``(events, indices) -> ingest.timing.Timing`` computing the game's
    #: phase and turn times; None: each ``phase NAME`` event of ``timed_phases`` opens a phase
    #: (ingest.timing.phase_timing), no turn times
    timing: str | None = None
    #: folder of the unwritten-rule options files, ``<rules_version>.json`` each (None: none)
    rulings_dir: Path | None = None
    #: folder of the game's observation protocols (``<protocol id>/v<N>.json``; its default
    #: protocol is ``<game>-observation``); None: the toolkit's ``data/protocols``
    protocols_dir: Path | None = None
    #: folder of the game's bundled sample games (``playtest demo`` ingests them into an empty
    #: database beside the toolkit's ``data/samples``); None: none
    samples_dir: Path | None = None
    #: the analytics words (see :class:`Vocabulary`)
    vocabulary: Vocabulary = Vocabulary()
    #: ``"module:function"`` drawing the board at a position (replay viewer), or None
    board_picture: str | None = None
    #: ``"module:function"`` of no argument giving the printed names of the game's content ids
    #: (``{"mirevanta": "Mirevanta", ...}``: factions, cards, tiles), which the app shows instead
    #: of the ids; None: its ids are shown as they are
    content_names: str | None = None
    #: ``"module:function"`` of the game's recorder (the Record page), or None
    recorder: str | None = None
    #: ``"module:function"`` ``(seed, *, events_target, session_type) -> log model`` of
    #: well-formed (not legal) logs for storage benches (``playtest bench --pages``), or None
    synthetic_log: str | None = None
    #: pages the game adds to the app
    pages: tuple[Page, ...] = ()
    #: the sample header of a quick game, for the conformance test and docs (None: simulate)
    #: (``simulate_one`` and ``prepare_simulation``, ``simulation_moves``: methods or None)
    simulate_one: Any = None
    prepare_simulation: Any = None
    simulation_moves: Any = None
    #: ``seats_at_table(state) -> collection of seat numbers``: the seats this game's state can
    #: hold when they are fewer than the header lists (a seat row lost from a sheet), or None
    #: (the header's seats); an event naming any other seat is ``log/seat-out-of-range``
    seats_at_table: Any = None
    #: the game's balance metrics (:class:`Balance`; none: the Balance page says so)
    balance: Balance = Balance()
    #: the designer loop (variants, studies, compare; :class:`DesignerLoop`), or None
    designer_loop: DesignerLoop | None = None

    def option_book(self, rules_version: str | None = None) -> Any:
        """This game's unwritten-rule options (engine.core.options.OptionBook) for
        ``rules_version`` (default: the first of ``rules_versions``)."""
        from engine.core.options import book_for

        return book_for(self, rules_version)


#: Members every declaration sets (no default): values ...
REQUIRED_VALUES: tuple[str, ...] = (
    "game", "title", "rules_versions", "catalogue", "header_model", "log_model",
    "event_adapter", "event_types", "location_parts", "tables",
)
#: ... and the ruleset's functions (engine.core.ruleset.Ruleset).
REQUIRED_FUNCTIONS: tuple[str, ...] = (
    "setup", "apply", "finish", "legal_moves", "outcome", "ledger", "records", "snapshot",
    "ended", "location", "unchecked",
)
#: Optional members and their defaults (filled in on an object that lacks them).
OPTIONAL: dict[str, Any] = {
    name: getattr(Game, name) for name in (
        "events_adapter", "apply_locates", "plays_variants", "after_end_events", "reads",
        "doubts", "value_words", "player_counts", "bot_names", "formats",
        "session_folder", "content_pack",
        "timed_phases", "timing", "rulings_dir", "protocols_dir", "samples_dir", "vocabulary",
        "board_picture", "content_names", "recorder", "synthetic_log", "pages",
        "simulate_one", "prepare_simulation", "simulation_moves", "seats_at_table", "balance",
        "designer_loop",
    )
}


def _who(obj: Any) -> str:
    game = obj.__dict__.get("game") if hasattr(obj, "__dict__") else None
    game = game or getattr(type(obj), "game", None)
    return f"game {game!r}" if isinstance(game, str) else f"the declaration {type(obj).__name__}"


def check_declaration(obj: Any) -> Any:
    """Check a game declaration and fill in its missing optional members (once); return it.
    Raises :class:`GameDeclarationError` naming the game and the member at fault."""
    who = _who(obj)
    for name in REQUIRED_VALUES:
        if not hasattr(obj, name):
            raise GameDeclarationError(f"{who}: the declaration has no {name!r} (a required "
                                       "member; docs/notes/game-declaration.md)")
    for name in REQUIRED_FUNCTIONS:
        if not callable(getattr(obj, name, None)):
            raise GameDeclarationError(f"{who}: the declaration has no function {name!r} "
                                       "(a required member of the ruleset)")
    game = obj.game
    if not isinstance(game, str) or not _ID.match(game):
        raise GameDeclarationError(f"{who}: 'game' must be a lower-case id (letters, digits, "
                                   f"_), not {game!r}")
    who = f"game {game!r}"
    if not isinstance(obj.title, str) or not obj.title.strip():
        raise GameDeclarationError(f"{who}: 'title' must be the game's name")
    versions = obj.rules_versions
    if isinstance(versions, str) or not versions or not all(isinstance(v, str) for v in versions):
        raise GameDeclarationError(f"{who}: 'rules_versions' must be a non-empty tuple of "
                                   "version strings")
    parts = obj.location_parts
    if isinstance(parts, str) or not parts or not all(isinstance(p, str) for p in parts):
        raise GameDeclarationError(f"{who}: 'location_parts' must name the parts of a "
                                   "location, e.g. ('round', 'turn')")
    if not isinstance(obj.tables, Mapping):
        raise GameDeclarationError(f"{who}: 'tables' must map table names to columns")
    for table, cols in obj.tables.items():
        if not _TABLE.match(str(table)):
            raise GameDeclarationError(f"{who}: table name {table!r} is not a lower-case name")
        if not isinstance(cols, tuple | list):
            raise GameDeclarationError(f"{who}: table {table!r} must list its columns as "
                                       f"(name, type) pairs, not {_shown(cols)}")
        for col in cols:
            if (not isinstance(col, tuple | list) or len(col) != 2
                    or col[1] not in COLUMN_TYPES):
                raise GameDeclarationError(
                    f"{who}: table {table!r}: column {col!r} must be (name, type) with type one "
                    f"of {', '.join(sorted(COLUMN_TYPES))}")
    for name, default in OPTIONAL.items():
        if not hasattr(obj, name):
            try:
                setattr(obj, name, default)
            except AttributeError as err:
                raise GameDeclarationError(f"{who}: the declaration has no {name!r} and it "
                                           "cannot be filled in (subclass engine.core.game."
                                           "Game to get every default)") from err
    if not all(isinstance(f, Format) for f in obj.formats):
        raise GameDeclarationError(f"{who}: 'formats' must be engine.core.game.Format entries")
    names = [f.name for f in obj.formats]
    if "json" in names or len(set(names)) != len(names):
        raise GameDeclarationError(f"{who}: 'formats' names must be unique and not 'json' "
                                   "(canonical JSON is every game's)")
    for k, f in enumerate(obj.formats):
        _check_mark(f"{who}: formats[{k}] ({f.name}).mark", f.mark)
    if not all(isinstance(p, Page) for p in obj.pages):
        raise GameDeclarationError(f"{who}: 'pages' must be engine.core.game.Page entries")
    if not isinstance(obj.vocabulary, Vocabulary):
        raise GameDeclarationError(f"{who}: 'vocabulary' must be an engine.core.game.Vocabulary")
    _check_member_types(who, obj)
    _check_balance(who, obj.balance)
    if obj.simulate_one is not None and not callable(obj.simulate_one):
        raise GameDeclarationError(f"{who}: 'simulate_one' must be a function or None")
    if obj.simulate_one is not None and not (obj.player_counts and obj.bot_names):
        raise GameDeclarationError(f"{who}: a game with a simulator declares 'player_counts' "
                                   "and 'bot_names'")
    _check_location_parts(who, tuple(parts))
    for member, ref in _code_refs(obj):
        try:
            locate(ref)
        except GameDeclarationError as err:
            raise GameDeclarationError(f"{who}: {member} {ref!r} does not resolve: "
                                       f"{err}") from None
    return obj


def _check_balance(who: str, balance: Any) -> None:
    """Refuse a malformed ``balance`` (its code references are checked with the others)."""
    ok = (isinstance(balance, Balance) and isinstance(balance.metrics, tuple)
          and all(isinstance(m, BalanceMetric) for m in balance.metrics))
    ids = [m.id for m in balance.metrics] if ok else []
    if not ok or len(set(ids)) != len(ids):
        raise GameDeclarationError(f"{who}: 'balance' must be an engine.core.game.Balance of "
                                   f"BalanceMetric entries with unique ids, not {_shown(balance)}")
    for m in balance.metrics:
        if (not isinstance(m.id, str) or not _ID.match(m.id) or m.bound not in ("max", "min")
                or not isinstance(m.compute, str) or not m.compute.strip()
                or not (m.threshold is None or isinstance(m.threshold, int | float))):
            raise GameDeclarationError(f"{who}: balance metric {m.id!r} needs a lower-case id, "
                                       "a compute (SQL or 'module:function'), a numeric "
                                       "threshold or None and a bound 'max' or 'min'")


def _strings(value: Any) -> bool:
    return (isinstance(value, tuple | list | set | frozenset)
            and all(isinstance(v, str) for v in value))


#: optional members other than the structured ones, each with what it must be (checked once,
#: so that no command meets a malformed one later)
_MEMBER_TYPES: dict[str, tuple[str, Callable[[Any], bool]]] = {
    "event_types": ("a set of event type names", _strings),
    "player_counts": ("a tuple of player counts (whole numbers)", lambda v: isinstance(
        v, tuple | list) and all(isinstance(n, int) and not isinstance(n, bool) and n > 0
                                 for n in v)),
    "bot_names": ("a tuple of bot names", lambda v: isinstance(v, tuple | list) and _strings(v)),
    "timed_phases": ("a tuple of phase ids", lambda v: isinstance(v, tuple | list)
                     and _strings(v)),
    "after_end_events": ("a set of event types", _strings),
    "apply_locates": ("True or False", lambda v: isinstance(v, bool)),
    "plays_variants": ("True or False", lambda v: isinstance(v, bool)),
    "rulings_dir": ("a folder (Path) or None", lambda v: v is None or isinstance(v, Path | str)),
    "protocols_dir": ("a folder (Path) or None", lambda v: v is None
                      or isinstance(v, Path | str)),
    "samples_dir": ("a folder (Path) or None", lambda v: v is None or isinstance(v, Path | str)),
    "prepare_simulation": ("a function or None", lambda v: v is None or callable(v)),
    "simulation_moves": ("a function or None", lambda v: v is None or callable(v)),
    "seats_at_table": ("a function or None", lambda v: v is None or callable(v)),
    "session_folder": ("an engine.core.game.Folder whose marker is a file name, or None",
                       lambda v: v is None or (isinstance(v, Folder) and isinstance(v.marker, str)
                                               and v.marker.strip("./") != ""
                                               and not set("/\\") & set(v.marker))),
    "content_pack": ("a 'module:Model' string (a pydantic model) or None",
                     lambda v: v is None or isinstance(v, str | type)),
    "designer_loop": ("an engine.core.game.DesignerLoop or None", lambda v: v is None or (
        isinstance(v, DesignerLoop) and all(isinstance(k, Knob) for k in v.knobs))),
}


def _check_member_types(who: str, obj: Any) -> None:
    for name, (what, fits) in _MEMBER_TYPES.items():
        value = getattr(obj, name)
        if not fits(value):
            raise GameDeclarationError(f"{who}: {name!r} must be {what}, not "
                                       f"{_shown(value)}")


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


#: inputs no game's mark may find (an empty file, a blank line, a word, an empty JSON object):
#: a mark that finds one of them finds every file, and would take other games' files
MARK_PROBES: tuple[bytes, ...] = (b"", b"\n", b" ", b"x", b"0\n", b"{}", b"[x]\n")


def _check_mark(member: str, mark: Any) -> None:
    """Refuse a format's mark that is not a regular expression over bytes, or that finds
    every file (docs/formats.md: the most specific match reads a file)."""
    if mark is None:
        return
    if not isinstance(mark, bytes):
        raise GameDeclarationError(f"{member} must be a regular expression over bytes "
                                   f"(rb'...') or None, not {mark!r}")
    try:
        found = [probe for probe in MARK_PROBES if re.search(mark, probe) is not None]
    except re.error as err:
        raise GameDeclarationError(f"{member} {mark!r} is not a regular expression: "
                                   f"{err}") from None
    if found:
        raise GameDeclarationError(f"{member} {mark!r} finds every file (it matches "
                                   f"{found[0]!r}); a mark must find the game's own header")


def _check_location_parts(who: str, parts: tuple[str, ...]) -> None:
    """Refuse location parts the warehouse cannot store (docs/notes/game-declaration.md)."""
    finer = None
    for part in parts:
        if part in FINER_LOCATION_PARTS:
            finer = part
        elif part not in STORED_LOCATION_PARTS:
            raise GameDeclarationError(
                f"{who}: the location part {part!r} cannot be stored by the warehouse (its "
                f"location columns are {', '.join(STORED_LOCATION_PARTS)}, then optionally "
                f"{', '.join(FINER_LOCATION_PARTS)}); every finding and row would lose it")
        elif finer is not None:
            raise GameDeclarationError(
                f"{who}: the location part {part!r} comes after {finer!r}: the parts the "
                "warehouse stores come first, a turn last")
    if parts[0] not in STORED_LOCATION_PARTS:
        raise GameDeclarationError(
            f"{who}: the location part {parts[0]!r} cannot come first: a location starts with "
            f"a part the warehouse stores ({', '.join(STORED_LOCATION_PARTS)})")


def _code_refs(obj: Any) -> list[tuple[str, str]]:
    """(member, "module:attribute") of every string member of a declaration that names code
    (pages are checked by :func:`check_pages`)."""
    refs: list[tuple[str, Any]] = []
    for k, f in enumerate(obj.formats):
        refs.append((f"formats[{k}] ({f.name}).reader", f.reader))
        refs.append((f"formats[{k}] ({f.name}).writer", f.writer))
    if obj.session_folder is not None:
        refs.append(("session_folder.reader", obj.session_folder.reader))
    refs.extend((m, getattr(obj, m)) for m in ("timing", "board_picture", "content_names",
                                                       "recorder", "content_pack",
                                                       "synthetic_log"))
    refs.append(("balance.section", obj.balance.section))
    refs.extend((f"balance metric {m.id!r} compute", m.compute) for m in obj.balance.metrics
                if not is_sql(m.compute))
    loop = obj.designer_loop
    if loop is not None:
        refs.extend((f"designer_loop.{m}", getattr(loop, m))
                    for m in ("play", "study", "values", "calibrate"))
    out: list[tuple[str, str]] = []
    for member, ref in refs:
        if ref is None or callable(ref):
            continue
        if not isinstance(ref, str):
            raise GameDeclarationError(f"{_who(obj)}: {member} must be a 'module:attribute' "
                                       f"string, a function or None, not {ref!r}")
        out.append((member, ref))
    return out


def page_file(obj: Any, script: str) -> Path:
    """A page's script file: ``script`` absolute, or relative to the declaration's package."""
    path = Path(script)
    if not path.is_absolute():
        path = Path(inspect.getfile(type(obj))).resolve().parent / path
    return path.resolve()


def is_page_function(script: str) -> bool:
    """Whether a page's ``script`` is a ``"module:function"`` (else it is a file)."""
    return bool(_REF.match(script)) and not script.endswith(".py")


def check_pages(obj: Any) -> list[tuple[str, str]]:
    """Check a checked declaration's pages; drop each one that cannot be served from
    ``obj.pages`` and return ``(title, why)`` of each dropped (the game itself stays)."""
    keep: list[Page] = []
    dropped: list[tuple[str, str]] = []
    seen: set[str] = set()
    for k, page in enumerate(obj.pages):
        member = f"pages[{k}].script"
        why = None
        if not isinstance(page.script, str) or not page.script:
            why = f"{member} must be a page file or a 'module:function', not {page.script!r}"
        elif not isinstance(page.url_path, str) or not _URL_PATH.match(page.url_path):
            why = (f"pages[{k}].url_path {page.url_path!r} must be lower-case letters, digits, "
                   "'-' or '_'")
        elif page.url_path in seen:
            why = f"pages[{k}].url_path {page.url_path!r} is another page's of this game"
        elif is_page_function(page.script):
            try:
                locate(page.script)
            except GameDeclarationError as err:
                why = f"{member} {page.script!r} does not resolve: {err}"
        else:
            try:
                path = page_file(obj, page.script)
            except (TypeError, OSError) as err:
                path, why = None, f"{member} {page.script!r} cannot be located: {err}"
            if path is not None and not path.is_file():
                why = f"{member} {page.script!r}: there is no page file {path}"
        if why is None:
            keep.append(page)
            seen.add(page.url_path)
        else:
            dropped.append((str(page.title), why))
    if dropped:
        obj.pages = tuple(keep)
    return dropped
