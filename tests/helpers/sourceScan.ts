import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

/**
 * What the architecture test needs to know about a source file: what it imports (resolved to a file of the
 * repository where it can be) and what its comments say. TypeScript's own parser does the reading, so strings,
 * regular expressions and JSX never pass for imports or comments, and `import type` is told apart exactly as the
 * compiler tells it apart.
 */

export const ROOT = path.resolve(import.meta.dirname, "../..");

export interface ImportRef {
  /** The specifier as written, e.g. "@/server/db" or a relative path. */
  specifier: string;
  /** Erased at compile time: `import type`, `export type`, every named import marked `type`, or `import("x").T`. */
  typeOnly: boolean;
  /** The repository path it resolves to (e.g. "src/server/db.ts"); null for a package. */
  target: string | null;
  line: number;
}

export interface CommentRef {
  text: string;
  line: number;
}

export interface ScannedFile {
  /** Repository path with forward slashes, e.g. "src/core/types.ts". */
  file: string;
  imports: ImportRef[];
  comments: CommentRef[];
}

const EXTENSIONS = [".ts", ".tsx", ".d.ts", "/index.ts", "/index.tsx"];

const toRepoPath = (absolute: string) => path.relative(ROOT, absolute).split(path.sep).join("/");

/**
 * The file a specifier names, as the bundler resolves it (`@/` is src/). A path that names no file still comes
 * back, normalised, so that a rule about folders can judge it; a path that leaves the repository comes back with
 * its leading "../".
 */
export function resolveSpecifier(fromFile: string, specifier: string): string | null {
  let base: string;
  if (specifier.startsWith("@/")) base = path.join(ROOT, "src", specifier.slice(2));
  else if (specifier.startsWith("./") || specifier.startsWith("../"))
    base = path.resolve(ROOT, path.dirname(fromFile), specifier);
  else return null;
  const candidates = [base, ...EXTENSIONS.map((ext) => base + ext)];
  const found = candidates.find((c) => fs.existsSync(c) && fs.statSync(c).isFile());
  return toRepoPath(found ?? base);
}

function isTypeOnlyImport(node: ts.ImportDeclaration): boolean {
  const clause = node.importClause;
  if (!clause) return false; // `import "x"` runs the module
  if (clause.isTypeOnly) return true;
  const named = clause.namedBindings;
  // `import { type A, type B } from "x"` is erased too; a default or namespace import is not.
  return (
    clause.name === undefined &&
    named !== undefined &&
    ts.isNamedImports(named) &&
    named.elements.length > 0 &&
    named.elements.every((e) => e.isTypeOnly)
  );
}

function isTypeOnlyExport(node: ts.ExportDeclaration): boolean {
  if (node.isTypeOnly) return true;
  const clause = node.exportClause;
  return (
    clause !== undefined &&
    ts.isNamedExports(clause) &&
    clause.elements.length > 0 &&
    clause.elements.every((e) => e.isTypeOnly)
  );
}

/** Reads a file's text as the architecture test sees it; `file` is its repository path. */
export function scanSource(file: string, text: string): ScannedFile {
  const kind = file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const lineOf = (pos: number) => source.getLineAndCharacterOfPosition(pos).line + 1;
  const imports: ImportRef[] = [];
  const add = (literal: ts.Expression, typeOnly: boolean) => {
    if (!ts.isStringLiteralLike(literal)) return;
    imports.push({
      specifier: literal.text,
      typeOnly,
      target: resolveSpecifier(file, literal.text),
      line: lineOf(literal.getStart(source)),
    });
  };
  const comments = new Map<number, CommentRef>();
  const collect = (ranges: ts.CommentRange[] | undefined) => {
    for (const r of ranges ?? [])
      comments.set(r.pos, { text: text.slice(r.pos, r.end), line: lineOf(r.pos) });
  };

  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node)) add(node.moduleSpecifier, isTypeOnlyImport(node));
    else if (ts.isExportDeclaration(node) && node.moduleSpecifier)
      add(node.moduleSpecifier, isTypeOnlyExport(node));
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument))
      add(node.argument.literal, true);
    else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] !== undefined
    )
      add(node.arguments[0], false);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference))
      add(node.moduleReference.expression, node.isTypeOnly);
    // Comments are trivia before a token: visiting every token (getChildren) reaches all of them.
    if (node.kind !== ts.SyntaxKind.JsxText) collect(ts.getLeadingCommentRanges(text, node.pos));
    for (const child of node.getChildren(source)) visit(child);
  };
  visit(source);

  return {
    file,
    imports,
    comments: [...comments.values()].sort((a, b) => a.line - b.line),
  };
}

export function scanFile(file: string): ScannedFile {
  return scanSource(file, fs.readFileSync(path.join(ROOT, file), "utf8"));
}

/** Every .ts/.tsx file under the given repository folders, as repository paths, skipping the excluded folders. */
export function listSources(folders: string[], exclude: string[] = []): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (exclude.some((e) => rel === e || rel.startsWith(`${e}/`))) continue;
      if (entry.isDirectory()) {
        if (entry.name !== "node_modules" && !entry.name.startsWith(".")) walk(rel);
      } else if (/\.tsx?$/.test(entry.name)) out.push(rel);
    }
  };
  for (const folder of folders) if (fs.existsSync(path.join(ROOT, folder))) walk(folder);
  return out.sort();
}
