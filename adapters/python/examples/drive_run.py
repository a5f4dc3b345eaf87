"""A stand-in trainer: a few policy versions of GRPO groups played against DreamGym over WebSocket, with a
made-up loss posted per version. Watch the run's page while it runs.

    PYTHONPATH=adapters/python python3 adapters/python/examples/drive_run.py http://127.0.0.1:8300
"""

from __future__ import annotations

import random
import sys

from dreamgym_env import DreamGymEnv, DreamGymRuns


def main(base: str, versions: int = 5, groups: int = 4, group_size: int = 4) -> None:
    runs = DreamGymRuns(base)
    run_id = runs.create(name="scripted trainer", domain="shop", method="dreamgym")
    print(f"run {run_id}")
    rng = random.Random(0)
    with DreamGymEnv(base, run_id=run_id) as env:
        for version in range(1, versions + 1):
            for g in range(groups):
                for _ in range(group_size):
                    reply = env.reset(group=f"v{version}-g{g}", policy_version=version)
                    while not reply["done"]:
                        actions = reply["observation"]["available_actions"]
                        if any(a.startswith("search[") for a in actions):
                            action = "search[" + " ".join(reply["observation"]["instruction"].split()[:6]) + "]"
                        else:
                            action = rng.choice(actions)
                        reply = env.step(action, logprob=-1.0, tokens=8)
            runs.log_metrics(run_id, version, loss=1.0 / version, kl=0.01 * version)
    runs.finish(run_id)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8300")
