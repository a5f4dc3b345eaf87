"""Plays every kind of episode against a running DreamGym environment server and prints one JSON line of what
happened (episode ids, steps, error codes), for the server's integration test and as a smoke test:

    python3 adapters/python/selftest.py http://127.0.0.1:8300 [--idle-seconds 2] [--max-sessions 4]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
import urllib.request

from dreamgym_env import DreamGymEnv, DreamGymError, DreamGymHttpEnv, DreamGymRuns


def choose(observation: dict, step: int) -> str:
    """A simple scripted agent: search for the instruction in the shop, else the first listed action."""
    actions = observation["available_actions"]
    if any(a.startswith("search[") for a in actions):
        words = re.sub(r"[^a-z0-9 ]", " ", observation["instruction"].lower()).split()
        return f"search[{' '.join(words[:6])}]"
    clicks = [a for a in actions if a.startswith("click[") and "back" not in a.lower() and "prev" not in a.lower()]
    if clicks:
        return clicks[min(step, len(clicks) - 1)] if step < 2 else clicks[-1]
    return actions[step % len(actions)] if actions else "look"


def play(env, **reset) -> dict:
    reply = env.reset(**reset)
    episode_id = reply["metadata"]["episode_id"]
    steps, synthetic = 0, 0
    while not reply["done"]:
        reply = env.step(choose(reply["observation"], steps), logprob=-0.5 - steps / 10, tokens=7)
        steps += 1
        if "synthetic" in reply["observation"]:
            synthetic += 1
    return {"episode_id": episode_id, "steps": steps, "synthetic_steps": synthetic, "reward": reply["reward"]}


def code_of(call) -> str:
    try:
        call()
    except DreamGymError as err:
        return err.code
    except OSError as err:  # ConnectionError included: the server closed the session
        return f"closed: {err}"
    return "no error"


def post(base: str, path: str, body: object) -> object:
    req = urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST", headers={"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=60) as res:
        return json.loads(res.read())


def get(base: str, path: str) -> object:
    with urllib.request.urlopen(base + path, timeout=60) as res:
        return json.loads(res.read())


def agentgym_webshop(base: str, mode: str, run_id: str) -> dict:
    root = f"{base}/agentgym/webshop/{mode}/{run_id}"
    env_idx = post(root, "/create", {})
    post(root, "/reset", {"env_idx": env_idx, "session_id": 3})
    observation = get(root, f"/observation?env_idx={env_idx}")
    steps, done, reward = 0, False, 0.0
    while not done:
        available = get(root, f"/available_actions?env_idx={env_idx}")
        if available["has_search_bar"]:
            instruction = get(root, f"/instruction_text?env_idx={env_idx}")
            words = re.sub(r"[^a-z0-9 ]", " ", instruction.lower().replace("instruction:", "")).split()
            action = f"search[{' '.join(words[:6])}]"
        else:
            clicks = [c for c in available["clickables"] if "back" not in c.lower() and "prev" not in c.lower()]
            action = f"click[{clicks[min(steps, len(clicks) - 1)] if steps < 2 else clicks[-1]}]"
        out = post(root, "/step", {"env_idx": env_idx, "action": action})
        steps, done, reward = steps + 1, out["done"], out["reward"]
        assert set(out) == {"state", "reward", "done", "info"}, out
    state = get(f"{base}/agentgym/webshop/{mode}/{run_id}", f"/state?env_idx={env_idx}")
    post(root, "/close", {"env_idx": env_idx})
    return {"steps": steps, "reward": reward, "first_observation": observation[:40], "state_keys": sorted(state)}


def agentgym_alfworld(base: str, mode: str, run_id: str) -> dict:
    root = f"{base}/agentgym/alfworld/{mode}/{run_id}"
    created = post(root, "/create", {})
    env_id = created["id"]
    reset = post(root, "/reset", {"id": env_id, "game": 2, "world_type": "Text"})
    assert set(reset) == {"id", "observation", "available_actions", "task_type"}, reset
    steps, done, reward = 0, False, 0.0
    while not done:
        actions = get(root, f"/available_actions?id={env_id}")
        out = post(root, "/step", {"id": env_id, "action": actions[steps % len(actions)]})
        assert set(out) == {"observation", "reward", "available_actions", "done"}, out
        steps, done, reward = steps + 1, out["done"], out["reward"]
    # AgentGym's ALFWorld answers a step after the end with 200 and {"error": ...}, as its wrapper does.
    after = post(root, "/step", {"id": env_id, "action": "look"}).get("error", "no error")
    post(root, "/close", {"id": env_id})
    return {"steps": steps, "reward": reward, "step_after_done": after}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("base")
    parser.add_argument("--idle-seconds", type=float, default=2)
    parser.add_argument("--max-sessions", type=int, default=4)
    args = parser.parse_args()
    base = args.base.rstrip("/")
    out: dict = {"episodes": [], "errors": {}}

    runs = DreamGymRuns(base)
    run_ids = {domain: runs.create(name=f"selftest {domain}", domain=domain) for domain in ("shop", "household")}
    out["runs"] = run_ids

    for domain, run_id in run_ids.items():
        for mode in ("real", "synthetic"):
            with DreamGymEnv(base, run_id=run_id, mode=mode) as env:
                out["episodes"].append({"transport": "ws", "domain": domain, "mode": mode, **play(env, group=f"{mode}-g0", policy_version=1)})
                # The same group gets the same task: a GRPO group.
                second = env.reset(group=f"{mode}-g0", policy_version=1)
                out["episodes"].append({"transport": "ws-group", "domain": domain, "mode": mode, "episode_id": second["metadata"]["episode_id"], "task_id": second["metadata"]["task_id"], "first_task": out["episodes"][-1]["episode_id"]})
            http_env = DreamGymHttpEnv(base, run_id=run_id, mode=mode)
            out["episodes"].append({"transport": "http", "domain": domain, "mode": mode, **play(http_env, seed=5, policy_version=2)})
            out["episodes"][-1]["state"] = http_env.state()
        runs.log_metrics(run_id, 1, loss=0.42, kl=0.013)
        runs.log_metrics(run_id, 2, loss=0.31, kl=0.02)

    out["agentgym"] = {
        "webshop": agentgym_webshop(base, "real", run_ids["shop"]),
        "webshop_synthetic": agentgym_webshop(base, "synthetic", run_ids["shop"]),
        "alfworld": agentgym_alfworld(base, "real", run_ids["household"]),
    }

    errors = out["errors"]
    with DreamGymEnv(base, run_id=run_ids["shop"]) as env:
        errors["step_before_reset"] = code_of(lambda: env.step("click[Buy Now]"))
        env.reset(seed=1)
        # An LLM reply with no action is an invalid action, not an error: the step counts, the state stays.
        empty = env.step("   ")
        errors["empty_action"] = {"valid": empty["observation"]["valid"], "reward": empty["reward"], "step": empty["observation"]["step"]}
        errors["unknown_task"] = code_of(lambda: env.reset(task_id="shop:train:x"))
        errors["unknown_run"] = code_of(lambda: env.reset(run_id="no-such-run"))
        env.ws.send({"type": "jump"})
        errors["unknown_type"] = env.ws.recv()["data"]["code"]
        env.ws._send_frame(0x1, b"{not json")
        errors["invalid_json"] = env.ws.recv()["data"]["code"]
        state = env.state()
        errors["state_after_errors"] = state["step_count"]  # the empty action's step only
    http_env = DreamGymHttpEnv(base, run_id=run_ids["household"], mode="real")
    http_env.episode_id = "never-reset"
    errors["unknown_episode"] = code_of(lambda: http_env.step("look"))
    done = play(http_env, seed=0)
    errors["step_after_done"] = code_of(lambda: http_env.step("look"))
    out["episodes"].append({"transport": "http", "domain": "household", "mode": "real", **done})

    # The capacity: every slot taken, one more session is refused.
    held = [DreamGymEnv(base, run_id=run_ids["shop"], mode="real") for _ in range(args.max_sessions)]
    errors["capacity"] = code_of(lambda: DreamGymEnv(base, run_id=run_ids["shop"]).reset())
    errors["capacity_http"] = code_of(lambda: DreamGymHttpEnv(base, run_id=run_ids["shop"]).reset())
    for env in held:
        env.close()
    time.sleep(0.3)

    # A client that vanishes mid-episode (no close message, the socket just goes): the episode is abandoned.
    vanished = DreamGymEnv(base, run_id=run_ids["shop"], mode="synthetic")
    reply = vanished.reset(seed=2)
    vanished.step(choose(reply["observation"], 0))
    vanished.ws.sock.close()
    out["vanished"] = reply["metadata"]["episode_id"]

    # The idle timeout frees a session and abandons its episode.
    idle_ws = DreamGymEnv(base, run_id=run_ids["household"], mode="synthetic")
    reply = idle_ws.reset(seed=4)
    idle_ws.step(reply["observation"]["available_actions"][0])
    idle_http = DreamGymHttpEnv(base, run_id=run_ids["household"], mode="real")
    idle_http.reset(seed=4)
    time.sleep(args.idle_seconds * 2.5)
    errors["idle_ws"] = code_of(lambda: idle_ws.step("look"))
    errors["idle_http"] = code_of(lambda: idle_http.step("look"))
    out["idle"] = [reply["metadata"]["episode_id"], idle_http.episode_id]

    print(json.dumps(out))


if __name__ == "__main__":
    sys.exit(main())
