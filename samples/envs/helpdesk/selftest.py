"""Plays the reference policies on a range of tasks and reports success.

    python3 selftest.py [--url http://127.0.0.1:PORT] [--token T]
                        [--first 1000] [--tasks 100]

With --url every episode is played against a running server over HTTP;
an in-process copy of the episode gives the expert its hidden facts and
every reply of the server must equal the copy's (the environment is
deterministic). Without --url everything runs in-process. Prints one
JSON object: per policy, success rate (reward 1.0) and mean reward.
Exits 1 when the expert succeeds on fewer than 95% of the tasks or a
reply of the server differs.
"""

from __future__ import annotations

import argparse
import http.client
import json
import sys
from urllib.parse import urlsplit

from episode import Episode
from policies import POLICIES
from tickets import Rng, ticket

EXPERT_BAR = 0.95


class Remote:
    """One environment on a server, spoken to as AgentGym's clients do."""

    def __init__(self, url: str, token: str | None) -> None:
        parts = urlsplit(url)
        self.connection = http.client.HTTPConnection(
            parts.hostname, parts.port, timeout=30)
        self.headers = {"Content-Type": "application/json"}
        if token:
            self.headers["Authorization"] = f"Bearer {token}"
        self.id = self._call("/create", {})["id"]

    def _call(self, path: str, body: dict) -> dict:
        self.connection.request("POST", path, json.dumps(body).encode(),
                                self.headers)
        response = self.connection.getresponse()
        answer = json.loads(response.read())
        if response.status != 200:
            raise SystemExit(f"POST {path}: {response.status} {answer}")
        return answer

    def reset(self, number: int) -> dict:
        return self._call("/reset", {"id": self.id, "data_idx": number})

    def step(self, action: str) -> dict:
        return self._call("/step", {"id": self.id, "action": action})

    def close(self) -> None:
        self._call("/close", {"id": self.id})
        self.connection.close()


def play(name: str, number: int, remote: Remote | None) -> float:
    """One episode of policy `name` on task `number`: its final reward."""
    episode = Episode(ticket(number))
    rng = Rng(0, number, list(POLICIES).index(name))
    if remote is not None:
        _same(remote.reset(number), episode, 0.0, number)
    reward = 0.0
    while not episode.done:
        action = POLICIES[name](episode, rng).action
        reward = episode.step(action).reward
        if remote is not None:
            _same(remote.step(action), episode, reward, number)
    return reward


def _same(reply: dict, episode: Episode, reward: float, number: int):
    mine = {"observation": episode.observation, "reward": reward,
            "done": episode.done,
            "available_actions": episode.available_actions()}
    if reply != mine:
        raise SystemExit(f"task {number}: the server answered {reply!r}, "
                         f"expected {mine!r}")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url")
    parser.add_argument("--token")
    parser.add_argument("--first", type=int, default=1000)
    parser.add_argument("--tasks", type=int, default=100)
    args = parser.parse_args(argv)
    remote = Remote(args.url, args.token) if args.url else None
    numbers = range(args.first, args.first + args.tasks)
    report = {}
    for name in POLICIES:
        rewards = [play(name, n, remote) for n in numbers]
        report[name] = {
            "success": sum(r >= 1.0 for r in rewards) / len(rewards),
            "mean_reward": round(sum(rewards) / len(rewards), 4),
        }
    instructions = {ticket(n).instruction for n in range(2000)}
    report["distinct_instructions_of_2000"] = len(instructions)
    if remote is not None:
        remote.close()
    print(json.dumps(report))
    return 0 if report["expert"]["success"] >= EXPERT_BAR else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
