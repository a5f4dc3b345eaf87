import type { Observation } from "../../types";
import { literalPattern } from "../../util/regex";
import { actionParts, actionTemplate, normaliseAction } from "../admissible";
import { segmentsOf } from "../segments";

/**
 * What an action leaves as it was, learnt from the real transitions of the offline data: a labelled part of a page
 * ("holding: cup 1", "location: sofa 1") that a kind of action never changed. The model's next state keeps this
 * page's part where it does, whatever the analogue's page said: rewritten from a demonstration, walking to a table
 * left the agent holding the knife the demonstration's agent held (and offered to put it down).
 */

/** Transitions of a kind of action with the part on both pages before it counts as learnt. */
const MIN_TIMES = 20;
/** The share of those in which the part stayed as it was. */
const KEPT_SHARE = 0.99;

/** A part's label: a few words before a colon at its start ("[location: sofa 1" → "location"). */
const LABEL = /^[^a-z0-9]*([a-z][a-z ]{0,30}?)\s*:/i;

/**
 * A page's segments (segments.ts), each cut again at any mark standing alone between spaces: a status line of two
 * parts ("[location: sofa 1 | holding: nothing]") shows its mark once, too few for segments.ts to take it for the
 * page's separator.
 */
function parts(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const segment of segmentsOf(text).flatMap((s) => s.split(/\s+[^\sa-z0-9]+\s+/i))) {
    const label = LABEL.exec(segment.trim())?.[1]?.toLowerCase();
    // A label twice on a page names no one part.
    if (label !== undefined) out.set(label, out.has(label) ? "" : segment.trim());
  }
  return out;
}

/**
 * The labelled parts of a page ("location: sofa 1", "holding: cup 1"): where pages do not tell all of the state,
 * what the agent has and where it is, as against what happens to be in view.
 */
export function labelledParts(text: string): string[] {
  return [...parts(text).values()].filter((part) => part !== "");
}

/** A page's labelled parts by label, each as the class of what it says ("holding" → "cup" of "holding: cup 1]"). */
export function frameOf(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const [label, part] of parts(text)) if (part !== "") out.set(label, valueClass(part));
  return out;
}

/** What a part says after its label, without the marks around it: "cup 1" of "holding: cup 1]". */
function partValue(part: string): string {
  return part
    .replace(LABEL, "")
    .replace(/^[^a-z0-9]+|[^a-z0-9]+$/gi, "")
    .trim()
    .toLowerCase();
}

/**
 * The actions a page offers once a part it keeps says `ours` where the analogue's said `theirs`: an action on
 * theirs acts on ours instead where this page acts on ours at all, and is no action where it does not (carrying
 * nothing, there is no "put knife 1 on the table").
 */
function offered(
  actions: readonly string[],
  theirs: string,
  ours: string,
  current: readonly string[],
): string[] {
  const acted = ours !== "" && current.some((a) => a.toLowerCase().includes(ours));
  return actions.flatMap((a) => {
    const lower = a.toLowerCase();
    if (theirs !== "" && theirs !== ours && lower.includes(theirs))
      return acted ? [a.replace(new RegExp(literalPattern(theirs), "i"), ours)] : [];
    return [a];
  });
}

/** A page's actions grouped by their kind ("go to *"), in the page's order. */
function offersByKind(page: Observation): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const a of page.actions ?? []) {
    const offer = actionTemplate(a, page);
    const list = out.get(offer) ?? [];
    list.push(a);
    out.set(offer, list);
  }
  return out;
}

export type FramesData = [key: string, counts: { times: number; kept: number }][];

/** Real pages' offers, all kinds together, before a kind no real page offered is taken for no action. */
const MIN_OFFERS = 200;
/** Offers of a class of argument fewer than this are rare; a position where rare ones are at most RARE_SHARE is closed. */
const RARE_TIMES = 5;
const RARE_SHARE = 0.01;
/** Counts of the real pages' offers (`times`), kept in the same table: by kind, and by kind, position and class. */
const OFFER = "\u0003";
/** Counts of what a labelled part said on the real pages that offered a kind (`times`): by kind and label, and value. */
const OFFERED_WITH = "\u0004";
/** Counts of what a labelled part said after a kind of action (`times`): by kind and label, and value. */
const SAID_AFTER = "\u0005";
/** Counts of real pages after a kind of action on a class of place in a frame (`times`), and of each role offer. */
const ROLES = "\u0006";
/** The share of those pages a role offer was on before a page rewritten from an analogue is given it too. */
const ROLE_SHARE = 0.9;

/**
 * A page's frame as a key: each labelled part's label with what it says where that has no number ("holding=nothing"),
 * or "*" where it names something numbered ("holding=*"). Undefined for a page without labelled parts.
 */
function frameKey(shown: ReadonlyMap<string, string>): string | undefined {
  const key = [...shown]
    .filter(([, part]) => part !== "")
    .map(([label, part]) => {
      const value = partValue(part);
      return `${label}=${/\d/.test(value) ? "*" : value}`;
    })
    .sort()
    .join("|");
  return key === "" ? undefined : key;
}

/**
 * An offer with each argument named by its role: what a labelled part of its page says ("{holding}"), or an argument
 * of the action just taken ("{0}"). Undefined where an argument is neither: "put apple 1 in/on sinkbasin 1" after
 * "go to sinkbasin 1" holding apple 1 is "put {holding} in/on {0}", an offer any page in that frame can be given.
 */
function roleOffer(
  offer: string,
  page: Observation,
  shown: ReadonlyMap<string, string>,
  taken: string[],
): string | undefined {
  const { template, args } = actionParts(offer, page);
  if (args.length === 0) return undefined;
  const roles: string[] = [];
  for (const arg of args) {
    const label = [...shown].find(([, part]) => part !== "" && partValue(part) === arg)?.[0];
    const position = taken.indexOf(arg);
    if (label !== undefined) roles.push(`{${label}}`);
    else if (position >= 0) roles.push(`{${position}}`);
    else return undefined;
  }
  return `${template}\u0001${roles.join("\u0001")}`;
}

/** The offer a role offer names on a page whose parts say `shown`, after an action with arguments `taken`. */
function fromRoles(role: string, shown: ReadonlyMap<string, string>, taken: string[]): string | undefined {
  const [template = "", ...roles] = role.split("\u0001");
  const args = roles.map((r) => {
    const inner = r.slice(1, -1);
    return /^\d+$/.test(inner) ? taken[Number(inner)] : partValue(shown.get(inner) ?? "");
  });
  if (args.some((a) => a === undefined || a === "")) return undefined;
  let i = 0;
  const offer = template.replace(/\*/g, () => args[i++] as string);
  // Only an offer that reads back as the same kind with the same arguments.
  const back = actionParts(offer);
  return back.template === template && back.args.every((a, j) => a === args[j]) ? offer : undefined;
}

/** A part's value without its numbers ("cup" of "cup 1"): what one value of a part shares with another. */
function valueClass(part: string): string {
  return partValue(part).replace(/\d+/g, "").replace(/\s+/g, " ").trim();
}

/** The classes of an action's arguments: without their numbers ("countertop" of "countertop 3"). */
function argumentClasses(action: string, page: Observation): string[] {
  return actionParts(action, page).args.map((a) =>
    a.toLowerCase().replace(/\d+/g, "").replace(/\s+/g, " ").trim(),
  );
}

export class FrameCounts {
  private readonly counts = new Map<string, { times: number; kept: number }>();
  /** usualRoles, once decided (cleared by learning). */
  private readonly roleOffers = new Map<string, string[]>();
  /** saidAfter, once decided (cleared by learning). */
  private readonly constants = new Map<string, string | undefined>();
  /** closedPosition and oneValue, once decided (cleared by learning; their keys never meet). */
  private readonly closed = new Map<string, boolean>();

  /**
   * One real transition; `episodeOffers`: every action the pages of its episode offered up to its state (the actions a
   * world has: a room's places).
   */
  learn(state: Observation, action: string, next: Observation, episodeOffers: ReadonlySet<string>): void {
    const kind = actionTemplate(action, state);
    const labelled = [...parts(next.text)].filter(([, part]) => part !== "");
    const kinds = new Set<string>();
    for (const a of next.actions ?? []) {
      const offer = actionTemplate(a, next);
      this.count(OFFER, false);
      this.count(`${OFFER}${offer}`, false);
      argumentClasses(a, next).forEach((cls, i) => {
        this.count(`${OFFER}${offer}\u0000${i}`, false);
        this.count(`${OFFER}${offer}\u0000${i}\u0000${cls}`, false);
      });
      kinds.add(offer);
    }
    // Once per page and kind offered: what each labelled part said then.
    for (const offer of kinds)
      for (const [label, part] of labelled) {
        this.count(`${OFFERED_WITH}${offer}\u0000${label}`, false);
        this.count(`${OFFERED_WITH}${offer}\u0000${label}\u0000${valueClass(part)}`, false);
      }
    if (next.actions) {
      // Whether each kind of action the next page offers was all offered before in the episode (the same room), and
      // whether the action just taken is offered again.
      const before = offersByKind(state);
      for (const [offer, after] of offersByKind(next)) {
        if (!before.has(offer)) continue;
        this.count(
          `${kind}\u0001${offer}`,
          after.every((a) => episodeOffers.has(a)),
        );
      }
      this.count(`${kind}\u0002`, !next.actions.includes(action));
    }
    const after = parts(next.text);
    for (const [label, before] of parts(state.text)) {
      const now = after.get(label);
      if (!before || now === undefined || !now) continue;
      this.count(`${kind}\u0000${label}`, now === before);
    }
    const frame = frameKey(after);
    if (frame !== undefined && next.actions) {
      const base = this.roleKey(kind, action, state, frame);
      const taken = actionParts(action, state).args;
      this.count(base, false);
      const roles = new Set(next.actions.map((a) => roleOffer(a, next, after, taken)));
      for (const role of roles) if (role !== undefined) this.count(`${base}\u0000${role}`, false);
    }
    for (const [label, now] of after) {
      if (!now) continue;
      this.count(`${SAID_AFTER}${kind}\u0000${label}`, false);
      this.count(`${SAID_AFTER}${kind}\u0000${label}\u0000${partValue(now)}`, false);
    }
  }

  private count(key: string, kept: boolean): void {
    if (this.closed.size > 0) this.closed.clear();
    if (this.constants.size > 0) this.constants.clear();
    if (this.roleOffers.size > 0) this.roleOffers.clear();
    const c = this.counts.get(key) ?? { times: 0, kept: 0 };
    c.times++;
    if (kept) c.kept++;
    this.counts.set(key, c);
  }

  /**
   * Whether real pages could have offered this action: its kind was offered (where real pages offered enough to
   * say), and at each position of its arguments whose classes real pages drew from a closed set (a room's
   * furniture: fewer than RARE_SHARE of them rare), its class was among them. Rewritten from analogues, a page
   * offered "open spatula 1" and "arrive at countertop 2", which no real page ever did.
   */
  private mayOffer(action: string, page: Observation): boolean {
    if ((this.counts.get(OFFER)?.times ?? 0) < MIN_OFFERS) return true;
    const offer = actionTemplate(action, page);
    if ((this.counts.get(`${OFFER}${offer}`)?.times ?? 0) === 0) return false;
    return argumentClasses(action, page).every((cls, i) => {
      if ((this.counts.get(`${OFFER}${offer}\u0000${i}\u0000${cls}`)?.times ?? 0) > 0) return true;
      return !this.closedPosition(offer, i);
    });
  }

  /** Whether every part this kind of action keeps (learnt) says the same on `other` as on `state`. */
  sameFrame(state: Observation, action: string, other: Observation): boolean {
    const kind = actionTemplate(action, state);
    const theirs = parts(other.text);
    for (const [label, part] of parts(state.text))
      if (part !== "" && this.learnt(`${kind}\u0000${label}`) && theirs.get(label) !== part) return false;
    return true;
  }

  /**
   * Whether a page whose labelled parts say this may offer this kind of action: real pages offered some kinds only
   * while a part said one thing (a take only while holding nothing), and a page rewritten from an analogue that
   * said it offered them whatever this page's part says.
   */
  private offeredWith(offer: string, shown: ReadonlyMap<string, string>): boolean {
    for (const [label, part] of shown) {
      if (part === "") continue;
      const all = this.counts.get(`${OFFERED_WITH}${offer}\u0000${label}`)?.times ?? 0;
      if (all < MIN_TIMES) continue;
      const same =
        this.counts.get(`${OFFERED_WITH}${offer}\u0000${label}\u0000${valueClass(part)}`)?.times ?? 0;
      if (same === 0 && this.oneValue(offer, label, all)) return false;
    }
    return true;
  }

  /** The key of the pages after this kind of action on this class of place, in this frame. */
  private roleKey(kind: string, action: string, state: Observation, frame: string): string {
    return `${ROLES}${kind}\u0000${argumentClasses(action, state).join("\u0001")}\u0000${frame}`;
  }

  /** The role offers on ROLE_SHARE of at least MIN_TIMES real pages under this key. */
  private usualRoles(base: string): string[] {
    let roles = this.roleOffers.get(base);
    if (!roles) {
      const all = this.counts.get(base)?.times ?? 0;
      roles = [];
      if (all >= MIN_TIMES)
        for (const [k, c] of this.counts)
          if (k.startsWith(`${base}\u0000`) && c.times >= ROLE_SHARE * all)
            roles.push(k.slice(base.length + 1));
      this.roleOffers.set(base, roles);
    }
    return roles;
  }

  /**
   * The offers real pages nearly always had after this kind of action on this class of place in this frame, by
   * role (roleOffer), made this page's: an analogue taken with empty hands offered nothing to put down, clean or
   * heat, which every real page with full hands at a sink offers.
   */
  private usualOffers(
    kind: string,
    action: string,
    state: Observation,
    text: string,
    actions: string[],
  ): string[] {
    const shown = parts(text);
    const frame = frameKey(shown);
    if (frame === undefined) return actions;
    const taken = actionParts(action, state).args;
    const have = new Set(actions.map(normaliseAction));
    const added = this.usualRoles(this.roleKey(kind, action, state, frame))
      .map((role) => fromRoles(role, shown, taken))
      .filter((offer): offer is string => offer !== undefined && !have.has(normaliseAction(offer)));
    return added.length > 0 ? [...actions, ...new Set(added)] : actions;
  }

  /**
   * What a part always said after this kind of action (KEPT_SHARE of at least MIN_TIMES real pages), where that is
   * one value with no number in it ("nothing"): undefined otherwise.
   */
  private saidAfter(kind: string, label: string): string | undefined {
    const key = `${SAID_AFTER}${kind}\u0000${label}`;
    if (this.constants.has(key)) return this.constants.get(key);
    const all = this.counts.get(key)?.times ?? 0;
    let said: string | undefined;
    if (all >= MIN_TIMES)
      for (const [k, c] of this.counts) {
        if (!k.startsWith(`${key}\u0000`) || c.times < KEPT_SHARE * all) continue;
        const value = k.slice(key.length + 1);
        if (!/\d/.test(value) && value !== "") said = value;
      }
    this.constants.set(key, said);
    return said;
  }

  /** Whether real pages offering this kind all but always said one and the same thing in this part. */
  private oneValue(offer: string, label: string, all: number): boolean {
    const key = `${OFFERED_WITH}${offer}\u0000${label}`;
    let one = this.closed.get(key);
    if (one === undefined) {
      one = false;
      for (const [k, c] of this.counts)
        if (k.startsWith(`${key}\u0000`) && c.times >= KEPT_SHARE * all) one = true;
      this.closed.set(key, one);
    }
    return one;
  }

  /** Whether the classes real pages offered at this position of this kind of action are a closed set. */
  private closedPosition(offer: string, position: number): boolean {
    const key = `${offer}\u0000${position}`;
    let closed = this.closed.get(key);
    if (closed === undefined) {
      const total = this.counts.get(`${OFFER}${key}`)?.times ?? 0;
      let rare = 0;
      const prefix = `${OFFER}${key}\u0000`;
      for (const [k, c] of this.counts) if (k.startsWith(prefix) && c.times < RARE_TIMES) rare += c.times;
      closed = total >= MIN_TIMES && rare / total <= RARE_SHARE;
      this.closed.set(key, closed);
    }
    return closed;
  }

  private learnt(key: string): boolean {
    const c = this.counts.get(key);
    return c !== undefined && c.times >= MIN_TIMES && c.kept / c.times >= KEPT_SHARE;
  }

  /**
   * The next state with every part this kind of action keeps taken from the state it was taken in. The actions it
   * offers that name what the analogue's part said are made to name what this page's part says, where this page
   * acts on that too, and are dropped where it does not (there is no "put knife 1" when holding nothing).
   */
  keep(
    state: Observation,
    action: string,
    next: Observation,
    episodeOffers: ReadonlySet<string> = new Set(state.actions),
    /** Offer only what real pages could have (mayOffer): where pages are rewritten into this task's world. */
    onlyOffered = false,
  ): Observation {
    const kind = actionTemplate(action, state);
    const after = parts(next.text);
    let text = next.text;
    let actions = next.actions;
    for (const [label, before] of parts(state.text)) {
      const predicted = after.get(label);
      if (!before || !predicted) continue;
      if (!this.learnt(`${kind}\u0000${label}`)) continue;
      if (predicted !== before) text = text.replace(predicted, before);
      if (actions && state.actions)
        actions = offered(actions, partValue(predicted), partValue(before), state.actions);
    }
    // A part a kind of action always leaves saying one thing says it (after putting down, the hands hold nothing),
    // whatever the analogue's rewritten page made of it.
    for (const [label, predicted] of parts(text)) {
      const value = predicted ? this.saidAfter(kind, label) : undefined;
      const was = partValue(predicted);
      if (value === undefined || value === was || was === "") continue;
      const fixed = predicted.replace(new RegExp(literalPattern(was), "i"), value);
      text = text.replace(predicted, fixed);
      if (actions) actions = offered(actions, was, value, state.actions ?? []);
    }
    if (actions && state.actions)
      actions = this.offersOfThisWorld(kind, state, action, actions, episodeOffers);
    if (actions && onlyOffered) {
      const possible = actions.filter((a) => this.mayOffer(a, next));
      if (possible.length < actions.length) actions = possible;
    }
    if (actions) {
      const shown = parts(text);
      const possible = actions.filter((a) => this.offeredWith(actionTemplate(a, next), shown));
      if (possible.length < actions.length) actions = possible;
      if (onlyOffered) actions = this.usualOffers(kind, action, state, text, actions);
    }
    if (text === next.text && actions === next.actions) return next;
    return { ...next, text, ...(actions ? { actions } : {}) };
  }

  /**
   * The actions of each kind that this kind of action never offered outside what the episode had been offered (a
   * room's places), as this world has them: the page's and the analogue's, of those the episode was offered, and
   * not the action just taken where it never is offered again. Rewritten from another room's page, the analogue's
   * led to places this room does not have.
   */
  private offersOfThisWorld(
    kind: string,
    state: Observation,
    action: string,
    actions: string[],
    episodeOffers: ReadonlySet<string>,
  ): string[] {
    const ours = offersByKind(state);
    const closed = [...ours.keys()].filter((offer) => this.learnt(`${kind}\u0001${offer}`));
    const taken = this.learnt(`${kind}\u0002`) ? normaliseAction(action) : undefined;
    if (closed.length === 0 && taken === undefined) return actions;
    const page = { text: "", actions };
    const out: string[] = [];
    const placed = new Set<string>();
    for (const a of actions) {
      const offer = actionTemplate(a, page);
      if (!closed.includes(offer)) out.push(a);
      else if (!placed.has(offer)) {
        placed.add(offer);
        const theirs = actions.filter((b) => actionTemplate(b, page) === offer && episodeOffers.has(b));
        out.push(...new Set([...ours.get(offer)!, ...theirs]));
      }
    }
    for (const offer of closed) if (!placed.has(offer)) out.push(...ours.get(offer)!);
    const kept = taken === undefined ? out : out.filter((a) => normaliseAction(a) !== taken);
    return kept.length === actions.length && kept.every((a, i) => a === actions[i]) ? actions : kept;
  }

  toData(): FramesData {
    return [...this.counts];
  }

  static fromData(data: FramesData): FrameCounts {
    const frames = new FrameCounts();
    for (const [key, c] of data) frames.counts.set(key, { ...c });
    return frames;
  }
}
