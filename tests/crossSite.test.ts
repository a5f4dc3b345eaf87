import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GET as flaggedExport } from "@/app/api/flagged/export/route";
import { POST as upload } from "@/app/api/imports/route";
import { GET as trpcGet, POST as trpcPost } from "@/app/api/trpc/[trpc]/route";
import { config, loadConfig } from "@/env";
import { authFor } from "@/server/auth/auth";
import { addUser } from "@/server/auth/bootstrap";
import { crossSiteRefusal } from "@/server/auth/sameOrigin";
import { sessionHeaders } from "@/server/auth/testing";
import type { Db } from "@/server/db";
import { createTestDb, type TestDb } from "./helpers/testDb";

/** The app as the browser reaches it (the default public URL), and a page on another port of the same host. */
const APP = "http://127.0.0.1:3000";
const ELSEWHERE = "http://127.0.0.1:8080";

let t: TestDb;
let cookie: string;
const shared = globalThis as unknown as { dreamgymDb?: Promise<Db> };

beforeAll(() => {
  // The app's own origin comes from its settings: none set here but the defaults (http://127.0.0.1:3000).
  delete process.env.DREAMGYM_URL;
  delete process.env.DREAMGYM_TRUSTED_ORIGINS;
});
beforeEach(async () => {
  t = await createTestDb();
  process.env.DREAMGYM_DATA_DIR = t.dir;
  shared.dreamgymDb = Promise.resolve(t.db);
  await addUser(t.db, config(), {
    email: "rosa@lab.org",
    name: "Rosa",
    password: "rosa-password",
    role: "researcher",
  });
  // Signed in through the sign-in page: the session is a cookie, as in a browser.
  const signedIn = await authFor(t.db).handler(
    new Request(`${APP}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: APP },
      body: JSON.stringify({ email: "rosa@lab.org", password: "rosa-password" }),
    }),
  );
  expect(signedIn.status).toBe(200);
  cookie = signedIn.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
});
afterEach(async () => {
  delete shared.dreamgymDb;
  await t.cleanup();
});

/** A request to the app with the session cookie, as the browser sends it, and whatever else a page adds. */
function withCookie(path: string, init: RequestInit & { headers?: Record<string, string> } = {}): Request {
  return new Request(`${APP}${path}`, {
    ...init,
    headers: { host: "127.0.0.1:3000", cookie, ...init.headers },
  });
}

/** Queues an index job: a mutation any researcher may call, with an input a form can fake (all defaults). */
const INDEX = "/api/trpc/jobs.index";

describe("a page elsewhere using the session cookie", () => {
  it("cannot queue a job with a multipart form from another port of the same host", async () => {
    const form = new FormData();
    form.set("rebuild", "true");
    const response = await trpcPost(
      withCookie(INDEX, { method: "POST", body: form, headers: { origin: ELSEWHERE } }),
    );
    expect(response.status).toBe(403);
    expect(await response.text()).toBe(
      `This request was refused: it came from a page at ${ELSEWHERE}, not from DreamGym (${APP}), and a page elsewhere may not use your session. If DreamGym is served at ${ELSEWHERE}, add that origin to DREAMGYM_TRUSTED_ORIGINS.\n`,
    );
    expect(await t.db.job.count()).toBe(0);
  });

  it("cannot send a text/plain body (a form's or a no-cors fetch's) from another site", async () => {
    const response = await trpcPost(
      withCookie(INDEX, {
        method: "POST",
        body: JSON.stringify({ json: {} }),
        headers: { "content-type": "text/plain", origin: "https://evil.example" },
      }),
    );
    expect(response.status).toBe(403);
    expect(await response.text()).toMatch(/came from a page at https:\/\/evil\.example, not from DreamGym/);
    expect(await t.db.job.count()).toBe(0);
  });

  it("cannot change anything without saying where it came from (no Origin, no Referer)", async () => {
    const response = await trpcPost(
      withCookie(INDEX, {
        method: "POST",
        body: JSON.stringify({ json: {} }),
        headers: { "content-type": "application/json" },
      }),
    );
    expect(response.status).toBe(403);
    expect(await response.text()).toMatch(/names no page it came from \(no Origin or Referer header\)/);
    expect(await t.db.job.count()).toBe(0);
  });

  it("cannot upload a file to import, nor fetch a download from a script", async () => {
    const uploaded = await upload(
      withCookie("/api/imports?name=x.jsonl", { method: "POST", body: "{}", headers: { origin: ELSEWHERE } }),
    );
    expect(uploaded.status).toBe(403);
    const fetched = await flaggedExport(
      withCookie("/api/flagged/export", { headers: { origin: ELSEWHERE } }),
    );
    expect(fetched.status).toBe(403);
    expect(await t.db.job.count()).toBe(0);
  });

  it("cannot read through tRPC from a script on another origin", async () => {
    const response = await trpcGet(withCookie("/api/trpc/jobs.list", { headers: { origin: ELSEWHERE } }));
    expect(response.status).toBe(403);
  });
});

describe("the app's own pages", () => {
  const call = (headers: Record<string, string>) =>
    trpcPost(
      withCookie(INDEX, {
        method: "POST",
        body: JSON.stringify({ json: {} }),
        headers: { "content-type": "application/json", ...headers },
      }),
    );

  it("still queue jobs from the app's origin, named by Origin or, without it, by Referer", async () => {
    expect((await call({ origin: APP })).status).toBe(200);
    expect((await call({ referer: `${APP}/jobs` })).status).toBe(200);
    // The browser opened the app as localhost rather than 127.0.0.1: the same machine.
    expect((await call({ origin: "http://localhost:3000", host: "localhost:3000" })).status).toBe(200);
    expect(await t.db.job.count()).toBe(3);
  });

  it("are recognised by the host they were served from, under any name", async () => {
    const response = await call({ origin: "http://dreamgym.lab:3000", host: "dreamgym.lab:3000" });
    expect(response.status).toBe(200);
    // The same host on another port is another origin.
    expect((await call({ origin: "http://dreamgym.lab:3001", host: "dreamgym.lab:3000" })).status).toBe(403);
  });

  it("follow a download link from anywhere: a link sends no Origin", async () => {
    const response = await flaggedExport(
      withCookie("/api/flagged/export", { headers: { referer: "https://chat.example/room" } }),
    );
    expect(response.status).toBe(200);
  });

  it("are not asked where they come from when they send a bearer token, which no other page can", async () => {
    const headers = await sessionHeaders(t.db, "researcher");
    const response = await trpcPost(
      new Request(`${APP}${INDEX}`, {
        method: "POST",
        headers: { authorization: headers.get("authorization")!, "content-type": "application/json" },
        body: JSON.stringify({ json: {} }),
      }),
    );
    expect(response.status).toBe(200);
  });
});

describe("origins a deployment adds", () => {
  it("lets pages served by a proxy under DREAMGYM_URL or DREAMGYM_TRUSTED_ORIGINS change things", () => {
    const settings = loadConfig({
      DATABASE_URL: "file:unused.db",
      DREAMGYM_URL: "https://dreamgym.example.org",
      DREAMGYM_TRUSTED_ORIGINS: "https://gym.example.org, https://ml.example.org:8443",
    });
    expect(settings.auth.trustedOrigins).toEqual(["https://gym.example.org", "https://ml.example.org:8443"]);
    // Behind the proxy, the app sees its own address as the host; the browser names the public one.
    const from = (origin: string) =>
      crossSiteRefusal(
        new Request("http://10.0.0.5:3000/api/trpc/jobs.index", {
          method: "POST",
          headers: { host: "10.0.0.5:3000", cookie: "s=1", origin },
        }),
        settings,
      );
    expect(from("https://dreamgym.example.org")).toBeNull();
    expect(from("https://gym.example.org")).toBeNull();
    expect(from("https://ml.example.org:8443")).toBeNull();
    expect(from("https://ml.example.org")).toMatch(/add that origin to DREAMGYM_TRUSTED_ORIGINS/);
    expect(() =>
      loadConfig({ DATABASE_URL: "file:x.db", DREAMGYM_TRUSTED_ORIGINS: "https://a.org/path" }),
    ).toThrow(/auth\.trustedOrigins\.0: "https:\/\/a\.org\/path" is not an origin/);
  });
});
