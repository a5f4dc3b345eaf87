"""One agent working one ticket: the tools, what they answer, the scoring.

Rules in brief:
- An action is valid exactly when it is in the available actions
  (tool names and arguments are matched ignoring case and extra spaces).
  Anything else answers "Nothing happens. <why>" and changes nothing.
- refund, replace and cancel are irreversible: the one the support policy
  asks for is recorded; any other ends the episode with reward 0.0.
- escalate[team] hands the ticket over and ends the episode: 1.0 when the
  policy asks for that team, else 0.0.
- close_ticket ends the episode: 1.0 when the policy's action was taken
  (or none was needed) and the customer got exactly the policy's reply
  template; 0.25 (partial credit) when the policy's refund, replacement
  or cancellation was made but the replies were missing or wrong; else 0.
- After MAX_STEPS steps without an end, the episode ends with 0.0.
Every observation is a function of the task number and the actions.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from tickets import (ANNOUNCES, POLICY_TEXT, POLICY_TOPICS, TEAMS,
                     TEMPLATES, Order, Ticket, money)

MAX_STEPS = 15
PARTIAL_CREDIT = 0.25
NOTHING_HAPPENS = "Nothing happens."
IRREVERSIBLE = ("refund", "replace", "cancel")
TOOLS = ("lookup_customer", "lookup_order", "check_policy", "refund",
         "replace", "cancel", "reply", "escalate", "close_ticket")
ACTION = re.compile(r"^([A-Za-z_]+)\s*(?:\[(.*)\])?$", re.DOTALL)

REPLY_TEXT = {
    "refund_issued": "We have refunded {total} for order {order}; it "
                     "reaches your card in 3-5 business days.",
    "replacement_sent": "A replacement for order {order} is on its way.",
    "cancellation_confirmed": "Order {order} is cancelled and you will "
                              "not be charged.",
    "shipping_update": "Order {order} is with the carrier and on its way.",
    "return_instructions": "Order {order} has shipped; here is how to "
                           "return it for a refund once it arrives.",
    "charge_explained": "You were charged once for order {order}; the "
                        "second line is an authorization that was "
                        "released.",
}


@dataclass(frozen=True)
class StepResult:
    observation: str
    reward: float
    done: bool
    valid: bool


def canonical(action: str) -> tuple[str, str | None] | None:
    """(tool, argument) of `tool[argument]` or `tool`; None if neither."""
    match = ACTION.match(" ".join(action.split()))
    if match is None:
        return None
    arg = match.group(2)
    return match.group(1).lower(), None if arg is None else arg.strip()


def spell(tool: str, arg: str | None) -> str:
    return tool if arg is None else f"{tool}[{arg}]"


class Episode:
    """The state of one ticket being worked, from its first observation."""

    def __init__(self, ticket: Ticket, max_steps: int = MAX_STEPS) -> None:
        self.ticket = ticket
        self.max_steps = max_steps
        self.steps = 0
        self.done = False
        self.reward = 0.0
        self.customer_seen = False
        self.orders_seen: list[int] = []
        self.policies_seen: list[str] = []
        self.resolution: str | None = None  # the irreversible action taken
        self.replies: list[str] = []
        self.observation = self._first_observation()

    # What the agent can do.

    def known_orders(self) -> list[int]:
        """Order numbers the agent has been told: the ticket's, if it names
        it, and the customer's once looked up."""
        if self.customer_seen:
            return [o.number for o in self.ticket.orders]
        return [self.ticket.target] if self.ticket.names_order else []

    def available_actions(self) -> list[str]:
        if self.done:
            return []
        orders = self.known_orders()
        actions = [f"lookup_customer[{self.ticket.customer.name}]"]
        actions += [f"lookup_order[{n}]" for n in orders]
        actions += [f"check_policy[{t}]" for t in POLICY_TOPICS]
        if self.resolution is None:
            actions += [f"{tool}[{n}]" for tool in IRREVERSIBLE
                        for n in orders]
        actions += [f"reply[{t}]" for t in TEMPLATES
                    if self._may_send(t)]
        actions += [f"escalate[{team}]" for team in TEAMS]
        actions.append("close_ticket")
        return actions

    def _may_send(self, template: str) -> bool:
        needs = ANNOUNCES.get(template)
        return needs is None or (self.resolution or "").startswith(
            needs + "[")

    # Acting.

    def step(self, action: str) -> StepResult:
        if self.done:
            raise RuntimeError("the episode has ended")
        self.steps += 1
        parsed = canonical(action) if isinstance(action, str) else None
        chosen = None
        if parsed is not None:
            wanted = spell(*parsed).lower()
            chosen = next((a for a in self.available_actions()
                           if a.lower() == wanted), None)
        if chosen is None:
            text, reward, valid = self._refusal(action, parsed), 0.0, False
        else:
            text, reward = self._execute(*canonical(chosen))
            valid = True
        if not self.done and self.steps >= self.max_steps:
            self.done = True
            text += (f"\nThe ticket timed out after {self.max_steps} "
                     "steps: no credit.")
        self.reward = reward
        self.observation = self._with_actions(text)
        return StepResult(self.observation, reward, self.done, valid)

    def _execute(self, tool: str, arg: str | None) -> tuple[str, float]:
        t = self.ticket
        if tool == "lookup_customer":
            self.customer_seen = True
            return self._customer_record(), 0.0
        if tool == "lookup_order":
            order = t.order(int(arg))
            if order.number not in self.orders_seen:
                self.orders_seen.append(order.number)
            return self._order_record(order), 0.0
        if tool == "check_policy":
            if arg not in self.policies_seen:
                self.policies_seen.append(arg)
            return f"Policy on {arg}: {POLICY_TEXT[arg]}", 0.0
        if tool in IRREVERSIBLE:
            return self._irreversible(tool, t.order(int(arg)))
        if tool == "reply":
            self.replies.append(arg)
            text = REPLY_TEXT[arg].format(
                order=t.target, total=money(t.target_order.cents))
            return (f"Reply sent to {t.customer.name} (template {arg}): "
                    f'"{text}"'), 0.0
        if tool == "escalate":
            return self._escalate(arg)
        return self._close()

    def _irreversible(self, tool: str, order: Order) -> tuple[str, float]:
        n = order.number
        if tool == "cancel" and order.status != "processing":
            return _tool_error(f"order {n} has shipped; it can no longer "
                               "be cancelled"), 0.0
        if tool == "replace" and order.status == "processing":
            return _tool_error(f"order {n} has not shipped; there is "
                               "nothing to replace"), 0.0
        done_text = {
            "refund": f"Refund of {money(order.cents)} issued for order {n}"
                      " to the original payment method.",
            "replace": f"Replacement for order {n} ({order.item}) created;"
                       f" it ships as order {n}-R.",
            "cancel": f"Order {n} cancelled; the payment of "
                      f"{money(order.cents)} is released.",
        }[tool]
        action = f"{tool}[{n}]"
        if action == self.ticket.resolution.action:
            self.resolution = action
            return done_text, 0.0
        return self._end(done_text, f"{action} broke the support policy: "
                         f"{self._expected()}.", 0.0)

    def _escalate(self, team: str) -> tuple[str, float]:
        text = f"Ticket {self.ticket.ticket_id} handed to the {team} team."
        if f"escalate[{team}]" == self.ticket.resolution.action:
            return self._end(text, "the right team: "
                             f"{self.ticket.resolution.why}.", 1.0)
        return self._end(text, f"wrong hand-over: {self._expected()}.", 0.0)

    def _close(self) -> tuple[str, float]:
        res = self.ticket.resolution
        text = f"Ticket {self.ticket.ticket_id} closed."
        action_right = (res.action is None and self.resolution is None) or (
            res.action == self.resolution and res.action is not None)
        replies_right = set(self.replies) == {res.reply}
        if action_right and replies_right:
            return self._end(text, "resolved per the support policy: "
                             f"{res.why}.", 1.0)
        if action_right and self.resolution is not None:
            return self._end(
                text, "the right action, but the customer was not sent "
                f"exactly reply[{res.reply}]: partial credit "
                f"{PARTIAL_CREDIT}.", PARTIAL_CREDIT)
        return self._end(text, f"not resolved: {self._expected()}.", 0.0)

    def _expected(self) -> str:
        res = self.ticket.resolution
        steps = [s for s in (res.action, res.reply and f"reply[{res.reply}]")
                 if s]
        return f"{res.why}; the policy asks for {' then '.join(steps)}"

    def _end(self, text: str, review: str,
             reward: float) -> tuple[str, float]:
        self.done = True
        return f"{text}\nQA review: {review}", reward

    # Refusals: why an action that is not available does nothing.

    def _refusal(self, action, parsed) -> str:
        return f"{NOTHING_HAPPENS} {self._why_refused(action, parsed)}"

    def _why_refused(self, action, parsed) -> str:
        if not isinstance(action, str) or not action.strip():
            return "The action is empty."
        if parsed is None:
            return ("That is not a tool call: write tool[argument], e.g. "
                    "lookup_order[<number>], or close_ticket.")
        tool, arg = parsed
        if tool not in TOOLS:
            return f'There is no tool "{tool}".'
        if (tool == "close_ticket") != (arg is None):
            return (f"{tool} takes no argument." if arg is not None
                    else f"{tool} needs an argument: {tool}[...].")
        return _why_not(self, tool, arg)

    # Text.

    def _first_observation(self) -> str:
        t = self.ticket
        lines = [
            f"Ticket: {t.instruction}",
            f"Ticket {t.ticket_id}, opened {t.today.isoformat()} (today).",
            "Tools: lookup_customer[name], lookup_order[number], "
            "check_policy[topic], refund[order], replace[order], "
            "cancel[order], reply[template], escalate[team] (hands the "
            "ticket over and ends it), close_ticket.",
            f"Policy topics: {', '.join(POLICY_TOPICS)}.",
            f"Reply templates: {', '.join(TEMPLATES)}.",
            f"Teams: {', '.join(TEAMS)}.",
        ]
        return self._with_actions("\n".join(lines))

    def _with_actions(self, text: str) -> str:
        if self.done:
            return text
        listed = json.dumps(self.available_actions())
        return f"{text}\nAvailable actions: {listed}"

    def _customer_record(self) -> str:
        c = self.ticket.customer
        record = {
            "customer_id": c.id, "name": c.name, "tier": c.tier,
            "account": c.account, "customer_since": c.since.isoformat(),
            "orders": [{"order": o.number,
                        "placed_on": o.placed_on.isoformat()}
                       for o in self.ticket.orders],
        }
        return f"Customer record: {json.dumps(record)}"

    def _order_record(self, order: Order) -> str:
        today = self.ticket.today
        record = {
            "order": order.number, "customer_id": self.ticket.customer.id,
            "item": order.item, "total": money(order.cents),
            "placed_on": order.placed_on.isoformat(),
            "status": order.status,
        }
        if order.shipped_on is not None:
            record["shipped_on"] = order.shipped_on.isoformat()
            if order.delivered_on is None:
                record["days_since_shipping"] = (
                    today - order.shipped_on).days
        if order.delivered_on is not None:
            record["delivered_on"] = order.delivered_on.isoformat()
            record["days_since_delivery"] = (
                today - order.delivered_on).days
        record["payments"] = [{"id": p.id, "amount": money(p.cents),
                               "state": p.state} for p in order.payments]
        return f"Order record: {json.dumps(record)}"


def _tool_error(message: str) -> str:
    return f"Tool error: {json.dumps({'error': message})}"


def _why_not(episode: Episode, tool: str, arg: str) -> str:
    """Why tool[arg], a well-formed call, is not available here."""
    choices = {"check_policy": ("topic", POLICY_TOPICS),
               "reply": ("template", TEMPLATES),
               "escalate": ("team", TEAMS)}
    if tool in choices:
        noun, names = choices[tool]
        if arg.lower() not in names:
            return (f'There is no {noun} "{arg}"; {noun}s: '
                    f"{', '.join(names)}.")
        needs = ANNOUNCES[arg.lower()]
        return (f"reply[{arg.lower()}] announces a {needs} action that "
                "was not taken on this ticket.")
    if tool == "lookup_customer":
        return f'No customer named "{arg}" on this ticket.'
    known = [str(n) for n in episode.known_orders()]
    if arg not in known:
        return (f'Order "{arg}" is not known on this ticket (look the '
                "customer up to see their orders).")
    return (f"This ticket already has its resolution ({episode.resolution})"
            "; refund, replace and cancel are no longer available.")
