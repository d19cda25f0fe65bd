"""The classic ``util`` module: the helpers classic multi-agent submissions use."""

from __future__ import annotations

import heapq
import random
import sys
from typing import Any
from collections.abc import Iterable, Mapping


def manhattanDistance(xy1: tuple[float, float], xy2: tuple[float, float]) -> float:
    """``|x1 - x2| + |y1 - y2|``."""
    return abs(xy1[0] - xy2[0]) + abs(xy1[1] - xy2[1])


def raiseNotDefined() -> None:
    """Raise: the calling function is a stub the student was meant to fill in."""
    caller = sys._getframe(1).f_code.co_name
    raise NotImplementedError(f"{caller} is not implemented")


class Counter(dict):
    """A dict whose missing keys count as 0, with a few arithmetic helpers."""

    def __getitem__(self, key: Any) -> Any:
        self.setdefault(key, 0)
        return dict.__getitem__(self, key)

    def incrementAll(self, keys: Iterable[Any], count: float) -> None:
        for key in keys:
            self[key] += count

    def argMax(self) -> Any:
        if not self:
            return None
        return max(self.items(), key=lambda item: item[1])[0]

    def sortedKeys(self) -> list[Any]:
        return [k for k, _ in sorted(self.items(), key=lambda item: -item[1])]

    def totalCount(self) -> float:
        return sum(self.values())

    def normalize(self) -> None:
        total = self.totalCount()
        if total:
            for key in list(self):
                self[key] = self[key] / total

    def divideAll(self, divisor: float) -> None:
        for key in list(self):
            self[key] = self[key] / divisor

    def copy(self) -> Counter:
        return Counter(dict.copy(self))

    def __mul__(self, other: Mapping[Any, float]) -> float:
        small, big = (self, other) if len(self) <= len(other) else (other, self)
        return sum(value * big[key] for key, value in small.items() if key in big)

    def __add__(self, other: Mapping[Any, float]) -> Counter:
        result = Counter(self)
        for key, value in other.items():
            result[key] += value
        return result

    def __sub__(self, other: Mapping[Any, float]) -> Counter:
        result = Counter(self)
        for key, value in other.items():
            result[key] -= value
        return result

    def __radd__(self, other: Any) -> Counter:
        if other == 0:  # sum() starts from 0
            return self.copy()
        return NotImplemented


class Stack:
    """Last in, first out."""

    def __init__(self) -> None:
        self.list: list[Any] = []

    def push(self, item: Any) -> None:
        self.list.append(item)

    def pop(self) -> Any:
        return self.list.pop()

    def isEmpty(self) -> bool:
        return not self.list


class Queue:
    """First in, first out."""

    def __init__(self) -> None:
        self.list: list[Any] = []

    def push(self, item: Any) -> None:
        self.list.insert(0, item)

    def pop(self) -> Any:
        return self.list.pop()

    def isEmpty(self) -> bool:
        return not self.list


class PriorityQueue:
    """Lowest priority first; ties in insertion order."""

    def __init__(self) -> None:
        self.heap: list[Any] = []
        self.count = 0

    def push(self, item: Any, priority: float) -> None:
        heapq.heappush(self.heap, (priority, self.count, item))
        self.count += 1

    def pop(self) -> Any:
        return heapq.heappop(self.heap)[2]

    def isEmpty(self) -> bool:
        return not self.heap

    def update(self, item: Any, priority: float) -> None:
        for index, (p, c, i) in enumerate(self.heap):
            if i == item:
                if p <= priority:
                    return
                self.heap[index] = (priority, c, item)
                heapq.heapify(self.heap)
                return
        self.push(item, priority)


def flipCoin(p: float) -> bool:
    """True with probability ``p`` (module-level ``random``, as the classic code does)."""
    return random.random() < p


def nearestPoint(pos: tuple[float, float]) -> tuple[int, int]:
    return (int(pos[0] + 0.5), int(pos[1] + 0.5))


def sign(x: float) -> int:
    return 1 if x >= 0 else -1


def lookup(name: str, namespace: Mapping[str, Any]) -> Any:
    """The object called ``name`` in ``namespace`` (how classic agents find ``evalFn``)."""
    if name in namespace:
        return namespace[name]
    raise NameError(f"{name!r} is not defined in the submission")
