import { createClient } from 'redis';

/**
 * While Redis is unreachable the app keeps serving (sessions read as "signed out", limits fall back
 * to per-process memory, realtime stays local to each process), so a command must fail at once rather
 * than wait: the offline queue is off (commands are refused while reconnecting, instead of queued for
 * up to the 5 s command timeout), and a command Redis does not answer gives up after 2 s. The client
 * reconnects by itself, backing off to one attempt every 2 s, and Socket.IO's subscriber resubscribes.
 */
function makeClient(url: string) {
  return createClient({
    url,
    disableOfflineQueue: true,
    commandOptions: { timeout: 2000 },
    socket: { connectTimeout: 2000, reconnectStrategy: (retries: number) => Math.min(100 * 2 ** retries, 2000) },
  });
}
export type RedisClient = ReturnType<typeof makeClient>;

export async function connectRedis(url: string): Promise<RedisClient> {
  const client = makeClient(url);
  client.on('error', () => undefined); // reconnects by itself; commands fail meanwhile
  await client.connect();
  return client;
}
