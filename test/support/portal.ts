/**
 * The portal's JSON API as its page calls it: keeps the session cookie from each answer and the
 * CSRF token from the sign-in, and sends both (the token unless `csrf: false`, to see the check).
 */
export class PortalSession {
  cookie = '';
  csrf = '';

  /** `baseUrl` is read at call time (the service starts in beforeAll). */
  constructor(private readonly baseUrl: () => string) {}

  async call(
    method: string,
    path: string,
    body?: unknown,
    init: { csrf?: boolean; raw?: Buffer; type?: string } = {},
  ) {
    const headers: Record<string, string> = {};
    if (this.cookie) headers.cookie = this.cookie;
    if (init.csrf !== false && this.csrf) headers['x-csrf-token'] = this.csrf;
    let payload: BodyInit | undefined;
    if (init.raw) {
      payload = new Uint8Array(init.raw);
      headers['content-type'] = init.type ?? 'application/octet-stream';
    } else if (body !== undefined) {
      payload = JSON.stringify(body);
      headers['content-type'] = 'application/json';
    }
    const res = await fetch(`${this.baseUrl()}${path}`, { method, headers, body: payload });
    const setCookie = res.headers.get('set-cookie');
    if (setCookie) this.cookie = setCookie.split(';')[0]!;
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined, setCookie };
  }

  /** POST /api/session; a 200 keeps its CSRF token. The answer, whatever its status. */
  async signIn(email: string, password: string) {
    const res = await this.call('POST', '/api/session', { email, password });
    if (res.status === 200) this.csrf = res.body.csrfToken;
    return res;
  }
}
