from exceeds_pipeline.common.union_find import UnionFind, components


def test_components_take_the_smallest_node_whatever_the_order_of_edges():
    assert components(6, [4, 1, 3], [3, 0, 1]) == [0, 0, 2, 0, 0, 5]
    assert components(6, [1, 3, 4], [0, 1, 3]) == [0, 0, 2, 0, 0, 5]


def test_union_find_over_strings():
    sets = UnionFind()
    sets.union("b@x", "c@x")
    sets.union("c@x", "a@x")
    assert {sets.find(k) for k in ("a@x", "b@x", "c@x")} == {"a@x"}
    assert sets.find("d@x") == "d@x"


def test_weak_edges_never_join_two_sets_whose_tags_differ():
    from exceeds_pipeline.common.union_find import components_kept_apart

    tags = [frozenset({"14710"}), frozenset(), frozenset({"14715"}), frozenset({"14710"}), frozenset(), frozenset()]
    # 0 -w- 1 -w- 2: the chain stops before the second issue; 3 names 0's issue and joins it
    assert components_kept_apart(6, [], [], [0, 1, 1, 4], [1, 2, 3, 5], tags) == [0, 0, 2, 0, 4, 4]
    # a strong edge joins whatever it joins, and the set then carries both issues
    assert components_kept_apart(6, [0], [2], [1, 2], [2, 4], tags) == [0, 0, 0, 3, 0, 5]
    assert components_kept_apart(3, [], [], [0, 1], [1, 2], [frozenset()] * 3) == [0, 0, 0]
