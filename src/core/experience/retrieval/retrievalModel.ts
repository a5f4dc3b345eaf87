import { LRUCache } from "lru-cache";
import type { Demonstration } from "../../replay/buffer";
import type { Observation, Step, Transition } from "../../types";
import { contentId, stepId } from "../../util/contentIds";
import { actionParts, actionTemplate, isAdmissible, normaliseAction } from "../admissible";
import { combine } from "../confidence";
import type {
  Confidence,
  ExperienceInput,
  ExperienceModel,
  ExperiencePrediction,
  ExperienceSettings,
} from "../types";
import { type Analogy, analogy, applySubstitutions } from "./analogy";
import {
  episodeTrace,
  type GoalEvidence,
  goalEvidence,
  namesBestRecord,
  type OptionVocabulary,
} from "./evidence";
import { type OfflineMemory, parseListing, renderListing } from "./offlineMemory";
import { choiceEdit, editsInPlace, transferEdit } from "./pageEdit";

export const RETRIEVAL_EXPERIENCE_MODEL = "retrieval-exp-v1";

/** Weights of the evidence that a demonstration is the right analogue of the current step. */
const WEIGHTS = {
  /** The same state and the same action: a deterministic environment answers the same way again. */
  exact: 10,
  /** The same kind of action (verb and shape): without it a demonstration says little about this one. */
  sameTemplate: 2,
  /** Ordered word overlap of (state, action), 0–1: how little has to be rewritten. */
  overlap: 1,
  /** The retriever's cosine, 0–1. */
  retrieval: 0.5,
  /** The same task: in the household, the same room. */
  sameTask: 0.3,
  /** The same action earlier in this very episode: the same world, so the best evidence short of an exact match. */
  revisit: 4,
  /**
   * A demonstration of a like request whose action bore on it as this one bears on this request (Analogy
   * carriesRequest): rewritten, its outcome shows this request's records, where another's shows its own world's.
   */
  carriesRequest: 1,
} as const;

/** Candidates considered by deliberation (reasoning on); without reasoning the model takes the top one. */
const DELIBERATION = 4;
/** How sharply the reward estimate prefers demonstrations with evidence like the current step's. */
const EVIDENCE_BANDWIDTH = 0.05;
/** How much more goal evidence a successful demonstration may have had and still count as evidence of success. */
const SUCCESS_EVIDENCE_SLACK = 0.3;
/** The weight of a demonstration that broke a requirement for a step that breaks none, or the other way round. */
const UNALIKE_WEIGHT = 0.02;

/** What the offline memory adds to the analogue's prediction. */
interface Recall {
  next: Observation;
  /** Seen, not inferred: a remembered page, or one this episode was on. */
  known: boolean;
  explanation: string;
}

interface Candidate {
  demo: Demonstration;
  index: number;
  /** The step of this episode it comes from, when it is the agent's own history rather than a retrieved one. */
  historyStep?: number;
  analogy: Analogy;
  sameTemplate: boolean;
  exact: boolean;
  score: number;
  next: Observation;
  /** The words of `next`, as deliberation compares them. */
  nextWords: Set<string>;
}

const squash = (text: string) => text.replace(/\s+/g, " ").trim().toLowerCase();

/** How a demonstration maps onto the current step: the same for the same texts, whichever episode asks. */
interface Mapping {
  analogy: Analogy;
  exact: boolean;
  /** The demonstration's next state rewritten for this step: computed when first read (most are never read). */
  readonly next: Observation;
  /** Its words, made once: deliberation compares every candidate's with every other's at each step. */
  readonly nextWords: Set<string>;
}

/** Demonstrations whose goal evidence is remembered at most (the same neighbours come back step after step). */
const EVIDENCE_MEMO = 20_000;

/**
 * Aligning a demonstration with the current step is most of a prediction's time, and the same pairs come back
 * all the time: a group's rollouts start from the same page and the buffer returns the same neighbours. The
 * mappings live as long as the demonstration object does; this bounds the steps remembered for each.
 */
const MAPPINGS_PER_DEMONSTRATION = 512;
/**
 * Mappings remembered in all, past which they are forgotten at once: the bound per demonstration alone let a long
 * run's memory grow with every new page and task it met (a household run grew about 0.45 GB a CPU-minute, past
 * the heap's limit before 240K synthetic transitions). An iteration of 64 rollouts of 30 steps with 8 neighbours
 * makes about 15K.
 */
const MAPPINGS_KEPT = 50_000;

/**
 * A group's rollouts share their first steps, and a policy that has settled repeats whole episodes: 39% of the
 * rollouts bench's predictions read the very same input (task, state, action, demonstrations and what the answer
 * reads of the history) as an earlier one (34% when keyed by the whole history). The model is a function of its
 * input and its memory, so those are answered again from here. About 2 KB a prediction at the bound.
 */
const PREDICTIONS_MEMO = 20_000;

/**
 * Everything a prediction reads, as one short string: the task, state and action, the demonstrations by id and
 * score (an id names one transition), then what it reads of the history. An answer reads the history in a few
 * places only: the agent's earlier steps with the same action (revisits, by position), the query typed last (a
 * listing's entries), and, for an action that goes back, every earlier page; where a page does not tell all of
 * the state, the reward also reads what the episode did (its trace), which is then part of the key. So two
 * episodes that reached the same page by different paths share an answer unless the action goes back or the
 * trace differs; keyed by the whole history, they did not, and the same prediction was made again. The JSON array ends where its brackets close, so the string
 * still names one input.
 */
function predictionKey(
  input: ExperienceInput,
  goesBack: boolean,
  trace: string | undefined,
  revisits: readonly { step: Step; stepsAgo: number }[],
  moves: string,
): string {
  const history = goesBack
    ? input.history.map(stepId)
    : revisits.map(({ step, stepsAgo }) => `${stepsAgo}\u0000${stepId(step)}`);
  return JSON.stringify([
    contentId(input.task),
    contentId(input.state),
    input.action,
    input.demonstrations.map((d) => `${d.id}\u0000${d.score}`),
    goesBack ? null : (queryOf(input) ?? null),
    history,
    trace ?? null,
    moves,
  ]);
}

/**
 * The agent's own earlier steps with this very action that still show what it does here: taken on a page of the
 * same kind ("< Prev" from an item page and from its description go to different places), valid, and not followed
 * by another action on one of its arguments ("open cabinet 1" after "go to cabinet 1": what is there has changed
 * since). Read from the whole episode where the caller keeps it (the model's own world stays put beyond the window
 * a prompt shows), else from the history. Latest first, with how many steps ago each was.
 */
function revisitsOf(
  input: ExperienceInput,
  sameFrame: (earlier: Observation) => boolean = () => true,
): { step: Step; stepsAgo: number }[] {
  const episode = input.episode ?? input.history;
  const wanted = normaliseAction(input.action);
  const args = new Set(actionParts(input.action, input.state).args);
  const out: { step: Step; stepsAgo: number }[] = [];
  for (let i = episode.length - 1; i >= 0; i--) {
    const step = episode[i]!;
    if (!step.valid) continue;
    const action = normaliseAction(step.action);
    if (action === wanted) {
      if (ofOneKind(input.state, step.state) && sameFrame(step.state))
        out.push({ step, stepsAgo: episode.length - i });
    } else if (args.size > 0 && actionParts(step.action, step.state).args.some((a) => args.has(a))) break;
  }
  return out;
}

function sameList(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  if (a === b) return true;
  if (!a || !b || a.length !== b.length) return false;
  return a.every((x, i) => x === b[i]);
}

/** Stands in for the demonstration's instruction while its page is rewritten (no page contains it). */
const ECHO = "\u0002";

/**
 * The demonstration's next state rewritten for the current step. A page that echoes its task's instruction
 * (WebShop repeats it on every page) echoes the current one: word alignment would only half-rewrite it.
 */
function adapt(demo: Demonstration, a: Analogy, exact: boolean, instruction: string): Observation {
  if (exact && demo.instruction === instruction) return demo.next;
  const echoed = demo.instruction.length > 0 && demo.next.text.includes(demo.instruction);
  const source = echoed ? demo.next.text.replaceAll(demo.instruction, ECHO) : demo.next.text;
  const rewritten = exact ? source : applySubstitutions(source, a.substitutions).text;
  const text = echoed ? rewritten.replaceAll(ECHO, instruction) : rewritten;
  if (exact) return { ...demo.next, text };
  const actions = demo.next.actions?.map((x) => applySubstitutions(x, a.substitutions).text);
  return actions ? { text, actions: [...new Set(actions)] } : { text };
}

function argumentOf(action: string): string | undefined {
  return /^\s*[a-z_]+\s*\[(.*)\]\s*$/i.exec(action)?.[1]?.trim();
}

/**
 * The query a listing answers: the text the agent typed last (an argument that is not an element of the page it
 * acted on), in this action or earlier in the episode.
 */
function queryOf(input: ExperienceInput): string | undefined {
  const steps = [...input.history, { action: input.action, state: input.state, valid: true }];
  for (let i = steps.length - 1; i >= 0; i--) {
    const step = steps[i]!;
    const arg = argumentOf(step.action);
    if (!step.valid || arg === undefined || arg === "") continue;
    const onPage = (step.state.actions ?? []).some((a) => argumentOf(a)?.toLowerCase() === arg.toLowerCase());
    if (!onPage) return arg;
  }
  return undefined;
}

/**
 * The earlier page of this episode (not the current one) most like the analogue's next page, among those of the
 * same kind: where both list their actions, a page whose action templates are mostly not the analogue's is
 * another kind of page (an item page is not the search page that "back to search" leads to, even when the search
 * page has scrolled out of the history shown), and then the history does not hold the page it went back to.
 */
function wentBackTo(
  input: ExperienceInput,
  adapted: Observation,
): { state: Observation; stepsAgo: number } | undefined {
  const like = wordSet(adapted.text);
  let best: { state: Observation; stepsAgo: number; similarity: number } | undefined;
  input.history.forEach((step, i) => {
    if (step.state.text === input.state.text) return;
    if (!ofOneKind(adapted, step.state)) return;
    const similarity = jaccard(like, wordSet(step.state.text));
    // Ties go to the most recent page.
    if (!best || similarity >= best.similarity) {
      best = { state: step.state, stepsAgo: input.history.length - i, similarity };
    }
  });
  return best;
}

/** Two pages are of one kind when at least half of their action templates are shared. */
const SAME_KIND = 0.5;

/** Whether two pages are of one kind (SAME_KIND); a page that lists no actions cannot be told apart from any. */
function ofOneKind(a: Observation, b: Observation): boolean {
  if (!a.actions || !b.actions) return true;
  return jaccard(templateSet(a.actions), templateSet(b.actions)) >= SAME_KIND;
}

function templateSet(actions: readonly string[]): Set<string> {
  const page = { text: "", actions: [...actions] };
  return new Set(actions.map((a) => actionTemplate(a, page)));
}

function withoutEcho(text: string, instruction: string): string {
  return instruction.length > 0 ? text.replaceAll(instruction, " ") : text;
}

/**
 * A page as alignment sees it (without its task's instruction; squashed for the exact test), remembered by its
 * text: each step aligns its page with every demonstration, and each demonstration's page with many steps, and
 * making these copies again was a tenth of everything a run allocated.
 */
const pageViews = new LRUCache<string, { squashed: string; without: Map<string, string> }>({ max: 4_096 });
/** Instructions remembered per page: a demonstration's own, and the tasks of the steps that meet it. */
const INSTRUCTIONS_PER_PAGE = 64;

function viewsOf(text: string): { squashed: string; without: Map<string, string> } {
  let views = pageViews.get(text);
  if (!views) {
    views = { squashed: squash(text), without: new Map() };
    pageViews.set(text, views);
  }
  return views;
}

function pageWithoutEcho(text: string, instruction: string): string {
  const { without } = viewsOf(text);
  let page = without.get(instruction);
  if (page === undefined) {
    if (without.size >= INSTRUCTIONS_PER_PAGE) without.clear();
    page = withoutEcho(text, instruction);
    without.set(instruction, page);
  }
  return page;
}

function wordSet(text: string): Set<string> {
  return new Set(text.toLowerCase().match(/[a-z0-9]+/g) ?? []);
}

function jaccard(a: Set<string>, b: Set<string>): number {
  let inter = 0;
  for (const w of a) if (b.has(w)) inter++;
  const union = a.size + b.size - inter;
  return union === 0 ? 1 : inter / union;
}

function quote(text: string, max = 140): string {
  // Pages run to kilobytes and a quote keeps the first `max` characters: flattening a prefix with room to spare
  // gives the same quote whenever the prefix alone has more than `max` of them before its trailing space.
  const head =
    text.length > 4 * max
      ? text
          .slice(0, 4 * max)
          .replace(/\s+/g, " ")
          .trimStart()
      : undefined;
  const flat = head !== undefined && head.trimEnd().length > max ? head : text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? `"${flat}"` : `"${flat.slice(0, max)}…"`;
}

/**
 * The retrieval experience model (the embedded backend's): no weights, no network, deterministic. It is grounded entirely in the
 * retrieved demonstrations: it finds the demonstrations that took the same kind of action in the most similar
 * situation, rewrites their next state for the current one by analogy (aligned substitutions of the entities
 * that differ), and estimates done and reward from the demonstrations whose progress towards the instruction
 * was most like the current step's. Its reasoning trace cites that evidence. With reasoning ablated it takes the
 * single best analogue instead of deliberating over the top candidates, and does not check the instruction's
 * requirements one by one (the price bound, the options asked for) before the reward. It is a baseline: its fidelity is
 * measured against the real environments like any other backend's.
 */
export class RetrievalExperienceModel implements ExperienceModel {
  readonly name = RETRIEVAL_EXPERIENCE_MODEL;

  /**
   * Mappings by the demonstration (the buffer hands out the same object for the same neighbour while its answer
   * is remembered), then by the step's state, action and instruction: keyed by texts the step already holds, not
   * by a new string of every text. A demonstration meets at most MAPPINGS_PER_DEMONSTRATION steps here.
   */
  private mappings = new WeakMap<Demonstration, Map<string, Map<string, Mapping>>>();
  /** Mappings made since `mappings` was last fresh (MAPPINGS_KEPT). */
  private mapped = 0;
  /** Whole predictions by everything they are made from (PREDICTIONS_MEMO). */
  private readonly predictions = new LRUCache<string, ExperiencePrediction>({ max: PREDICTIONS_MEMO });
  /**
   * A demonstration's goal evidence, by its id: the same demonstrations are retrieved step after step. What it
   * was computed from is kept, to check the id still names the same transition.
   */
  private readonly evidence = new LRUCache<string, { of: Demonstration; evidence: GoalEvidence }>({
    max: EVIDENCE_MEMO,
  });

  private demoEvidence(demo: Demonstration): GoalEvidence {
    const hit = this.evidence.get(demo.id);
    if (
      hit &&
      hit.of.state.text === demo.state.text &&
      sameList(hit.of.state.actions, demo.state.actions) &&
      hit.of.instruction === demo.instruction &&
      hit.of.action === demo.action
    )
      return hit.evidence;
    const evidence = goalEvidence(
      demo.instruction,
      demo.state,
      demo.action,
      this.settings.reasoning,
      this.vocabulary,
      this.memory?.amountBound,
      this.memory?.pagesTellAll === false ? this.memory.traceBefore(demo.id) : undefined,
      this.memory?.pagesTellAll === false ? this.memory.unseenWords : undefined,
    );
    this.evidence.set(demo.id, { of: demo, evidence });
    return evidence;
  }

  /**
   * @param memory what the model learnt from the offline demonstrations (listings and the pages their entries
   * open); without it the model knows only the demonstrations retrieved for each step.
   */
  constructor(
    private readonly settings: Pick<ExperienceSettings, "reasoning">,
    private readonly memory?: OfflineMemory,
  ) {
    this.vocabulary = memory && ((group) => memory.optionValues(group));
  }

  /** Real pages seen during the run join the memory: an entry opened for real is then recalled, not invented. */
  learn(transitions: readonly Transition[]): void {
    this.memory?.learn(transitions);
    this.predictions.clear();
    // New pages can teach new option values, which change what a page shows broken.
    this.evidence.clear();
  }

  /** The domain's option values, from the memory (none without it): made once, read on every prediction. */
  private readonly vocabulary: OptionVocabulary | undefined;

  private mapping(demo: Demonstration, input: ExperienceInput): Mapping {
    if (this.mapped >= MAPPINGS_KEPT) {
      this.mappings = new WeakMap();
      this.mapped = 0;
    }
    let byState = this.mappings.get(demo);
    if (!byState) {
      byState = new Map();
      this.mappings.set(demo, byState);
    }
    let byStep = byState.get(input.state.text);
    if (!byStep) {
      if (byState.size >= MAPPINGS_PER_DEMONSTRATION) byState.clear();
      byStep = new Map();
      byState.set(input.state.text, byStep);
    }
    // Joined by a character that no action or instruction contains; by task too, as whether a demonstration of the
    // very same page counts as one may depend on its task (pagesTellAll).
    const key = `${input.action}\u0000${input.task.instruction}\u0000${input.task.id}`;
    const hit = byStep.get(key);
    if (hit) return hit;
    // The instructions differ from task to task but say nothing about how the world maps onto this one.
    const a = analogy(
      { state: pageWithoutEcho(demo.state.text, demo.instruction), action: demo.action },
      { state: pageWithoutEcho(input.state.text, input.task.instruction), action: input.action },
      // Where each task has its own world, the demonstration's was made for its own instruction.
      this.memory?.pagesTellAll === false
        ? { demo: demo.instruction, current: input.task.instruction }
        : undefined,
      this.memory?.pagesTellAll === false,
    );
    // The same page and action answer alike where a page tells all of the state (the offline data says whether it
    // does), or within one task's world.
    const exact =
      viewsOf(demo.state.text).squashed === viewsOf(input.state.text).squashed &&
      normaliseAction(demo.action) === normaliseAction(input.action) &&
      (this.memory?.pagesTellAll !== false || (demo.taskId !== undefined && demo.taskId === input.task.id));
    const instruction = input.task.instruction;
    let next: Observation | undefined;
    let nextWords: Set<string> | undefined;
    const mapping: Mapping = {
      analogy: a,
      exact,
      get next() {
        next ??= adapt(demo, a, exact, instruction);
        return next;
      },
      get nextWords() {
        nextWords ??= wordSet(this.next.text);
        return nextWords;
      },
    };
    byStep.set(key, mapping);
    this.mapped++;
    return mapping;
  }

  /** Whether the action opens an entry of the current listing whose page the model remembers. */
  private recalls(input: ExperienceInput): boolean {
    if (!this.memory) return false;
    const target = argumentOf(input.action)?.toLowerCase();
    const listing = target === undefined ? undefined : parseListing(input.state);
    return (
      listing?.records.some((r) => r.key.toLowerCase() === target) === true &&
      this.memory.page(input.action, input.task.instruction) !== undefined
    );
  }

  /**
   * What the memory of the offline demonstrations says beyond the analogue: the page of an entry they opened, or
   * the entries a listing for this query holds (the analogue's own entries are a neighbour's, for its query).
   */
  private recall(input: ExperienceInput, chosen: Candidate): Recall | undefined {
    if (!this.memory) return undefined;
    const adapted = chosen.next;
    // Where going back leads depends on where this episode has been, which even the very same page and action
    // in another episode cannot say.
    const back = this.memory.goesBack(input.action) ? wentBackTo(input, adapted) : undefined;
    if (back) {
      return {
        next: back.state,
        known: true,
        explanation: `In the offline demonstrations "${input.action}" goes back to a page visited earlier, so it shows the page this episode was on ${back.stepsAgo} step${back.stepsAgo === 1 ? "" : "s"} ago (the one most like the analogue's).`,
      };
    }
    if (chosen.exact) return undefined;
    // A choice edits this page, however the analogue's page (or this episode's earlier one) stood.
    const chosenPage = choiceEdit(input.state, input.action, chosen.demo);
    if (chosenPage !== undefined) {
      return {
        next: { ...input.state, text: chosenPage },
        known: false,
        explanation: `"${input.action}" chooses an option of this page; ${chosen.historyStep !== undefined ? `${chosen.historyStep} steps ago in this episode` : `demonstration ${chosen.index + 1}`} shows how a choice is recorded, so this page records it beside the choices already made.`,
      };
    }
    if (chosen.historyStep !== undefined) return undefined;
    if (this.recalls(input)) {
      return {
        next: this.memory.page(input.action, input.task.instruction)!,
        known: true,
        explanation: `The offline demonstrations opened this very entry ("${input.action}"), so its page is known.`,
      };
    }
    const entry = this.openedEntry(input, chosen);
    if (entry) return entry;
    if (chosen.sameTemplate && editsInPlace(chosen.demo.state, chosen.demo.next)) {
      const text = transferEdit(
        withoutEcho(chosen.demo.state.text, chosen.demo.instruction),
        withoutEcho(chosen.demo.next.text, chosen.demo.instruction),
        input.state.text,
        (segment) => applySubstitutions(segment, chosen.analogy.substitutions).text,
      );
      if (text !== undefined) {
        return {
          next: { ...input.state, text },
          known: false,
          explanation: `Demonstration ${chosen.index + 1}'s action changed its page in place, so the same change is made to this page.`,
        };
      }
    }
    const listing = parseListing(adapted);
    const query = listing ? queryOf(input) : undefined;
    if (!listing || query === undefined) return undefined;
    const perPage = listing.records.length;
    const page = Number(/\bpage\s+(\d+)/i.exec(listing.head.join(" "))?.[1] ?? 1);
    const records = this.memory.ranked(query, page * perPage).slice((page - 1) * perPage);
    if (records.length === 0) return undefined;
    const old = new Set(listing.records.map((r) => r.key.toLowerCase()));
    const opener = adapted.actions?.find((a) => old.has(argumentOf(a)?.toLowerCase() ?? ""));
    const actions = adapted.actions && [
      ...adapted.actions.filter((a) => !old.has(argumentOf(a)?.toLowerCase() ?? "")),
      ...(opener ? records.map((r) => opener.replace(/\[.*\]/, `[${r.key.toLowerCase()}]`)) : []),
    ];
    return {
      next: { text: renderListing({ ...listing, records }), ...(actions ? { actions } : {}) },
      known: false,
      explanation: `Its listing holds the entries the offline demonstrations showed that best match "${query}"${page > 1 ? ` (page ${page})` : ""}, not the analogue's own.`,
    };
  }

  /**
   * An entry of the current listing whose page nobody opened: the analogue opened another entry of its listing, so
   * its page is that entry's, and what the listing said about the entry (title, price) is what differs.
   */
  private openedEntry(input: ExperienceInput, chosen: Candidate): Recall | undefined {
    const target = argumentOf(input.action)?.toLowerCase();
    const entry = parseListing(input.state)?.records.find((r) => r.key.toLowerCase() === target);
    const theirs = argumentOf(chosen.demo.action)?.toLowerCase();
    const their = parseListing(chosen.demo.state)?.records.find((r) => r.key.toLowerCase() === theirs);
    if (!entry || !their || their.fields.length !== entry.fields.length) return undefined;
    let text = chosen.demo.next.text.replaceAll(chosen.demo.instruction, input.task.instruction);
    their.fields.forEach((field, i) => {
      text = text.replaceAll(field, entry.fields[i]!);
    });
    return {
      next: { ...chosen.demo.next, text },
      known: false,
      explanation: `It opens an entry the demonstrations did not open; demonstration ${chosen.index + 1} opened another entry of its listing, so this page is that page with what the listing says about this entry (${entry.fields.map((f) => `"${f}"`).join(", ")}).`,
    };
  }

  /**
   * A page rewritten from an analogue, made this task's world's: whether the place looked at holds what the request
   * asks for (sightings.ts), and what the action never changes kept as this page has it, with the actions this
   * world offers (frames.ts). This episode's own page of the same action keeps its world and takes this step's
   * frame (what the agent holds, what it is offered); a page seen (remembered, exact) is left as it was.
   */
  private ofThisWorld(
    input: ExperienceInput,
    analogous: Observation,
    from: "analogue" | "revisit" | "seen",
  ): { next: Observation; sighting?: { word: string; held: boolean; rate: number } } {
    if (from === "seen" || !this.memory) return { next: analogous };
    const steps = input.episode ?? input.history;
    const earlier = steps.map((s) => s.state);
    // This episode's own page of the same action: what the agent has and is offered is this step's, not then's.
    if (from === "revisit")
      return { next: this.memory.keepFrame(input.state, input.action, analogous, earlier) };
    const sighting = this.memory.sight(input.task, input.state, input.action, analogous, earlier, steps);
    const next = this.memory.keepFrame(input.state, input.action, sighting?.next ?? analogous, earlier);
    return sighting ? { next, sighting } : { next };
  }

  async predict(input: ExperienceInput): Promise<ExperiencePrediction> {
    const started = performance.now();
    const memory = this.memory;
    // This episode's own pages of the same action, where what the action keeps (what the agent holds) is as it was
    // then: a page from when the hands were full offers nothing to take.
    const revisits = revisitsOf(
      input,
      memory ? (earlier) => memory.sameFrame(input.state, input.action, earlier) : undefined,
    );
    const key = predictionKey(
      input,
      this.memory?.goesBack(input.action) === true,
      this.memory?.pagesTellAll === false
        ? episodeTrace(
            input.episode ?? input.history,
            input.task.instruction,
            this.memory.fulfils,
            input.action,
          )
        : undefined,
      revisits,
      memory?.movesKey(input.task, input.episode ?? input.history) ?? "",
    );
    let prediction = this.predictions.get(key);
    if (!prediction) {
      prediction = await this.answer(input, revisits);
      this.predictions.set(key, prediction);
    }
    return { ...prediction, latencyMs: performance.now() - started };
  }

  private async answer(
    input: ExperienceInput,
    revisits: readonly { step: Step; stepsAgo: number }[],
  ): Promise<ExperiencePrediction> {
    const started = performance.now();
    const finish = (p: Omit<ExperiencePrediction, "model" | "latencyMs">): ExperiencePrediction => ({
      ...p,
      reasoning: this.settings.reasoning ? p.reasoning : "",
      model: this.name,
      latencyMs: performance.now() - started,
    });

    const admissible = isAdmissible(input.action, input.state.actions);
    if (admissible === false) {
      return finish({
        ...invalid(
          input,
          `The action "${input.action}" is not among the admissible actions of the current state, so it is not possible here: the state stays the same and the reward is 0.`,
        ),
        // The state lists what can be done: no guess is involved.
        confidence: combine({ admissibility: 1 }),
      });
    }

    const template = actionTemplate(input.action, input.state);
    // Without retrieval (k = 0) the model still knows what it learnt from the offline data: a few examples of each
    // kind of action and outcome (OfflineMemory.prototypes), the same whatever the step, where retrieval brings the
    // demonstrations most like it.
    // And where retrieval brought none of this kind of action, those examples join what it brought: an action's
    // outcome read off another kind's ended "open shelf 2" with a put's success.
    const retrieved =
      !this.memory || input.demonstrations.some((d) => actionTemplate(d.action, d.state) === template)
        ? input.demonstrations
        : [...input.demonstrations, ...this.memory.prototypes(template)];
    // The agent's own earlier steps with the same action are evidence too (history is what makes that possible).
    const ownSteps = revisits.map(({ step, stepsAgo }) => ({
      demo: {
        ...step,
        id: `history-${stepsAgo}`,
        domain: input.task.domain,
        instruction: input.task.instruction,
        source: "synthetic" as const,
        taskId: input.task.id,
        score: 1,
      },
      historyStep: stepsAgo,
    }));
    const evidence = [...retrieved.map((demo) => ({ demo, historyStep: undefined })), ...ownSteps];
    const candidates = evidence
      .map(({ demo, historyStep }, index): Candidate => {
        const mapping = this.mapping(demo, input);
        const { analogy: a, exact } = mapping;
        const sameTemplate = actionTemplate(demo.action, demo.state) === template;
        const score = candidateScore(a, exact, sameTemplate, demo, input.task.id, historyStep !== undefined);
        return {
          demo,
          index,
          ...(historyStep !== undefined ? { historyStep } : {}),
          analogy: a,
          exact,
          sameTemplate,
          score,
          get next() {
            return mapping.next;
          },
          get nextWords() {
            return mapping.nextWords;
          },
        };
      })
      .sort((x, y) => y.score - x.score || x.index - y.index);

    if (candidates.length === 0) {
      return finish({
        reasoning: `No demonstrations were retrieved, so there is no evidence of what "${input.action}" does here. Without evidence the safest prediction is that the state does not change visibly, with reward 0 and the episode going on.`,
        next: input.state,
        reward: 0,
        done: false,
        success: false,
        valid: true,
        confidence: combine({ familiarity: 0, match: 0, agreement: 0, outcome: 0 }),
      });
    }

    const best = this.settings.reasoning
      ? deliberate(candidates)
      : { chosen: candidates[0]!, agreeing: 1, considered: 1 };
    const chosen = best.chosen;

    const outcome = estimateOutcome(
      input,
      candidates,
      chosen,
      this.settings.reasoning,
      (demo) => this.demoEvidence(demo),
      this.memory?.gradedOutcomes ?? false,
      this.vocabulary,
      this.memory,
    );
    const recall = this.recall(input, chosen);
    const confidence = confidenceOf(input, chosen, best, outcome, recall?.known === true);
    if (!chosen.demo.valid && (chosen.exact || (chosen.sameTemplate && chosen.analogy.overlap > 0.9))) {
      return finish({
        ...invalid(
          input,
          `Demonstration ${chosen.index + 1} tried the same action in ${chosen.exact ? "this very" : "an almost identical"} state and it was not possible there, so it is not possible here either: the state stays the same and the reward is 0.`,
        ),
        confidence,
      });
    }

    // A page rewritten from an analogue keeps what this action never changes as this page has it.
    const from =
      recall?.known === true || chosen.exact
        ? "seen"
        : chosen.historyStep !== undefined
          ? "revisit"
          : "analogue";
    const { next, sighting } = this.ofThisWorld(input, recall?.next ?? chosen.next, from);
    const lines = [
      `The action "${input.action}" ${admissible ? "is among the admissible actions" : "was not checked against a list of admissible actions"}.`,
      chosen.historyStep !== undefined
        ? `${chosen.historyStep} step${chosen.historyStep === 1 ? "" : "s"} ago in this episode the same action led to ${quote(chosen.demo.next.text, 100)}; the world has not been reset since, so the same place shows the same thing.`
        : chosen.exact
          ? `Demonstration ${chosen.index + 1} (similarity ${chosen.demo.score.toFixed(2)}, ${chosen.demo.source}) took this very action in this very state, and the environment is deterministic, so its next state carries over unchanged.`
          : `Demonstration ${chosen.index + 1} (similarity ${chosen.demo.score.toFixed(2)}, ${chosen.demo.source}) ${chosen.sameTemplate ? "took the same kind of action" : "is the closest evidence, though its action differs"} ("${chosen.demo.action}") in a similar state.${describeMapping(chosen.analogy)}`,
      recall?.explanation ?? "",
      sighting ? describeSighting(sighting) : "",
      `So the next state is ${quote(next.text)}.`,
      best.considered > 1
        ? `${best.agreeing} of the ${best.considered} best analogues agree on this outcome.`
        : "",
      outcome.explanation,
    ];
    return finish({
      reasoning: lines.filter(Boolean).join(" "),
      next,
      reward: outcome.reward,
      done: outcome.done,
      success: outcome.success,
      valid: true,
      confidence,
    });
  }
}

function describeSighting(sighting: { word: string; held: boolean; rate: number }): string {
  return `Whether this place holds "${sighting.word}" belongs to this task's world, not the analogue's: in the offline episodes this kind of action showed a request's "${sighting.word}" at such a place in ${Math.round(sighting.rate * 100)}% of the steps, and this task's world ${sighting.held ? "holds one here, so the page is a real page of such a place that showed its own request's object, made this request's" : "holds none here, so the page is a real page of such a place that showed nothing its request asked for"}.`;
}

function invalid(
  input: ExperienceInput,
  reasoning: string,
): Omit<ExperiencePrediction, "model" | "latencyMs"> {
  return { reasoning, next: input.state, reward: 0, done: false, success: false, valid: false };
}

function describeMapping(a: Analogy): string {
  const shown = a.substitutions
    .filter((s) => s.from.join(" ") !== s.to.join(" ").toLowerCase())
    .slice(0, 4)
    .map((s) => `"${s.from.join(" ")}" → "${s.to.join(" ")}"`);
  return shown.length
    ? ` Mapping its situation onto this one (${shown.join(", ")}) rewrites its outcome for here.`
    : "";
}

/** Self-consistency over the top candidates: the adapted next state that most other analogues agree with. */
function deliberate(candidates: Candidate[]): { chosen: Candidate; agreeing: number; considered: number } {
  if (candidates[0]!.exact) return { chosen: candidates[0]!, agreeing: 1, considered: 1 };
  const pool = candidates.filter((c) => c.sameTemplate).slice(0, DELIBERATION);
  if (pool.length <= 1) return { chosen: pool[0] ?? candidates[0]!, agreeing: 1, considered: 1 };
  const sets = pool.map((c) => c.nextWords);
  let bestIndex = 0;
  let bestValue = -1;
  let agreeing = 1;
  pool.forEach((c, i) => {
    let support = 0;
    let agree = 1;
    sets.forEach((other, j) => {
      if (i === j) return;
      const similarity = jaccard(sets[i]!, other);
      support += similarity * pool[j]!.score;
      if (similarity > 0.8) agree++;
    });
    const value = c.score + support / pool.length;
    if (value > bestValue) {
      bestValue = value;
      bestIndex = i;
      agreeing = agree;
    }
  });
  return { chosen: pool[bestIndex]!, agreeing, considered: pool.length };
}

interface Outcome {
  reward: number;
  done: boolean;
  success: boolean;
  explanation: string;
  /** 0–1: how unanimous the analogues' evidence on ending the episode and its reward was. */
  certainty: number;
}

/**
 * The parts of a retrieval prediction's confidence:
 * - familiarity: the retriever's best cosine (is this state and action novel for the replay buffer?);
 * - match: how little of the chosen analogue had to be rewritten (1 for the very same state and action);
 * - agreement: the share of the best analogues whose adapted next state agrees with the chosen one;
 * - outcome: how unanimous the analogues were on done and the reward.
 */
function confidenceOf(
  input: ExperienceInput,
  chosen: Candidate,
  best: { agreeing: number; considered: number },
  outcome: Outcome,
  recalled: boolean,
): Confidence {
  const sure = chosen.exact || chosen.historyStep !== undefined || recalled;
  return combine({
    familiarity: sure ? 1 : Math.max(0, ...input.demonstrations.map((d) => d.score)),
    match: sure ? 1 : chosen.analogy.overlap * (chosen.sameTemplate ? 1 : 0.5),
    agreement: best.agreeing / Math.max(1, best.considered),
    outcome: outcome.certainty,
  });
}

/**
 * done from the demonstrations that took the same kind of action; reward by kernel regression over them on goal
 * evidence (how much of the instruction their situation satisfied vs this one). Only with reasoning are the
 * instruction's requirements checked one by one (evidence.ts).
 */
function estimateOutcome(
  input: ExperienceInput,
  candidates: Candidate[],
  chosen: Candidate,
  reasoning: boolean,
  demoEvidence: (demo: Demonstration) => GoalEvidence,
  gradedOutcomes: boolean,
  vocabulary: OptionVocabulary | undefined,
  memory: OfflineMemory | undefined,
): Outcome {
  // A real episode cut off at its step limit did not end there by anything it did: the synthetic episode keeps its
  // own limit.
  const ends = (demo: Demonstration) => demo.done && memory?.endedByTime(demo.id) !== true;
  if (chosen.exact) {
    return {
      reward: chosen.demo.reward,
      done: ends(chosen.demo),
      success: chosen.demo.success,
      explanation: `It ${ends(chosen.demo) ? "ended the episode" : "did not end the episode"} with reward ${chosen.demo.reward}.`,
      certainty: 1,
    };
  }
  const peers = candidates.filter((c) => c.sameTemplate);
  const pool = peers.length > 0 ? peers : [chosen];
  const top = pool[0]!.score;
  const weight = (c: Candidate) => Math.exp(2 * (c.score - top));
  // Where a page does not tell all of the state, what the episode did before is part of it: the demonstrations
  // are read with their own episodes' traces (OfflineMemory.traceBefore), this step with its own.
  const traced = memory?.pagesTellAll === false;
  const here = goalEvidence(
    input.task.instruction,
    input.state,
    input.action,
    reasoning,
    vocabulary,
    memory?.amountBound,
    traced
      ? episodeTrace(input.episode ?? input.history, input.task.instruction, memory.fulfils, input.action)
      : undefined,
    traced ? memory.unseenWords : undefined,
  );
  const evidence = here.score;
  // Where a page does not tell all of the state, whether an action of this kind ends the episode can depend on
  // what the episode achieved (putting an object down ends a household episode only where that meets the request):
  // peers with evidence like this step's count most, and the floor leaves the decision to retrieval where no peer's
  // evidence is near. Where pages tell all, the same page and action end alike, and weighing the shop's endings so
  // lost on validation (DreamGym GRPO 55.5 against 63.0, seeds 0–3).
  const byEvidence = memory?.pagesTellAll !== true;
  const near = (c: Candidate) =>
    UNALIKE_WEIGHT +
    Math.exp(-((demoEvidence(c.demo).score - evidence) ** 2) / (2 * EVIDENCE_BANDWIDTH ** 2));
  const doneWeight = (c: Candidate) => (byEvidence ? weight(c) * near(c) : weight(c));
  const totalWeight = pool.reduce((s, c) => s + doneWeight(c), 0);
  const doneShare = pool.reduce((s, c) => s + doneWeight(c) * (ends(c.demo) ? 1 : 0), 0) / totalWeight;
  let done = doneShare >= 0.5;
  const ending = pool.filter((c) => ends(c.demo) === done);
  // The share of an outcome reward that each requirement broken here and not in a demonstration costs: a
  // demonstration that met them all says nothing of what one missed is worth, so it is learnt from the real
  // episodes' endings (OfflineMemory.brokenCost); without them, each requirement of this instruction is an equal
  // share. Without it a purchase that skipped an asked option, among demonstrations that all chose theirs,
  // inherited their reward (the kernel weights normalise away).
  const brokenCost = memory?.brokenCost() ?? 1 / Math.max(1, here.requirements);
  let reward = 0;
  let successShare = 0;
  let explanation: string;
  if (ending.length === 0) {
    explanation = "No similar demonstration shows a reward for this, so the reward is 0.";
  } else {
    let num = 0;
    let den = 0;
    let succeeded = 0;
    for (const c of ending) {
      const theirs = demoEvidence(c.demo);
      const e = theirs.score;
      // A step that visibly breaks a requirement (a price above the bound, an option not asked for) is like the
      // demonstrations that broke one too, whatever else they had in view: an outcome with nothing broken says
      // little about it, and the other way round.
      const alike = theirs.broken.length > 0 === here.broken.length > 0;
      const k =
        weight(c) *
        Math.exp(-((e - evidence) ** 2) / (2 * EVIDENCE_BANDWIDTH ** 2)) *
        (alike ? 1 : UNALIKE_WEIGHT);
      // A demonstration rewarded r with more of its goal in view says less than r for this situation: outcome
      // rewards grow with the goal satisfied, so below its evidence the reward scales down with ours (without
      // this, kernel weights normalise away and a half-right purchase inherits the experts' 1).
      const scale = e > evidence && e > 0 ? evidence / e : 1;
      const excess = Math.max(0, here.broken.length - theirs.broken.length);
      num += k * c.demo.reward * scale * Math.max(0, 1 - brokenCost * excess);
      den += k;
      // A success that needed clearly more of its goal in view than this situation shows is no evidence of one here.
      // Nor is a success with fewer requirements broken than here.
      // Where pages do not tell all, the trace says what the episode did, and a success that left fewer of its
      // request's words undone than this step leaves is no evidence of one either: one change of two asked
      // shows most of a request's words, but not the other change's.
      if (
        c.demo.success &&
        e <= evidence + SUCCESS_EVIDENCE_SLACK &&
        theirs.broken.length >= here.broken.length &&
        (!traced || here.requirements - here.met <= theirs.requirements - theirs.met)
      )
        succeeded += k;
    }
    reward = den > 0 ? num / den : 0;
    successShare = den > 0 ? succeeded / den : 0;
    // Binary outcome rewards (success or not) only where the demonstrations show both outcomes, and never in a
    // domain whose real episodes end with graded rewards: there a handful of retrieved 0s and 1s is a sample of
    // the graded scale, and rounding its estimate gave a purchase that left a third of the instruction unshown
    // the full reward (the shop's rewards are graded; 0.66 became 1).
    const binary =
      !gradedOutcomes &&
      ending.every((c) => c.demo.reward === 0 || c.demo.reward === 1) &&
      ending.some((c) => c.demo.reward === 0) &&
      ending.some((c) => c.demo.reward === 1);
    // And then the reward is the likelier outcome's: a success only where the demonstrations that count as evidence
    // of one (successShare) outweigh the rest. Rounding the kernel estimate instead paid a step with two thirds of
    // a successful ending's evidence in view as a success.
    if (binary) reward = successShare >= 0.5 ? 1 : 0;
    reward = Math.round(reward * 1000) / 1000;
    explanation = done
      ? `${Math.round(doneShare * 100)}% of the similar demonstrations of this action ended the episode. The current situation shows ${here.met} of the instruction's ${here.requirements} requirements met${here.broken.length > 0 ? ` and ${here.broken.length} broken (${here.broken.join("; ")})` : ""}, ${Math.round(evidence * 100)}% net; demonstrations like it were rewarded about ${reward}, so the predicted reward is ${reward}${successShare >= 0.5 ? `, and most of them succeeded (${Math.round(successShare * 100)}% of the weight), so this most likely succeeds` : ""}.`
      : `Most similar demonstrations of this action did not end the episode${reward > 0 ? `; they were rewarded about ${reward}` : ", and gave no reward"}.`;
  }
  const goesOn = done ? noEnding(input, memory, here, traced, successShare, reward) : undefined;
  if (goesOn !== undefined) {
    done = false;
    explanation += goesOn;
  }
  // Outcome rewards: only the step that ends the episode is rewarded.
  if (!done) reward = 0;
  // The reward is an expectation (a graded signal to learn from: a purchase of which the similar ones mostly
  // succeeded gets about 0.9, not 1, so that the policy still gains by making it surer); success is the likelier
  // of the two outcomes. Rewarding likely successes in full let a policy game the model with hasty purchases.
  const success = done && (reward >= 0.999 || successShare >= 0.5);
  // Ending or not: |2·share − 1| (an even split is no evidence). The reward: how far the kernel estimate was from
  // the binary decision it was rounded to, when it was rounded (0.5 exactly is a coin toss).
  const doneCertainty = Math.abs(2 * doneShare - 1);
  const rewardCertainty = done && ending.length > 0 ? rewardAgreement(ending, reward) : 1;
  return { reward, done, success, explanation, certainty: doneCertainty * rewardCertainty };
}

/**
 * Why a predicted ending that would not succeed is no ending, or undefined where it is one. An ending of a kind of
 * action that never ended a real episode but by succeeding: the real episode goes on (the object put in the wrong
 * place stays there). Nor one on the request's own record that breaks nothing, where this kind of action failed
 * real episodes only on other records: the request is not done yet.
 */
function noEnding(
  input: ExperienceInput,
  memory: OfflineMemory | undefined,
  here: GoalEvidence,
  traced: boolean,
  successShare: number,
  reward: number,
): string | undefined {
  if (successShare >= 0.5) return undefined;
  const kind = actionTemplate(input.action, input.state);
  if (memory?.endsOnlyInSuccess(kind) === true && reward < 0.999)
    return " But this kind of action ended real episodes only by succeeding, and this would not succeed, so the episode goes on.";
  if (
    traced &&
    here.broken.length === 0 &&
    memory?.failsOnlyOnAnotherRecord(kind) === true &&
    namesBestRecord(input.state, input.action, input.task.instruction) === true
  )
    return " But this kind of action failed real episodes only by acting on another record than the one the request describes, and this one acts on the request's own without finishing the request, so the episode goes on.";
  return undefined;
}

/** A candidate's rank among the evidence for a step (WEIGHTS). */
function candidateScore(
  a: Analogy,
  exact: boolean,
  sameTemplate: boolean,
  demo: Demonstration,
  taskId: string,
  revisit: boolean,
): number {
  return (
    (exact ? WEIGHTS.exact : 0) +
    (sameTemplate ? WEIGHTS.sameTemplate : 0) +
    WEIGHTS.overlap * a.overlap +
    WEIGHTS.retrieval * Math.max(0, demo.score) +
    (demo.taskId !== undefined && demo.taskId === taskId ? WEIGHTS.sameTask : 0) +
    (revisit ? WEIGHTS.revisit : 0) +
    (a.carriesRequest ? WEIGHTS.carriesRequest : 0)
  );
}

/** The share of the ending analogues whose reward is within 0.25 of the one predicted. */
function rewardAgreement(ending: Candidate[], reward: number): number {
  const close = ending.filter((c) => Math.abs(c.demo.reward - reward) <= 0.25).length;
  return close / ending.length;
}
