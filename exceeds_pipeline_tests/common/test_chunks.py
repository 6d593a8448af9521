from exceeds_pipeline.common.chunks import contiguous_chunks


def test_contiguous_chunks_keep_order_and_balance():
    assert contiguous_chunks(list(range(7)), 2) == [[0, 1, 2, 3], [4, 5, 6]]
    assert contiguous_chunks(list(range(4)), 8) == [[0], [1], [2], [3]]
    assert contiguous_chunks([], 3) == []
    assert [x for c in contiguous_chunks("abcdefghij", 3) for x in c] == list("abcdefghij")
    assert len(contiguous_chunks(list(range(100)), 16)) <= 16
