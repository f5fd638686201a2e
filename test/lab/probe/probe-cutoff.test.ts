/**
 * probeOnce against loopback servers that cut a reply off mid-body: a reset
 * (a load balancer's RST), a plain early close (a Pod killed in a rollout),
 * and a server that is only slow. Only the last one is a timeout.
 */
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { probeOnce } from '../../../lib/lab/probe/probe';

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

// The cut-off replies end 20 ms after they start; their timeout is far longer than that can take on a busy machine
// (this worker and its server share the CPU with other jobs), so only a reply that never ends meets its deadline.
// The one that never ends needs no long timeout: it is a timeout whatever the load.
test.each([
  ['reset', 10_000, 'connection reset or closed mid-reply'],
  ['close', 10_000, 'connection reset or closed mid-reply'],
  ['slow', 400, 'timeout (400 ms)'],
] as const)('GIVEN a reply cut off by %s WHEN probed with a %i ms timeout THEN the error is %p (only a real deadline is a timeout)', async (behaviour, timeoutMs, error) => {
  const { server, url } = await start(behaviour);
  servers.push(server);
  const sample = await probeOnce(url, timeoutMs);
  expect(sample).toMatchObject({ ok: false, error });
  if (behaviour !== 'slow') expect(sample.ms).toBeLessThan(timeoutMs);
});
