"""TRL's GRPOTrainer against DreamGym, with a ``rollout_func`` (TRL's OpenEnv integration) and, for TRL versions
that take one, an ``environment_factory``.

``rollout_func(prompts, trainer)`` generates the completions itself, so each prompt can be a whole multi-turn
episode: the prompt's dataset row names a DreamGym group (all ``num_generations`` completions of a prompt play the
same task), every turn's completion is stepped in DreamGym, and the episode's return is the reward. Here a
``generate(trainer, texts)`` is the only TRL-version-specific part: use ``trl.experimental.openenv``'s
``generate_rollout_completions`` (vLLM) or ``trainer.model.generate``.

    trainer = GRPOTrainer(model=..., reward_funcs=[env_reward], train_dataset=dataset,
                          args=GRPOConfig(num_generations=8, ...), rollout_func=make_rollout_func(generate))

The server's address comes from ``DREAMGYM_ENV_URL`` (http://127.0.0.1:8300 by default). A completion with no
action line is stepped as "", which the server plays as an invalid action (reward 0.0), so one empty reply never
stops a batch.
"""

from __future__ import annotations

import os
from typing import Any, Callable, Dict, List

from dreamgym_env import DreamGymEnv, DreamGymRuns

BASE_URL = os.environ.get("DREAMGYM_ENV_URL", "http://127.0.0.1:8300")
RUN_ID = DreamGymRuns(BASE_URL).create(name="TRL GRPO", domain="shop", method="dreamgym")


def action_of(completion: str) -> str:
    """The completion's last line; "" when the model wrote nothing: the server plays that as an invalid action."""
    lines = completion.strip().splitlines()
    return lines[-1].strip() if lines else ""


def prompt_of(observation: Dict[str, Any]) -> str:
    actions = ", ".join(observation["available_actions"][:40])
    return f"Task: {observation['instruction']}\n{observation['text']}\nActions: {actions}\nReply with one action."


def make_rollout_func(generate: Callable[[Any, List[str]], List[Dict[str, Any]]], max_turns: int = 15):
    """``generate(trainer, texts)`` returns, per text, ``{"prompt_ids", "completion_ids", "logprobs", "text"}``."""

    def rollout_func(prompts: List[str], trainer: Any) -> Dict[str, List[Any]]:
        version = int(trainer.state.global_step)
        envs = [DreamGymEnv(BASE_URL, run_id=RUN_ID) for _ in prompts]
        # The prompt text is the group key: GRPO's completions of one prompt play one task.
        replies = [env.reset(group=f"{version}:{p}", policy_version=version) for env, p in zip(envs, prompts)]
        out: Dict[str, List[Any]] = {"prompt_ids": [], "completion_ids": [], "logprobs": [], "env_reward": []}
        episodes = [{"prompt_ids": None, "completion_ids": [], "logprobs": [], "return": 0.0} for _ in prompts]
        for _ in range(max_turns):
            live = [i for i, r in enumerate(replies) if not r["done"]]
            if not live:
                break
            generated = generate(trainer, [prompt_of(replies[i]["observation"]) for i in live])
            for i, g in zip(live, generated):
                replies[i] = envs[i].step(action_of(g["text"]), logprob=sum(g["logprobs"]), tokens=len(g["completion_ids"]))
                e = episodes[i]
                e["prompt_ids"] = e["prompt_ids"] or g["prompt_ids"]
                e["completion_ids"] += g["completion_ids"]
                e["logprobs"] += g["logprobs"]
                e["return"] += float(replies[i]["reward"] or 0.0)
        for env in envs:
            env.close()  # an episode cut at max_turns is recorded as abandoned
        for e in episodes:
            out["prompt_ids"].append(e["prompt_ids"])
            out["completion_ids"].append(e["completion_ids"])
            out["logprobs"].append(e["logprobs"])
            out["env_reward"].append(e["return"])
        return out

    return rollout_func


def env_reward(completions: List[Any], **kwargs: Any) -> List[float]:
    """The reward function GRPOTrainer calls: the episode returns the rollout function passed through."""
    return [float(r) for r in kwargs["env_reward"]]


class DreamGymToolEnv:
    """For TRL's ``environment_factory`` (one instance per rollout; public methods are the model's tools)."""

    def __init__(self) -> None:
        self.env = DreamGymEnv(BASE_URL, run_id=RUN_ID)
        self.reward = 0.0
        self.done = False

    def reset(self, **kwargs: Any) -> str:
        reply = self.env.reset(group=kwargs.get("group"), policy_version=kwargs.get("policy_version"))
        self.reward, self.done = 0.0, False
        return prompt_of(reply["observation"])

    def act(self, action: str) -> str:
        """Take one action in the environment, e.g. search[red shoes] or click[Buy Now]."""
        if self.done:  # the model may call the tool again after the end: nothing is played
            return "Episode over."
        reply = self.env.step(action_of(action or ""))
        self.reward += float(reply["reward"] or 0.0)
        self.done = bool(reply["done"])
        return ("Episode over. " if reply["done"] else "") + prompt_of(reply["observation"])
