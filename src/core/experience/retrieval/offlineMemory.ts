import MiniSearch from "minisearch";
import type { DomainDeclarations } from "../../envs/domain";
import type { Demonstration } from "../../replay/buffer";
import { type Observation, REAL_ENV_SOURCES, type Transition } from "../../types";
import { contentWords, searchTokens } from "../../util/words";
import { actionTemplate, normaliseAction } from "../admissible";
import { elementsOf, joinLike } from "../segments";
import {
  type AmountBound,
  compileAmountBound,
  episodeTrace,
  type Fulfils,
  namesBestRecord,
  pageChoices,
  wordsShown,
} from "./evidence";
import { FrameCounts, type FramesData } from "./frames";
import { FulfilsCounts, type FulfilsData } from "./fulfils";
import { SightingCounts, type SightingsData } from "./sightings";

/**
 * What the experience model learns from the offline demonstrations before it simulates anything: the paper
 * fine-tunes its experience model on the offline trajectories, so it knows the items those trajectories listed
 * and the pages they opened. The embedded model's counterpart is this memory of
 * - records: the entries of listing pages (an element the page lets you click, followed by what it says about
 *   it: an item code, its title and price), and
 * - pages: what clicking one of those entries opened;
 * - choices: the values each named group of options took on their pages ("navy" is a color), and whether their
 *   episodes ended with graded rewards.
 * Without it the model can only rewrite a neighbour's listing for the current query, which invents items that
 * match the query too well (a policy trained on them learns that the first result is always right).
 * Built from offline transitions only, in their order, so the same data always gives the same memory.
 */

const ARGUMENT = /^\s*[a-z_]+\s*\[(.*)\]\s*$/i;
/** A listing has at least this many entries of the same shape; fewer is a page with a few buttons. */
const MIN_RECORDS = 3;
/** An action goes back when it did in at least this share of at least this many offline uses. */
const GOES_BACK_SHARE = 0.9;
const GOES_BACK_MIN_TIMES = 5;

export interface ListingRecord {
  /** The clickable element that opens the entry, as the page shows it (e.g. "B0018OE7"). */
  key: string;
  /** What the listing says about it after the key (title, price). */
  fields: string[];
}

/** A page split into the part before its listing, the listing, and the part after. */
export interface Listing {
  /** The page it was read from: a rendered listing joins its elements as that page did. */
  page: string;
  head: string[];
  records: ListingRecord[];
  tail: string[];
}

/** The arguments of a page's click-like actions, lower-cased: the elements one can act on. */
function clickable(page: Observation): Set<string> {
  const out = new Set<string>();
  for (const a of page.actions ?? []) {
    const arg = ARGUMENT.exec(a)?.[1];
    if (arg !== undefined && arg !== "...") out.add(arg.trim().toLowerCase());
  }
  return out;
}

/**
 * The page's listing: runs of a clickable element followed by the same number (≥ 1) of plain elements, at
 * least MIN_RECORDS of them in a row. Undefined for a page without one.
 */
export function parseListing(page: Observation): Listing | undefined {
  const targets = clickable(page);
  if (targets.size < MIN_RECORDS) return undefined;
  const parts = elementsOf(page.text);
  const starts = parts.flatMap((p, i) => (targets.has(p.trim().toLowerCase()) ? [i] : []));
  // Plain elements after each clickable one, up to the next clickable one or the end of the page.
  const gaps = starts.map((at, i) => (starts[i + 1] ?? parts.length) - at - 1);
  let best: { first: number; count: number; width: number } | undefined;
  for (let s = 0; s < starts.length; ) {
    const width = gaps[s]!;
    let e = s;
    while (e + 1 < starts.length && gaps[e + 1] === width) e++;
    // The last entry may be followed by more of the page than its own fields.
    const count = e - s + 1 + (e + 1 < starts.length && gaps[e + 1]! > width ? 1 : 0);
    if (width >= 1 && count >= MIN_RECORDS && (!best || count > best.count))
      best = { first: s, count, width };
    s = e + 1;
  }
  if (!best) return undefined;
  const records = Array.from({ length: best.count }, (_, i): ListingRecord => {
    const at = starts[best.first + i]!;
    return { key: parts[at]!, fields: parts.slice(at + 1, at + 1 + best.width) };
  });
  const from = starts[best.first]!;
  const to = starts[best.first + best.count - 1]! + 1 + best.width;
  return { page: page.text, head: parts.slice(0, from), records, tail: parts.slice(to) };
}

export function renderListing(listing: Listing): string {
  return joinLike(listing.page, [
    ...listing.head,
    ...listing.records.flatMap((r) => [r.key, ...r.fields]),
    ...listing.tail,
  ]);
}

interface RememberedPage {
  next: Observation;
  /** The instruction of the episode it was seen in: pages echo their own task's instruction. */
  instruction: string;
}

/** The memory's contents, plain data, so that it can be handed to a prediction thread. */
export interface OfflineMemoryData {
  records: ListingRecord[];
  returns: [action: string, counts: { times: number; returned: number }][];
  pages: [action: string, page: RememberedPage][];
  gradedOutcomes: boolean;
  choices: [group: string, values: string[]][];
  /** How many real episodes ended with a graded reward of each smallest denominator (2/3: 3, 0.8: 5). */
  grades: [denominator: number, episodes: number][];
  prototypes: Demonstration[];
  /** The same page and action met again in another task's episode, and how often it led to the same page. */
  repeats: { times: number; same: number };
  declarations?: DomainDeclarations;
  /** What each real episode did before each of its steps (evidence.ts episodeTrace), by the step's id. */
  traces?: [id: string, trace: string][];
  /** What the successful real episodes did where their ends do not show it (fulfils.ts). */
  fulfils?: FulfilsData;
  /** The parts of pages each kind of action kept as they were (frames.ts). */
  frames?: FramesData;
  /** Where the real episodes saw their requests' words (sightings.ts). */
  sightings?: SightingsData;
  /** Words of requests that successful real endings did not show (OfflineMemory.unseenWords). */
  unseen?: string[];
  /** Real episodes' endings by the kind of action that ended them. */
  endings?: [kind: string, counts: EndingCounts][];
  /** The real steps that ended their episodes without success, by id, with their episode's length. */
  failedEndings?: [id: string, length: number][];
}

/** How the real episodes that a kind of action ended, ended. */
interface EndingCounts {
  ended: number;
  failed: number;
  /** Failed endings that picked a record of their page other than the one that fits the request best. */
  another?: number;
}

/** Failed endings of a kind of action needed before the memory says whether they all picked another record. */
const MIN_FAILURES = 10;
/** The share of them that must have picked another record. */
const ANOTHER_SHARE = 0.9;

/** Endings of a kind of action needed before the memory says whether it ends episodes only by succeeding. */
const MIN_ENDINGS = 20;
const FAILED_SHARE = 0.01;
/** Failed endings needed, and the share of them at one length, to read that length as the episodes' step limit. */
const MIN_TIME_OUTS = 20;
const TIME_OUT_SHARE = 0.9;
/** Successful endings whose request has a word before the memory says whether endings show it. */
const MIN_WORD_ENDINGS = 5;

/** Repeats needed before the memory says whether a page tells all of the state; fewer: it is taken to. */
const MIN_REPEATS = 20;
/** The share of repeats that must lead to the same page for a page to tell all of the state. */
const MARKOV_SHARE = 0.9;

/**
 * Examples kept of each kind of action and each of its outcomes (ended or not, and the reward to a tenth): what
 * the model knows of an action without retrieving anything, as a model fine-tuned on the offline data knows what
 * such an action usually does. Chosen once, in the data's order, never by likeness to a step.
 */
const PROTOTYPES_PER_OUTCOME = 2;

/** Graded rewards are read as fractions with denominators up to this (a goal of more parts is not told apart). */
const MAX_DENOMINATOR = 20;
/** A denominator counts once this many real episodes ended with it: one odd reward says nothing of the grading. */
const MIN_GRADED = 2;

/** The smallest denominator of a reward strictly between 0 and 1 read as a fraction, if it is one. */
function denominatorOf(reward: number): number | undefined {
  for (let n = 2; n <= MAX_DENOMINATOR; n++)
    if (Math.abs(reward * n - Math.round(reward * n)) < 0.01) return n;
  return undefined;
}

export class OfflineMemory {
  private readonly records = new Map<string, ListingRecord>();
  private readonly pages = new Map<string, RememberedPage>();
  private index: MiniSearch<{ id: number; text: string }> | undefined;
  private readonly order: ListingRecord[] = [];
  private readonly returns = new Map<string, { times: number; returned: number }>();
  private graded = false;
  private readonly choices = new Map<string, Set<string>>();
  private readonly grades = new Map<number, number>();
  private readonly kinds = new Map<string, Demonstration[]>();
  private readonly firstSeen = new Map<string, { next: string; taskId: string | undefined }>();
  private readonly repeats = { times: 0, same: 0 };
  private readonly outcomes = new Map<string, number>();
  /** Traces handed over as data (fromData), by step id. */
  private readonly traces = new Map<string, string>();
  /** Each real valid step's episode (the steps before it are its first `index`), for its trace. */
  private readonly stepAt = new Map<
    string,
    { steps: readonly Transition[]; index: number; instruction: string; action: string }
  >();
  private readonly traceMemo = new Map<string, string>();
  private counts = new FulfilsCounts();
  private frames = new FrameCounts();
  private sightings = new SightingCounts();
  /** The real steps that ended their episodes successfully. */
  private readonly successes: Transition[] = [];
  /** Words of requests their successful ends did not show (unseenWords), once computed. */
  private unseen: ReadonlySet<string> | undefined;
  /** Real episodes' endings by the kind of action that ended them, and how many of them failed. */
  private readonly endings = new Map<string, EndingCounts>();
  /** Real steps that ended their episodes without success, with their episode's length (timeLimit). */
  private readonly failedEndings = new Map<string, number>();
  private limit: { length: number | undefined } | undefined;
  /** What the domain declares beside its environment (core/envs `DomainDeclarations`), compiled. */
  readonly amountBound: AmountBound | undefined;

  constructor(readonly declarations: DomainDeclarations = {}) {
    this.amountBound = declarations.amountBound && compileAmountBound(declarations.amountBound);
  }

  static fromTransitions(
    transitions: Iterable<Transition>,
    declarations?: DomainDeclarations,
  ): OfflineMemory {
    const memory = new OfflineMemory(declarations);
    memory.learn(transitions);
    return memory;
  }

  /**
   * Learns the listings and entry pages of real-environment transitions (offline logs, or a run's real rollouts:
   * DreamGym-S2R's `experience.learnFromReal`), whole episodes in order. Synthetic and invalid steps teach nothing:
   * the model must not learn its own inventions back. A page already known keeps what was seen first.
   */
  learn(transitions: Iterable<Transition>): void {
    this.traceMemo.clear();
    const successes = this.successes.length;
    const realSources: readonly string[] = REAL_ENV_SOURCES;
    let previous: Transition | undefined;
    // The pages of the current episode before this step's state, each with the action that first led to it (none
    // for the first page).
    let earlier = new Map<string, string | undefined>();
    // The action that led to the previous step's state.
    let arrivedBy: string | undefined;
    // The episode's steps before this one.
    let steps: Transition[] = [];
    // The actions the episode's pages offered up to this step's state.
    let offers = new Set<string>();
    for (const t of transitions) {
      // Within an episode each state is the previous step's next state (and an ended episode is followed by another).
      if (previous && !previous.done && previous.next.text === t.state.text) {
        if (!earlier.has(previous.state.text)) earlier.set(previous.state.text, arrivedBy);
        arrivedBy = normaliseAction(previous.action);
        steps.push(previous);
      } else {
        this.sightings.endEpisode();
        earlier = new Map();
        arrivedBy = undefined;
        steps = [];
        offers = new Set();
      }
      for (const a of t.state.actions ?? []) offers.add(a);
      previous = t;
      if (!realSources.includes(t.source) || !t.valid) continue;
      // The steps before this one, for the evidence of its outcome (traceBefore).
      this.stepAt.set(t.id, { steps, index: steps.length, instruction: t.instruction, action: t.action });
      if (t.done && t.success) this.successes.push(t);
      if (t.done && !t.success) this.failedEndings.set(t.id, steps.length + 1);
      if (t.done && t.success)
        this.counts.add(t.instruction, [...steps.filter((s) => s.valid).map((s) => s.action), t.action], t);
      if (t.done && t.reward > 0 && t.reward < 1) {
        this.graded = true;
        const n = denominatorOf(t.reward);
        if (n !== undefined) this.grades.set(n, (this.grades.get(n) ?? 0) + 1);
      }
      this.addPrototype(t);
      this.countEnding(t);
      this.countRepeat(t);
      this.frames.learn(t.state, t.action, t.next, offers);
      this.sightings.learn(t, offers);
      for (const page of [t.state, t.next])
        for (const g of pageChoices(page)) this.addChoices(g.name, g.options);
      // Going back is reaching an earlier page by another action than the one that led there: the same lookup
      // made again shows the same page because it is the same question, which says nothing of where a different
      // one leads (the revisits of this very action answer that).
      if (earlier.size > 0 && t.next.text !== t.state.text) {
        const action = normaliseAction(t.action);
        this.countReturn(t.action, earlier.has(t.next.text) && earlier.get(t.next.text) !== action);
      }
      const listing = parseListing(t.next);
      if (listing) for (const r of listing.records) this.addRecord(r);
      // Clicking an entry of a listing opens that entry, wherever the listing was.
      const arg = ARGUMENT.exec(t.action)?.[1]?.trim().toLowerCase();
      const from = arg === undefined ? undefined : parseListing(t.state);
      if (from?.records.some((r) => r.key.toLowerCase() === arg)) {
        const key = normaliseAction(t.action);
        if (!this.pages.has(key)) this.pages.set(key, { next: t.next, instruction: t.instruction });
      }
    }
    this.sightings.endEpisode();
    this.limit = undefined;
    // New successful endings say anew which words endings show (a memory made from data keeps what it was given).
    if (this.successes.length > successes) this.unseen = undefined;
  }

  static fromData(data: OfflineMemoryData): OfflineMemory {
    const memory = new OfflineMemory(data.declarations);
    for (const [n, episodes] of data.grades) memory.grades.set(n, episodes);
    for (const p of data.prototypes) memory.addPrototype(p);
    memory.repeats.times = data.repeats.times;
    memory.repeats.same = data.repeats.same;
    for (const r of data.records) memory.addRecord(r);
    for (const [action, page] of data.pages) memory.pages.set(action, page);
    for (const [action, counts] of data.returns) memory.returns.set(action, counts);
    memory.graded = data.gradedOutcomes;
    for (const [id, trace] of data.traces ?? []) memory.traces.set(id, trace);
    if (data.fulfils) memory.counts = FulfilsCounts.fromData(data.fulfils);
    if (data.frames) memory.frames = FrameCounts.fromData(data.frames);
    if (data.sightings) memory.sightings = SightingCounts.fromData(data.sightings);
    for (const [kind, c] of data.endings ?? []) memory.endings.set(kind, { ...c });
    for (const [id, length] of data.failedEndings ?? []) memory.failedEndings.set(id, length);
    if (data.unseen) memory.unseen = new Set(data.unseen);
    for (const [group, values] of data.choices) memory.addChoices(group, values);
    return memory;
  }

  toData(): OfflineMemoryData {
    return {
      records: this.order,
      returns: [...this.returns],
      pages: [...this.pages],
      gradedOutcomes: this.graded,
      choices: [...this.choices].map(([group, values]) => [group, [...values]]),
      grades: [...this.grades],
      prototypes: [...this.kinds.values()].flat(),
      repeats: { ...this.repeats },
      declarations: this.declarations,
      traces: [
        ...this.traces,
        ...[...this.stepAt.keys()].map((id): [string, string] => [id, this.traceBefore(id) ?? ""]),
      ],
      fulfils: this.counts.toData(),
      frames: this.frames.toData(),
      sightings: this.sightings.toData(),
      endings: [...this.endings],
      failedEndings: [...this.failedEndings],
      unseen: [...this.unseenWords],
    };
  }

  /**
   * What each requirement a step shows broken costs its outcome reward, learnt from how the real episodes' rewards
   * were graded: a graded reward is the share of its goal's parts met, so the finest step its values take (1/5
   * where rewards of 0.2, 0.6 and 0.8 were seen, from MIN_GRADED episodes each) is what one part is worth.
   * Undefined where no real episode ended with a graded reward: the demonstrations do not say.
   */
  brokenCost(): number | undefined {
    const finest = Math.max(
      0,
      ...[...this.grades].filter(([, episodes]) => episodes >= MIN_GRADED).map(([n]) => n),
    );
    return finest > 0 ? 1 / finest : undefined;
  }

  private countEnding(t: Transition) {
    if (!t.done) return;
    const kind = actionTemplate(t.action, t.state);
    const c = this.endings.get(kind) ?? { ended: 0, failed: 0 };
    c.ended++;
    if (!t.success) c.failed++;
    if (!t.success && namesBestRecord(t.state, t.action, t.instruction) === false)
      c.another = (c.another ?? 0) + 1;
    this.endings.set(kind, c);
  }

  /**
   * Whether this kind of action failed real episodes only by picking another record than the one the request
   * describes (cancelling the vendor call where the design sync was asked for): at least MIN_FAILURES failures,
   * ANOTHER_SHARE of them so. Such an action on the request's own record ends an episode only with the request
   * done: one of two asked changes made is no ending.
   */
  failsOnlyOnAnotherRecord(kind: string): boolean {
    const c = this.endings.get(kind);
    return c !== undefined && c.failed >= MIN_FAILURES && (c.another ?? 0) / c.failed >= ANOTHER_SHARE;
  }

  /**
   * The step limit the real episodes were cut off at, where their failures say there was one: at least
   * MIN_TIME_OUTS failed endings, TIME_OUT_SHARE of them at one length, the longest any episode had (a household
   * episode fails only by running out of steps). Undefined where failures ended episodes at any length.
   */
  get timeLimit(): number | undefined {
    if (!this.limit) {
      const byLength = new Map<number, number>();
      for (const length of this.failedEndings.values()) byLength.set(length, (byLength.get(length) ?? 0) + 1);
      const [length, times] = [...byLength].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0] ?? [0, 0];
      const longest = Math.max(0, ...byLength.keys());
      const limited =
        this.failedEndings.size >= MIN_TIME_OUTS &&
        times / this.failedEndings.size >= TIME_OUT_SHARE &&
        length === longest;
      this.limit = { length: limited ? length : undefined };
    }
    return this.limit.length;
  }

  /** Whether a real step ended its episode only by reaching the step limit (timeLimit), not by what it did. */
  endedByTime(id: string): boolean {
    const limit = this.timeLimit;
    return limit !== undefined && this.failedEndings.get(id) === limit;
  }

  /**
   * Whether this kind of action ended real episodes only by succeeding (a household episode goes on after an
   * object is put in the wrong place; only meeting the request ends it): at least MIN_ENDINGS endings, at most
   * FAILED_SHARE of them failures.
   */
  endsOnlyInSuccess(kind: string): boolean {
    const c = this.endings.get(kind);
    return c !== undefined && c.ended >= MIN_ENDINGS && c.failed / c.ended <= FAILED_SHARE;
  }

  /**
   * Words of requests that the real episodes' successful ends did not show, as the evidence of an outcome reads
   * them (evidence.ts wordsShown, with each episode's trace where pages do not tell all): in fewer than half of at
   * least MIN_WORD_ENDINGS of them. "two" in "put two books on the dresser" is never shown by the put that ends
   * it; counted as a requirement, a successful ending showed as much of its request as a put that skipped
   * cooling "a cool bread", and both were paid alike.
   */
  get unseenWords(): ReadonlySet<string> {
    if (this.unseen) return this.unseen;
    const tally = new Map<string, { endings: number; shown: number }>();
    for (const t of this.successes) {
      const trace = this.pagesTellAll ? undefined : (this.traceBefore(t.id) ?? "");
      const { words, shown } = wordsShown(t.instruction, t.state, t.action, trace);
      for (const w of new Set(words)) {
        const c = tally.get(w) ?? { endings: 0, shown: 0 };
        c.endings++;
        if (shown.has(w)) c.shown++;
        tally.set(w, c);
      }
    }
    this.unseen = new Set(
      [...tally]
        .filter(([, c]) => c.endings >= MIN_WORD_ENDINGS && c.shown / c.endings < 0.5)
        .map(([w]) => w),
    );
    return this.unseen;
  }

  private countRepeat(t: Transition) {
    const key = `${t.state.text}\u0000${normaliseAction(t.action)}`;
    const first = this.firstSeen.get(key);
    if (!first) {
      this.firstSeen.set(key, { next: t.next.text, taskId: t.taskId });
      return;
    }
    if (first.taskId !== undefined && first.taskId === t.taskId) return;
    this.repeats.times++;
    if (first.next === t.next.text) this.repeats.same++;
  }

  /**
   * Whether a page tells all of the state that matters, learnt from the offline data: the same page and action,
   * met again in another task's episode, led to the same page (MARKOV_SHARE of at least MIN_REPEATS repeats). Where
   * it does not (a room's hidden contents differ from task to task behind the same words), a demonstration with
   * this very page and action is evidence only from the same task.
   */
  get pagesTellAll(): boolean {
    return this.repeats.times < MIN_REPEATS || this.repeats.same / this.repeats.times >= MARKOV_SHARE;
  }

  private addPrototype(t: Transition) {
    const kind = actionTemplate(t.action, t.state);
    const outcome = `${kind}\u0000${t.done}\u0000${Math.round(t.reward * 10)}`;
    const kept = this.outcomes.get(outcome) ?? 0;
    if (kept >= PROTOTYPES_PER_OUTCOME) return;
    this.outcomes.set(outcome, kept + 1);
    const examples = this.kinds.get(kind) ?? [];
    examples.push({ ...t, score: 0 });
    this.kinds.set(kind, examples);
  }

  /**
   * What the real episode of a step did before it (evidence.ts episodeTrace, read with its own instruction), or
   * undefined for a step that is no real valid step of the offline data.
   */
  traceBefore(id: string): string | undefined {
    const at = this.stepAt.get(id);
    if (!at) return this.traces.get(id);
    let trace = this.traceMemo.get(id);
    if (trace === undefined) {
      trace = episodeTrace(at.steps.slice(0, at.index), at.instruction, this.fulfils, at.action);
      this.traceMemo.set(id, trace);
    }
    return trace;
  }

  /**
   * A predicted next state with the parts of the page this kind of action never changed kept, and the actions it
   * offers of this world (frames.ts); `earlier`: the episode's pages before `state`.
   */
  keepFrame(
    state: Observation,
    action: string,
    next: Observation,
    earlier: readonly Observation[] = [],
  ): Observation {
    const offers = new Set([...earlier, state].flatMap((page) => page.actions ?? []));
    return this.frames.keep(state, action, next, offers, this.pagesTellAll === false);
  }

  /** Whether what this kind of action keeps of a page (frames.ts) is the same on `earlier` as on `state`. */
  sameFrame(state: Observation, action: string, earlier: Observation): boolean {
    return this.frames.sameFrame(state, action, earlier);
  }

  /** The request's things the agent moved in this episode (sightings.ts movesOf), as a key: predictions read them. */
  movesKey(
    task: { instruction: string },
    steps: readonly { state: Observation; action: string; next: Observation }[],
  ): string {
    if (this.pagesTellAll || steps.length === 0) return "";
    const offers = steps[0]!.state.actions ?? [];
    return this.sightings.movesKey(task.instruction, offers, steps);
  }

  /**
   * The next state of this task's world where it holds (or lacks) a word of the request at the place the action
   * looks and the predicted page says otherwise (sightings.ts); only where each task has its own world behind the
   * same pages (pagesTellAll false). `earlier`: the episode's pages before `state`, the first of which offers the
   * world's places.
   */
  sight(
    task: { id: string; instruction: string },
    state: Observation,
    action: string,
    predicted: Observation,
    earlier: readonly Observation[],
    steps: readonly { action: string; next: Observation }[] = [],
  ): ReturnType<SightingCounts["sight"]> {
    if (this.pagesTellAll) return undefined;
    // The places of the episode's first page are the world's: the same at every step of the episode.
    const offers = (earlier[0] ?? state).actions ?? [];
    return this.sightings.sight(task.id, task.instruction, state, action, predicted, offers, steps);
  }

  /** What each action verb does of a request's words where an episode's end does not show it (fulfils.ts). */
  get fulfils(): Fulfils {
    return this.counts.fulfils();
  }

  /** The examples kept of this kind of action (PROTOTYPES_PER_OUTCOME), the same objects every time. */
  prototypes(kind: string): readonly Demonstration[] {
    return this.kinds.get(kind) ?? [];
  }

  /** The values a group of options took on the demonstrations' pages ("color": black, navy, …). */
  optionValues(group: string): ReadonlySet<string> | undefined {
    return this.choices.get(group);
  }

  private addChoices(group: string, values: readonly string[]) {
    let known = this.choices.get(group);
    if (!known) {
      known = new Set();
      this.choices.set(group, known);
    }
    for (const v of values) known.add(v);
  }

  /**
   * Whether the domain's outcome rewards are graded: some real episode ended with a reward strictly between 0 and
   * 1 (WebShop's share of the goal met), not only success or failure (ALFWorld's).
   */
  get gradedOutcomes(): boolean {
    return this.graded;
  }

  get size(): { records: number; pages: number } {
    return { records: this.records.size, pages: this.pages.size };
  }

  private countReturn(action: string, returned: boolean) {
    const key = normaliseAction(action);
    const seen = this.returns.get(key) ?? { times: 0, returned: 0 };
    seen.times++;
    if (returned) seen.returned++;
    this.returns.set(key, seen);
  }

  /**
   * Whether this action goes back to a page the agent was on earlier in the episode: learnt from how often it
   * did in the offline episodes ("< Prev" from an item returns to the listing the agent came from, with the
   * same entries, which no analogue can know).
   */
  goesBack(action: string): boolean {
    const seen = this.returns.get(normaliseAction(action));
    return (
      seen !== undefined && seen.times >= GOES_BACK_MIN_TIMES && seen.returned / seen.times >= GOES_BACK_SHARE
    );
  }

  private addRecord(r: ListingRecord) {
    const key = r.key.toLowerCase();
    if (this.records.has(key)) return;
    this.records.set(key, r);
    this.order.push(r);
    this.index = undefined;
  }

  /** The page that clicking this entry opened in the demonstrations, with the current task's instruction. */
  page(action: string, instruction: string): Observation | undefined {
    const seen = this.pages.get(normaliseAction(action));
    if (!seen) return undefined;
    return seen.instruction === instruction
      ? seen.next
      : { ...seen.next, text: seen.next.text.replaceAll(seen.instruction, instruction) };
  }

  /** Remembered entries ranked for a query by BM25 over what their listing said (as a search engine would). */
  ranked(query: string, limit: number): ListingRecord[] {
    if (!this.index) {
      this.index = new MiniSearch({
        fields: ["text"],
        tokenize: searchTokens,
        processTerm: (term) => term,
        searchOptions: { combineWith: "OR" },
      });
      this.index.addAll(this.order.map((r, id) => ({ id, text: r.fields.join(" ") })));
    }
    return this.index
      .search(contentWords(query).join(" "))
      .sort((a, b) => b.score - a.score || Number(a.id) - Number(b.id))
      .slice(0, limit)
      .map((hit) => this.order[Number(hit.id)]!);
  }
}
