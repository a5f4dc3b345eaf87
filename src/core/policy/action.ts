/**
 * What the policy reads from an action string: its verb, its argument's tokens and entities, and a "shape"
 * (the template with names abstracted: "go to cabinet #", "take w # from w #", "click #"), so that a weight learnt
 * for one object or product carries over to the others.
 */
import { combine, tokenHash } from "./hashing";
import { entities, entityClass, hasDigit, isContentToken, tokenize } from "./text";

export interface ParsedAction {
  /** The action as compared for repeats: lowercase, single spaces. */
  key: string;
  verb: string;
  verbHash: number;
  /** The argument as written, lowercase ("b000v3kf", "rosewood", "cabinet 5"), for finding it on the page. */
  argument: string;
  /** The argument's tokens as " a b c ", for whole-phrase containment tests. */
  padded: string;
  /** Distinct content tokens of the argument (what it names). */
  content: string[];
  contentHashes: number[];
  entities: string[];
  /** Hashes of the entities' class words ("cabinet" for "cabinet 3"). */
  entityClassHashes: number[];
  shapeHash: number;
  /**
   * For a call written as `name(args)`, its first argument's value, unquoted and lowercase: the id or path the
   * call acts on ("417" in `close_ticket(417)`), which the state may describe on a line of its own.
   */
  handle?: string;
}

/** Arguments longer than this are free text (search queries, treat commands): their words become "w". */
const SHORT_ARGUMENT = 2;
/** Tokens of a shape kept; the rest are dropped (a shape is a template, not the whole text). */
const SHAPE_TOKENS = 8;

/** A tool call: `name(args)`. */
const CALL = /^([a-z_][a-z0-9_]*)\s*\((.*)\)$/;
/** A call's first argument: optionally `key=`, then a quoted string or anything up to the next comma. */
const FIRST_ARGUMENT = /^\s*(?:[a-z_]+\s*=\s*)?(?:"([^"]*)"|'([^']*)'|([^,]*))/;

function parse(text: string): ParsedAction {
  const key = text.trim().toLowerCase().replace(/\s+/g, " ");
  const bracket = /^([a-z]+)\s*\[(.*)\]$/.exec(key);
  const call = bracket ? null : CALL.exec(key);
  let verb: string;
  let argument: string;
  let handle: string | undefined;
  if (bracket) {
    verb = bracket[1] ?? "";
    argument = (bracket[2] ?? "").trim();
  } else if (call) {
    verb = call[1] ?? "";
    argument = (call[2] ?? "").trim();
    const first = FIRST_ARGUMENT.exec(argument);
    handle = (first?.[1] ?? first?.[2] ?? first?.[3] ?? "").trim() || undefined;
  } else {
    const words = key.split(" ");
    // "go to X": the preposition belongs to the verb, or every movement would look like a bare "go".
    const two = words[1] === "to";
    verb = two ? `${words[0]} to` : (words[0] ?? "");
    argument = words.slice(two ? 2 : 1).join(" ");
  }
  const argTokens = tokenize(argument);
  const content: string[] = [];
  for (const t of argTokens) if (isContentToken(t) && !content.includes(t)) content.push(t);
  let shapeHash = tokenHash(verb);
  for (const t of argTokens.slice(0, SHAPE_TOKENS)) {
    const word = hasDigit(t) ? "#" : isContentToken(t) && argTokens.length > SHORT_ARGUMENT ? "w" : t;
    shapeHash = combine(shapeHash, tokenHash(word));
  }
  const named = entities(argument);
  return {
    key,
    verb,
    verbHash: tokenHash(verb),
    argument,
    padded: ` ${argTokens.join(" ")} `,
    content,
    contentHashes: content.map(tokenHash),
    entities: named,
    entityClassHashes: named.map((e) => tokenHash(entityClass(e))),
    shapeHash,
    ...(handle === undefined ? {} : { handle }),
  };
}

const memo = new Map<string, ParsedAction>();
/** Bound on the memo: candidate actions repeat across episodes, but generated text could grow it forever. */
const MEMO_LIMIT = 100_000;

/** Parses (memoised) an action string. The result is shared: treat it as read-only. */
export function parseAction(text: string): ParsedAction {
  const hit = memo.get(text);
  if (hit) return hit;
  if (memo.size >= MEMO_LIMIT) memo.clear();
  const parsed = parse(text);
  memo.set(text, parsed);
  return parsed;
}
