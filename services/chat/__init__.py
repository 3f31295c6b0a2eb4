"""Play in chat (issue #24): a transport-independent chat core and per-platform adapters.

The interface adapters build on (stable; see README "Play in chat"):

* `services.chat.model`: `Message(platform, room, user, display_name, text, message_id=None)`
  in; `Reply(audience="room"|"private", text, user=None, board=None, mentions=(), choices=())` out;
  `Sink` protocol: `async post_room(room, reply)`, `async post_private(user, reply)`.
* `services.chat.core.ChatCore(redis, gateway_url, sinks={platform: Sink}, poll_s=0.5)`:
  `await core.handle(msg) -> list[Reply]`; `await core.complete(platform, room, user, text)
  -> list[str]` (autocomplete); `await core.watch()` (run as a task: turn pings,
  announcements and the result go to the platform's Sink); `await core.aclose()`.
* `services.chat.format`: `discord(reply) -> list[str]`, `slack(reply) -> list[block]`,
  `slack_text(reply)`, `matrix(reply, names) -> (plain, html)`, within each platform's limits.
* Adapters: `services.chat.discord` (interactions endpoint), `services.chat.slack` (Bolt).

A private Reply must only ever reach its `user` (ephemeral reply or direct message).
"""
