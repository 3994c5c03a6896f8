"""A planted defect and its kinds: the mistakes a tired developer really makes (bench/planted.py plants them)."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Defect:
    original: str  # the exact text, found once in the module
    replacement: str
    what: str  # the kind of defect, then what it does
    later: bool = False  # planted after the module's tests were written against the others: none was aimed at it


WRONG_MOMENT = "a limit counted from the wrong moment"
WRONG_SETTING = "the wrong one of two settings checked"
FORMAT_EDGE = "an edge of a format missed"
WRONG_ORDER = "a step done in the wrong order"
STEP_MISSED = "a step left out"
OFF_BY_ONE = "off-by-one at a boundary"
INVERTED = "a condition inverted on the rare path"
