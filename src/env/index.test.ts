import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { redactDatabaseUrl } from "./database";
import { loadConfig } from "./index";

describe("configuration", () => {
  it("runs offline with embedded defaults and derives paths from the data folder", () => {
    const config = loadConfig({
      DREAMGYM_DATA_DIR: "/srv/dg",
      DATABASE_URL: "file:/srv/dg/x.db",
      DREAMGYM_CONFIG: undefined,
    });
    expect(config.backends.experience).toBe("embedded");
    expect(config.backends.embedding).toBe("embedded");
    expect(config.lancedbDir).toBe(path.join("/srv/dg", "lancedb"));
    expect(config.databaseUrl).toBe("file:/srv/dg/x.db");
    expect(config.worker.leaseMs).toBe(30_000);
    // No sign-in yet: only this machine can reach the app unless HOST (or the file's host) says otherwise.
    expect(config.host).toBe("127.0.0.1");
    expect(loadConfig({ DATABASE_URL: "file:x.db", HOST: "0.0.0.0" }).host).toBe("0.0.0.0");
  });

  it("accepts a SQLite file or a PostgreSQL server as the database, and nothing else", () => {
    for (const url of ["postgresql://u:p@db:5432/dreamgym", "postgres://db/dreamgym", "file:/srv/dg/x.db"])
      expect(loadConfig({ DATABASE_URL: url }).databaseUrl).toBe(url);
    expect(() => loadConfig({ DATABASE_URL: "mysql://u:secret@db/dreamgym" })).toThrow(
      /a SQLite file .* or a PostgreSQL server/,
    );
    // The password never reaches a log or an error.
    expect(() => loadConfig({ DATABASE_URL: "mysql://u:secret@db/dreamgym" })).not.toThrow(/secret/);
    expect(redactDatabaseUrl("postgresql://dreamgym:s3cret@db:5432/dg")).toBe(
      "postgresql://dreamgym:***@db:5432/dg",
    );
  });

  it("hands a LanceDB object-store URI or shared path through untouched", () => {
    for (const uri of [
      "s3://bucket/dreamgym/lancedb",
      "gs://bucket/lancedb",
      "az://container/lancedb",
      "/mnt/shared/lancedb",
    ])
      expect(
        loadConfig({ DATABASE_URL: "file:x.db", DREAMGYM_DATA_DIR: "/srv/dg", LANCEDB_DIR: uri }).lancedbDir,
      ).toBe(uri);
  });

  it("merges a config file under environment variables", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dreamgym-config-"));
    const file = path.join(dir, "c.json");
    fs.writeFileSync(
      file,
      JSON.stringify({
        backends: { experience: "openai" },
        openai: { baseURL: "http://127.0.0.1:9/v1", models: { experience: "llama" } },
        port: 4000,
      }),
    );
    const config = loadConfig({
      DREAMGYM_CONFIG: file,
      DATABASE_URL: "file:x.db",
      PORT: "5000",
      OPENAI_API_KEY: "k",
    });
    expect(config.backends.experience).toBe("openai");
    expect(config.backends.policy).toBe("embedded");
    expect(config.openai).toMatchObject({ baseURL: "http://127.0.0.1:9/v1", apiKey: "k" });
    expect(config.openai.models.experience).toBe("llama");
    expect(config.openai.models.teacher).toBe("gpt-4o-mini");
    expect(config.port).toBe(5000);
  });

  it("names the bad field", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dreamgym-config-"));
    const file = path.join(dir, "c.json");
    fs.writeFileSync(file, JSON.stringify({ backends: { experience: "gpt" }, worker: { leaseMs: 5 } }));
    expect(() => loadConfig({ DREAMGYM_CONFIG: file, DATABASE_URL: "file:x.db" })).toThrow(
      /backends\.experience[\s\S]*worker\.leaseMs/,
    );
    fs.writeFileSync(file, "{oops");
    expect(() => loadConfig({ DREAMGYM_CONFIG: file, DATABASE_URL: "file:x.db" })).toThrow(
      /c\.json is not valid JSON/,
    );
    expect(() =>
      loadConfig({ DREAMGYM_CONFIG: path.join(dir, "none.json"), DATABASE_URL: "file:x.db" }),
    ).toThrow(/does not exist/);
  });
});
