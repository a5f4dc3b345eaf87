/**
 * JSON as the environment server writes it. Rewards are floats on every route, written `0.0` and `1.0` when they
 * are whole: AgentGym's servers (pydantic `float`) send them so, and a Python client that reads `0` gets an int,
 * which breaks code that checks the type or divides with it.
 */
import { randomUUID } from "node:crypto";
import { literalPattern } from "@/core/util/regex";

/** The keys whose numbers are rewards, wherever they appear in a reply. */
const FLOAT_KEYS = new Set(["reward", "total_reward"]);

/**
 * A marker no text can contain by chance (it holds a NUL and a fresh UUID): a whole reward leaves JSON.stringify as
 * a string holding it, and is then written back as a bare float literal.
 */
const MARK = `\u0000${randomUUID()}:`;
const ESCAPED_MARK = JSON.stringify(MARK).slice(1, -1);
const MARKED = new RegExp(`"${literalPattern(ESCAPED_MARK)}(-?\\d+)"`, "g");

export function wireJson(value: unknown): string {
  const text = JSON.stringify(value, (key, v: unknown) =>
    FLOAT_KEYS.has(key) && typeof v === "number" && Number.isInteger(v) && Math.abs(v) < 1e21
      ? `${MARK}${Object.is(v, -0) ? 0 : v}`
      : v,
  );
  return text === undefined ? "null" : text.replace(MARKED, "$1.0");
}
