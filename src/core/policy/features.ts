/**
 * The feature space of the linear policy: hashed binary features of (instruction, history, state, candidate
 * action). A linear model over them can only learn what the crosses spell out, so each group below is a question
 * the policy needs answered to play the shop or the household:
 *
 *   shape, verb        which kind of action is this ("click #", "go to cabinet #", "buy now")
 *   match, coverage    does the action name what the instruction asks for, and is it the best such candidate
 *   phrase             is the argument a phrase of the instruction, and not just part of a longer candidate that is
 *                      ("small" when the task says "x-small")
 *   cross              which instruction word goes with which action word ("hot" x "microwave", "bread" x "cabinet")
 *   follower           for a product code, does the title after it on the page cover the instruction; is it in budget;
 *                      for a call's id or path, the same of the state's line that begins with it
 *   repeat             was this action taken before, is its argument already selected or held (loops are how a
 *                      weak agent wastes its steps, and greedy play never leaves one by chance)
 *   entity             is the named thing here, asked for, already visited (and how: only walked to, or also
 *                      opened), or where we saw what the task needs
 *   state words        what the page or room says ("closed", "nothing", "total results"), and how much of the
 *                      instruction it shows (an item page without the asked-for options: go back)
 *   phase              crosses of the above with the situation: holding what, options chosen, steps done
 *   pending            how many asked-for candidates are still untried (buy when nothing asked for is left)
 *   step, order        how far into the episode; position among candidates of the same verb
 *
 * Every feature is binary, so a candidate is a list of packed codes (index and sign, see hashing.ts).
 * Change anything here and bump FEATURE_SPACE_VERSION: old checkpoints would silently mean something else.
 */
import type { ParsedAction } from "./action";
import { parseAction } from "./action";
import type { DecisionContext } from "./context";
import { combine, featureCode } from "./hashing";
import { dollarAmounts, entityClass, tokenize } from "./text";

/** Names the feature space; checkpoints carry it and refuse to load into a different one. */
export const FEATURE_SPACE_VERSION = "dreamgym-policy-features-v1";

/** Namespaces keep the groups apart: the same tokens in two groups hash to unrelated weights. */
const NS = {
  // Candidate features (the policy).
  bias: 1,
  verb: 2,
  shape: 3,
  match: 4,
  matchRank: 5,
  argWord: 6,
  cross: 7,
  phaseCross: 8,
  follower: 9,
  followerRank: 10,
  price: 11,
  repeat: 12,
  repeatLast: 13,
  previous: 14,
  entity: 15,
  phaseEntity: 16,
  stateWord: 17,
  step: 18,
  phaseShape: 19,
  phaseMatch: 20,
  pending: 21,
  order: 22,
  phrase: 23,
  stateCoverage: 24,
  phaseCoverage: 25,
  repeatVerb: 26,
  repeatPhase: 27,
  inField: 28,
  missing: 29,
  entityVerbs: 30,
  entityClassVerbs: 31,
  // State features (the value function).
  vBias: 40,
  vPhase: 41,
  vStep: 42,
  vPhaseStep: 43,
  vStateWord: 44,
  vRepeat: 45,
  vVisited: 46,
  vCoverage: 47,
  vMissing: 48,
  vBest: 49,
  vAsked: 50,
} as const;

/** Action words crossed with instruction words; arguments rarely name more than this many things. */
const MAX_ACTION_WORDS = 4;
/** Entities of an action that get features ("take bread 2 from cabinet 2" names two). */
const MAX_ACTION_ENTITIES = 2;
/** Missing instruction words beyond this share one weight. */
const MAX_MISSING = 4;
/** Positions among same-verb candidates beyond this share one weight. */
const MAX_ORDER = 7;

/** Packed features of every candidate of one decision: candidate i owns codes[offsets[i]..offsets[i+1]). */
export interface CandidateRows {
  offsets: Int32Array;
  codes: Int32Array;
}

/** Step index buckets: the first moves differ in kind from late ones, and late ones are all alike. */
export function stepBucket(step: number): number {
  if (step <= 3) return step;
  if (step <= 5) return 4;
  if (step <= 8) return 5;
  if (step <= 15) return 6;
  if (step <= 30) return 7;
  return 8;
}

function h2(ns: number, a: number): number {
  return combine(ns, a);
}
function h3(ns: number, a: number, b: number): number {
  return combine(combine(ns, a), b);
}
function h4(ns: number, a: number, b: number, c: number): number {
  return combine(combine(combine(ns, a), b), c);
}
function h5(ns: number, a: number, b: number, c: number, d: number): number {
  return combine(combine(combine(combine(ns, a), b), c), d);
}

/** Whether `text` names `entity` as a whole ("cabinet 1" but not inside "cabinet 12"). */
function mentions(text: string, entity: string): boolean {
  for (let at = text.indexOf(entity); at >= 0; at = text.indexOf(entity, at + 1)) {
    const next = text.charCodeAt(at + entity.length);
    if (!(next >= 48 && next <= 57)) return true;
  }
  return false;
}

/** Per-candidate facts that need a pass over all candidates first (ranks, pending counts). */
interface CandidateFacts {
  action: ParsedAction;
  matches: number;
  /** Share of the instruction's words the action names, in fifths. */
  coverage: number;
  /** Share of the instruction's words covered by the text following the argument on the page, in fifths; -1 if none. */
  follower: number;
  /** 0 unknown, 1 within the instruction's budget, 2 over it. */
  price: number;
  count: number;
  /** The argument appears as a phrase in the instruction. */
  phrase: boolean;
}

function facts(ctx: DecisionContext, text: string): CandidateFacts {
  const action = parseAction(text);
  const words = ctx.instruction.tokens.length;
  let matches = 0;
  for (const w of action.content) if (ctx.instruction.set.has(w)) matches++;
  let follower = -1;
  let price = 0;
  // What the state says about the argument: the segments after a product code, or the line a call's id begins.
  const following =
    action.argument.length > 0
      ? (ctx.segmentFollowers.get(action.argument) ??
        (action.handle === undefined ? undefined : ctx.records.get(action.handle)))
      : undefined;
  if (following !== undefined) {
    let covered = 0;
    const seen = new Set<string>();
    for (const w of tokenize(following)) {
      if (ctx.instruction.set.has(w) && !seen.has(w)) {
        seen.add(w);
        covered++;
      }
    }
    follower = words === 0 ? 0 : Math.round((5 * covered) / words);
    const amount = dollarAmounts(following)[0];
    const budget = ctx.instruction.budget;
    if (amount !== undefined && budget !== undefined) price = amount <= budget ? 1 : 2;
  }
  return {
    action,
    matches,
    coverage: words === 0 ? 0 : Math.round((5 * Math.min(matches, words)) / words),
    follower,
    price,
    count: ctx.actionCounts.get(action.key) ?? 0,
    phrase: action.padded.length > 2 && ctx.instruction.padded.includes(action.padded),
  };
}

/** What the candidate set as a whole says about the state: how well the best candidate fits the instruction. */
interface CandidateSummary {
  bestMatches: number;
  bestFollower: number;
  /** Candidates that name something asked for and were not tried yet. */
  asked: number;
}

function summarize(all: readonly CandidateFacts[]): CandidateSummary {
  let bestMatches = 0;
  let bestFollower = -1;
  let asked = 0;
  for (const f of all) {
    bestMatches = Math.max(bestMatches, f.matches);
    bestFollower = Math.max(bestFollower, f.follower);
    if (f.matches > 0 && f.count === 0) asked++;
  }
  return { bestMatches, bestFollower, asked };
}

/**
 * Features of one decision, packed for a weight vector of size mask + 1: a row per candidate for the policy, and
 * one row for the state (the value function's input).
 */
export function decisionFeatures(
  ctx: DecisionContext,
  candidates: readonly string[],
  mask: number,
): { rows: CandidateRows; state: Int32Array } {
  const all = candidates.map((c) => facts(ctx, c));
  const summary = summarize(all);
  return { rows: candidateRows(ctx, all, summary, mask), state: stateRow(ctx, summary, mask) };
}

function candidateRows(
  ctx: DecisionContext,
  all: readonly CandidateFacts[],
  summary: CandidateSummary,
  mask: number,
): CandidateRows {
  const { bestMatches, bestFollower, asked } = summary;
  // A phrase of the instruction inside a longer candidate phrase of the instruction is only part of what is asked.
  const dominated = all.map(
    (f, i) =>
      f.phrase &&
      all.some(
        (g, j) =>
          j !== i &&
          g.phrase &&
          g.action.padded.length > f.action.padded.length &&
          g.action.padded.includes(f.action.padded),
      ),
  );
  const orderOfVerb = new Map<string, number>();
  const stepB = stepBucket(ctx.step);
  const phase = ctx.phase;
  const last = ctx.last;
  const instr = ctx.instruction;
  const codes: number[] = [];
  const offsets = new Int32Array(all.length + 1);
  const push = (h: number) => codes.push(featureCode(h, mask));

  all.forEach((f, i) => {
    offsets[i] = codes.length;
    const a = f.action;
    const v = a.verbHash;
    const order = orderOfVerb.get(a.verb) ?? 0;
    orderOfVerb.set(a.verb, order + 1);

    // What kind of action, and does it name what the instruction asks for.
    push(h2(NS.bias, 0));
    push(h2(NS.verb, v));
    push(h2(NS.shape, a.shapeHash));
    push(h4(NS.match, v, Math.min(f.matches, 3), f.coverage));
    push(h4(NS.matchRank, v, f.matches === bestMatches ? 1 : 0, f.matches > 0 ? 1 : 0));
    push(h3(NS.phrase, v, f.phrase ? (dominated[i] ? 1 : 2) : 0));
    const words = a.contentHashes.slice(0, MAX_ACTION_WORDS);
    a.content.slice(0, MAX_ACTION_WORDS).forEach((w, k) => {
      push(h4(NS.argWord, v, words[k] ?? 0, instr.set.has(w) ? 1 : 0));
    });
    for (const iw of instr.hashes) {
      for (const aw of words) {
        push(h3(NS.cross, iw, aw));
        push(h5(NS.phaseCross, phase, v, iw, aw));
      }
    }
    // The product behind a code, as the page lists it.
    if (f.follower >= 0) {
      push(h3(NS.follower, v, f.follower));
      push(h3(NS.followerRank, v, f.follower === bestFollower ? 1 : 0));
      push(h3(NS.price, v, f.price));
    }
    // Repeats.
    const count = Math.min(f.count, 3);
    push(h3(NS.repeat, a.shapeHash, count));
    push(h3(NS.repeatVerb, v, count));
    push(h4(NS.repeatPhase, phase, v, count));
    push(h3(NS.inField, v, a.argument.length > 0 && ctx.fieldValues.includes(a.argument) ? 1 : 0));
    if (last) {
      push(h4(NS.repeatLast, v, last.action.key === a.key ? 1 : 0, last.valid ? 1 : 0));
      push(h4(NS.previous, last.action.verbHash, v, last.valid ? 1 : 0));
    }
    // The things the action names, and what the episode knows about them.
    a.entities.slice(0, MAX_ACTION_ENTITIES).forEach((e, j) => {
      const here = mentions(ctx.stateLower, e) ? 1 : 0;
      const named = instr.set.has(entityClass(e)) ? 1 : 0;
      const visited = ctx.visited.has(e) ? 1 : 0;
      const sighted = ctx.sightings.has(e) ? 1 : 0;
      const flags = here | (named << 1) | (visited << 2) | (sighted << 3);
      push(h4(NS.entity, v, j, flags));
      push(h5(NS.phaseEntity, phase, v, j, flags));
      const handled = ctx.handledBy.get(e) ?? 0;
      push(h4(NS.entityVerbs, v, j, handled));
      push(h5(NS.entityClassVerbs, v, j, a.entityClassHashes[j] ?? 0, handled));
    });
    // The state, and the situation.
    for (const sw of ctx.stateWordHashes) push(h3(NS.stateWord, v, sw));
    push(h3(NS.stateCoverage, a.shapeHash, ctx.stateCoverage));
    push(h4(NS.phaseCoverage, phase, v, ctx.stateCoverage));
    push(h3(NS.missing, a.shapeHash, Math.min(ctx.missing, MAX_MISSING)));
    push(h3(NS.step, v, stepB));
    push(h3(NS.phaseShape, phase, a.shapeHash));
    push(h4(NS.phaseMatch, phase, v, Math.min(f.matches, 3)));
    const pendingOthers = asked - (f.matches > 0 && f.count === 0 ? 1 : 0);
    push(h3(NS.pending, a.shapeHash, Math.min(pendingOthers, 2)));
    push(h3(NS.order, v, Math.min(order, MAX_ORDER)));
  });
  offsets[all.length] = codes.length;
  return { offsets, codes: Int32Array.from(codes) };
}

/** Features of the state (no single candidate), for the value function. */
function stateRow(ctx: DecisionContext, summary: CandidateSummary, mask: number): Int32Array {
  const codes: number[] = [];
  const push = (h: number) => codes.push(featureCode(h, mask));
  const stepB = stepBucket(ctx.step);
  push(h2(NS.vBias, 0));
  push(h2(NS.vPhase, ctx.phase));
  push(h2(NS.vStep, stepB));
  push(h3(NS.vPhaseStep, ctx.phase, stepB));
  for (const sw of ctx.stateWordHashes) push(h2(NS.vStateWord, sw));
  let repeats = 0;
  for (const n of ctx.actionCounts.values()) repeats += n - 1;
  push(h2(NS.vRepeat, Math.min(repeats, 5)));
  push(h2(NS.vVisited, Math.min(ctx.visited.size, 10)));
  push(h3(NS.vCoverage, ctx.phase, ctx.stateCoverage));
  push(h3(NS.vMissing, ctx.phase, Math.min(ctx.missing, MAX_MISSING)));
  push(h4(NS.vBest, ctx.phase, Math.min(summary.bestMatches, 3), summary.bestFollower));
  push(h3(NS.vAsked, ctx.phase, Math.min(summary.asked, 3)));
  return Int32Array.from(codes);
}
