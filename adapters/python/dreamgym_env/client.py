"""DreamGym environment server client, standard library only (Python 3.9+).

Two ways to play an episode, with the same replies (OpenEnv's ``{observation, reward, done, metadata}``):

- ``DreamGymEnv`` over OpenEnv's WebSocket session (``/ws``): one connection, one episode at a time;
- ``DreamGymHttpEnv`` over OpenEnv's HTTP ``/reset`` and ``/step``, addressed by ``episode_id``.

Plus ``DreamGymRuns`` for external runs: create one, post the trainer's metrics, finish it.

``https://`` base URLs speak TLS (``wss://`` for the WebSocket), with the certificates checked against the system's
authorities, or against ``ca_file`` (a PEM file, also read from ``DREAMGYM_ENV_CA_FILE``) for a server with a
certificate of its own.

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
import ssl
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


def _tls(ca_file: Optional[str]) -> ssl.SSLContext:
    """Certificates and host names are always checked; ``ca_file`` adds the authorities to trust."""
    return ssl.create_default_context(cafile=ca_file or os.environ.get("DREAMGYM_ENV_CA_FILE") or None)


def _headers(token: Optional[str]) -> Dict[str, str]:
    token = token or os.environ.get("DREAMGYM_ENV_TOKEN")
    headers = {"content-type": "application/json"}
    if token:
        headers["authorization"] = f"Bearer {token}"
    return headers


def _request(base: str, method: str, path: str, body: Any = None, token: Optional[str] = None, timeout: float = 60, ca_file: Optional[str] = None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base.rstrip("/") + path, data=data, method=method, headers=_headers(token))
    context = _tls(ca_file) if base.lower().startswith("https://") else None
    try:
        with urllib.request.urlopen(req, timeout=timeout, context=context) as res:
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

    def __init__(self, base_url: str, token: Optional[str] = None, ca_file: Optional[str] = None):
        self.base_url = base_url
        self.token = token
        self.ca_file = ca_file

    def _call(self, method: str, path: str, body: Any = None) -> Any:
        return _request(self.base_url, method, path, body, self.token, ca_file=self.ca_file)

    def create(self, name: Optional[str] = None, **config: Any) -> str:
        """A new run; ``config`` takes run-config fields, e.g. domain="shop", method="dreamgym", experience={"k": 8}."""
        body: Dict[str, Any] = {"config": config}
        if name:
            body["name"] = name
        return self._call("POST", "/runs", body)["run_id"]

    def log_metrics(self, run_id: str, policy_version: int, **metrics: float) -> None:
        """The trainer's own figures for a policy version (loss, kl, ...): shown on the run's page."""
        self._call("POST", f"/runs/{run_id}/metrics", {"policy_version": policy_version, "metrics": metrics})

    def finish(self, run_id: str) -> None:
        self._call("POST", f"/runs/{run_id}/finish", {})


class DreamGymHttpEnv:
    """OpenEnv over HTTP: the server keeps the episode between calls, by ``episode_id``; ``close`` ends it."""

    def __init__(self, base_url: str, token: Optional[str] = None, ca_file: Optional[str] = None, **defaults: Any):
        self.base_url = base_url
        self.token = token
        self.ca_file = ca_file
        self.defaults = defaults
        self.episode_id: Optional[str] = None

    def _call(self, method: str, path: str, body: Any = None) -> Any:
        return _request(self.base_url, method, path, body, self.token, ca_file=self.ca_file)

    def reset(self, **kwargs: Any) -> Dict[str, Any]:
        reply = self._call("POST", "/reset", _reset_data({**self.defaults, **kwargs}))
        self.episode_id = reply["metadata"]["episode_id"]
        return reply

    def step(self, action: str, logprob: Optional[float] = None, tokens: Optional[int] = None) -> Dict[str, Any]:
        body = {"episode_id": self.episode_id, "action": _reset_data({"action": action, "logprob": logprob, "tokens": tokens})}
        return self._call("POST", "/step", body)

    def state(self) -> Dict[str, Any]:
        query = urllib.parse.urlencode({"episode_id": self.episode_id})
        return self._call("GET", f"/state?{query}")

    def close(self) -> None:
        """Ends the episode on the server and frees its slot (recorded as abandoned if it was not over)."""
        episode_id, self.episode_id = self.episode_id, None
        if episode_id is None:
            return
        try:
            self._call("POST", "/close", {"episode_id": episode_id})
        except DreamGymError as err:
            if err.code not in ("UNKNOWN_EPISODE", "EPISODE_DONE"):  # already gone: nothing to free
                raise


class _WebSocket:
    """Just enough of RFC 6455 for JSON text messages: masked client frames, fragments, ping/pong, close."""

    def __init__(self, url: str, token: Optional[str] = None, timeout: float = 60, ca_file: Optional[str] = None):
        parts = urllib.parse.urlsplit(url)
        if parts.scheme not in ("ws", "http", "wss", "https"):
            raise ValueError(f"not a WebSocket URL: {url} (ws://, wss://, http:// or https://)")
        secure = parts.scheme in ("wss", "https")
        port = parts.port or (443 if secure else 80)
        raw = socket.create_connection((parts.hostname, port), timeout=timeout)
        raw.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        try:
            self.sock = _tls(ca_file).wrap_socket(raw, server_hostname=parts.hostname) if secure else raw
        except OSError:
            raw.close()
            raise
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

    def __init__(self, base_url: str, token: Optional[str] = None, timeout: float = 60, ca_file: Optional[str] = None, **defaults: Any):
        ws_url = base_url.rstrip("/").replace("https://", "wss://").replace("http://", "ws://") + "/ws"
        self.ws = _WebSocket(ws_url, token, timeout, ca_file)
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
