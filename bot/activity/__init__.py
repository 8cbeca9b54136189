"""The Activity: the games as a live table in an iframe inside Discord, served by the bot's own
process beside the channel's buttons (docs/activity.md).

Holds the page's sign-in (``signin``: Discord's OAuth code exchanged with the client secret, the
member checked against the Activity instance and the server), the short-lived tickets a page opens
its socket with (``tickets``), the calls to Discord's HTTP API they need (``discord_api``), the
settings (``settings``) and the web server: the sign-in route and one WebSocket per open page
(``server``).
A front-end beside the Discord client: it may import the session layer and everything below it;
nothing below imports it, and only ``bot.app`` starts it.
"""
