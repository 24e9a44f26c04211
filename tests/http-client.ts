/** fetch over real HTTP with a cookie jar, signing in through Auth.js' real Credentials flow as the browser does. */

export interface RequestOptions {
  json?: unknown;
  /** Sent as-is (raw strings or bytes for malformed bodies); set the content type yourself. */
  body?: string | Uint8Array<ArrayBuffer>;
  form?: Record<string, string>;
  /** Sent as multipart/form-data (fetch writes the boundary and the Content-Length). */
  multipart?: FormData;
  headers?: Record<string, string>;
}

export interface HttpResult {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
}

export class HttpClient {
  readonly cookies = new Map<string, string>();

  constructor(readonly baseUrl: string) {}

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  private store(headers: Headers) {
    for (const line of headers.getSetCookie()) {
      const [pair = "", ...attributes] = line.split(";");
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attributes.some((a) => {
        const [k = "", v = ""] = a.split("=").map((s) => s.trim());
        return (
          (k.toLowerCase() === "max-age" && Number(v) <= 0) ||
          (k.toLowerCase() === "expires" && Date.parse(v) < Date.now())
        );
      });
      if (expired || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  async request(method: string, path: string, options: RequestOptions = {}): Promise<HttpResult> {
    const headers = new Headers(options.headers);
    let body: string | Uint8Array<ArrayBuffer> | FormData | undefined;
    if (options.json !== undefined) {
      headers.set("content-type", "application/json");
      body = JSON.stringify(options.json);
    } else if (options.form) {
      headers.set("content-type", "application/x-www-form-urlencoded");
      body = new URLSearchParams(options.form).toString();
    } else if (options.multipart) {
      body = options.multipart;
    } else {
      body = options.body;
    }
    if (this.cookies.size > 0 && !headers.has("cookie")) headers.set("cookie", this.cookieHeader());
    const response = await fetch(new URL(path, this.baseUrl), { method, headers, body, redirect: "manual" });
    this.store(response.headers);
    const text = await response.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: response.status, headers: response.headers, text, json };
  }

  async signIn(email: string, password: string): Promise<{ ok: boolean; location: string }> {
    const csrf = await this.request("GET", "/api/auth/csrf");
    const { csrfToken } = csrf.json as { csrfToken: string };
    const res = await this.request("POST", "/api/auth/callback/credentials", {
      form: { email, password, csrfToken, callbackUrl: "/" },
    });
    const location = res.headers.get("location") ?? "";
    return { ok: res.status === 302 && this.hasSession() && !location.includes("error="), location };
  }

  async signOut(): Promise<void> {
    const csrf = await this.request("GET", "/api/auth/csrf");
    const { csrfToken } = csrf.json as { csrfToken: string };
    await this.request("POST", "/api/auth/signout", { form: { csrfToken, callbackUrl: "/login" } });
  }

  hasSession(): boolean {
    return [...this.cookies.keys()].some((k) => k.endsWith("authjs.session-token"));
  }
}

let counter = 0;

export async function registerAndSignIn(
  baseUrl: string,
  label: string,
): Promise<{ id: string; email: string; password: string; name: string; client: HttpClient }> {
  const client = new HttpClient(baseUrl);
  const email = `${label}-${process.pid}-${++counter}-${Date.now()}@example.com`;
  const password = `pw-${label}-correct-horse`;
  const name = `Test ${label}`;
  const registered = await client.request("POST", "/api/auth/register", { json: { email, password, name } });
  if (registered.status !== 201) throw new Error(`register ${email}: ${registered.status} ${registered.text}`);
  const { user } = registered.json as { user: { id: string } };
  const signedIn = await client.signIn(email, password);
  if (!signedIn.ok) throw new Error(`sign-in ${email} failed: → ${signedIn.location}`);
  return { id: user.id, email, password, name, client };
}
