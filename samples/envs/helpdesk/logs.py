"""Writes trajectories of the reference policies in DreamGym's import format.

    python3 logs.py --episodes 300 --out helpdesk.jsonl [--seed 0]

One JSON object per line (README "Importing trajectories"): domain
"helpdesk", the ticket's instruction, task_id "helpdesk:<split>:<index>"
(the id DreamGym gives the task when the server is registered as a remote
domain named helpdesk, so that the logs and the live environment share
their tasks), the split, source "offline", the policy's name, and every step with its
observation, available actions, action, the expert's reasoning, the next
observation, reward, done, success and valid. One episode in five is on
a test task (numbers 1000-1099), the others on train tasks (0-999), the
same numbers DreamGym's remote domains use by default. Policies: expert
(half the episodes), noisy-0.3 (35%) and random (15%).
"""

from __future__ import annotations

import argparse
import json
import sys

from episode import Episode
from policies import play
from tickets import Rng, ticket

DOMAIN = "helpdesk"
TRAIN = range(0, 1000)
TEST = range(1000, 1100)
TEST_EVERY = 5
POLICY_SHARES = (("expert", 50), ("noisy-0.3", 35), ("random", 15))


def task_id(number: int, split: str) -> str:
    """The task's id as a remote domain of this name calls it: split, index."""
    first = TEST.start if split == "test" else TRAIN.start
    return f"{DOMAIN}:{split}:{number - first}"


def trajectory(number: int, split: str, policy: str, seed: int) -> dict:
    episode = Episode(ticket(number))
    steps = []
    for choice, (state, actions), result in play(episode, policy, seed):
        step = {"state": state, "admissible_actions": actions,
                "action": choice.action}
        if choice.reasoning:
            step["reasoning"] = choice.reasoning
        step.update(next_state=result.observation, reward=result.reward,
                    done=result.done, valid=result.valid)
        if result.done:
            step["success"] = result.reward >= 1.0
        steps.append(step)
    return {"domain": DOMAIN, "instruction": episode.ticket.instruction,
            "task_id": task_id(number, split), "split": split,
            "source": "offline", "policy": policy, "steps": steps}


def episodes(count: int, seed: int):
    """(task number, split, policy) of each episode, the same for a seed."""
    rng = Rng(seed, 0x1065)
    train, test = iter(_cycle(TRAIN)), iter(_cycle(TEST))
    for i in range(count):
        split = "test" if i % TEST_EVERY == TEST_EVERY - 1 else "train"
        number = next(test if split == "test" else train)
        yield number, split, rng.weighted(POLICY_SHARES)


def _cycle(numbers: range):
    while True:
        yield from numbers


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=300)
    parser.add_argument("--out", required=True, help="the JSONL file")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    with open(args.out, "w", encoding="utf-8") as out:
        for number, split, policy in episodes(args.episodes, args.seed):
            line = trajectory(number, split, policy, args.seed)
            out.write(json.dumps(line, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
