import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { describe, expect, it, vi } from "vitest";
import { threadEntry } from "./threadEntry";

describe("thread entries", () => {
  it("starts a thread from one bundle of its TypeScript module, with packages and path aliases resolved", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dreamgym-thread-"));
    const module = path.join(dir, "echo.ts");
    // A path alias (@/) and a package import, as the real threads have.
    fs.writeFileSync(
      module,
      `import { parentPort } from "node:worker_threads";
import { z } from "zod";
import { stepBucket } from "@/core/policy/features";
const n: number = z.number().parse(7);
parentPort?.postMessage(stepBucket(n));
`,
    );
    const boot = pathToFileURL(path.join(dir, "missing.boot.mjs"));
    const entry = threadEntry(pathToFileURL(module), boot);
    expect(entry.href).not.toBe(boot.href);
    expect(fileURLToPath(entry)).toContain(path.join("node_modules", ".cache", "dreamgym-threads"));
    expect(threadEntry(pathToFileURL(module), boot).href).toBe(entry.href);
    const worker = new Worker(entry);
    const answer = await new Promise((resolve, reject) => {
      worker.once("message", resolve);
      worker.once("error", reject);
    });
    await worker.terminate();
    expect(answer).toBe(5);
    // A bundle removed under a running process (pruned by one with newer code) is made again.
    fs.rmSync(fileURLToPath(entry));
    expect(threadEntry(pathToFileURL(module), boot).href).toBe(entry.href);
    expect(fs.existsSync(fileURLToPath(entry))).toBe(true);
    fs.rmSync(fileURLToPath(entry));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("prunes a day-old bundle of another version of the same module, and keeps younger ones", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dreamgym-thread-"));
    const name = `prunable${process.pid}`;
    const module = path.join(dir, `${name}.ts`);
    const cache = path.join("node_modules", ".cache", "dreamgym-threads");
    fs.mkdirSync(cache, { recursive: true });
    const old = path.join(cache, `${name}-0000000000000000.mjs`);
    const young = path.join(cache, `${name}-1111111111111111.mjs`);
    fs.writeFileSync(old, "");
    fs.writeFileSync(young, "");
    const dayAgo = new Date(Date.now() - 25 * 60 * 60 * 1000);
    fs.utimesSync(old, dayAgo, dayAgo);
    fs.writeFileSync(module, "export const one = 1;\n");
    threadEntry(pathToFileURL(module), pathToFileURL(path.join(dir, "boot.mjs")));
    expect(fs.existsSync(old)).toBe(false);
    expect(fs.existsSync(young)).toBe(true);
    for (const file of fs.readdirSync(cache))
      if (file.startsWith(`${name}-`)) fs.rmSync(path.join(cache, file), { force: true });
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("falls back to the boot module, saying why, when the module cannot be bundled", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dreamgym-thread-"));
    const module = path.join(dir, "broken.ts");
    fs.writeFileSync(module, `import { nothing } from "./does-not-exist";\nnothing();\n`);
    const boot = pathToFileURL(path.join(dir, "broken.boot.mjs"));
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    expect(threadEntry(pathToFileURL(module), boot).href).toBe(boot.href);
    expect(warn).toHaveBeenCalledWith(
      expect.stringMatching(/broken\.ts threads through the TypeScript loader/),
    );
    warn.mockRestore();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
