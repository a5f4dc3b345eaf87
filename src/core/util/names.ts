import { z } from "zod";

/** What breaks a line or a cell: tabs, line feeds, carriage returns, NEL, and Unicode's line and paragraph separators. */
const BREAKS = /[\t\n\v\f\r\u0085\u2028\u2029]+/g;
/** Every other control character (Unicode's Cc: C0, DEL, C1), NUL and the terminal's escape among them. */
const CONTROLS = /\p{Cc}/gu;

/**
 * A name as people type it and every screen, log line and export can show it: what breaks a line becomes a space,
 * other control characters go, and the ends are trimmed. A NUL or a newline in a stored name would split a log
 * line, a CSV cell or a terminal's output, or hide what follows it.
 */
export function cleanName(text: string): string {
  return text.replace(BREAKS, " ").replace(CONTROLS, "").trim();
}

/**
 * A name someone gives (an import, a run, a person), cleaned (cleanName) before it is measured, so that the limits
 * hold for what is stored. `required`: at least one character must be left.
 */
export function displayName(max: number, required = true) {
  const name = z.string().overwrite(cleanName).max(max, `a name is at most ${max} characters`);
  return required ? name.min(1, "a name is required") : name;
}
