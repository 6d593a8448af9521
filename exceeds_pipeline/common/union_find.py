"""Union-find (disjoint sets) over hashable keys; the smallest key of a set is its root, so the
result does not depend on the order of the unions."""

from __future__ import annotations

from collections.abc import Hashable, Iterable


class UnionFind:
    def __init__(self, items: Iterable[Hashable] = ()) -> None:
        self.parent: dict = {x: x for x in items}

    def find(self, x):
        parent = self.parent
        parent.setdefault(x, x)
        root = x
        while parent[root] != root:
            root = parent[root]
        while parent[x] != root:  # path compression
            parent[x], x = root, parent[x]
        return root

    def union(self, a, b) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            if rb < ra:
                ra, rb = rb, ra
            self.parent[rb] = ra


def components(n: int, a: Iterable[int], b: Iterable[int]) -> list[int]:
    """Each of nodes 0..n-1's component root (its smallest node) given edges (a[i], b[i])."""
    sets = UnionFind(range(n))
    for x, y in zip(a, b):
        sets.union(x, y)
    return [sets.find(i) for i in range(n)]
