/**
 * probeOnce against loopback servers that cut a reply off mid-body: a reset
 * (a load balancer's RST), a plain early close (a Pod killed in a rollout),
 * and a server that is only slow. Only the last one is a timeout.
 */
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { probeOnce } from '../../../lib/plumbing/probe/probe';

type Behaviour = 'reset' | 'close' | 'slow';

function start(behaviour: Behaviour): Promise<{ server: Server; url: URL }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '1000' });
    res.write('Hostname: echo-1\n');
    const socket = res.socket!;
    if (behaviour === 'reset') setTimeout(() => socket.resetAndDestroy(), 20);
    if (behaviour === 'close') setTimeout(() => socket.destroy(), 20);
    // 'slow': never finishes the body.
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`) })));
}

const servers: Server[] = [];
afterAll(() => {
  for (const server of servers) server.closeAllConnections();
  return Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
});

test.each([
  ['reset', 'connection reset or closed mid-reply'],
  ['close', 'connection reset or closed mid-reply'],
  ['slow', 'timeout (400 ms)'],
] as const)('GIVEN a reply cut off by %s WHEN probed THEN the error is %p (only a real deadline is a timeout)', async (behaviour, error) => {
  const { server, url } = await start(behaviour);
  servers.push(server);
  const sample = await probeOnce(url, 400);
  expect(sample).toMatchObject({ ok: false, error });
  if (behaviour !== 'slow') expect(sample.ms).toBeLessThan(400);
});
