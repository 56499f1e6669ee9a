import { createClient } from 'redis';

function makeClient(url: string) {
  return createClient({ url });
}
export type RedisClient = ReturnType<typeof makeClient>;

export async function connectRedis(url: string): Promise<RedisClient> {
  const client = makeClient(url);
  client.on('error', () => undefined); // reconnects by itself; commands fail meanwhile
  await client.connect();
  return client;
}
