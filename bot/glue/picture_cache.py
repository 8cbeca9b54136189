"""A least-recently-used cache bounded by the bytes it holds, for encoded pictures.

A count says nothing about memory when one picture is 15 kB and another 200 kB, so the bound is
in bytes. Thread-safe: pictures are drawn in worker threads.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable


class ByteLRU:
    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self.bytes = 0
        self._items: OrderedDict[Hashable, bytes] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._items)

    def get(self, key: Hashable) -> bytes | None:
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def put(self, key: Hashable, value: bytes) -> None:
        """Keep ``value``, dropping the least recently used until the bound holds. A value larger
        than the whole bound is not kept: it would only push everything else out."""
        if len(value) > self.max_bytes:
            return
        with self._lock:
            old = self._items.pop(key, None)
            if old is not None:
                self.bytes -= len(old)
            self._items[key] = value
            self.bytes += len(value)
            while self.bytes > self.max_bytes:
                _, dropped = self._items.popitem(last=False)
                self.bytes -= len(dropped)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self.bytes = 0
