import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { findCycles } from "./helpers/cycles";
import { longFunctions } from "./helpers/functionLengths";
import { CORE_PACKAGES, SHARED_PACKAGES } from "./helpers/layers";
import {
  type ImportRef,
  listSources,
  ROOT,
  type ScannedFile,
  scanFile,
  scanSource,
} from "./helpers/sourceScan";

/**
 * The layers point one way: core knows nothing of the app, shared knows only core, the server never reaches into
 * the browser's code, the browser takes only types from the server, and neither feature folders nor core's
 * folders depend on each other in a loop. A wrong-way import fails here with the file, the import and the rule.
 */

const CODE = listSources(["src", "worker"], ["src/generated"]).map(scanFile);

/** What core's own tests may use besides its packages. */
// wabt assembles the replay buffer's documented WebAssembly kernel in its test, to check the shipped bytes.
const CORE_TEST_PACKAGES = ["vitest", "node:fs", "node:path", "wabt"];
const SHARED_TEST_PACKAGES = ["vitest"];

const isTest = (file: string) => /\.test\.tsx?$/.test(file);
const under = (target: string | null, folder: string) =>
  target !== null && (target === folder || target.startsWith(`${folder}/`));
/** "zod" for "zod", "@prisma/client" for "@prisma/client/runtime": the name a package list speaks of. */
const packageOf = (specifier: string) =>
  specifier.startsWith("@") ? specifier.split("/").slice(0, 2).join("/") : specifier.split("/")[0]!;

const describeImport = (file: string, ref: ImportRef) =>
  `${file}:${ref.line} imports ${ref.typeOnly ? "type " : ""}"${ref.specifier}"`;

interface Rule {
  name: string;
  applies: (file: string) => boolean;
  /** True when the import breaks the rule. */
  breaks: (ref: ImportRef, file: string) => boolean;
}

/**
 * The layers inside src/core, lowest first (ARCHITECTURE.md "Layers"): code imports only its own layer or lower
 * ones. util and the contracts at the bottom; environments, replay, the LLM client and trajectories; then the
 * experience model, the policy and the curriculum; RL; training on top. util may name the contracts' types.
 */
const CORE_LAYERS: Record<string, number> = {
  util: 0,
  "types.ts": 0,
  "backends.ts": 1,
  "rollout.ts": 1,
  envs: 2,
  replay: 2,
  llm: 2,
  trajectories: 2,
  experience: 3,
  policy: 3,
  curriculum: 3,
  rl: 4,
  train: 5,
  trust: 5,
};
const coreLayer = (p: string | null) =>
  under(p, "src/core") && p !== "src/core"
    ? CORE_LAYERS[p!.slice("src/core/".length).split("/")[0]!]
    : undefined;

const RULES: Rule[] = [
  {
    name: "src/core's layers import only their own layer or lower ones",
    applies: (file) => coreLayer(file) !== undefined && !isTest(file),
    breaks: (ref, file) => {
      const to = coreLayer(ref.target);
      return to !== undefined && to > (coreLayer(file) as number);
    },
  },
  {
    name: "src/core imports only src/core (its tests also tests/helpers)",
    applies: (file) => under(file, "src/core"),
    breaks: (ref, file) =>
      ref.target !== null && !under(ref.target, "src/core") && !(isTest(file) && under(ref.target, "tests")),
  },
  {
    name: `src/core uses no package but ${CORE_PACKAGES.join(", ")} (no framework, no database)`,
    applies: (file) => under(file, "src/core"),
    breaks: (ref, file) =>
      ref.target === null &&
      !CORE_PACKAGES.includes(packageOf(ref.specifier)) &&
      !(isTest(file) && CORE_TEST_PACKAGES.includes(packageOf(ref.specifier))),
  },
  {
    name: "src/shared imports only src/shared and src/core",
    applies: (file) => under(file, "src/shared"),
    breaks: (ref) =>
      ref.target !== null && !under(ref.target, "src/shared") && !under(ref.target, "src/core"),
  },
  {
    name: `src/shared uses no package but ${SHARED_PACKAGES.join(", ")}`,
    applies: (file) => under(file, "src/shared"),
    breaks: (ref, file) =>
      ref.target === null &&
      !SHARED_PACKAGES.includes(packageOf(ref.specifier)) &&
      !(isTest(file) && SHARED_TEST_PACKAGES.includes(packageOf(ref.specifier))),
  },
  {
    name: "src/server and worker/ import nothing from src/features or src/app",
    applies: (file) => under(file, "src/server") || under(file, "worker"),
    breaks: (ref) => under(ref.target, "src/features") || under(ref.target, "src/app"),
  },
  {
    name: "src/features take only types from src/server (import type)",
    applies: (file) => under(file, "src/features"),
    breaks: (ref) => under(ref.target, "src/server") && !ref.typeOnly,
  },
];

function violations(files: ScannedFile[], rule: Rule): string[] {
  return files
    .filter((f) => rule.applies(f.file))
    .flatMap((f) =>
      f.imports.filter((ref) => rule.breaks(ref, f.file)).map((ref) => describeImport(f.file, ref)),
    )
    .map((v) => `${v}: breaks "${rule.name}"`);
}

/**
 * The dependencies between the folders directly inside `root` (a file directly inside it is its own node), with
 * one import that makes each edge, to name in a failure.
 */
function folderGraph(files: ScannedFile[], root: string) {
  const nodeOf = (p: string | null) =>
    under(p, root) && p !== root ? p!.slice(root.length + 1).split("/")[0]! : null;
  const edges = new Map<string, Set<string>>();
  const witness = new Map<string, string>();
  for (const f of files) {
    const from = nodeOf(f.file);
    if (from === null) continue;
    for (const ref of f.imports) {
      const to = nodeOf(ref.target);
      if (to === null || to === from) continue;
      if (!edges.has(from)) edges.set(from, new Set());
      edges.get(from)!.add(to);
      if (!witness.has(`${from}>${to}`)) witness.set(`${from}>${to}`, describeImport(f.file, ref));
    }
  }
  return { edges, witness };
}

function cycleViolations(files: ScannedFile[], root: string): string[] {
  const { edges, witness } = folderGraph(files, root);
  return findCycles(edges).map((cycle) => {
    const steps = cycle.map((from, i) => {
      const to = cycle[(i + 1) % cycle.length]!;
      return `${witness.get(`${from}>${to}`)}`;
    });
    return `${[...cycle, cycle[0]].map((n) => `${root}/${n}`).join(" -> ")} (${steps.join("; ")}): breaks "no import cycle between the folders of ${root}"`;
  });
}

describe("layers", () => {
  it("finds the code to check", () => {
    expect(CODE.length).toBeGreaterThan(200);
    expect(CODE.some((f) => f.file.startsWith("worker/"))).toBe(true);
    expect(CODE.some((f) => f.file.startsWith("src/generated/"))).toBe(false);
  });

  for (const rule of RULES) {
    it(rule.name, () => {
      expect(violations(CODE, rule)).toEqual([]);
    });
  }

  it("feature folders depend on each other one way only", () => {
    expect(cycleViolations(CODE, "src/features")).toEqual([]);
  });

  it("the top-level folders of src/core depend on each other one way only", () => {
    expect(cycleViolations(CODE, "src/core")).toEqual([]);
  });

  // Tests and their helpers (testing.ts, fixtures) may import from anywhere above them (a router test calls the
  // app's root router, a replay fixture writes steps as the trajectories folder does); the code may not, and it
  // never imports them.
  const TEST_SUPPORT = /(\.test\.ts|\/testing\.ts|Fixtures?\.ts)$/;
  const SOURCE = CODE.filter((f) => !TEST_SUPPORT.test(f.file));

  it("code never imports tests or their helpers", () => {
    const imported = SOURCE.flatMap((f) =>
      f.imports
        .filter((ref) => ref.target !== null && TEST_SUPPORT.test(ref.target))
        .map((ref) => describeImport(f.file, ref)),
    );
    expect(imported).toEqual([]);
  });

  it("the folders of src/server depend on each other one way only", () => {
    expect(cycleViolations(SOURCE, "src/server")).toEqual([]);
  });

  it("inside each folder of src/core and src/server, files and subfolders depend on each other one way only", () => {
    const folders = [...new Set(SOURCE.map((f) => path.dirname(f.file)))].filter(
      (d) => d.startsWith("src/core/") || d.startsWith("src/server/"),
    );
    expect(folders.flatMap((folder) => cycleViolations(SOURCE, folder))).toEqual([]);
  });
});

/** Beyond this a function no longer reads at a glance: split it by what its parts do. */
const FUNCTION_LINES = 150;

describe("size", () => {
  it(`no function of the code, its scripts or its benches is over ${FUNCTION_LINES} lines (generated code and data tables aside)`, () => {
    const files = listSources(["src", "worker", "scripts", "bench"], ["src/generated"]).filter(
      (f) => !/\.test\.tsx?$/.test(f) && !f.endsWith("-data.ts"),
    );
    expect(files.length).toBeGreaterThan(200);
    expect(files.flatMap((f) => longFunctions(f, FUNCTION_LINES))).toEqual([]);
  });

  it("measures a function from its first line to its last", () => {
    const body = Array.from({ length: 5 }, (_, i) => `  const a${i} = ${i};`).join("\n");
    const text = `export function f() {\n${body}\n}\nconst g = () => {\n${body}\n};\n`;
    expect(longFunctions("x.ts", 6, text)).toEqual(["x.ts:1 f is 7 lines", "x.ts:8 g is 7 lines"]);
    expect(longFunctions("x.ts", 7, text)).toEqual([]);
  });
});

const MISSING_DOC = new RegExp(`\\b${"DESIGN"}\\.md\\b`);
/** A relative path in prose: one or more parent steps, then the names below them. */
const RELATIVE_PATH = /(?<![\w/.])((?:\.\.\/)+[\w@.-]+(?:\/[\w@.-]+)*)/g;

/** True when a path a comment names is outside the repository or names nothing in it. */
function strayPath(file: string, written: string): boolean {
  const resolved = path.resolve(ROOT, path.dirname(file), written);
  if (path.relative(ROOT, resolved).startsWith("..")) return true;
  return ![resolved, `${resolved}.ts`, `${resolved}.tsx`].some((p) => fs.existsSync(p));
}

function commentViolations(file: string, comments: { text: string; line: number }[]): string[] {
  const out: string[] = [];
  for (const c of comments) {
    // The line of the match, not of the comment's start: a block comment can be long.
    const lineAt = (index: number) => c.line + (c.text.slice(0, index).match(/\n/g)?.length ?? 0);
    const doc = MISSING_DOC.exec(c.text);
    if (doc)
      out.push(
        `${file}:${lineAt(doc.index)} comment cites ${doc[0]}: breaks "comments cite ARCHITECTURE.md"`,
      );
    for (const m of c.text.matchAll(RELATIVE_PATH))
      if (strayPath(file, m[1]!))
        out.push(
          `${file}:${lineAt(m.index)} comment names ${m[1]}: breaks "comments name only paths in the repository"`,
        );
  }
  return out;
}

/** Where comments may point readers: files of this repository, and its architecture document. */
describe("comments", () => {
  const files = listSources(["src", "worker", "bench", "tests", "e2e", "scripts"], ["src/generated"]);

  it("cite no missing design document and no path outside the repository", () => {
    const found = files.flatMap((file) => commentViolations(file, scanFile(file).comments));
    const schema = "prisma/schema.prisma";
    const schemaComments = fs
      .readFileSync(path.join(ROOT, schema), "utf8")
      .split("\n")
      .map((text, i) => ({ text: text.slice(Math.max(0, text.indexOf("//"))), line: i + 1 }))
      .filter((c) => c.text.startsWith("//"));
    found.push(...commentViolations(schema, schemaComments));
    expect(found).toEqual([]);
  });
});

/** The checks above pass on a clean tree; these prove they would fail on a bad one. */
describe("the checks themselves", () => {
  it("find a cycle, and only the cycle", () => {
    const edges = new Map([
      ["a", new Set(["b"])],
      ["b", new Set(["c"])],
      ["c", new Set(["a"])],
      ["d", new Set(["a"])],
    ]);
    expect(findCycles(edges)).toEqual([["a", "b", "c"]]);
    expect(findCycles(new Map([["a", new Set(["b"])]]))).toEqual([]);
  });

  it("name a cycle between feature folders with the imports that make it", () => {
    const files = [
      scanSource("src/features/a/x.ts", 'import { y } from "@/features/b/y";'),
      scanSource("src/features/b/y.ts", 'import { x } from "../a/x";'),
    ];
    const [cycle, ...rest] = cycleViolations(files, "src/features");
    expect(rest).toEqual([]);
    expect(cycle).toContain("src/features/a -> src/features/b -> src/features/a");
    expect(cycle).toContain('src/features/a/x.ts:1 imports "@/features/b/y"');
    expect(cycle).toContain('src/features/b/y.ts:1 imports "../a/x"');
  });

  it("tell type imports from value imports", () => {
    const scanned = scanSource(
      "src/features/a/x.tsx",
      [
        'import type { AppRouter } from "@/server/api/root";',
        'import { type A, type B } from "@/server/one";',
        'import { type C, d } from "@/server/two";',
        'export type { E } from "@/server/three";',
        'export { f } from "@/server/four";',
        'import "@/server/five";',
        'const g = await import("@/server/six");',
        'type H = import("@/server/seven").H;',
        '// import { fake } from "@/server/comment";',
        "const s = \"import { fake } from '@/server/string'\";",
      ].join("\n"),
    );
    expect(scanned.imports.map((r) => [r.specifier, r.typeOnly])).toEqual([
      ["@/server/api/root", true],
      ["@/server/one", true],
      ["@/server/two", false],
      ["@/server/three", true],
      ["@/server/four", false],
      ["@/server/five", false],
      ["@/server/six", false],
      ["@/server/seven", true],
    ]);
    const features = RULES.find((r) => r.applies("src/features/a/x.tsx") && r.name.includes("only types"))!;
    expect(violations([scanned], features)).toHaveLength(4);
    expect(scanned.comments.map((c) => c.line)).toEqual([9]);
  });

  it("catch a wrong-way import in core and a stray path in a comment", () => {
    const core = scanSource(
      "src/core/x.ts",
      ['import { PrismaClient } from "@prisma/client";', 'import { db } from "@/server/db";'].join("\n"),
    );
    const broken = RULES.flatMap((rule) => (rule.applies(core.file) ? violations([core], rule) : []));
    expect(broken).toHaveLength(2);
    expect(broken[0]).toMatch(/^src\/core\/x\.ts:2 imports "@\/server\/db": breaks "src\/core imports only/);
    expect(broken[1]).toMatch(
      /^src\/core\/x\.ts:1 imports "@prisma\/client": breaks "src\/core uses no package/,
    );
    expect(commentViolations("src/core/x.ts", [{ text: "// see ../../../shared/x", line: 3 }])).toHaveLength(
      1,
    );
    expect(commentViolations("src/core/x.ts", [{ text: "// see ../shared/enums.ts", line: 3 }])).toHaveLength(
      0,
    );
  });
});
