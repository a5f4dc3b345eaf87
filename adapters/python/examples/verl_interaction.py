"""verl multi-turn rollouts against DreamGym: a ``BaseInteraction`` that plays one DreamGym episode per sample.

verl (sglang multi-turn) calls ``start_interaction`` when a sample starts, ``generate_response`` after each
assistant turn (the turn's last line is taken as the action), and ``finalize_interaction`` at the end. Register it
in the interaction config:

    interaction:
      - name: dreamgym
        class_name: dreamgym_verl.DreamGymInteraction
        config: {base_url: "http://127.0.0.1:8300", run_id: "<run id>", mode: "synthetic"}

Each sample's ``interaction_kwargs`` may carry ``group`` (the prompt's uid: GRPO's group gets one task) and
``policy_version`` (the trainer's global step). Requires verl; the client itself is standard library only.
"""

from __future__ import annotations

import asyncio
from typing import Any, Dict, List, Optional, Tuple

from verl.interactions.base import BaseInteraction  # type: ignore[import-not-found]

from dreamgym_env import DreamGymHttpEnv


class DreamGymInteraction(BaseInteraction):
    def __init__(self, config: Dict[str, Any]):
        super().__init__(config)
        self.base_url = config.get("base_url", "http://127.0.0.1:8300")
        self.defaults = {k: config[k] for k in ("run_id", "mode", "domain") if k in config}
        self.envs: Dict[str, DreamGymHttpEnv] = {}
        self.returns: Dict[str, float] = {}
        self.done: Dict[str, bool] = {}
        # The first page of each episode: put it in the sample's first user turn (e.g. from a dataset hook).
        self.first_observations: Dict[str, str] = {}

    async def start_interaction(self, instance_id: Optional[str] = None, **kwargs: Any) -> str:
        env = DreamGymHttpEnv(self.base_url, **self.defaults)
        reply = await asyncio.to_thread(env.reset, group=kwargs.get("group"), policy_version=kwargs.get("policy_version"))
        self.envs[instance_id] = env
        self.returns[instance_id] = 0.0
        self.done[instance_id] = False
        self.first_observations[instance_id] = reply["observation"]["text"]
        return instance_id

    async def generate_response(self, instance_id: str, messages: List[Dict[str, Any]], **kwargs: Any) -> Tuple[bool, str, float, Dict[str, Any]]:
        if self.done.get(instance_id, True):  # a turn after the end (or after finalize): nothing to play
            return True, "Episode over.", 0.0, {"valid": False}
        turn = next((m["content"] for m in reversed(messages) if m["role"] == "assistant"), "") or ""
        lines = turn.strip().splitlines()
        # No action in the reply: "" is played as an invalid action (state unchanged, reward 0.0).
        action = lines[-1].strip() if lines else ""
        reply = await asyncio.to_thread(self.envs[instance_id].step, action)
        reward = float(reply["reward"] or 0.0)
        self.returns[instance_id] += reward
        self.done[instance_id] = bool(reply["done"])
        observation = reply["observation"]
        text = observation["text"] + "\nAvailable actions: " + ", ".join(observation["available_actions"][:40])
        return reply["done"], text, reward, {"valid": observation["valid"]}

    async def calculate_score(self, instance_id: str, **kwargs: Any) -> float:
        return self.returns.get(instance_id, 0.0)

    async def finalize_interaction(self, instance_id: str, **kwargs: Any) -> None:
        env = self.envs.pop(instance_id, None)
        if env is not None:
            await asyncio.to_thread(env.close)  # frees the server's slot; an unfinished episode is recorded abandoned
        self.returns.pop(instance_id, None)
        self.done.pop(instance_id, None)
        self.first_observations.pop(instance_id, None)
