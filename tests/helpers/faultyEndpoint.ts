/**
 * An OpenAI-compatible endpoint that fails at random in every way issue 16 lists (429, 500, a hang past the
 * client's timeout, malformed JSON, truncated JSON, a reset connection), and a ledger of what it served, so that a
 * test can check what the app stored against what the endpoint really answered.
 */
import {
  type FakeReply,
  type FakeRequest,
  hang,
  malformed,
  rateLimited,
  reset,
  type ServedReply,
  serverError,
  truncated,
} from "./fakeOpenAIServer";

export const FAULT_KINDS = ["429", "500", "hang", "reset", "malformed", "truncated"] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];
export type ServedKind = FaultKind | "good";

/** The faults that the client retries: the endpoint did not answer. */
export const TRANSPORT_FAULTS: readonly FaultKind[] = ["429", "500", "hang", "reset"];
/** The faults that are an answer, but not a usable one. */
export const UNUSABLE_FAULTS: readonly FaultKind[] = ["malformed", "truncated"];

/** A seeded stream in [0, 1), so that a test's fault sequence is the same from one run to the next. */
export function seededRandom(seed: number): () => number {
  let state = seed % 2 ** 31;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

/** One fault of the given kind, in answer to a request whose good reply would be `good`. */
export function fault(kind: FaultKind, request: FakeRequest, good: FakeReply): FakeReply {
  switch (kind) {
    case "429":
      return rateLimited(0);
    case "500":
      return serverError(500);
    case "hang":
      return hang();
    case "reset":
      return reset();
    case "malformed":
      // Unique per request, so that a stored raw text leads back to the reply it came from.
      return malformed(`Sure! {"reasoning": "reply ${request.index}", next_state: oops}`);
    case "truncated":
      return good.kind === "ok"
        ? truncated(JSON.parse(good.content ?? "{}"))
        : { kind: "json", body: { object: "list", data: `cut ${request.index}` } };
  }
}

export interface FaultyEndpointOptions {
  /** Share of requests answered with a fault. */
  rate: number;
  random: () => number;
  /** Relative weight of each fault kind; 1 each when absent. */
  weights?: Partial<Record<FaultKind, number>>;
}

/** A handler that answers `good(request)`, or, `rate` of the time, a fault drawn by weight. */
export function faultyHandler(
  good: (request: FakeRequest) => FakeReply,
  options: FaultyEndpointOptions,
): (request: FakeRequest) => FakeReply {
  const kinds = FAULT_KINDS.map((kind) => ({ kind, weight: options.weights?.[kind] ?? 1 }));
  const total = kinds.reduce((sum, k) => sum + k.weight, 0);
  return (request) => {
    const reply = good(request);
    if (options.random() >= options.rate) return reply;
    let pick = options.random() * total;
    for (const { kind, weight } of kinds) {
      pick -= weight;
      if (pick < 0) return fault(kind, request, reply);
    }
    return reply;
  };
}

/** What kind of answer a served reply was, read off the reply itself. */
export function servedKind(served: ServedReply): ServedKind {
  const { reply } = served;
  switch (reply.kind) {
    case "hang":
      return "hang";
    case "reset":
      return "reset";
    case "error":
      return reply.status === 429 ? "429" : "500";
    case "json": {
      const data = (reply.body as { data?: unknown }).data;
      return Array.isArray(data) ? "good" : "truncated";
    }
    case "ok": {
      if (reply.finishReason === "length") return "truncated";
      try {
        JSON.parse(reply.content ?? "");
        return "good";
      } catch {
        return "malformed";
      }
    }
  }
}

/** A request that asks the model to repair its previous reply (the conversation holds that reply). */
export function isRepair(request: FakeRequest): boolean {
  return (request.body.messages ?? []).some((m) => m.role === "assistant");
}

export function contentOf(served: ServedReply): string | undefined {
  return served.reply.kind === "ok" ? (served.reply.content ?? "") : undefined;
}

export type Tally = Record<ServedKind, number>;

export function tally(served: readonly ServedReply[]): Tally {
  const counts: Tally = { good: 0, "429": 0, "500": 0, hang: 0, reset: 0, malformed: 0, truncated: 0 };
  for (const s of served) counts[servedKind(s)] += 1;
  return counts;
}

/** Replies the client received: answered (not a hang or a reset) and written out before the client gave up. */
export function delivered(served: readonly ServedReply[]): ServedReply[] {
  return served.filter((s) => s.delivered);
}

export type CallOutcome = "ok" | "unusable" | "stopped";

/**
 * What the client must have made of a sequence of served replies to calls made one after another (each a chatJson
 * call: up to maxRetries retries per request, one repair round): each call's outcome, in order. A test compares it
 * with what the calls really returned.
 */
export function expectedOutcomes(served: readonly ServedReply[], maxRetries: number): CallOutcome[] {
  const outcomes: CallOutcome[] = [];
  let round = 0;
  let retries = 0;
  const end = (outcome: CallOutcome) => {
    outcomes.push(outcome);
    round = 0;
    retries = 0;
  };
  for (const s of served) {
    const kind = servedKind(s);
    const answered = s.delivered && kind !== "hang" && kind !== "reset";
    if (!answered || TRANSPORT_FAULTS.includes(kind as FaultKind)) {
      if (retries >= maxRetries) end("stopped");
      else retries += 1;
      continue;
    }
    if (kind === "good") end("ok");
    else if (round === 0) {
      round = 1;
      retries = 0;
    } else end("unusable");
  }
  return outcomes;
}
