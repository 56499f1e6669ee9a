import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** SQL on TEST_DATABASE_URL's server (creating and dropping databases), one connection per call. */
export async function onTestServer<T>(
  fn: (client: pg.Client) => Promise<T>,
  connectionString = process.env.TEST_DATABASE_URL,
): Promise<T> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * A fresh database on TEST_DATABASE_URL's server (or `server`, an admin connection) for the real app
 * processes one test file starts (`prefix` names the file's databases, for whoever looks at a leftover one).
 */
export async function freshDatabase(
  prefix: string,
  server = process.env.TEST_DATABASE_URL,
): Promise<{ name: string; url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  await onTestServer((c) => c.query(`CREATE DATABASE "${name}"`), server);
  const url = new URL(server!);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: async () => {
      await onTestServer((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`), server);
    },
  };
}
