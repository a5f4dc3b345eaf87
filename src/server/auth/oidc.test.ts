import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Config, loadConfig } from "@/env";
import { type FakeOidc, startFakeOidc } from "../../../tests/helpers/fakeOidc";
import { createTestDb, type TestDb } from "../../../tests/helpers/testDb";
import { type Auth, createAuth } from "./auth";
import { signedInUser } from "./session";

/** The app's address: Better Auth builds the redirect URI from it. Nothing listens there; requests go to auth.handler. */
const APP = "http://127.0.0.1:3999";

/** A browser's cookie jar for one origin: what Set-Cookie sets (and clears), sent back as Cookie. */
class CookieJar {
  private cookies = new Map<string, string>();
  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(";");
      const at = (pair ?? "").indexOf("=");
      const name = (pair ?? "").slice(0, at).trim();
      const value = (pair ?? "").slice(at + 1).trim();
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a));
      if (expired || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
  names(): string[] {
    return [...this.cookies.keys()];
  }
}

describe("signing in through an OIDC provider (sqlite)", () => {
  let t: TestDb;
  let idp: FakeOidc;
  const shared = globalThis as unknown as { dreamgymDb?: Promise<unknown> };

  beforeEach(async () => {
    t = await createTestDb("sqlite");
    // Registered at the provider as README "Sign-in and roles" says.
    idp = await startFakeOidc({ redirectUris: [`${APP}/api/auth/callback/oidc`] });
    shared.dreamgymDb = Promise.resolve(t.db);
  });
  afterEach(async () => {
    delete shared.dreamgymDb;
    await idp.close();
    await t.cleanup();
  });

  function settingsFor(clientSecret: string): Config {
    return loadConfig({
      DATABASE_URL: t.url,
      DREAMGYM_DATA_DIR: t.dir,
      DREAMGYM_URL: APP,
      // The secret every Better Auth instance of the test process signs with (vitest.config.ts), so that
      // signedInUser's instance reads the cookies this test's instance sets.
      DREAMGYM_AUTH_SECRET: process.env.DREAMGYM_AUTH_SECRET,
      OIDC_DISCOVERY_URL: idp.discoveryUrl,
      OIDC_CLIENT_ID: idp.clientId,
      OIDC_CLIENT_SECRET: clientSecret,
      OIDC_NAME: "Lab SSO",
    });
  }

  /**
   * A browser's way through: the sign-in button's POST, the provider's authorize page (which signs the person in
   * at once), then the provider's redirect back to the app's callback. The jar holds the app's cookies after.
   */
  async function signInThroughProvider(
    auth: Auth,
  ): Promise<{ jar: CookieJar; landing: URL; redirectUri: string }> {
    const jar = new CookieJar();
    const start = await auth.handler(
      new Request(`${APP}/api/auth/sign-in/social`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: APP },
        body: JSON.stringify({ provider: "oidc", callbackURL: "/runs" }),
      }),
    );
    expect(start.status).toBe(200);
    jar.take(start);
    const { url, redirect } = (await start.json()) as { url: string; redirect: boolean };
    expect(redirect).toBe(true);
    const authorize = new URL(url);
    expect(authorize.origin + authorize.pathname).toBe(`${idp.issuer}/authorize`);

    const atProvider = await fetch(authorize, { redirect: "manual" });
    expect(atProvider.status, await atProvider.clone().text()).toBe(302);
    const back = new URL(atProvider.headers.get("location") ?? "");
    expect(back.searchParams.get("state")).toBe(authorize.searchParams.get("state"));

    const callback = await auth.handler(new Request(back, { headers: { cookie: jar.header() } }));
    expect(callback.status).toBe(302);
    jar.take(callback);
    return {
      jar,
      landing: new URL(callback.headers.get("location") ?? "", APP),
      redirectUri: authorize.searchParams.get("redirect_uri") ?? "",
    };
  }

  it("signs a new person in as a viewer, and the same person again into the same account", async () => {
    const auth = createAuth(t.db, settingsFor(idp.clientSecret));
    const first = await signInThroughProvider(auth);

    // What the app asked the provider for: the documented redirect URI, the configured scopes, PKCE (S256).
    const asked = idp.authorizeRequests[0]!;
    expect(first.redirectUri).toBe(`${APP}/api/auth/callback/oidc`);
    expect(asked.get("scope")?.split(" ")).toEqual(["openid", "profile", "email"]);
    expect(asked.get("code_challenge_method")).toBe("S256");
    expect(asked.get("code_challenge")).toBeTruthy();
    expect(idp.tokenRequests).toEqual([{ ok: true }]);

    expect(first.landing.toString()).toBe(`${APP}/runs`);
    const me = await signedInUser(new Headers({ cookie: first.jar.header() }));
    expect(me).toMatchObject({ email: "ada@lab.org", name: "Ada Lovelace", role: "viewer" });
    const users = await t.db.user.findMany();
    expect(users).toHaveLength(1);
    expect(users[0]).toMatchObject({ id: me!.id, email: "ada@lab.org", role: "viewer", emailVerified: true });
    const accounts = await t.db.account.findMany();
    expect(accounts).toHaveLength(1);
    expect(accounts[0]).toMatchObject({ userId: me!.id, providerId: "oidc", accountId: "user-1" });

    // The next day: a new browser, the same person at the provider.
    const second = await signInThroughProvider(auth);
    const again = await signedInUser(new Headers({ cookie: second.jar.header() }));
    expect(again?.id).toBe(me!.id);
    expect(await t.db.user.count()).toBe(1);
    expect(await t.db.account.count()).toBe(1);
    expect(await t.db.session.count()).toBe(2);
  });

  it("signs nobody in when the provider refuses the client's secret", async () => {
    const auth = createAuth(t.db, settingsFor("not-the-secret"));
    const { jar, landing } = await signInThroughProvider(auth);
    expect(idp.tokenRequests).toEqual([{ ok: false, error: "invalid_client" }]);
    // Better Auth's own error page (/api/auth/error?error=invalid_code), not the page asked for.
    expect(landing.searchParams.get("error")).toBeTruthy();
    expect(landing.pathname).not.toBe("/runs");
    expect(await signedInUser(new Headers({ cookie: jar.header() }))).toBeNull();
    expect(await t.db.user.count()).toBe(0);
    expect(await t.db.account.count()).toBe(0);
    expect(await t.db.session.count()).toBe(0);
  });
});
