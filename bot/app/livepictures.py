"""Pictures the playground's page was shown stay on it until the page shows their successor.

SimCord 3.2's preview checks a picture against the live channel whenever the browser asks: at
every poll of the page (0.5 s), a picture whose message no longer carries that attachment is
marked unavailable, and fetching it is answered 404. A board's picture is replaced by every edit
that redraws it (a placement, its grace ending; a Stop!, its race closing, the reveal hidden), and
the page is republished a moment later (``LivePage``, 0.1 s): a poll or a fetch in between showed
"Embed 1 image unavailable" until the next poll. On Discord the old picture stays up until the
client shows the edit, and its address keeps working a while.

So a picture this page's latest publication showed stays authorized for this page, and the
pictures of its last few publications are served to it when the browser fetches them late, as
long as its viewer may still see the channel. Only refusals that say the picture is gone from its
message are overridden; a viewer's lost access stays a refusal. SimCord is not patched: the
preview's ``_authorize_asset``, ``_prepare_asset`` and ``_publish`` are shadowed on the instance.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Any

PICTURES_KEPT = 8  # per page: pictures of its latest publications, served after they changed
# SimCord's refusals of a picture gone from its message or the page (not of a viewer's access).
GONE = frozenset({"asset is unavailable", "asset was replaced"})


class LivePictures:
    """Keeps a page's pictures showing until the page has been republished without them."""

    def __init__(self, env: Any, preview: Any) -> None:
        from simcord import SetupError
        from simcord.backend.access import can_access_channel

        self._env = env
        self._preview = preview
        self._refusal = SetupError
        self._can_see: Callable[..., bool] = can_access_channel
        self._kept: dict[str, OrderedDict[str, tuple[str, bytes, str]]] = {}
        self._authorize = preview._authorize_asset
        self._prepare = preview._prepare_asset
        self._publish = preview._publish
        preview._authorize_asset = self._authorize_asset
        preview._prepare_asset = self._prepare_asset
        preview._publish = self._publish_page

    def _may_show(self, page: Any, error: Exception) -> bool:
        return str(error) in GONE and self._can_see(self._env, page.channel_id, page.viewer, history=True)

    def _authorize_asset(self, page: Any, asset_id: str, **how: Any) -> Any:
        try:
            return self._authorize(page, asset_id, **how)
        except self._refusal as error:
            record = page.assets.get(asset_id)
            shown = asset_id in page.snapshot.get("assets", {})
            if record is None or not record.available or not shown or not self._may_show(page, error):
                raise
            return record

    async def _prepare_asset(self, context_id: Any, asset_id: str, **how: Any) -> tuple[str, bytes, str]:
        try:
            return await self._prepare(context_id, asset_id, **how)
        except self._refusal as error:
            kept = self._kept.get(context_id, {}).get(asset_id) if isinstance(context_id, str) else None
            # Only the plain picture, not a download or a video's frame.
            if kept is None or any(how.values()):
                raise
            if not self._may_show(self._preview._get_page(context_id), error):
                raise
            return kept

    def _publish_page(self, page: Any, **kwargs: Any) -> None:
        self._publish(page, **kwargs)
        kept = self._kept.setdefault(page.id, OrderedDict())
        blobs = self._preview._blobs
        for asset_id in page.snapshot.get("assets", {}):
            record = page.assets.get(asset_id)
            blob = blobs.get(record.digest) if record is not None and record.digest else None
            if blob is not None and record.contentType.startswith("image/"):
                kept[asset_id] = (record.contentType, blob.data, record.filename)
                kept.move_to_end(asset_id)
        while len(kept) > PICTURES_KEPT:
            kept.popitem(last=False)
        for gone in set(self._kept) - set(self._preview._pages):
            del self._kept[gone]
