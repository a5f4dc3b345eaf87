import { LRUCache } from "lru-cache";
import { literalPattern } from "../util/regex";

/**
 * A page's elements, read from the page itself: many text environments flatten a page into one line of elements
 * joined by a marker (a token set apart by spaces, as "|" or "<br>" would be), and a model that knows the marker
 * can rewrite one element without touching the rest. The marker is whatever the page repeats that way, so no
 * domain's marker is written here: a token between spaces that is no word (it holds no letter or digit, or is
 * wrapped in brackets), found at least MIN_REPEATS times. Pages of prose have none, and are one element.
 */
const MIN_REPEATS = 2;

const separators = new LRUCache<string, { separator: string | undefined }>({ max: 8_192 });

function isMarker(token: string): boolean {
  if (!/[a-z0-9]/i.test(token)) return true;
  const first = token[0]!;
  const last = token[token.length - 1]!;
  const closing: Record<string, string> = { "[": "]", "<": ">", "{": "}", "(": ")" };
  return closing[first] === last && /^.[^\s[\]<>{}()]+.$/.test(token);
}

/** The marker a page joins its elements with, or undefined for a page that has none. */
export function separatorOf(text: string): string | undefined {
  const hit = separators.get(text);
  if (hit) return hit.separator;
  const counts = new Map<string, number>();
  for (const token of text.split(/\s+/))
    if (token && isMarker(token)) counts.set(token, (counts.get(token) ?? 0) + 1);
  let separator: string | undefined;
  let most = MIN_REPEATS - 1;
  for (const [token, n] of counts) {
    if (n > most) {
      most = n;
      separator = token;
    }
  }
  separators.set(text, { separator });
  return separator;
}

const splitters = new LRUCache<string, RegExp>({ max: 64 });

function splitter(separator: string, lines: boolean): RegExp {
  const key = `${lines ? "l" : "s"}${separator}`;
  let pattern = splitters.get(key);
  if (!pattern) {
    const escaped = literalPattern(separator);
    pattern = new RegExp(`\\s*${escaped}\\s*${lines ? "|\\n" : ""}`);
    splitters.set(key, pattern);
  }
  return pattern;
}

/** A page's elements at its marker (the whole page when it has none). */
export function elementsOf(text: string): string[] {
  const separator = separatorOf(text);
  return separator === undefined ? [text] : text.split(splitter(separator, false));
}

/** A page's elements at its marker and at line ends. */
export function segmentsOf(text: string): string[] {
  const separator = separatorOf(text);
  return separator === undefined ? text.split("\n") : text.split(splitter(separator, true));
}

/** Elements joined as `like` joins its own (its marker between spaces). */
export function joinLike(like: string, elements: readonly string[]): string {
  const separator = separatorOf(like);
  return elements.join(separator === undefined ? " " : ` ${separator} `);
}
