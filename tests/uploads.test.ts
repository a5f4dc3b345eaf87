import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { POST as upload } from "@/app/api/imports/route";
import { POST as trpc } from "@/app/api/trpc/[trpc]/route";
import { config } from "@/env";
import { sessionHeaders } from "@/server/auth/testing";
import type { Db } from "@/server/db";
import { SAMPLE_FILE } from "@/server/demo/sampleFile";
import { UPLOAD_LIMIT_BYTES } from "@/server/trajectories/queueUpload";
import { createTestDb, type TestDb } from "./helpers/testDb";

let t: TestDb;
const shared = globalThis as unknown as { dreamgymDb?: Promise<Db> };
beforeEach(async () => {
  t = await createTestDb();
  process.env.DREAMGYM_DATA_DIR = t.dir;
  shared.dreamgymDb = Promise.resolve(t.db);
});
afterEach(async () => {
  delete shared.dreamgymDb;
  await t.cleanup();
});

const MB = 1024 * 1024;
const importsDir = () => path.resolve(config().dataDir, "imports");
const filesSaved = () => (fs.existsSync(importsDir()) ? fs.readdirSync(importsDir()) : []);

/** A body that would never end, counting what the server pulled from it. */
function endlessBody(chunkBytes = MB) {
  const chunk = new Uint8Array(chunkBytes).fill(0x61);
  const pulled = { bytes: 0, cancelled: false };
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulled.bytes += chunk.byteLength;
      controller.enqueue(chunk);
    },
    cancel() {
      pulled.cancelled = true;
    },
  });
  return { body, pulled };
}

async function uploadRequest(query: string, init: RequestInit & { duplex?: "half" }): Promise<Response> {
  const headers = new Headers(await sessionHeaders(t.db, "researcher"));
  for (const [k, v] of new Headers(init.headers)) headers.set(k, v);
  return upload(
    new Request(`http://127.0.0.1:3000/api/imports?${query}`, { ...init, method: "POST", headers }),
  );
}

describe("uploading a trajectory file (POST /api/imports)", () => {
  it("queues a good file and refuses a bad one with its line numbers, as plain sentences", async () => {
    const good = await uploadRequest("name=sample.jsonl", { body: fs.readFileSync(SAMPLE_FILE) });
    expect(good.status).toBe(202);
    const queued = (await good.json()) as { jobId: string; trajectories: number };
    expect(queued.trajectories).toBe(6);
    expect(await t.db.job.findUniqueOrThrow({ where: { id: queued.jobId } })).toMatchObject({
      type: "import",
    });

    const bad = await uploadRequest("name=bad.jsonl", { body: '{"domain":"web"}\n\n[1,2]\n' });
    expect(bad.status).toBe(400);
    expect(bad.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(await bad.text()).toMatch(
      /^bad\.jsonl was rejected \(2 bad lines\)[\s\S]*line 1: [\s\S]*line 3: /,
    );
  });

  it("refuses a file whose Content-Length is over the limit before reading any of it", async () => {
    const { body, pulled } = endlessBody();
    const response = await uploadRequest("name=huge.jsonl", {
      body,
      duplex: "half",
      headers: { "content-length": String(200 * MB) },
    });
    expect(response.status).toBe(413);
    expect(await response.text()).toBe(
      "huge.jsonl was refused: the file is larger than the 50 MB limit. Import bigger files with the command line (npm run cli -- import FILE).\n",
    );
    // The stream's first chunk may be queued when it is made; nothing more is asked for.
    expect(pulled.bytes).toBeLessThanOrEqual(MB);
    expect(await t.db.job.count()).toBe(0);
    expect(filesSaved()).toEqual([]);
  });

  it("stops reading a file sent without a length at the limit, and leaves nothing behind", async () => {
    const { body, pulled } = endlessBody();
    const response = await uploadRequest("name=endless.jsonl", { body, duplex: "half" });
    expect(response.status).toBe(413);
    expect(await response.text()).toMatch(
      /^endless\.jsonl was refused: the file is larger than the 50 MB limit/,
    );
    expect(pulled.cancelled).toBe(true);
    // At most the limit and the chunk that crossed it, plus what the stream queued ahead.
    expect(pulled.bytes).toBeGreaterThan(UPLOAD_LIMIT_BYTES);
    expect(pulled.bytes).toBeLessThanOrEqual(UPLOAD_LIMIT_BYTES + 2 * MB);
    expect(await t.db.job.count()).toBe(0);
    expect(filesSaved()).toEqual([]);
  });

  it("refuses a nameless upload with a sentence, not zod's JSON", async () => {
    const response = await uploadRequest("name=%00%0A", { body: "{}" });
    expect(response.status).toBe(400);
    expect(await response.text()).toBe("Bad upload: name: a name is required\n");
  });
});

describe("a tRPC call's body", () => {
  it("is refused past 2 MB while it arrives, with a sentence that says where files go", async () => {
    const { body, pulled } = endlessBody(256 * 1024);
    const headers = new Headers(await sessionHeaders(t.db, "researcher"));
    headers.set("content-type", "application/json");
    const response = await trpc(
      new Request("http://127.0.0.1:3000/api/trpc/jobs.importTrajectories", {
        method: "POST",
        headers,
        body,
        duplex: "half",
      } as RequestInit),
    );
    expect(response.status).toBe(413);
    expect(await response.text()).toMatch(
      /larger than the 2 MB limit of an API call\. Upload trajectory files/,
    );
    expect(pulled.bytes).toBeLessThanOrEqual(3 * MB);
    expect(await t.db.job.count()).toBe(0);
  });
});
