"""Reference policies: an expert, a noisy expert and a random agent.

A policy maps an Episode (which holds the hidden ticket) to a Choice. The
expert reads the hidden facts but still looks them up first, as a support
agent would, so its trajectories show the tool calls that reveal them.
"""

from __future__ import annotations

from dataclasses import dataclass

from episode import Episode
from tickets import REFUND_WINDOW_DAYS, Rng

# Actions a careless agent types that are never available.
DECOYS = ("help", "refund", "reply[sorry]", "lookup_order[0]",
          "escalate[manager]", "close ticket")
DECOY_SHARE = 0.1
POLICY_TOPIC = {"damaged": "refund", "missing": "replacement",
                "cancel": "cancellation", "double_charge": "billing"}


@dataclass(frozen=True)
class Choice:
    action: str
    reasoning: str | None = None


def expert(episode: Episode) -> Choice:
    """The policy's answer, after looking up the customer and the order
    (and, on every third ticket, reading the policy first)."""
    t = episode.ticket
    res = t.resolution
    if not episode.customer_seen:
        return Choice(f"lookup_customer[{t.customer.name}]",
                      _why_customer(episode))
    if t.target not in episode.orders_seen:
        return Choice(f"lookup_order[{t.target}]", _why_order(episode))
    topic = POLICY_TOPIC[t.kind]
    if t.number % 3 == 0 and topic not in episode.policies_seen:
        return Choice(f"check_policy[{topic}]",
                      f"Read the {topic} policy before acting on order "
                      f"{t.target}.")
    if res.action is not None and episode.resolution is None:
        return Choice(res.action, f"The policy applies: {res.why}.")
    if res.reply is not None and res.reply not in episode.replies:
        return Choice(f"reply[{res.reply}]",
                      f"Tell {t.customer.name} with reply[{res.reply}]: "
                      f"{res.why}.")
    return Choice("close_ticket", "The ticket is resolved; close it.")


def random_policy(episode: Episode, rng: Rng) -> Choice:
    """Uniform over the available actions; now and then an action that is
    never available (DECOY_SHARE of the time)."""
    if rng.chance(DECOY_SHARE):
        return Choice(rng.choice(DECOYS))
    return Choice(rng.choice(episode.available_actions()))


def noisy(episode: Episode, rng: Rng, epsilon: float) -> Choice:
    """The expert, but a random action with probability epsilon."""
    if rng.chance(epsilon):
        return random_policy(episode, rng)
    return expert(episode)


def _why_customer(episode: Episode) -> str:
    t = episode.ticket
    where = (f"order {t.target}" if t.names_order
             else "which order is their latest")
    return (f"Look up {t.customer.name} first: their tier and account "
            f"status decide what the policy allows, and the record shows "
            f"{where}.")


def _why_order(episode: Episode) -> str:
    t = episode.ticket
    c = t.customer
    facts = f"{c.name} is a {c.tier} customer"
    if c.account != "active":
        facts += " whose account is under fraud review"
    if t.kind == "damaged":
        facts += (f" ({REFUND_WINDOW_DAYS[c.tier]}-day refund window)")
    latest = "" if t.names_order else f" (their latest, order {t.target})"
    return (f"{facts}. Look up the order{latest} to see its status, dates "
            "and payments.")


POLICIES = {
    "expert": lambda episode, rng: expert(episode),
    "noisy-0.3": lambda episode, rng: noisy(episode, rng, 0.3),
    "random": random_policy,
}


def play(episode: Episode, policy_name: str, seed: int = 0):
    """Plays a policy to the end in-process; yields (choice, before, result)
    with `before` the observation and actions the choice was made on."""
    policy = POLICIES[policy_name]
    rng = Rng(seed, episode.ticket.number, list(POLICIES).index(policy_name))
    while not episode.done:
        before = (episode.observation, episode.available_actions())
        choice = policy(episode, rng)
        yield choice, before, episode.step(choice.action)
