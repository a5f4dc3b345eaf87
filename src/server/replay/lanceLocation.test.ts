import { beforeEach, describe, expect, it, vi } from "vitest";

const connect = vi.fn();
vi.mock("@lancedb/lancedb", async (original) => ({
  ...(await original<typeof import("@lancedb/lancedb")>()),
  connect: (...args: unknown[]) => connect(...args),
}));

const { LanceReplayBuffer } = await import("./lanceReplayBuffer");

/** A connection with no tables: enough for builtWith and drop, with no bucket or network behind it. */
function emptyConnection() {
  return { tableNames: vi.fn(async () => []), dropTable: vi.fn(), close: vi.fn() };
}

describe("LanceDB location", () => {
  beforeEach(() => {
    connect.mockReset();
    connect.mockImplementation(async () => emptyConnection());
  });

  it("hands object-store URIs to LanceDB's connect untouched (no path resolution, no folder made)", async () => {
    for (const uri of ["s3://bucket/dreamgym/lancedb", "gs://bucket/lancedb", "az://container/lancedb"]) {
      expect(await LanceReplayBuffer.builtWith(uri)).toBeUndefined();
      await LanceReplayBuffer.drop(uri);
      expect(connect.mock.calls.map((call) => call[0])).toEqual([uri, uri]);
      connect.mockClear();
    }
  });
});
