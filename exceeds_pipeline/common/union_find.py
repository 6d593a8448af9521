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
    return components_kept_apart(n, a, b, (), (), ())


def components_kept_apart(n: int, a: Iterable[int], b: Iterable[int], weak_a: Iterable[int],
                          weak_b: Iterable[int], tags: list[frozenset]) -> list[int]:
    """As :func:`components`, where the weak edges (weak_a[i], weak_b[i]), taken in order after
    all the others, join two sets only when their tags (the union of their nodes' `tags`) are
    not both non-empty and disjoint: a chain of weak relations never joins two sets that each
    carry tags and share none. `tags` may be shorter than n (an empty one: plain components)."""
    sets = UnionFind(range(n))
    for x, y in zip(a, b):
        sets.union(x, y)
    carried: dict[int, frozenset] = {}
    for i, tag in enumerate(tags):
        if tag:
            root = sets.find(i)
            carried[root] = carried.get(root, frozenset()) | tag
    for x, y in zip(weak_a, weak_b):
        rx, ry = sets.find(x), sets.find(y)
        if rx == ry:
            continue
        tx, ty = carried.get(rx, frozenset()), carried.get(ry, frozenset())
        if tx and ty and not tx & ty:
            continue
        sets.union(rx, ry)
        merged = tx | ty
        if merged:
            carried[sets.find(rx)] = merged
    return [sets.find(i) for i in range(n)]
