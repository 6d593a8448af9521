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
