"""verl-agent against DreamGym: a vectorised environment and an ``EnvironmentManager`` in verl-agent's shape.

verl-agent's trainer calls ``reset()`` → ``(observations, infos)`` and ``step(text_actions)`` →
``(observations, rewards, dones, infos)`` on a batch of environments, observations as ``{"text", "image",
"anchor"}``. ``DreamGymEnvs`` keeps one OpenEnv WebSocket session per batch slot and steps them on threads; the
manager builds the prompts. Wire it where verl-agent's ``make_envs`` builds its managers:

    envs = DreamGymEnvs("http://127.0.0.1:8300", batch_size=16, group_n=8, run_id=run_id, mode="synthetic")
    manager = DreamGymEnvironmentManager(envs, projection_f=lambda actions: (actions, [True] * len(actions)))

Slots ``i*group_n … i*group_n+group_n-1`` share a group key, so a GRPO group plays one task. A slot whose episode
is over is not stepped again: it answers its last observation, reward 0.0 and done until the next reset.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable, Dict, List, Tuple

from dreamgym_env import DreamGymEnv


class DreamGymEnvs:
    def __init__(self, base_url: str, batch_size: int, group_n: int = 1, **defaults: Any):
        self.envs = [DreamGymEnv(base_url, **defaults) for _ in range(batch_size * group_n)]
        self.group_n = group_n
        self.pool = ThreadPoolExecutor(max_workers=len(self.envs))
        self.resets = 0
        self.policy_version = 0
        self.last: List[Dict[str, Any]] = []

    def reset(self) -> Tuple[List[Dict[str, Any]], List[Dict[str, Any]]]:
        self.resets += 1
        groups = [f"r{self.resets}-g{i // self.group_n}" for i in range(len(self.envs))]
        replies = list(self.pool.map(lambda e, g: e.reset(group=g, policy_version=self.policy_version), self.envs, groups))
        self.last = replies
        return [r["observation"] for r in replies], [r["metadata"] for r in replies]

    def _step_slot(self, i: int, action: Any) -> Dict[str, Any]:
        previous = self.last[i]
        if previous["done"]:  # over: the server would refuse a step (EPISODE_DONE); nothing is played
            return {**previous, "reward": 0.0, "finished": True}
        # An LLM reply with no action ("" or None) is played as an invalid action: state unchanged, reward 0.0.
        return self.envs[i].step(action if isinstance(action, str) else "")

    def step(self, actions: List[Any]):
        replies = list(self.pool.map(self._step_slot, range(len(self.envs)), actions))
        self.last = [{k: v for k, v in r.items() if k != "finished"} for r in replies]
        return (
            [r["observation"] for r in replies],
            [float(r["reward"] or 0.0) for r in replies],
            [bool(r["done"]) for r in replies],
            [
                {
                    "won": r["observation"]["success"],
                    "is_action_valid": r["observation"]["valid"] and not r.get("finished", False),
                }
                for r in replies
            ],
        )

    def close(self) -> None:
        for env in self.envs:
            env.close()
        self.pool.shutdown()


class DreamGymEnvironmentManager:
    """The prompt each step shows the policy: the instruction, the page, the admissible actions."""

    def __init__(self, envs: DreamGymEnvs, projection_f: Callable[[List[str]], Tuple[List[str], List[bool]]]):
        self.envs = envs
        self.projection_f = projection_f

    @staticmethod
    def prompt(observation: Dict[str, Any]) -> str:
        actions = ", ".join(observation["available_actions"][:40])
        return f"Task: {observation['instruction']}\nObservation: {observation['text']}\nAvailable actions: {actions}\nYour action:"

    def reset(self):
        observations, infos = self.envs.reset()
        return {"text": [self.prompt(o) for o in observations], "image": None, "anchor": [o["text"] for o in observations]}, infos

    def step(self, text_actions: List[str]):
        actions, valids = self.projection_f(text_actions)
        observations, rewards, dones, infos = self.envs.step(actions)
        for info, valid in zip(infos, valids):
            info["is_action_valid"] = info["is_action_valid"] and valid
        text = [self.prompt(o) for o in observations]
        return {"text": text, "image": None, "anchor": [o["text"] for o in observations]}, rewards, dones, infos

    def close(self) -> None:
        self.envs.close()
