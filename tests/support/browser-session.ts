/**
 * A browser against a real app process (the multi-process and fault tests): its session cookie and
 * CSRF token, taken from a page and kept as the server rotates them.
 */
export class BrowserSession {
  cookie = '';
  token = '';
  private constructor(readonly base: string) {}

  /** opens the landing page for a session cookie and the page's CSRF token */
  static async open(base: string): Promise<BrowserSession> {
    const s = new BrowserSession(base);
    const page = await s.keep(await fetch(`${base}/`, { headers: { accept: 'text/html' } })).text();
    s.token = /<meta name="csrf-token" content="([^"]+)">/.exec(page)![1]!;
    return s;
  }

  /** takes the session cookie and a rotated CSRF token from an answer */
  keep(res: Response): Response {
    const set = res.headers.getSetCookie().find((c) => c.startsWith('bb_session='));
    if (set) this.cookie = set.split(';')[0]!;
    const rotated = res.headers.get('x-csrf-token');
    if (rotated) this.token = rotated;
    return res;
  }

  /** the headers of a JSON call with the CSRF token */
  headers(): Record<string, string> {
    return { 'content-type': 'application/json', accept: 'application/json', cookie: this.cookie, 'x-csrf-token': this.token };
  }

  async send(method: string, url: string, data?: unknown, init: { on?: string; signal?: AbortSignal } = {}): Promise<Response> {
    const body = data === undefined ? {} : { body: JSON.stringify(data) };
    return this.keep(await fetch(`${init.on ?? this.base}${url}`, { method, headers: this.headers(), ...body, ...(init.signal ? { signal: init.signal } : {}) }));
  }

  post(url: string, data: unknown): Promise<Response> {
    return this.send('POST', url, data);
  }

  get(url: string, on = this.base): Promise<Response> {
    return fetch(`${on}${url}`, { headers: { accept: 'application/json', cookie: this.cookie } });
  }

  /** POST /register with the password confirmed (answers the response) */
  register(email: string, name = 'Test Drummer', password = 'password123'): Promise<Response> {
    return this.post('/register', { name, email, email_confirmation: email, password, password_confirmation: password });
  }

  signIn(email: string, password = 'password123', on = this.base, signal?: AbortSignal): Promise<Response> {
    return this.send('POST', '/login', { email, password }, { on, ...(signal ? { signal } : {}) });
  }

  /** the signed-in member's id */
  async userId(): Promise<number> {
    return ((await (await this.get('/api/me')).json()) as { user: { id: number } }).user.id;
  }
}
