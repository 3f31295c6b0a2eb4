"""The gateway: HTTP (and later WebSocket) for bots and clients in any language.

One more client of the command stream (README "Play over HTTP"): it sends commands to
cmd:{s} with the bearer's seat token and answers with the referee's outcome; it reads the
games' logs (folded through `projections.table`) for views, moves and results. It holds no
state of its own beyond caches of what Redis holds, so several can run side by side.
Modules by job: `app` (assembly), `errors`, `auth`, `tables`, `catalog` (game types),
`games` (open, view, moves, result), `commands`, `server` (uvicorn).
"""
