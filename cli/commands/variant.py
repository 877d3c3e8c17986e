"""``playtest variant show FILE``, and the variant options of ``playtest study``
(``--variant``/``--sweep``) and ``playtest validate`` (``--variant``/``--printed-rules``);
docs/variants.md.

Exit status: 0 ok; 2 a variant that cannot be used (every problem printed as
``FILE:LINE: PATH: why``), an unreadable study folder or a usage problem.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

EXIT_OK = 0
EXIT_UNUSABLE = 2


def _fail(problems: list[Any]) -> int:
    for p in problems:
        print(f"playtest: {p}", file=sys.stderr)
    return EXIT_UNUSABLE


def _value(v: Any) -> str:
    return json.dumps(v) if not isinstance(v, str) else v


def cmd_variant_show(args: argparse.Namespace) -> int:
    """Print a variant's effective changes against the base rules (exit 2 when unusable)."""
    from ingest.variants import load_variant
    from schemas.variants import VariantError

    try:
        lv = load_variant(args.file)
    except VariantError as exc:
        return _fail(exc.problems)
    vf = lv.file
    if args.format == "json":
        print(json.dumps({
            "file": vf.file, "name": lv.name, "game": vf.game,
            "rules_version": vf.rules_version, "description": vf.description,
            "hash": lv.stamp.hash,
            "changes": [{"path": c.path, "knob": c.knob, "base": c.base, "value": c.value,
                         "rule": c.why} for c in lv.changes],
            "paused": lv.stamp.paused,
            "options": [{"id": k, "base": b, "value": v} for k, (b, v) in lv.options.items()],
            "stamp": lv.stamp.model_dump()}, indent=1))
        return EXIT_OK
    from schemas.variants import printable

    out = [f"{lv.name} ({vf.game} {vf.rules_version}), content hash {lv.stamp.hash}"]
    if vf.description:
        out.append(f"  {vf.description}")
    if not (lv.changes or lv.stamp.paused or lv.options):
        out.append("  no effective change: every value equals the rules as printed")
    for c in lv.changes:
        knob = f"  [{c.knob}]" if c.knob else ""
        out.append(f"  {c.path}: {_value(c.base)} -> {_value(c.value)}{knob}")
        if c.why:
            out.append(f"      {c.why}")
    out.extend(f"  ability {p}: paused" for p in lv.stamp.paused)
    out.extend(f"  option {k}: {_value(b)} -> {_value(v)}" for k, (b, v) in lv.options.items())
    for line in out:  # a description's terminal escape codes are shown, not obeyed
        print(printable(line))
    return EXIT_OK


def study_variants(args: argparse.Namespace) -> tuple[tuple[str, str], ...]:
    """The ``(name, stamp JSON)`` of every ``--variant FILE`` and ``--sweep KNOB=LO..HI`` of a
    ``study`` command (VariantError when one cannot be used)."""
    from ingest.variants import load_variant, sweep_variants
    from schemas.variants import VariantError, VariantProblem

    loaded = [load_variant(f) for f in (getattr(args, "variant", None) or [])]
    for spec in getattr(args, "sweep", None) or []:
        loaded.extend(sweep_variants(None, spec))
    names = [lv.name for lv in loaded]
    dupes = sorted({n for n in names if names.count(n) > 1 or n == "baseline"})
    if dupes:
        raise VariantError([VariantProblem("--variant", None, n, "two arms of the study share "
                                           "this name (and 'baseline' is the printed rules)")
                            for n in dupes])
    return tuple((lv.name, lv.stamp.model_dump_json()) for lv in loaded)


def add_study_options(st: argparse.ArgumentParser) -> None:
    st.add_argument("--variant", action="append", metavar="FILE",
                    help="also play this rules variant on the same seeds (repeatable; "
                         "docs/variants.md)")
    st.add_argument("--sweep", action="append", metavar="KNOB=LO..HI",
                    help="a knob over a range, as a series of variants (e.g. "
                         "dossier_compute=0..3)")


def register(sub: Any, db_parent: argparse.ArgumentParser) -> None:
    """Add ``variant`` (``variant show FILE``) to the ``playtest`` subcommands."""
    del db_parent
    v = sub.add_parser("variant", help="rules variants: check a variant file and show its changes")
    vs = v.add_subparsers(dest="variant_command", metavar="SUBCOMMAND", required=True)
    show = vs.add_parser("show", help="check a variant file and print its changes against the "
                         "rules as printed (exit 2 with file, line and reason when unusable)")
    show.add_argument("file", metavar="FILE")
    show.add_argument("--format", choices=("text", "json"), default="text")
    show.set_defaults(func=cmd_variant_show)


#: ``validate --printed-rules``: audit under the rules as printed, whatever the header names
PRINTED = "printed"


def add_validate_options(v: argparse.ArgumentParser) -> None:
    g = v.add_mutually_exclusive_group()
    g.add_argument("--variant", metavar="FILE", default=None,
                   help="audit under this rules variant instead of the one each log's header "
                        "names (docs/variants.md)")
    g.add_argument("--printed-rules", action="store_true",
                   help="audit under the rules as printed, ignoring a variant the header names")


def validate_variant(args: argparse.Namespace) -> Any:
    """What ``validate`` audits under: None (each header's own), :data:`PRINTED`, or the stamp
    of ``--variant FILE`` (CliError-like SystemExit message when it cannot be used)."""
    if getattr(args, "printed_rules", False):
        return PRINTED
    path = getattr(args, "variant", None)
    if not path:
        return None
    from cli.common import CliError
    from ingest.variants import load_variant
    from schemas.variants import VariantError

    try:
        return load_variant(path).stamp
    except VariantError as exc:
        raise CliError("\n".join(str(p) for p in exc.problems)) from None


def with_variant(parsed: Any, variant: Any) -> Any:
    """``parsed`` with its header's variant replaced as ``validate`` was asked (kept as it is
    for None; removed for :data:`PRINTED`; a stamp of another game is not applied)."""
    import dataclasses

    header = getattr(parsed, "header", None)
    if variant is None or header is None or "variant" not in type(header).model_fields:
        return parsed
    if variant == PRINTED:
        return dataclasses.replace(parsed, header=header.model_copy(update={"variant": None}))
    return dataclasses.replace(parsed, header=header.model_copy(update={"variant": variant}))
