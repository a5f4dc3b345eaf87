"""Runs the trainer examples (TRL, verl, verl-agent) against a running DreamGym environment server, with the
trainer-side objects stubbed (no TRL, verl or model installed: standard library only), through what an LLM does to
them: completions with no action in them, and turns after an episode is over. Prints one JSON line of what
happened; any exception is a failure:

    PYTHONPATH=adapters/python python3 adapters/python/examples_selftest.py http://127.0.0.1:8300
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import sys
import types
from typing import Any, Dict, List


def stub_verl() -> None:
    """verl's BaseInteraction, as the interaction example imports it."""

    class BaseInteraction:
        def __init__(self, config: Dict[str, Any]):
            self.config = config

    for name in ("verl", "verl.interactions", "verl.interactions.base"):
        sys.modules[name] = types.ModuleType(name)
    sys.modules["verl.interactions.base"].BaseInteraction = BaseInteraction  # type: ignore[attr-defined]


def pick(observation_text: str, actions: List[str], turn: int) -> str:
    """A scripted model: search for the task, then click forward (it buys, so its episodes end early)."""
    if any(a.startswith("search[") for a in actions):
        words = re.sub(r"[^a-z0-9 ]", " ", observation_text.lower()).split()
        return f"search[{' '.join(words[:6])}]"
    clicks = [a for a in actions if a.startswith("click[") and "back" not in a.lower() and "prev" not in a.lower()]
    if clicks:
        return clicks[min(turn, len(clicks) - 1)] if turn < 2 else clicks[-1]
    return actions[0] if actions else "look"


def actions_in(prompt: str) -> List[str]:
    line = next((l for l in prompt.splitlines() if l.startswith("Actions: ") or l.startswith("Available actions: ")), "")
    listed = line.split(": ", 1)[1] if ": " in line else ""
    return [a.strip() for a in re.split(r", (?=search\[|click\[)", listed) if a.strip()]


def trl(base: str) -> Dict[str, Any]:
    import trl_rollout_func as example

    calls = {"n": 0}

    def generate(trainer: Any, texts: List[str]) -> List[Dict[str, Any]]:
        out = []
        for i, text in enumerate(texts):
            calls["n"] += 1
            # Every other prompt gets a completion with no action in it (empty, or blank lines).
            completion = ["", "  \n\n"][calls["n"] % 2] if i % 2 == 0 else pick(text, actions_in(text), calls["n"])
            out.append({"prompt_ids": [1, 2], "completion_ids": [3] * max(1, len(completion)), "logprobs": [-0.1], "text": completion})
        return out

    trainer = types.SimpleNamespace(state=types.SimpleNamespace(global_step=1))
    rollout = example.make_rollout_func(generate, max_turns=6)(["p0", "p1", "p2", "p3"], trainer)
    tool = example.DreamGymToolEnv()
    tool.reset(group="tool", policy_version=1)
    tool.act("")
    tool.act("   ")
    for _ in range(40):
        if tool.done:
            break
        tool.act("search[shoes]")
    after_end = tool.act("click[buy now]")
    steps = tool.env.state()["step_count"]
    tool.env.close()
    return {
        "episodes": len(rollout["env_reward"]),
        "rewards_are_floats": all(isinstance(r, float) for r in rollout["env_reward"]),
        "tool_done": tool.done,
        "tool_steps": steps,
        "tool_after_end": after_end,
        "run_id": example.RUN_ID,
    }


def verl(base: str) -> Dict[str, Any]:
    stub_verl()
    from verl_interaction import DreamGymInteraction

    interaction = DreamGymInteraction({"base_url": base, "domain": "shop", "mode": "real"})

    async def play() -> Dict[str, Any]:
        await interaction.start_interaction("a", group="g", policy_version=1)
        done, text, reward, info = await interaction.generate_response("a", [{"role": "assistant", "content": ""}])
        empty = {"done": done, "reward": reward, "valid": info["valid"]}
        turns = 0
        while not done and turns < 30:
            actions = text.split("\nAvailable actions: ", 1)[1].split(", ") if "\nAvailable actions: " in text else []
            content = f"Thought: go on.\n{pick(interaction.first_observations['a'], [a for a in actions if a], turns)}"
            done, text, reward, info = await interaction.generate_response("a", [{"role": "assistant", "content": content}])
            turns += 1
        after = await interaction.generate_response("a", [{"role": "assistant", "content": "click[buy now]"}])
        await interaction.finalize_interaction("a")
        # One left unfinished: finalize frees its slot on the server.
        await interaction.start_interaction("b", group="g2", policy_version=1)
        await interaction.generate_response("b", [{"role": "assistant", "content": None}])
        episode_b = interaction.envs["b"].episode_id
        await interaction.finalize_interaction("b")
        return {"empty": empty, "done": done, "after_end": list(after[:3]), "unfinished": episode_b}

    return asyncio.run(play())


def verl_agent(base: str, run_id: str) -> Dict[str, Any]:
    from verl_agent_env_manager import DreamGymEnvironmentManager, DreamGymEnvs

    envs = DreamGymEnvs(base, batch_size=2, group_n=1, run_id=run_id, mode="real")
    manager = DreamGymEnvironmentManager(envs, projection_f=lambda actions: (actions, [True] * len(actions)))
    observations, _ = manager.reset()
    steps, first_done_at, finished_rewards = 0, None, []
    dones = [False, False]
    while not all(dones) and steps < 40:
        # Slot 0's model never answers with an action; slot 1 plays (and ends first).
        observation = envs.last[1]["observation"]
        texts = ["" if steps % 2 else None, pick(observation["instruction"], observation["available_actions"], steps)]
        observations, rewards, dones, infos = manager.step(texts)
        steps += 1
        if dones[1] and first_done_at is None:
            first_done_at = steps
        elif dones[1]:
            finished_rewards.append(rewards[1])
    extra = manager.step(["", ""])  # every slot finished: nothing is played
    manager.close()
    return {
        "steps": steps,
        "slot1_done_at": first_done_at,
        "finished_rewards": finished_rewards,
        "after_all_done": {"rewards": extra[1], "dones": extra[2]},
    }


def main() -> None:
    base = sys.argv[1].rstrip("/")
    os.environ["DREAMGYM_ENV_URL"] = base
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "examples"))
    out: Dict[str, Any] = {"trl": trl(base)}
    out["verl"] = verl(base)
    out["verl_agent"] = verl_agent(base, out["trl"]["run_id"])
    print(json.dumps(out))


if __name__ == "__main__":
    main()
