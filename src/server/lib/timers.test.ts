import { expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { once } from 'node:events';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterPendingIo } from './timers.ts';

/**
 * A server in another process (as Redis is), answering every write with PONG and then creating the
 * file `sent`, so this process can tell, without its event loop, that the answer is on its way.
 */
async function pongServer(sent: string) {
  const script = `const fs=require('fs');const s=require('net').createServer(c=>c.on('data',()=>c.write('PONG',()=>fs.writeFileSync(${JSON.stringify(sent)},''))));s.listen(0,'127.0.0.1',()=>console.log(s.address().port))`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [line] = (await once(child.stdout!, 'data')) as [Buffer];
  return { port: Number(line.toString().trim()), stop: () => child.kill() };
}

it('lets an answer that arrived while the process was busy be read before the deadline is called', async () => {
  const sent = path.join(mkdtempSync(path.join(tmpdir(), 'bb-timers-')), 'sent');
  const server = await pongServer(sent);
  const client = connect(server.port, '127.0.0.1');
  await once(client, 'connect');
  const order: string[] = [];
  const decided = new Promise<void>((resolve) => {
    client.once('data', () => order.push('answer'));
    client.write('PING');
    afterPendingIo(5, () => {
      order.push('deadline');
      resolve();
    });
    // busy past the deadline, until the answer is in this process's socket
    const until = Date.now() + 20;
    const giveUp = Date.now() + 10_000;
    while ((Date.now() < until || !existsSync(sent)) && Date.now() < giveUp);
  });
  await decided;
  expect(order).toEqual(['answer', 'deadline']);
  client.destroy();
  server.stop();
});
