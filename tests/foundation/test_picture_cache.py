"""Encoded pictures are kept by key in one cache bounded by bytes, not by count: a Kingdom table
weighs ten Kabuki boards."""

from __future__ import annotations

from bot.glue import board as session_board
from bot.glue.board import Picture
from bot.glue.picture_cache import ByteLRU


def test_the_cache_never_holds_more_bytes_than_its_bound_and_drops_the_least_recently_used() -> None:
    cache = ByteLRU(100)
    cache.put("a", b"a" * 40)
    cache.put("b", b"b" * 40)
    assert cache.get("a") == b"a" * 40  # "a" is now the most recently used
    cache.put("c", b"c" * 40)
    assert cache.get("b") is None and cache.get("a") is not None and cache.get("c") is not None
    assert cache.bytes == 80 and len(cache) == 2
    for n in range(50):
        cache.put(n, bytes(n % 30))
        assert cache.bytes <= 100


def test_a_key_put_again_counts_its_new_bytes_only() -> None:
    cache = ByteLRU(100)
    cache.put("a", b"x" * 60)
    cache.put("a", b"y" * 30)
    assert cache.get("a") == b"y" * 30 and cache.bytes == 30 and len(cache) == 1


def test_a_picture_bigger_than_the_whole_cache_is_not_kept_and_keeps_the_rest() -> None:
    cache = ByteLRU(100)
    cache.put("small", b"s" * 10)
    cache.put("huge", b"h" * 101)
    assert cache.get("huge") is None and cache.get("small") == b"s" * 10 and cache.bytes == 10


async def test_board_pictures_are_drawn_once_per_key_and_stay_within_the_bound(monkeypatch) -> None:
    monkeypatch.setattr(session_board, "PICTURES", ByteLRU(1000))
    drawn = []

    def picture(key: int) -> Picture:
        return Picture(key=("test", key), render=lambda: drawn.append(key) or bytes(300))

    for key in (1, 2, 1, 3, 4, 1):
        await picture(key).file()
        assert session_board.PICTURES.bytes <= 1000
    # 1 stays in use; 2 is pushed out by 3 and 4 (four pictures of 300 bytes exceed 1000).
    assert drawn == [1, 2, 3, 4]
    await picture(2).file()
    assert drawn == [1, 2, 3, 4, 2]
