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
