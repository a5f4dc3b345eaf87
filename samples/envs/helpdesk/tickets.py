"""Helpdesk tickets, each generated from its task number.

Every fact of a ticket (the customer, their orders, what went wrong, and
so what the support policy asks for) comes from a small seeded generator
of our own, so task n is the same ticket on every machine and Python
version. Task numbers are any integers >= 0; DreamGym's defaults use
0-999 for training and 1000-1099 for test.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

MASK64 = (1 << 64) - 1

REFUND_WINDOW_DAYS = {"standard": 30, "gold": 60}
TRANSIT_PATIENCE_DAYS = 10

POLICY_TOPICS = ("refund", "replacement", "cancellation", "billing")
POLICY_TEXT = {
    "refund": (
        "Damaged items are refunded within the refund window, counted "
        "from delivery: 30 days for standard customers, 60 days for gold "
        "customers. Past the window, send a replacement instead. Accounts "
        "under fraud review get no refund or replacement: "
        "escalate[fraud]."
    ),
    "replacement": (
        "Send a replacement for a damaged item past the refund window, "
        "and for a parcel the carrier reports lost or that has been in "
        "transit for more than 10 days. A parcel in transit for 10 days "
        "or less gets reply[shipping_update]. A parcel the carrier marks "
        "delivered that the customer did not get goes to escalate[claims]."
        " Accounts under fraud review: escalate[fraud]."
    ),
    "cancellation": (
        "Orders can be cancelled while they are processing. Once shipped "
        "they cannot be cancelled: send reply[return_instructions]."
    ),
    "billing": (
        "Two captured payments for one order are a duplicate charge: "
        "escalate[billing]. A captured payment beside a released "
        "authorization is a single charge: reply[charge_explained]."
    ),
}

TEMPLATES = (
    "refund_issued",
    "replacement_sent",
    "cancellation_confirmed",
    "shipping_update",
    "return_instructions",
    "charge_explained",
)
# Templates that announce an action: admissible only once it was taken.
ANNOUNCES = {
    "refund_issued": "refund",
    "replacement_sent": "replace",
    "cancellation_confirmed": "cancel",
}
TEAMS = ("billing", "fraud", "claims", "technical")

FIRST_NAMES = (
    "Ada", "Bruno", "Chiara", "Dmitri", "Elena", "Farid", "Greta", "Hugo",
    "Ines", "Jonas", "Keiko", "Liam", "Maya", "Nils", "Olga", "Pavel",
    "Quinn", "Rosa", "Sami", "Tara", "Umar", "Vera", "Wen", "Yusuf",
)
LAST_NAMES = (
    "Moreau", "Okafor", "Lindqvist", "Tanaka", "Silva", "Novak", "Haddad",
    "Fischer", "Kowalski", "Rossi", "Nguyen", "Brennan", "Petrov",
    "Alvarez", "Dubois", "Sato", "Jensen", "Mensah", "Costa", "Weber",
    "Ivanova", "Larsen", "Mbeki", "Ortega",
)
ITEMS = (
    ("ceramic table lamp", 8400), ("espresso machine", 21900),
    ("wool throw blanket", 5900), ("bluetooth speaker", 7450),
    ("cast iron skillet", 4200), ("standing desk mat", 3800),
    ("glass teapot", 2900), ("noise-cancelling headphones", 18900),
    ("hiking backpack", 11500), ("wall clock", 3350),
    ("chef's knife", 9600), ("desk organizer", 2450),
    ("yoga mat", 3100), ("electric kettle", 4800),
    ("bamboo cutting board", 2700), ("mechanical keyboard", 12900),
)

KINDS = (("damaged", 35), ("missing", 25), ("cancel", 20),
         ("double_charge", 20))
EPOCH = date(2024, 1, 1)


class Rng:
    """SplitMix64: a tiny PRNG whose stream depends only on its seed."""

    def __init__(self, *seed: int) -> None:
        state = 0x9E3779B97F4A7C15
        for part in seed:
            state = (state ^ (part & MASK64)) * 0xBF58476D1CE4E5B9 & MASK64
            state ^= state >> 31
        self._state = state

    def next_u64(self) -> int:
        self._state = (self._state + 0x9E3779B97F4A7C15) & MASK64
        z = self._state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """An integer in [0, n)."""
        return self.next_u64() % n

    def between(self, low: int, high: int) -> int:
        """An integer in [low, high]."""
        return low + self.below(high - low + 1)

    def chance(self, p: float) -> bool:
        return self.next_u64() < p * 2**64

    def choice(self, items):
        return items[self.below(len(items))]

    def weighted(self, pairs):
        """One of (value, weight) pairs, in proportion to its weight."""
        roll = self.below(sum(w for _, w in pairs))
        for value, weight in pairs:
            if roll < weight:
                return value
            roll -= weight
        raise AssertionError("unreachable")


@dataclass(frozen=True)
class Payment:
    id: str
    cents: int
    state: str  # "captured" or "authorization released"


@dataclass(frozen=True)
class Order:
    number: int
    item: str
    cents: int
    placed_on: date
    status: str  # processing | in_transit | lost | delivered
    shipped_on: date | None
    delivered_on: date | None
    payments: tuple[Payment, ...]


@dataclass(frozen=True)
class Customer:
    id: str
    name: str
    tier: str  # standard | gold
    account: str  # active | fraud_review
    since: date


@dataclass(frozen=True)
class Resolution:
    """What the support policy asks for on a ticket."""

    action: str | None  # e.g. "refund[4412]", "escalate[fraud]"
    reply: str | None  # the one template the customer must get
    why: str  # the facts and rule behind it, in a sentence


@dataclass(frozen=True)
class Ticket:
    number: int
    ticket_id: str
    today: date
    kind: str
    instruction: str
    customer: Customer
    orders: tuple[Order, ...]  # newest first
    target: int  # the number of the order the ticket is about
    names_order: bool  # whether the instruction gives that number
    resolution: Resolution

    def order(self, number: int) -> Order | None:
        return next((o for o in self.orders if o.number == number), None)

    @property
    def target_order(self) -> Order:
        return self.order(self.target)


def money(cents: int) -> str:
    return f"${cents // 100}.{cents % 100:02d}"


def ticket(number: int) -> Ticket:
    """Task `number`: the same ticket every time."""
    if number < 0:
        raise ValueError("task numbers start at 0")
    rng = Rng(0x4E1D, number)
    today = EPOCH + timedelta(days=rng.below(366))
    customer = _customer(rng, today)
    kind = rng.weighted(KINDS)
    numbers = _order_numbers(rng, 1 + rng.below(3))
    target = _target_order(rng, kind, numbers[0], today)
    older = tuple(
        _older_order(rng, n, target.placed_on) for n in numbers[1:]
    )
    orders = tuple(sorted((target,) + older, key=lambda o: o.placed_on,
                          reverse=True))
    names_order = rng.chance(0.7)
    ref = f"order {target.number}" if names_order else "their latest order"
    return Ticket(
        number=number,
        ticket_id=f"T-{10000 + number}",
        today=today,
        kind=kind,
        instruction=_instruction(rng, kind, customer.name, ref),
        customer=customer,
        orders=orders,
        target=target.number,
        names_order=names_order,
        resolution=_resolution(kind, customer, target, today),
    )


def _customer(rng: Rng, today: date) -> Customer:
    return Customer(
        id=f"C-{rng.between(10000, 99999)}",
        name=f"{rng.choice(FIRST_NAMES)} {rng.choice(LAST_NAMES)}",
        tier="gold" if rng.chance(0.35) else "standard",
        account="fraud_review" if rng.chance(0.1) else "active",
        since=today - timedelta(days=rng.between(200, 3000)),
    )


def _order_numbers(rng: Rng, count: int) -> list[int]:
    numbers: list[int] = []
    while len(numbers) < count:
        n = rng.between(1000, 9999)
        if n not in numbers:
            numbers.append(n)
    return numbers


def _payments(number: int, cents: int, duplicate: bool | None) -> tuple:
    first = Payment(f"P-{number}1", cents, "captured")
    if duplicate is None:
        return (first,)
    second_state = "captured" if duplicate else "authorization released"
    return (first, Payment(f"P-{number}2", cents, second_state))


def _target_order(rng: Rng, kind: str, number: int, today: date) -> Order:
    item, cents = rng.choice(ITEMS)
    if kind == "damaged":
        status = "delivered"
    elif kind == "missing":
        status = rng.weighted((("in_transit", 2), ("lost", 1),
                               ("delivered", 1)))
    elif kind == "cancel":
        status = rng.weighted((("processing", 5), ("in_transit", 3),
                               ("delivered", 2)))
    else:
        status = rng.weighted((("processing", 1), ("in_transit", 1),
                               ("delivered", 2)))
    shipped = delivered = None
    if status == "delivered":
        top = 90 if kind == "damaged" else 20
        delivered = today - timedelta(days=rng.between(1, top))
        shipped = delivered - timedelta(days=rng.between(2, 6))
        placed = shipped - timedelta(days=rng.between(0, 2))
    elif status in ("in_transit", "lost"):
        low = 8 if status == "lost" else 2
        shipped = today - timedelta(days=rng.between(low, 20))
        placed = shipped - timedelta(days=rng.between(0, 2))
    else:
        placed = today - timedelta(days=rng.between(0, 2))
    duplicate = rng.chance(0.5) if kind == "double_charge" else None
    return Order(number, item, cents, placed, status, shipped, delivered,
                 _payments(number, cents, duplicate))


def _older_order(rng: Rng, number: int, before: date) -> Order:
    item, cents = rng.choice(ITEMS)
    placed = before - timedelta(days=rng.between(10, 300))
    shipped = placed + timedelta(days=rng.between(0, 2))
    delivered = shipped + timedelta(days=rng.between(2, 6))
    return Order(number, item, cents, placed, "delivered", shipped,
                 delivered, _payments(number, cents, None))


INSTRUCTIONS = {
    "damaged": (
        "Customer {name} says {ref} arrived broken. Refund it if it is "
        "within the refund window, otherwise send a replacement; follow "
        "the support policy, reply to the customer and close the ticket.",
        "{name} reports that {ref} was damaged in delivery. Refund it if it "
        "is still within the refund window, otherwise send a replacement; "
        "follow the support policy, reply to the customer and close the "
        "ticket.",
    ),
    "missing": (
        "Customer {name} says {ref} never arrived. Find out where the "
        "parcel is and resolve it per the support policy: reply to the "
        "customer and close the ticket, or escalate it to the right team.",
        "{name} is still waiting for {ref}. Find out where the parcel is "
        "and resolve it per the support policy: reply to the customer and "
        "close the ticket, or escalate it to the right team.",
    ),
    "cancel": (
        "Customer {name} wants to cancel {ref}. Cancel it if it has not "
        "shipped, otherwise send return instructions; reply to the "
        "customer and close the ticket.",
        "{name} asks us to cancel {ref}. Cancel it if it has not shipped, "
        "otherwise send return instructions; reply to the customer and "
        "close the ticket.",
    ),
    "double_charge": (
        "Customer {name} says they were charged twice for {ref}. Check the "
        "payments and resolve it per the support policy: reply to the "
        "customer and close the ticket, or escalate it to the right team.",
        "{name} sees two charges for {ref} on their card statement. Check "
        "the payments and resolve it per the support policy: reply to the "
        "customer and close the ticket, or escalate it to the right team.",
    ),
}


def _instruction(rng: Rng, kind: str, name: str, ref: str) -> str:
    return rng.choice(INSTRUCTIONS[kind]).format(name=name, ref=ref)


def _resolution(kind: str, customer: Customer, order: Order,
                today: date) -> Resolution:
    n = order.number
    fraud = customer.account == "fraud_review"
    if kind == "damaged":
        age = (today - order.delivered_on).days
        window = REFUND_WINDOW_DAYS[customer.tier]
        facts = (f"order {n} was delivered {age} days ago and the "
                 f"{customer.tier} refund window is {window} days")
        if fraud:
            return Resolution("escalate[fraud]", None,
                              "the account is under fraud review")
        if age <= window:
            return Resolution(f"refund[{n}]", "refund_issued",
                              facts + ", so it is refunded")
        return Resolution(f"replace[{n}]", "replacement_sent",
                          facts + ", so it is replaced")
    if kind == "missing":
        return _missing_resolution(order, today, fraud)
    if kind == "cancel":
        if order.status == "processing":
            return Resolution(f"cancel[{n}]", "cancellation_confirmed",
                              f"order {n} is still processing")
        return Resolution(None, "return_instructions",
                          f"order {n} has shipped and cannot be cancelled")
    if order.payments[-1].state == "captured":
        return Resolution("escalate[billing]", None,
                          f"order {n} has two captured payments")
    return Resolution(None, "charge_explained",
                      f"order {n} has one captured payment and a released "
                      "authorization")


def _missing_resolution(order: Order, today: date,
                        fraud: bool) -> Resolution:
    n = order.number
    if order.status == "delivered":
        return Resolution("escalate[claims]", None,
                          f"the carrier marks order {n} delivered")
    days = (today - order.shipped_on).days
    if order.status == "in_transit" and days <= TRANSIT_PATIENCE_DAYS:
        return Resolution(None, "shipping_update",
                          f"order {n} shipped {days} days ago and is in "
                          "transit")
    facts = (f"order {n} is reported lost" if order.status == "lost"
             else f"order {n} has been in transit for {days} days")
    if fraud:
        return Resolution("escalate[fraud]", None,
                          facts + " and the account is under fraud review")
    return Resolution(f"replace[{n}]", "replacement_sent",
                      facts + ", so it is replaced")
