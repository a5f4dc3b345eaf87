/**
 * Whether the household the experience model invents stays one world within an episode, read from its pages with
 * the household's own wording (a measurement of that domain, not a rule of the model): a closed receptacle stays
 * closed until opened, and what the model showed in a receptacle is still there on the next look unless the agent
 * took it or put something there. Each is compared against the model's own earlier pages, not the real world.
 */
import type { PairedEpisode } from "@/core/experience/consistency";
import { literalPattern } from "@/core/util/regex";

interface Checks {
  /** Pages about a receptacle the model had shown closed (and nobody opened since): the share shown closed. */
  closedLooks: number;
  closedKept: number | null;
  /** Pages listing a receptacle's contents after an earlier listing: the share that list what it then held. */
  contentLooks: number;
  contentsKept: number | null;
  /** The same for the real environment's pages on the same actions: the checks' own ceiling (1 if they are right). */
  real: { closedKept: number | null; contentsKept: number | null };
}

const AT = /^(?:go to|open|close|examine) (.+)$/;

function contentsOf(text: string, receptacle: string): Set<string> | undefined {
  const escaped = literalPattern(receptacle);
  const on = new RegExp(`On the ${escaped}, you see ([^.\\n]*)`, "i").exec(text);
  const inside = new RegExp(`The ${escaped} is open\\. In it, you see ([^.\\n]*)`, "i").exec(text);
  const list = (on ?? inside)?.[1];
  if (list === undefined) return undefined;
  if (/^nothing/i.test(list.trim())) return new Set();
  return new Set(
    list
      .split(/,\s*(?:and\s+)?|\s+and\s+/)
      .map((s) => s.replace(/^an?\s+/i, "").trim())
      .filter(Boolean),
  );
}

function closedSaid(text: string, receptacle: string): boolean | undefined {
  const escaped = literalPattern(receptacle);
  if (new RegExp(`The ${escaped} is closed`, "i").test(text)) return true;
  if (new RegExp(`The ${escaped} is open`, "i").test(text)) return false;
  return undefined;
}

function check(
  episodes: readonly PairedEpisode[],
  page: (step: PairedEpisode["steps"][number]) => { text: string; valid: boolean } | undefined,
) {
  let closedLooks = 0;
  let closedKept = 0;
  let contentLooks = 0;
  let contentsKept = 0;
  for (const episode of episodes) {
    const closed = new Map<string, boolean>();
    const contents = new Map<string, Set<string>>();
    for (const step of episode.steps) {
      const shown = page(step);
      if (!shown?.valid) continue;
      const action = step.action.trim().toLowerCase();
      const take = /^take (.+) from (.+)$/.exec(action);
      const put = /^put (.+) in\/on (.+)$/.exec(action);
      if (take) contents.get(take[2]!)?.delete(take[1]!);
      if (put) contents.get(put[2]!)?.add(put[1]!);
      const at = AT.exec(action)?.[1];
      if (action.startsWith("open ") && at) closed.set(at, false);
      if (action.startsWith("close ") && at) closed.set(at, true);
      if (!at) continue;
      const said = closedSaid(shown.text, at);
      if (closed.get(at) === true && !action.startsWith("open ")) {
        closedLooks++;
        if (said !== false) closedKept++;
      }
      if (said !== undefined && !action.startsWith("open ") && !action.startsWith("close "))
        closed.set(at, said);
      const listed = contentsOf(shown.text, at);
      if (!listed) continue;
      const known = contents.get(at);
      if (known) {
        contentLooks++;
        if (known.size === listed.size && [...known].every((x) => listed.has(x))) contentsKept++;
      }
      contents.set(at, listed);
    }
  }
  return {
    closedLooks,
    closedKept: closedLooks === 0 ? null : Math.round((closedKept / closedLooks) * 10_000) / 10_000,
    contentLooks,
    contentsKept: contentLooks === 0 ? null : Math.round((contentsKept / contentLooks) * 10_000) / 10_000,
  };
}

export function householdWorldChecks(episodes: readonly PairedEpisode[]): Checks {
  const synthetic = check(episodes, (s) => ({ text: s.synthetic.next.text, valid: s.synthetic.valid }));
  const real = check(episodes, (s) => (s.real ? { text: s.real.next.text, valid: s.real.valid } : undefined));
  return { ...synthetic, real: { closedKept: real.closedKept, contentsKept: real.contentsKept } };
}
