"""What is worked out once from an object that cannot be a dict key (a schema dict, a list of tools)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

T = TypeVar("T")


class ByIdentity(Generic[T]):
    """Values made from objects, kept by the object's identity for the last `size` objects.

    The object is held beside its value, so that its id cannot be reused by another object while the
    entry lives; past `size` entries the store starts again (a run reads one document at a time).
    """

    __slots__ = ("_make", "_size", "_store")

    def __init__(self, make: Callable[[Any], T], size: int) -> None:
        self._make = make
        self._size = size
        self._store: dict[int, tuple[Any, T]] = {}

    def __call__(self, obj: Any) -> T:
        known = self._store.get(id(obj))
        if known is not None and known[0] is obj:
            return known[1]
        value = self._make(obj)
        if len(self._store) >= self._size:
            self._store.clear()
        self._store[id(obj)] = (obj, value)
        return value
