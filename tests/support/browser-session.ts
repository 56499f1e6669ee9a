/**
 * A browser against a real app process (the multi-process and fault tests): its session cookie and
 * CSRF token, taken from a page and kept as the server rotates them.
 */
export class BrowserSession {
  private readonly jar = new Map<string, string>();
  token = '';
  /** `address`: the client address a trusted proxy reports for this browser (X-Forwarded-For) */
  private constructor(
    readonly base: string,
    readonly address?: string,
  ) {}

  /** opens the landing page for a session cookie and the page's CSRF token */
  static async open(base: string, address?: string): Promise<BrowserSession> {
    const s = new BrowserSession(base, address);
    const page = await s.keep(await fetch(`${base}/`, { headers: { accept: 'text/html', ...s.forwarded() } })).text();
    s.token = /<meta name="csrf-token" content="([^"]+)">/.exec(page)![1]!;
    return s;
  }

  /** the Cookie header this browser sends (the session cookie, and any other the app set) */
  get cookie(): string {
    return [...this.jar].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  /** takes the cookies and a rotated CSRF token from an answer */
  keep(res: Response): Response {
    for (const set of res.headers.getSetCookie()) {
      const [pair = ''] = set.split(';');
      const eq = pair.indexOf('=');
      if (eq > 0) this.jar.set(pair.slice(0, eq).trim(), pair.slice(eq + 1));
    }
    const rotated = res.headers.get('x-csrf-token');
    if (rotated) this.token = rotated;
    return res;
  }

  private forwarded(): Record<string, string> {
    return this.address ? { 'x-forwarded-for': this.address } : {};
  }

  /** the headers of a JSON call with the CSRF token */
  headers(): Record<string, string> {
    return {
      'content-type': 'application/json',
      accept: 'application/json',
      cookie: this.cookie,
      'x-csrf-token': this.token,
      ...this.forwarded(),
    };
  }

  async send(
    method: string,
    url: string,
    data?: unknown,
    init: { on?: string; signal?: AbortSignal } = {},
  ): Promise<Response> {
    const body = data === undefined ? {} : { body: JSON.stringify(data) };
    return this.keep(
      await fetch(`${init.on ?? this.base}${url}`, {
        method,
        headers: this.headers(),
        ...body,
        ...(init.signal ? { signal: init.signal } : {}),
      }),
    );
  }

  post(url: string, data: unknown): Promise<Response> {
    return this.send('POST', url, data);
  }

  get(url: string, on = this.base): Promise<Response> {
    return fetch(`${on}${url}`, { headers: { accept: 'application/json', cookie: this.cookie, ...this.forwarded() } });
  }

  /** POST /register with the password confirmed (answers the response) */
  register(email: string, name = 'Test Drummer', password = 'password123'): Promise<Response> {
    return this.post('/register', {
      name,
      email,
      email_confirmation: email,
      password,
      password_confirmation: password,
    });
  }

  signIn(email: string, password = 'password123', on = this.base, signal?: AbortSignal): Promise<Response> {
    return this.send('POST', '/login', { email, password }, { on, ...(signal ? { signal } : {}) });
  }

  /** the signed-in member's id */
  async userId(): Promise<number> {
    return ((await (await this.get('/api/me')).json()) as { user: { id: number } }).user.id;
  }
}
