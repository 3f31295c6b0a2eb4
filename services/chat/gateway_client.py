"""The chat service's only way to the games: the gateway's HTTP API (README "Play over
HTTP"), with the seat and host tokens it holds for the chat users it seated. Tokens go in
the Authorization header only and never into an error text."""

from __future__ import annotations

from typing import Any

import httpx


class GatewayError(Exception):
    """A refusal of the gateway (its `code` and `message`), or `unavailable`."""

    def __init__(self, code: str, message: str, status: int = 0) -> None:
        super().__init__(message)
        self.code, self.message, self.status = code, message, status


def _bearer(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


class Gateway:
    def __init__(self, base_url: str, timeout: float = 20.0) -> None:
        self.http = httpx.AsyncClient(base_url=base_url.rstrip("/"), timeout=timeout)

    async def aclose(self) -> None:
        await self.http.aclose()

    async def call(self, method: str, path: str, *, token: str | None = None, body: Any = None,
                   params: dict[str, Any] | None = None, key: str | None = None) -> Any:
        headers = _bearer(token)
        if key:
            headers["Idempotency-Key"] = key
        try:
            res = await self.http.request(method, path, json=body, params=params, headers=headers)
        except httpx.HTTPError as e:
            raise GatewayError("unavailable", f"the game service did not answer ({type(e).__name__})") from None
        try:
            data = res.json()
        except ValueError:
            raise GatewayError("unavailable", f"the game service answered {res.status_code}") from None
        if res.status_code >= 400:
            code = data.get("code", "error") if isinstance(data, dict) else "error"
            msg = data.get("message", code) if isinstance(data, dict) else code
            if token:
                msg = msg.replace(token, "…")
            raise GatewayError(code, msg, res.status_code)
        return data

    async def text(self, path: str, *, token: str | None = None, params: dict[str, Any] | None = None) -> str:
        """A non-JSON document (the board's SVG): as a spectator without `token`, as that seat
        with it; GatewayError on a refusal or no answer."""
        try:
            res = await self.http.get(path, params=params, headers=_bearer(token))
        except httpx.HTTPError as e:
            raise GatewayError("unavailable", f"the game service did not answer ({type(e).__name__})") from None
        if res.status_code >= 400:
            try:
                data = res.json()
            except ValueError:
                data = {}
            code = data.get("code", "error") if isinstance(data, dict) else "error"
            raise GatewayError(code, f"the game service answered {res.status_code}", res.status_code)
        return res.text
