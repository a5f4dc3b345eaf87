import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { beforeAll, describe, expect, it } from "vitest";
import type { RealDomain } from "@/core/envs/domain";
import { REAL_DOMAIN_LABELS, REAL_DOMAIN_NAMES } from "@/core/envs/names";
import { getRealDomain } from "@/core/envs/registry";
import { rollout } from "@/core/rollout";

/**
 * The experience model knows a domain only through that domain's offline data and what the domain declares beside
 * its environment (core/envs). This holds the model's source to it: no built-in domain's name, no word that is
 * distinctive of a built-in domain, and no constant tuned on one may appear in core/experience. The vocabulary is
 * read from the domains themselves (their action grammars, the fixed words of their pages and instructions, their
 * catalogs as their episodes show them), so a new built-in domain is covered once it is in names.ts.
 */

const ROOT = path.resolve(import.meta.dirname, "..", "src", "core", "experience");

/** Every source file of the experience model (tests and their helpers excluded: they may use real domains). */
function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    if (!entry.name.endsWith(".ts") || entry.name.endsWith(".test.ts") || entry.name === "testing.ts")
      return [];
    return [file];
  });
}

/**
 * What a file's code says, comments left out (a comment may say where an idea came from; a rule is code): the
 * texts of its string, template and regular-expression literals, and the words of its identifiers (split at case
 * and underscores). Read with the TypeScript parser, so a "//" inside a literal is no comment.
 */
function codeOf(file: string): { literals: string[]; identifiers: Set<string> } {
  const source = ts.createSourceFile(file, fs.readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const literals: string[] = [];
  const identifiers = new Set<string>();
  const visit = (node: ts.Node) => {
    if (
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isRegularExpressionLiteral(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node)
    )
      literals.push(node.getText(source));
    else if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node))
      for (const w of splitIdentifier(node.text)) identifiers.add(w);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { literals, identifiers };
}

function splitIdentifier(name: string): string[] {
  const spaced = name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2");
  return spaced.toLowerCase().match(/[a-z]+/g) ?? [];
}

/**
 * The words of a file's patterns and tokens: its regular expressions and its literals of at most three words. Its
 * prose (a reasoning trace's sentences, a prompt) says what it does in plain words, where "open" or "price" may
 * mean what they mean in any text; a rule is a pattern or a token compared with a page.
 */
function patternWords(literals: readonly string[]): Set<string> {
  const short = literals.filter((l) => l.startsWith("/") || (l.match(/[a-z]+/gi) ?? []).length <= 3);
  return new Set(short.flatMap((l) => l.toLowerCase().match(/[a-z]+/g) ?? []));
}

/**
 * Words any text speaks (articles, pronouns, prepositions, the commonest verbs and nouns): a domain's pages use
 * them too, but they say nothing about the domain.
 */
const GENERAL = new Set(
  (
    "a an the and or of in on at to for with from by is are was be it its this that these those you your i me my we " +
    "not no nothing none all any some each every one two three more most less than as if then else there here " +
    "what which who when where how do does did can could would should will may might must have has had get got " +
    "see look find make made new old same other into out up down over under about after before so such only " +
    "also very just too now yet still again first last next back page item items step steps state task action " +
    "actions total number name names value values result results options option end ends done set list true false " +
    "n na ok yes " +
    // The chat protocol an LLM backend speaks.
    "system user assistant"
  ).split(" "),
);

interface Corpus {
  /** Fixed words: in at least MIN_SHARE of the domain's episodes (page templates, grammar, boilerplate). */
  fixed: Set<string>;
  /** Verbs of its action grammar: the first word of every action, or the name before "[". */
  verbs: Set<string>;
  /** Every word its episodes showed, to tell what is only one domain's from what several domains share. */
  all: Set<string>;
  /** Tokens of its pages and actions that are not words: page markers, joined words of its grammar. */
  markers: Set<string>;
}

const EPISODES = 24;
const MIN_SHARE = 0.1;

async function corpusOf(domain: RealDomain): Promise<Corpus> {
  const perEpisode: Set<string>[] = [];
  const verbs = new Set<string>();
  const markers = new Set<string>();
  const all = new Set<string>();
  for (let i = 0; i < EPISODES; i++) {
    const policy = i % 2 === 0 ? domain.expert() : domain.random(i);
    const task = domain.task("train", i);
    const episode = await rollout(domain.createEnvironment(), policy, task, domain.maxSteps);
    const words = new Set<string>();
    const texts = [task.instruction];
    for (const step of episode.steps) {
      texts.push(step.state.text, step.next.text, step.action, ...(step.state.actions ?? []));
      for (const action of [step.action, ...(step.state.actions ?? [])]) {
        const verb = /^\s*([a-z_]+)\s*\[/i.exec(action)?.[1] ?? /^\s*([a-z]+)/i.exec(action)?.[1];
        if (verb) verbs.add(verb.toLowerCase());
      }
    }
    for (const text of texts) {
      for (const w of text.toLowerCase().match(/[a-z]+/g) ?? []) words.add(w);
      for (const m of text.match(/\[[A-Z]{2,}\]/g) ?? []) markers.add(m);
      // Joined words of an action grammar ("in/on").
      for (const m of text.match(/\b[a-z]+\/[a-z]+\b/g) ?? []) markers.add(m);
    }
    perEpisode.push(words);
    for (const w of words) all.add(w);
  }
  const counts = new Map<string, number>();
  for (const words of perEpisode) for (const w of words) counts.set(w, (counts.get(w) ?? 0) + 1);
  const fixed = new Set([...counts].filter(([, n]) => n >= MIN_SHARE * EPISODES).map(([w]) => w));
  return { fixed, verbs, all, markers };
}

/** A domain's distinctive words: its grammar's verbs and fixed words no other built-in domain's episodes use. */
function distinctive(own: Corpus, others: Corpus[]): Set<string> {
  const elsewhere = (w: string) => others.some((c) => c.all.has(w));
  const words = [...own.verbs, ...[...own.fixed].filter((w) => !elsewhere(w))];
  return new Set(words.filter((w) => w.length >= 3 && !GENERAL.has(w)));
}

/**
 * Constants tuned on a built-in domain: what its episodes count (the requirements of an instruction, from which a
 * cost of 1/6 was once made) written as the fraction a model would weigh by.
 */
const TUNED = [/\b1\s*\/\s*6\b/, /\b0\.1667?\b/];

/** The code without its comments, as the printer writes it: where constants are read. */
function withoutComments(file: string): string {
  const source = ts.createSourceFile(file, fs.readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  return ts.createPrinter({ removeComments: true }).printFile(source);
}

describe("the experience model carries no domain rules", () => {
  const corpora = new Map<string, Corpus>();
  let vocabularies: { name: string; words: Set<string>; markers: Set<string> }[] = [];
  beforeAll(async () => {
    for (const name of REAL_DOMAIN_NAMES) corpora.set(name, await corpusOf(getRealDomain(name)));
    vocabularies = [...corpora].map(([name, corpus]) => ({
      name,
      words: distinctive(
        corpus,
        [...corpora].filter(([n]) => n !== name).map(([, c]) => c),
      ),
      markers: corpus.markers,
    }));
  });
  const files = sourceFiles(ROOT).map((file) => {
    const { literals, identifiers } = codeOf(file);
    return {
      file: path.relative(ROOT, file),
      literals,
      patterns: patternWords(literals),
      words: new Set(literals.flatMap((l) => l.toLowerCase().match(/[a-z]+/g) ?? [])),
      identifiers,
      code: withoutComments(file),
    };
  });

  it("reads its vocabulary from every built-in domain", () => {
    // Without words to look for the test would pass on anything.
    for (const { name, words } of vocabularies) expect(words.size, name).toBeGreaterThan(5);
  });

  it("names no built-in domain, in its literals or its identifiers", () => {
    const names = REAL_DOMAIN_NAMES.flatMap((n) => [n, ...(REAL_DOMAIN_LABELS[n].match(/[A-Za-z]+/g) ?? [])]);
    const found = files.flatMap(({ file, words, identifiers }) =>
      names
        .map((n) => n.toLowerCase())
        .filter((n) => words.has(n) || identifiers.has(n))
        .map((n) => `${file}: ${n}`),
    );
    expect(found).toEqual([]);
  });

  it("writes no word distinctive of a built-in domain into its patterns and tokens", () => {
    const found = vocabularies.flatMap(({ name, words: vocabulary }) =>
      files.flatMap(({ file, patterns }) =>
        [...vocabulary].filter((w) => patterns.has(w)).map((w) => `${file}: "${w}" (${name})`),
      ),
    );
    expect(found).toEqual([]);
  });

  it("writes no action of a built-in domain's grammar into any text", () => {
    const found = [...corpora].flatMap(([name, corpus]) =>
      files.flatMap(({ file, literals }) =>
        [...corpus.verbs]
          .filter((verb) => literals.some((l) => new RegExp(`\\b${verb}\\s*\\\\?\\[`, "i").test(l)))
          .map((verb) => `${file}: ${verb}[…] (${name})`),
      ),
    );
    expect(found).toEqual([]);
  });

  it("uses no page marker of a built-in domain", () => {
    const found = vocabularies.flatMap(({ name, markers }) =>
      files.flatMap(({ file, literals }) =>
        [...markers]
          .filter((m) => {
            const escaped = m.replace(/[[\]]/g, (c) => `\\${c}`);
            return literals.some((l) => l.includes(m) || l.includes(escaped));
          })
          .map((m) => `${file}: ${m} (${name})`),
      ),
    );
    expect(found).toEqual([]);
  });

  it("holds no constant tuned on a built-in domain", () => {
    const found = files.flatMap(({ file, code }) =>
      TUNED.filter((pattern) => pattern.test(code)).map((pattern) => `${file}: ${pattern}`),
    );
    expect(found).toEqual([]);
  });
});
