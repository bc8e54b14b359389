"""What YAML makes of a text, and equality that tells types apart, for the tests of the
readers that stand in for the YAML reader (render.jsonshape, render.blockshape)."""

from __future__ import annotations

import math

import yaml


def yaml_value(text: str):
    return yaml.load(text, Loader=yaml.CSafeLoader)


def same(a, b) -> bool:
    """Equal values of equal types all the way down (1 and 1.0 and True differ), keys in order."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, float) and math.isnan(a):
        return math.isnan(b)
    return a == b
