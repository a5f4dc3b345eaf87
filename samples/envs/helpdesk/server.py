"""The helpdesk environment over HTTP, in AgentGym's generic shape.

    python3 server.py [--host 127.0.0.1] [--port 0] [--latency-ms 0]
                      [--token SECRET] [--max-envs 1024]

Routes (JSON in and out; see README.md):
    GET  /                        a string naming the environment
    GET  /health                  {"status": "healthy"}
    POST /create                  {"id": n}
    POST /reset {id, data_idx}    {observation, reward, done,
                                   available_actions}
    POST /step {id, action}       the same four fields
    GET  /observation?id=n        the current observation (a string)
    GET  /available_actions?id=n  the available actions (a list)
    GET  /detail?id=n             task number, instruction, steps, ...
    POST /close {id}              true

Standard library only. Prints "listening on http://HOST:PORT" first.
"""

from __future__ import annotations

import argparse
import hmac
import json
import signal
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

from episode import Episode
from tickets import ticket

NAME = "This is environment Helpdesk."
MAX_BODY_BYTES = 1 << 20
MAX_TASK_NUMBER = 10**9


class ApiError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class Environments:
    """The open environments, by id; safe to call from many threads."""

    def __init__(self, max_envs: int) -> None:
        self.max_envs = max_envs
        self._lock = threading.Lock()
        self._next_id = 0
        self._open: dict[int, Episode | None] = {}

    def create(self) -> dict:
        with self._lock:
            if len(self._open) >= self.max_envs:
                raise ApiError(503, f"{self.max_envs} environments are "
                               "open, the most this server allows: close "
                               "one first")
            env_id = self._next_id
            self._next_id += 1
            self._open[env_id] = None
        return {"id": env_id}

    def reset(self, env_id: int, data_idx: int) -> dict:
        episode = Episode(ticket(data_idx))
        with self._lock:
            self._get(env_id)
            self._open[env_id] = episode
            return _reply(episode, 0.0)

    def step(self, env_id: int, action) -> dict:
        with self._lock:
            episode = self._started(env_id)
            if episode.done:
                return {"error": f"The task with environment {env_id} has "
                        "finished: reset it to play again."}
            result = episode.step(action)
            return _reply(episode, result.reward)

    def observation(self, env_id: int) -> str:
        with self._lock:
            return self._started(env_id).observation

    def available_actions(self, env_id: int) -> list[str]:
        with self._lock:
            return self._started(env_id).available_actions()

    def detail(self, env_id: int) -> dict:
        with self._lock:
            episode = self._started(env_id)
            t = episode.ticket
            return {
                "id": env_id, "data_idx": t.number,
                "ticket_id": t.ticket_id, "instruction": t.instruction,
                "steps": episode.steps, "max_steps": episode.max_steps,
                "done": episode.done, "reward": float(episode.reward),
                "observation": episode.observation,
            }

    def close(self, env_id: int) -> bool:
        with self._lock:
            self._get(env_id)
            del self._open[env_id]
        return True

    def _get(self, env_id: int) -> Episode | None:
        if env_id not in self._open:
            raise ApiError(404, f"The id {env_id} is not valid.")
        return self._open[env_id]

    def _started(self, env_id: int) -> Episode:
        episode = self._get(env_id)
        if episode is None:
            raise ApiError(409, f"Environment {env_id} has no task yet: "
                           "reset it with a data_idx first.")
        return episode


def _reply(episode: Episode, reward: float) -> dict:
    return {"observation": episode.observation, "reward": float(reward),
            "done": episode.done,
            "available_actions": episode.available_actions()}


def _int_field(value, name: str, low: int = 0,
               high: int = MAX_TASK_NUMBER) -> int:
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ApiError(400, f"{name} must be an integer")
    if not low <= value <= high:
        raise ApiError(400, f"{name} must be between {low} and {high}")
    return value


def routes(envs: Environments):
    """(method, path) -> handler(body, query) -> JSON-able answer."""
    def env_id(source: dict) -> int:
        return _int_field(source.get("id"), "id", high=2**62)

    def query_id(query: dict) -> dict:
        return {"id": (query.get("id") or [None])[0]}

    return {
        ("GET", "/"): lambda body, q: NAME,
        ("GET", "/health"): lambda body, q: {"status": "healthy"},
        ("POST", "/create"): lambda body, q: envs.create(),
        ("POST", "/reset"): lambda body, q: envs.reset(
            env_id(body), _int_field(body.get("data_idx", 0), "data_idx")),
        ("POST", "/step"): lambda body, q: envs.step(
            env_id(body), body.get("action")),
        ("GET", "/observation"): lambda body, q: envs.observation(
            env_id(query_id(q))),
        ("GET", "/available_actions"): lambda body, q:
            envs.available_actions(env_id(query_id(q))),
        ("GET", "/detail"): lambda body, q: envs.detail(
            env_id(query_id(q))),
        ("POST", "/close"): lambda body, q: envs.close(env_id(body)),
    }


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True
    server_version = "helpdesk-env/1"
    # Set on the class by serve().
    routes: dict = {}
    token: str | None = None
    latency_s = 0.0

    def do_GET(self) -> None:
        self._serve("GET")

    def do_POST(self) -> None:
        self._serve("POST")

    def log_message(self, format, *args) -> None:
        pass  # quiet: one line per request would drown the output

    def _serve(self, method: str) -> None:
        # The latency is the environment's answer time: the reply leaves that long after the request came in,
        # whatever the work took (as a service with a fixed response time would answer).
        arrived = time.monotonic()
        try:
            raw = self._read_body()
            self._authorize()
            status, answer = 200, self._answer(method, raw)
        except ApiError as error:
            status, answer = error.status, {"error": error.message}
        time.sleep(max(0.0, arrived + self.latency_s - time.monotonic()))
        self._send(status, answer)

    def _read_body(self) -> bytes:
        length = self.headers.get("Content-Length")
        if length is None:
            return b""
        size = _int_field(length, "Content-Length", high=1 << 62)
        if size > MAX_BODY_BYTES:
            self.close_connection = True
            raise ApiError(413, f"the body is over {MAX_BODY_BYTES} bytes")
        return self.rfile.read(size)

    def _authorize(self) -> None:
        if self.token is None:
            return
        given = self.headers.get("Authorization", "")
        expected = f"Bearer {self.token}"
        if not hmac.compare_digest(given.encode(), expected.encode()):
            raise ApiError(401, "missing or wrong bearer token")

    def _answer(self, method: str, raw: bytes):
        url = urlsplit(self.path)
        handler = self.routes.get((method, url.path))
        if handler is None:
            known = any(path == url.path for _, path in self.routes)
            raise ApiError(405 if known else 404,
                           f"no route {method} {url.path}")
        body = {}
        if method == "POST" and raw.strip():
            try:
                body = json.loads(raw)
            except ValueError:
                raise ApiError(400, "the body is not JSON") from None
            if not isinstance(body, dict):
                raise ApiError(400, "the body must be a JSON object")
        return handler(body, parse_qs(url.query))

    def _send(self, status: int, answer) -> None:
        data = json.dumps(answer, separators=(",", ":")).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        if status == 401:
            self.send_header("WWW-Authenticate", "Bearer")
        self.end_headers()
        self.wfile.write(data)


class Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 256  # 32+ clients connecting at once


def serve(args: argparse.Namespace) -> None:
    handler = type("BoundHandler", (Handler,), {
        "routes": routes(Environments(args.max_envs)),
        "token": args.token,
        "latency_s": args.latency_ms / 1000,
    })
    server = Server((args.host, args.port), handler)
    host, port = server.server_address[:2]
    print(f"listening on http://{host}:{port}", flush=True)

    def stop(signum, frame) -> None:
        # shutdown() waits for serve_forever(), so not on this thread.
        threading.Thread(target=server.shutdown, daemon=True).start()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    try:
        server.serve_forever(poll_interval=0.1)
    finally:
        server.server_close()
    print("stopped", flush=True)


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0,
                        help="0 picks a free port (default)")
    parser.add_argument("--latency-ms", type=float, default=0.0,
                        help="answer every request this long after it came in")
    parser.add_argument("--token", default=None,
                        help="require 'Authorization: Bearer TOKEN'")
    parser.add_argument("--max-envs", type=int, default=1024,
                        help="most environments open at once")
    args = parser.parse_args(argv)
    if args.latency_ms < 0 or args.max_envs < 1:
        parser.error("--latency-ms must be >= 0 and --max-envs >= 1")
    return args


if __name__ == "__main__":
    serve(parse_args(sys.argv[1:]))
