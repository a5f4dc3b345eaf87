import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EmbeddingDimensionError, OpenAIEmbedder } from "./openaiEmbedder";

/** A real HTTP server on 127.0.0.1 that speaks /v1/embeddings, with scripted failures. */
interface FakeServer {
  url: string;
  requests: { path: string; body: { model: string; input: string[]; encoding_format?: string } }[];
  /** Replies to send before the normal ones, in order: a status (with an error body) or a dimension. */
  script: ({ status: number; retryAfter?: string } | { dimension: number })[];
  hang: boolean;
  close(): Promise<void>;
}

async function fakeServer(dimension: number): Promise<FakeServer> {
  const state = { requests: [] as FakeServer["requests"], script: [] as FakeServer["script"], hang: false };
  const server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk) => {
      raw += chunk;
    });
    req.on("end", () => {
      const body = JSON.parse(raw) as FakeServer["requests"][number]["body"];
      state.requests.push({ path: req.url ?? "", body });
      if (state.hang) return; // never answers: the client's timeout must fire
      const step = state.script.shift();
      if (step && "status" in step) {
        res.writeHead(step.status, {
          "content-type": "application/json",
          ...(step.retryAfter ? { "retry-after": step.retryAfter } : {}),
        });
        res.end(JSON.stringify({ error: { message: `scripted ${step.status}`, type: "test" } }));
        return;
      }
      const dim = step?.dimension ?? dimension;
      // Each vector encodes its input's length, so the test can check order; deliberately not unit length.
      const data = body.input.map((text, index) => ({
        object: "embedding",
        index,
        embedding: Array.from({ length: dim }, (_, i) => (i === 0 ? text.length : 1)),
      }));
      res.writeHead(200, { "content-type": "application/json" });
      // Out of order, as the protocol allows: the index field says which input each vector is for.
      res.end(
        JSON.stringify({
          object: "list",
          model: body.model,
          data: data.reverse(),
          usage: { prompt_tokens: 1, total_tokens: 1 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    get requests() {
      return state.requests;
    },
    get script() {
      return state.script;
    },
    set script(value) {
      state.script = value;
    },
    get hang() {
      return state.hang;
    },
    set hang(value) {
      state.hang = value;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let server: FakeServer;
beforeEach(async () => {
  server = await fakeServer(4);
});
afterEach(async () => {
  await server.close();
});

function embedder(options: Partial<ConstructorParameters<typeof OpenAIEmbedder>[0]> = {}) {
  return new OpenAIEmbedder({
    baseURL: server.url,
    model: "fake-embed",
    dimension: 4,
    batchSize: 3,
    backoffMs: 5,
    timeoutMs: 2_000,
    ...options,
  });
}

describe("OpenAIEmbedder", () => {
  it("batches the texts, asks for floats, keeps the input order and normalises", async () => {
    const e = embedder();
    expect(e.id).toBe("openai-fake-embed-4");
    const texts = ["a", "bb", "ccc", "dddd", "eeeee", "ffffff", "g"];
    const vectors = await e.embed(texts);
    expect(server.requests.map((r) => r.body.input)).toEqual([
      ["a", "bb", "ccc"],
      ["dddd", "eeeee", "ffffff"],
      ["g"],
    ]);
    expect(server.requests[0]).toMatchObject({
      path: "/v1/embeddings",
      body: { model: "fake-embed", encoding_format: "float" },
    });
    vectors.forEach((v, i) => {
      const norm = Math.hypot(...v);
      expect(norm).toBeCloseTo(1, 5);
      // Component 0 was the input's length before normalisation: the vectors are in input order.
      expect(v[0]! / v[1]!).toBeCloseTo(texts[i]!.length, 4);
    });
    expect(await e.embed([])).toEqual([]);
  });

  it("retries a 429 and a 503, then succeeds", async () => {
    server.script = [{ status: 429, retryAfter: "0" }, { status: 503 }];
    const vectors = await embedder().embed(["x", "y"]);
    expect(vectors).toHaveLength(2);
    expect(server.requests).toHaveLength(3);
  });

  it("gives up after the bounded retries, and does not retry a client error", async () => {
    server.script = [{ status: 500 }, { status: 500 }, { status: 500 }];
    await expect(embedder({ maxRetries: 2 }).embed(["x"])).rejects.toThrow(/500/);
    expect(server.requests).toHaveLength(3);

    server.script = [{ status: 400 }];
    await expect(embedder().embed(["x"])).rejects.toThrow(/400/);
    expect(server.requests).toHaveLength(4);
  });

  it("refuses vectors of the wrong dimension with a clear error", async () => {
    server.script = [{ dimension: 3 }];
    const failure = embedder().embed(["x"]);
    await expect(failure).rejects.toThrow(EmbeddingDimensionError);
    server.script = [{ dimension: 3 }];
    await expect(embedder().embed(["x"])).rejects.toThrow(
      'the embedding model "fake-embed" returned vectors of dimension 3, but 4 was expected',
    );
  });

  it("times out a request that gets no answer, retrying within its bound", async () => {
    server.hang = true;
    const started = Date.now();
    await expect(embedder({ timeoutMs: 200, maxRetries: 1 }).embed(["x"])).rejects.toThrow(/timed out/i);
    expect(server.requests).toHaveLength(2);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
