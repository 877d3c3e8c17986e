"""Write ``tests/data/reference-facts.json``: the facts the content, protocol and box-count tests
check against the designers' reference material, so that a fresh clone (which has no
``../shared`` folder beside it) runs those tests too.

Only what the tests compare is kept: numbers, ids and short names (tiles, factions, Headlines,
Era Mandates, Programs, game configuration), the survey scales the designers list as evidence
priorities, the Vestige rulebook's component counts, and, for the own-words check, a hash of
every run of eight words of the designers' texts (never the texts themselves). Run it where
``../shared`` is at hand and review the diff::

    python tests/data/make_reference_facts.py
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SHARED = HERE.parents[2] / "shared"
if not SHARED.is_dir():
    SHARED = Path("/work/shared")
REF = SHARED / "reference" / "mandate2038"
SEED = SHARED / "seeds" / "003_e5f8d543c73887da.txt"
OUT = HERE / "reference-facts.json"
#: how many consecutive words make a copied phrase (tests/test_content.py)
RUN = 8
TEXT_FILES = ("game-config.json", "factions.json", "headlines.json", "mandates.json",
              "escalations.json", "reference-cards.json")


def pick(node: Any, *keys: str) -> dict[str, Any]:
    return {k: node[k] for k in keys if k in node}


def run_hash(run: str) -> str:
    """The hash the tests compare (12 hex digits of SHA-256 of the lower-case words)."""
    return hashlib.sha256(run.encode("utf-8")).hexdigest()[:12]


def word_runs(text: str, n: int = RUN) -> set[str]:
    words = re.findall(r"[a-z0-9]+", text.lower())
    return {" ".join(words[i : i + n]) for i in range(len(words) - n + 1)}


def strings(node: Any) -> list[str]:
    if isinstance(node, str):
        return [node]
    if isinstance(node, dict):
        return [s for v in node.values() for s in strings(v)]
    if isinstance(node, list):
        return [s for v in node for s in strings(v)]
    return []


def load(name: str) -> Any:
    return json.loads((REF / "data" / name).read_text(encoding="utf-8"))


def mandate_facts() -> dict[str, Any]:
    g = load("game-config.json")
    config = {
        "board": {"selectedTileCount": g["board"]["selectedTileCount"],
                  "tiles": [pick(t, "id", "category", "placement", "facilitySpaces", "landmark")
                            for t in g["board"]["tiles"]]},
        "factionRules": {"imperial": {"peerValidation":
                                      g["factionRules"]["imperial"]["peerValidation"]}},
        "trainingDeck": {"cards": [pick(c, "id", "count", "kind")
                                   for c in g["trainingDeck"]["cards"]]},
        "resources": {k: {"cap": v["cap"]} for k, v in g["resources"].items()},
        "scoring": {**pick(g["scoring"], "capabilityThresholds", "trustThresholds",
                           "customerMandateSchedule"),
                    "finalOnly": pick(g["scoring"]["finalOnly"], "offlineFacilityPenalty")},
        "rounds": [pick(r, "id", "programUses", "auditBaseDraws", "escalations")
                   for r in g["rounds"]],
        "audit": pick(g["audit"], "scrutinySupplyPerPlayer"),
        "powerSources": [pick(s, "id", "runwayCost", "capacity", "round", "location")
                         for s in g["powerSources"]],
        "sharedSupply": pick(g["sharedSupply"], "jointVenturePairs", "megaClusterPairs"),
        "playerSupply": pick(g["playerSupply"], "teams"),
        "agiDossier": {"modules": [pick(m, "round", "threshold")
                                   for m in g["agiDossier"]["modules"]],
                       "claimResolution": pick(g["agiDossier"]["claimResolution"],
                                               "tieBreakers")},
    }
    factions = {"factions": [
        {**pick(f, "id", "starts", "color", "name", "chiefExecutive"),
         "abilities": [pick(a, "id", "round", "timing", "persistsAfterUnlock")
                       for a in f["abilities"]]}
        for f in load("factions.json")["factions"]]}
    headlines = {"headlines": [pick(h, "id", "round", "resolutionType", "name",
                                    "requiredRuleModules", "duration")
                               for h in load("headlines.json")["headlines"]]}
    m = load("mandates.json")
    mandates = {"points": pick(m["points"], "winner", "tied"),
                "mandates": [pick(c, "id", "era", "minimumQualification", "name")
                             for c in m["mandates"]]}
    escalations = {"escalations": [pick(e, "id", "unlockedRound")
                                   for e in load("escalations.json")["escalations"]]}
    runs: set[str] = set()
    for name in TEXT_FILES:
        for s in strings(load(name)):
            runs |= word_runs(s)
    facts = (REF / "FACTS.md").read_text(encoding="utf-8")
    line = next(ln for ln in facts.splitlines() if "Evidence priorities" in ln)
    scales = line.split("perceived ")[1].rstrip(".").replace(" and ", ", ").split(", ")
    return {"game-config.json": config, "factions.json": factions,
            "headlines.json": headlines, "mandates.json": mandates,
            "escalations.json": escalations,
            "designers_text_runs": sorted({run_hash(r) for r in runs}),
            "survey_scales": scales,
            "signature_question": "What was your institution uniquely good at" in facts}


def vestige_box() -> dict[str, int]:
    names = {"Lawmakers": "lawmaker", "Mercenaries": "mercenary", "Smugglers": "smuggler",
             "Chop Bots": "chop_bot", "Artifacts": "artifact", "Augmentations": "augmentation",
             "Bounties": "bounty", "Covert Ops": "covert_op", "Endgame Conditions": "endgame",
             "Setup": "setup"}
    out: dict[str, int] = {}
    for line in SEED.read_text(encoding="utf-8").splitlines()[:80]:
        m = re.fullmatch(r"- (\d+) (.+)", line.strip())
        if m and m.group(2) in names:
            out[names[m.group(2)]] = int(m.group(1))
    return out


def main() -> None:
    data = {"mandate2038": mandate_facts(), "vestige_box": vestige_box()}
    OUT.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {OUT} ({OUT.stat().st_size:,} bytes)")


if __name__ == "__main__":
    main()
