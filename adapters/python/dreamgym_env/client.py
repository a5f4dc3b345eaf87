"""DreamGym environment server client, standard library only (Python 3.9+).

Two ways to play an episode, with the same replies (OpenEnv's ``{observation, reward, done, metadata}``):

- ``DreamGymEnv`` over OpenEnv's WebSocket session (``/ws``): one connection, one episode at a time;
- ``DreamGymHttpEnv`` over OpenEnv's HTTP ``/reset`` and ``/step``, addressed by ``episode_id``.

Plus ``DreamGymRuns`` for external runs: create one, post the trainer's metrics, finish it.

    env = DreamGymEnv("http://127.0.0.1:8300", run_id=run_id, mode="synthetic")
    obs = env.reset(group="prompt-17", policy_version=3)
    while not obs["done"]:
        obs = env.step(pick(obs["observation"]), logprob=-0.7, tokens=12)
    env.close()
"""

from __future__ import annotations

import base64
import json
import os
import socket
import struct
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Dict, Optional


class DreamGymError(RuntimeError):
    """An error the server answered with: ``code`` is one of the codes /schema and the README list."""

    def __init__(self, message: str, code: str, status: Optional[int] = None):
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.status = status


def _headers(token: Optional[str]) -> Dict[str, str]:
    token = token or os.environ.get("DREAMGYM_ENV_TOKEN")
    headers = {"content-type": "application/json"}
    if token:
        headers["authorization"] = f"Bearer {token}"
    return headers


def _request(base: str, method: str, path: str, body: Any = None, token: Optional[str] = None, timeout: float = 60):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base.rstrip("/") + path, data=data, method=method, headers=_headers(token))
    try:
        with urllib.request.urlopen(req, timeout=timeout) as res:
            return json.loads(res.read() or b"null")
    except urllib.error.HTTPError as err:
        payload = err.read()
        try:
            data = json.loads(payload).get("data", {})
        except (ValueError, AttributeError):
            data = {}
        raise DreamGymError(data.get("message", payload.decode(errors="replace")), data.get("code", "HTTP_ERROR"), err.code) from None


def _reset_data(kwargs: Dict[str, Any]) -> Dict[str, Any]:
    return {k: v for k, v in kwargs.items() if v is not None}


class DreamGymRuns:
    """External runs: every episode is recorded under one, with the policy version the trainer reports."""

    def __init__(self, base_url: str, token: Optional[str] = None):
        self.base_url = base_url
        self.token = token

    def create(self, name: Optional[str] = None, **config: Any) -> str:
        """A new run; ``config`` takes run-config fields, e.g. domain="shop", method="dreamgym", experience={"k": 8}."""
        body: Dict[str, Any] = {"config": config}
        if name:
            body["name"] = name
        return _request(self.base_url, "POST", "/runs", body, self.token)["run_id"]

    def log_metrics(self, run_id: str, policy_version: int, **metrics: float) -> None:
        """The trainer's own figures for a policy version (loss, kl, ...): shown on the run's page."""
        _request(self.base_url, "POST", f"/runs/{run_id}/metrics", {"policy_version": policy_version, "metrics": metrics}, self.token)

    def finish(self, run_id: str) -> None:
        _request(self.base_url, "POST", f"/runs/{run_id}/finish", {}, self.token)


class DreamGymHttpEnv:
    """OpenEnv over HTTP: the server keeps the episode between calls, by ``episode_id``."""

    def __init__(self, base_url: str, token: Optional[str] = None, **defaults: Any):
        self.base_url = base_url
        self.token = token
        self.defaults = defaults
        self.episode_id: Optional[str] = None

    def reset(self, **kwargs: Any) -> Dict[str, Any]:
        reply = _request(self.base_url, "POST", "/reset", _reset_data({**self.defaults, **kwargs}), self.token)
        self.episode_id = reply["metadata"]["episode_id"]
        return reply

    def step(self, action: str, logprob: Optional[float] = None, tokens: Optional[int] = None) -> Dict[str, Any]:
        body = {"episode_id": self.episode_id, "action": _reset_data({"action": action, "logprob": logprob, "tokens": tokens})}
        return _request(self.base_url, "POST", "/step", body, self.token)

    def state(self) -> Dict[str, Any]:
        query = urllib.parse.urlencode({"episode_id": self.episode_id})
        return _request(self.base_url, "GET", f"/state?{query}", None, self.token)

    def close(self) -> None:
        self.episode_id = None


class _WebSocket:
    """Just enough of RFC 6455 for JSON text messages: masked client frames, fragments, ping/pong, close."""

    def __init__(self, url: str, token: Optional[str] = None, timeout: float = 60):
        parts = urllib.parse.urlsplit(url)
        if parts.scheme not in ("ws", "http"):
            raise ValueError("only plain ws:// (or http://) URLs; put TLS in front of the server with a proxy")
        port = parts.port or 80
        self.sock = socket.create_connection((parts.hostname, port), timeout=timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        key = base64.b64encode(os.urandom(16)).decode()
        lines = [
            f"GET {parts.path or '/'} HTTP/1.1",
            f"Host: {parts.hostname}:{port}",
            "Upgrade: websocket",
            "Connection: Upgrade",
            f"Sec-WebSocket-Key: {key}",
            "Sec-WebSocket-Version: 13",
        ]
        auth = _headers(token).get("authorization")
        if auth:
            lines.append(f"Authorization: {auth}")
        self.sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        self.buffer = b""
        head = self._read_until(b"\r\n\r\n")
        status = head.split(b"\r\n", 1)[0]
        if b" 101 " not in status + b" ":
            body = self.buffer
            try:
                data = json.loads(body).get("data", {})
            except ValueError:
                data = {}
            raise DreamGymError(data.get("message", status.decode()), data.get("code", "HANDSHAKE_FAILED"))
        self.closed = False

    def _read_until(self, marker: bytes) -> bytes:
        while marker not in self.buffer:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("connection closed during the handshake")
            self.buffer += chunk
        head, self.buffer = self.buffer.split(marker, 1)
        return head

    def _read(self, n: int) -> bytes:
        while len(self.buffer) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("the server closed the connection")
            self.buffer += chunk
        out, self.buffer = self.buffer[:n], self.buffer[n:]
        return out

    def _send_frame(self, opcode: int, payload: bytes) -> None:
        header = bytes([0x80 | opcode])
        n = len(payload)
        if n < 126:
            header += bytes([0x80 | n])
        elif n < 65536:
            header += bytes([0x80 | 126]) + struct.pack("!H", n)
        else:
            header += bytes([0x80 | 127]) + struct.pack("!Q", n)
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(header + mask + masked)

    def send(self, message: Dict[str, Any]) -> None:
        self._send_frame(0x1, json.dumps(message).encode())

    def recv(self) -> Dict[str, Any]:
        parts = []
        while True:
            b1, b2 = self._read(2)
            opcode, n = b1 & 0x0F, b2 & 0x7F
            if n == 126:
                n = struct.unpack("!H", self._read(2))[0]
            elif n == 127:
                n = struct.unpack("!Q", self._read(8))[0]
            payload = self._read(n)
            if opcode == 0x9:  # ping
                self._send_frame(0xA, payload)
                continue
            if opcode == 0x8:  # close
                self.closed = True
                code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else 1005
                raise ConnectionError(f"the server closed the session ({code} {payload[2:].decode(errors='replace')})")
            if opcode in (0x1, 0x0):
                parts.append(payload)
                if b1 & 0x80:
                    return json.loads(b"".join(parts))

    def close(self) -> None:
        if not self.closed:
            try:
                self._send_frame(0x8, struct.pack("!H", 1000))
            except OSError:
                pass
            self.closed = True
        self.sock.close()


class DreamGymEnv:
    """OpenEnv's WebSocket session: ``reset`` / ``step`` / ``state`` / ``close``, one connection per environment."""

    def __init__(self, base_url: str, token: Optional[str] = None, timeout: float = 60, **defaults: Any):
        ws_url = base_url.rstrip("/").replace("https://", "wss://").replace("http://", "ws://") + "/ws"
        self.ws = _WebSocket(ws_url, token, timeout)
        self.defaults = defaults

    def _call(self, message: Dict[str, Any]) -> Dict[str, Any]:
        self.ws.send(message)
        reply = self.ws.recv()
        if reply.get("type") == "error":
            data = reply.get("data", {})
            raise DreamGymError(data.get("message", ""), data.get("code", "ERROR"))
        return reply["data"]

    def reset(self, **kwargs: Any) -> Dict[str, Any]:
        return self._call({"type": "reset", "data": _reset_data({**self.defaults, **kwargs})})

    def step(self, action: str, logprob: Optional[float] = None, tokens: Optional[int] = None) -> Dict[str, Any]:
        return self._call({"type": "step", "data": _reset_data({"action": action, "logprob": logprob, "tokens": tokens})})

    def state(self) -> Dict[str, Any]:
        return self._call({"type": "state"})

    def close(self) -> None:
        try:
            self.ws.send({"type": "close"})
        except OSError:
            pass
        self.ws.close()

    def __enter__(self) -> "DreamGymEnv":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
