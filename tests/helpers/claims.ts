import fs from "node:fs";
import path from "node:path";

/** A figure on a page linked to where it is read from: `[text](bench/results/FILE.json#PATH)`. */
export interface Claim {
  raw: string;
  text: string;
  shown: string;
  file: string;
  at: string;
  line: number;
}

const CLAIM = /\[([^\]]*?)\]\((?:\.\.\/)?bench\/results\/([\w.-]+\.json)#([^)\s]+)\)/g;
const NUMBER = /-?\d[\d,]*(?:\.\d+)?/;

export function findClaims(text: string): Claim[] {
  const claims: Claim[] = [];
  for (const match of text.matchAll(CLAIM)) {
    const shown = NUMBER.exec(match[1]!)?.[0] ?? "";
    const line = text.slice(0, match.index).split("\n").length;
    claims.push({ raw: match[0], text: match[1]!, shown, file: match[2]!, at: match[3]!, line });
  }
  return claims;
}

/** `a.b[key=x,domain=y].c.0`: object keys, array indexes, and the one array element whose fields match. */
export function readAt(value: unknown, at: string): unknown {
  const parts = at.match(/[^.[\]]+|\[[^\]]*\]/g) ?? [];
  let here: unknown = value;
  for (const part of parts) {
    if (part.startsWith("[")) {
      if (!Array.isArray(here)) return undefined;
      const wanted = part
        .slice(1, -1)
        .split(",")
        .map((kv) => kv.split("=") as [string, string]);
      const found = here.filter((item) =>
        wanted.every(([k, v]) => String((item as Record<string, unknown>)?.[k]) === v),
      );
      if (found.length !== 1) return undefined;
      here = found[0];
    } else if (here !== null && typeof here === "object") {
      here = (here as Record<string, unknown>)[part];
    } else {
      return undefined;
    }
  }
  return here;
}

/** What is wrong with each claim on a page: its file or place missing, or a figure other than the file's. */
export function checkClaims(text: string, root: string): string[] {
  const problems: string[] = [];
  const files = new Map<string, unknown>();
  for (const claim of findClaims(text)) {
    const where = `line ${claim.line}: "${claim.text}" (${claim.file}#${claim.at})`;
    const file = path.join(root, "bench", "results", claim.file);
    if (!files.has(file))
      files.set(file, fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : null);
    const json = files.get(file);
    if (json === null) {
      problems.push(`${where}: no such results file`);
      continue;
    }
    const value = readAt(json, claim.at);
    if (typeof value !== "number") {
      problems.push(`${where}: the file holds no number there`);
      continue;
    }
    if (claim.shown === "") {
      problems.push(`${where}: the link shows no figure`);
      continue;
    }
    const shown = Number(claim.shown.replaceAll(",", ""));
    const decimals = claim.shown.split(".")[1]?.length ?? 0;
    // A share may be stored as a fraction and shown as a percentage.
    const scaled =
      claim.text.includes("%") && Math.abs(value) <= 1 && Math.abs(shown) > 1 ? value * 100 : value;
    if (Math.abs(Number(scaled.toFixed(decimals)) - shown) > 1e-9)
      problems.push(`${where}: the page says ${claim.shown} but the file holds ${scaled}`);
  }
  return problems;
}

/** Measured-looking figures (a time, a share, a rate) outside any claim link and outside code blocks. */
export function unlinkedFigures(text: string): string[] {
  const found: string[] = [];
  let code = false;
  text.split("\n").forEach((line, i) => {
    if (line.trimStart().startsWith("```")) {
      code = !code;
      return;
    }
    if (code) return;
    const prose = line.replace(CLAIM, "").replace(/`[^`]*`/g, "");
    // "95% intervals" names a kind of interval, not a result.
    for (const m of prose.matchAll(
      /\d+(?:\.\d+)?(?: ?ms\b|%(?! (?:confidence )?interval)| ?(?:calls|transitions|steps|episodes)\/s\b)/g,
    ))
      found.push(`line ${i + 1}: ${m[0]}`);
  });
  return found;
}
