"""Building blocks for a card game's rules in tens of lines: piles that say who sees
them, turns and phases, moves as plain tuples, draws as chance steps, observations and
re-deals derived from the piles, a checker and a greedy player.

A plug-in subclasses :class:`Kit` (see docs/validator/writing-rules.md, "Rules in
tens of lines", and docs/examples/rules/star_freight.py)."""

from .engine import KitChecker, KitGame, KitState, Move
from .rules import GreedyPlayer, Kit
from .table import HIDDEN, OWNER, PUBLIC, Pile, Table, View, hidden, own, public

__all__ = ["HIDDEN", "OWNER", "PUBLIC", "GreedyPlayer", "Kit", "KitChecker", "KitGame", "KitState", "Move", "Pile",
           "Table", "View", "hidden", "own", "public"]
