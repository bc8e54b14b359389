"""Run-time patches of an engine, undone afterwards: a mutation changes a class, a
module or a bound game definition inside this process, never a file."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

_MISSING = object()


class Patcher:
    """``set`` and ``wrap`` attributes; ``undo`` puts every one back, last first."""

    def __init__(self) -> None:
        self._undo: list[tuple[Any, str, Any]] = []

    def set(self, obj: Any, name: str, value: Any) -> None:
        # what the object itself holds (a class's or an instance's own attribute), so that undo
        # puts back exactly that, or removes the attribute the patch added
        old = vars(obj).get(name, _MISSING) if hasattr(obj, "__dict__") else getattr(obj, name, _MISSING)
        self._undo.append((obj, name, old))
        if isinstance(obj, (type, ModuleType)):
            setattr(obj, name, value)
        else:  # an instance, perhaps a frozen one
            object.__setattr__(obj, name, value)

    def wrap(self, obj: Any, name: str, make: Callable[[Any], Any]) -> None:
        """Replace ``obj.name`` by ``make(the original)``."""
        self.set(obj, name, make(getattr(obj, name)))

    def undo(self) -> None:
        while self._undo:
            obj, name, old = self._undo.pop()
            if old is _MISSING:
                try:
                    delattr(obj, name)
                except AttributeError:
                    pass
            elif isinstance(obj, (type, ModuleType)):
                setattr(obj, name, old)
            else:  # an instance, perhaps a frozen one
                object.__setattr__(obj, name, old)
