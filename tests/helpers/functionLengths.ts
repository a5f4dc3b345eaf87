import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

const ROOT = path.resolve(import.meta.dirname, "..", "..");

/** Every function, method, constructor and arrow function of a source file longer than `limit` lines. */
export function longFunctions(file: string, limit: number, text?: string): string[] {
  const source = ts.createSourceFile(
    file,
    text ?? fs.readFileSync(path.join(ROOT, file), "utf8"),
    ts.ScriptTarget.Latest,
    true,
    file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const long: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      if (lines > limit) {
        const own = (node as { name?: ts.Node }).name;
        const holder = ts.isVariableDeclaration(node.parent) ? node.parent.name : undefined;
        const name = (own ?? holder)?.getText(source) ?? "(anonymous)";
        long.push(`${file}:${first + 1} ${name} is ${lines} lines`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return long;
}
