/**
 * A watch of 11 exposures (every one both clouds offer) prints nothing on
 * stderr: each sleeping sender and each request in flight used to add its own
 * `abort` listener to one signal, and past 10 at a time Node printed
 * `MaxListenersExceededWarning ... AbortSignal` on the projector's top line.
 * The watch runs in-process on the fake clock (30 s of it in moments) with real
 * requests to a loopback echo server; Node's warnings are caught where Node
 * emits them, on the process outside the test's sandbox.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInThisContext } from 'node:vm';
import { getEventListeners } from 'node:events';
import { runWatch } from '../../../lib/commands/watch/watch-cli';
import { REAL_WAIT_CLOCK } from '../../../lib/kit/cli/wait-clock';
import { RunningServer, startEchoServer } from '../../support/echo-servers';
import { FakeClock } from '../../support/fake-clock';
import { labOutputs, offered } from '../../support/lab-outputs';

/** The process Node emits its warnings on (jest gives each test file a copy of `process` that never sees them). */
const nodeProcess = runInThisContext('process') as NodeJS.Process;

/** Node's warnings while `work` runs, and until the ticks after it that carry them (emitWarning emits on the next tick). */
async function warningsDuring(work: () => Promise<unknown>): Promise<string[]> {
  const warnings: string[] = [];
  const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
  nodeProcess.on('warning', onWarning);
  try {
    await work();
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    nodeProcess.off('warning', onWarning);
  }
  return warnings;
}

let echo: RunningServer;
let outputsFile: string;
beforeAll(async () => {
  echo = await startEchoServer('client-address');
  outputsFile = join(mkdtempSync(join(tmpdir(), 'hoplab-watch-quiet-')), 'outputs.json');
  writeFileSync(outputsFile, JSON.stringify(labOutputs(['lab'], (env, cloud, mode) => `${echo.url}${env}/${cloud}/${mode}`)));
});
afterAll(() => echo.close());

test('GIVEN 11 exposures WHEN watched for 30 s THEN every one answers, nothing is written to stderr and Node warns of nothing', async () => {
  let err = '';
  let out = '';
  let code = -1;
  const warnings = await warningsDuring(async () => {
    code = await runWatch(['--outputs', outputsFile, '--duration', '30', '--timeout', '60000', '--format', 'json'], {
      stdout: { write: (t: string) => ((out += t), true) },
      err: (t) => (err += t),
      env: {},
      clock: new FakeClock(),
    });
  });
  expect([code, err, warnings]).toEqual([0, '', []]);
  const summary = JSON.parse(out.trim().split('\n').at(-1)!) as { exposures: { sent: number; ok: number }[] };
  expect(summary.exposures).toHaveLength(offered('aws').length + offered('gcp').length);
  expect(summary.exposures).toHaveLength(11);
  // 5 requests a second each for 30 s: 150, or 151 when the last turn falls on the end.
  expect(summary.exposures.filter((e) => e.sent < 150 || e.ok !== e.sent)).toEqual([]);
});

test('GIVEN 12 sleepers on the real clock (11 senders and the snapshot loop) WHEN they sleep on one signal THEN it holds one listener, and none once they woke', async () => {
  const over = new AbortController();
  const sleeps = Array.from({ length: 12 }, () => REAL_WAIT_CLOCK.sleep(600_000, over.signal));
  expect(getEventListeners(over.signal, 'abort')).toHaveLength(1);
  over.abort();
  await Promise.all(sleeps);
  expect(getEventListeners(over.signal, 'abort')).toEqual([]);
});
