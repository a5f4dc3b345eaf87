import { createHash, randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

/** The person the fake provider signs in: what its userinfo endpoint answers. */
export interface FakeOidcPerson {
  sub: string;
  email: string;
  name: string;
}

export interface FakeOidc {
  /** http://127.0.0.1:<port>: the issuer, and the origin of every endpoint. */
  issuer: string;
  discoveryUrl: string;
  clientId: string;
  clientSecret: string;
  /** Who signs in at the next authorize request. */
  person: FakeOidcPerson;
  /** What the provider saw: authorize requests' query, token requests' outcome. */
  authorizeRequests: URLSearchParams[];
  tokenRequests: { ok: boolean; error?: string }[];
  close(): Promise<void>;
}

interface Grant {
  clientId: string;
  redirectUri: string;
  codeChallenge: string | null;
  codeChallengeMethod: string | null;
  person: FakeOidcPerson;
}

const base64url = (bytes: Buffer) => bytes.toString("base64url");

async function readBody(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function json(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" });
  res.end(JSON.stringify(body));
}

/**
 * A small OpenID provider on 127.0.0.1: discovery, an authorize endpoint that signs `person` in at once (no login
 * page) and redirects back with a one-time code and the same state, a token endpoint that checks the code, the
 * client's id and secret (Basic or in the body), the redirect URI and the PKCE verifier, and a userinfo endpoint.
 * Like a real provider, it refuses an authorize request whose redirect URI is not one registered for the client.
 * It issues no id_token (and publishes no jwks_uri), so the relying party reads the person from userinfo.
 */
export async function startFakeOidc(
  options: {
    clientId?: string;
    clientSecret?: string;
    person?: FakeOidcPerson;
    /** The redirect URIs registered for the client, as an admin enters them at the provider; unset: any. */
    redirectUris?: string[];
  } = {},
): Promise<FakeOidc> {
  const grants = new Map<string, Grant>();
  const accessTokens = new Map<string, FakeOidcPerson>();
  const state: FakeOidc = {
    issuer: "",
    discoveryUrl: "",
    clientId: options.clientId ?? "dreamgym-test-client",
    clientSecret: options.clientSecret ?? "dreamgym-test-secret",
    person: options.person ?? { sub: "user-1", email: "ada@lab.org", name: "Ada Lovelace" },
    authorizeRequests: [],
    tokenRequests: [],
    close: async () => {},
  };

  async function token(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const refuse = (status: number, error: string) => {
      state.tokenRequests.push({ ok: false, error });
      json(res, status, { error });
    };
    const form = new URLSearchParams(await readBody(req));
    let clientId = form.get("client_id");
    let clientSecret = form.get("client_secret");
    const basic = req.headers.authorization?.match(/^Basic (.+)$/i);
    if (basic?.[1]) {
      const [id, secret] = Buffer.from(basic[1], "base64").toString("utf8").split(":");
      clientId = decodeURIComponent(id ?? "");
      clientSecret = decodeURIComponent(secret ?? "");
    }
    if (clientId !== state.clientId || clientSecret !== state.clientSecret)
      return refuse(401, "invalid_client");
    if (form.get("grant_type") !== "authorization_code") return refuse(400, "unsupported_grant_type");
    const code = form.get("code") ?? "";
    const grant = grants.get(code);
    grants.delete(code); // one use only
    if (!grant || grant.clientId !== clientId) return refuse(400, "invalid_grant");
    if (form.get("redirect_uri") !== grant.redirectUri) return refuse(400, "invalid_grant");
    if (grant.codeChallenge) {
      const verifier = form.get("code_verifier") ?? "";
      const expected =
        grant.codeChallengeMethod === "S256"
          ? base64url(createHash("sha256").update(verifier).digest())
          : verifier;
      if (!verifier || expected !== grant.codeChallenge) return refuse(400, "invalid_grant");
    }
    const accessToken = base64url(randomBytes(24));
    accessTokens.set(accessToken, grant.person);
    state.tokenRequests.push({ ok: true });
    json(res, 200, {
      access_token: accessToken,
      token_type: "Bearer",
      expires_in: 3600,
      scope: "openid profile email",
    });
  }

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", state.issuer);
    if (req.method === "GET" && url.pathname === "/.well-known/openid-configuration") {
      return json(res, 200, {
        issuer: state.issuer,
        authorization_endpoint: `${state.issuer}/authorize`,
        token_endpoint: `${state.issuer}/token`,
        userinfo_endpoint: `${state.issuer}/userinfo`,
        response_types_supported: ["code"],
        subject_types_supported: ["public"],
        id_token_signing_alg_values_supported: ["RS256"],
        scopes_supported: ["openid", "profile", "email"],
        token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
        code_challenge_methods_supported: ["S256"],
      });
    }
    if (req.method === "GET" && url.pathname === "/authorize") {
      state.authorizeRequests.push(url.searchParams);
      const q = url.searchParams;
      const redirectUri = q.get("redirect_uri");
      const registered = !options.redirectUris || options.redirectUris.includes(redirectUri ?? "");
      if (
        q.get("client_id") !== state.clientId ||
        !redirectUri ||
        !registered ||
        q.get("response_type") !== "code"
      ) {
        return json(res, 400, { error: "invalid_request" });
      }
      const code = base64url(randomBytes(16));
      grants.set(code, {
        clientId: state.clientId,
        redirectUri,
        codeChallenge: q.get("code_challenge"),
        codeChallengeMethod: q.get("code_challenge_method"),
        person: { ...state.person },
      });
      const back = new URL(redirectUri);
      back.searchParams.set("code", code);
      const returned = q.get("state");
      if (returned !== null) back.searchParams.set("state", returned);
      back.searchParams.set("iss", state.issuer);
      res.writeHead(302, { location: back.toString() });
      return res.end();
    }
    if (req.method === "POST" && url.pathname === "/token") {
      token(req, res).catch(() => json(res, 500, { error: "server_error" }));
      return;
    }
    if (req.method === "GET" && url.pathname === "/userinfo") {
      const bearer = req.headers.authorization?.match(/^Bearer (.+)$/i)?.[1];
      const person = bearer ? accessTokens.get(bearer) : undefined;
      if (!person) return json(res, 401, { error: "invalid_token" });
      return json(res, 200, { ...person, email_verified: true });
    }
    json(res, 404, { error: "not_found" });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  state.issuer = `http://127.0.0.1:${port}`;
  state.discoveryUrl = `${state.issuer}/.well-known/openid-configuration`;
  state.close = () =>
    new Promise<void>((resolve, reject) => {
      server.closeAllConnections();
      server.close((error) => (error ? reject(error) : resolve()));
    });
  return state;
}
