/**
 * Starting the local AWS emulator (startMoto), with stand-ins for
 * `python3 -c MOTO_ONE_AT_A_TIME` (moto.server) that behave as moto can: slow to start on a busy
 * machine, stuck, beaten to its port by another program, or answering before
 * it has said it listens. Slow is waited for; stuck is not.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMoto } from '../../../lib/commands/local/moto';
import { parseProcStat, processCpuMs } from '../../../lib/kit/terraform/child-processes';

const dir = mkdtempSync(join(tmpdir(), 'hoplab-moto-start-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Serves GET /moto-api/ on the port moto would, saying so as moto does (on stderr). */
const SERVE = `
const port = Number(process.argv[process.argv.indexOf('-p') + 1]);
const serve = (announce) => require('node:http')
  .createServer((req, res) => res.end('{}'))
  .listen(port, '127.0.0.1', () => announce && process.stderr.write(' * Running on http://127.0.0.1:' + port + '\\nPress CTRL+C to quit\\n'));
`;

/** A stand-in for `python3` (called as `<it> -c <script> -H 127.0.0.1 -p <port>`) running `body` after {@link SERVE}. */
function fakePython(name: string, body: string): string {
  const script = join(dir, `${name}.js`);
  writeFileSync(script, `${SERVE}\n${body}\n`);
  const wrapper = join(dir, name);
  writeFileSync(wrapper, `#!/bin/sh\nexec "${process.execPath}" "${script}" "$@"\n`);
  chmodSync(wrapper, 0o755);
  return wrapper;
}

const failure = async (run: Promise<unknown>): Promise<Error> => {
  const result = await run.then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!(result instanceof Error)) throw new Error('expected the start to fail, it succeeded');
  return result;
};

describe('startMoto', () => {
  test('GIVEN an emulator that works silently for longer than the timeout before it listens WHEN started THEN it is waited for: slow is not stuck', async () => {
    // 6 s of CPU time before it listens, twice the timeout; the timeout counts from the last 100 ms of CPU used,
    // so any share of a core above 3.3 % will do, however long that makes the start. A 1.5 s timeout (7 %) was
    // too tight: during a CI run beside other jobs, node's own start (well under 100 ms of CPU, spread over
    // seconds of waiting for the CPU and the disk) once used less than that in 1.5 s. The safety net (capMs,
    // by default 20 timeouts) is not what this test is about: at a load of 16 on two cores 3 s of CPU took
    // longer than 30 s, so it is set far out of the way.
    // User and system time: the loop's own getrusage calls are most of it.
    const python = fakePython('busy', 'const cpu = () => { const u = process.cpuUsage(); return u.user + u.system; }; const end = cpu() + 6e6; while (cpu() < end); serve(true);');
    const emulator = await startMoto({ python, timeoutMs: 3000, capMs: 3_600_000 });
    try {
      expect(emulator.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect((await fetch(`${emulator.endpoint}/moto-api/`)).ok).toBe(true);
    } finally {
      await emulator.stop();
    }
  });

  test('GIVEN an emulator that neither answers nor works WHEN started THEN it fails after the timeout, saying it used no CPU', async () => {
    const python = fakePython('idle', 'setInterval(() => undefined, 1000);');
    const error = await failure(startMoto({ python, timeoutMs: 1000 }));
    expect(error.message).toMatch(
      /^the emulator at http:\/\/127\.0\.0\.1:\d+ is not ready, and its process has used under 100 ms of CPU in the last 1 s \(it was started \d+ s ago\); last: (TypeError: )?fetch failed$/,
    );
  });

  test('GIVEN another program takes the port before the emulator binds it WHEN started THEN another port is tried', async () => {
    const marker = join(dir, 'taken-once');
    const python = fakePython(
      'taken-once',
      `const fs = require('node:fs');
if (!fs.existsSync(${JSON.stringify(marker)})) {
  fs.writeFileSync(${JSON.stringify(marker)}, String(port));
  process.stderr.write('Address already in use\\nPort ' + port + ' is in use by another program. Either identify and stop that program, or start the server with a different port.\\n');
  process.exit(1);
}
serve(true);`,
    );
    const emulator = await startMoto({ python, timeoutMs: 10_000 });
    try {
      expect((await fetch(`${emulator.endpoint}/moto-api/`)).ok).toBe(true);
    } finally {
      await emulator.stop();
    }
  });

  test('GIVEN something answers on the port but the emulator never says it listens WHEN started THEN that answer is not taken for it', async () => {
    const python = fakePython('unannounced', 'serve(false);');
    const error = await failure(startMoto({ python, timeoutMs: 1000 }));
    expect(error.message).toMatch(/^the emulator at http:\/\/127\.0\.0\.1:\d+ is not ready, .*; last: something else answers on that port \(moto has not said it listens\)$/);
  });
});

describe('CPU time from /proc', () => {
  test('GIVEN a stat line whose command name holds spaces and parentheses WHEN parsed THEN parent and CPU time (user, system, waited-for children) come out', () => {
    const line = '4242 (terraform (x) y) S 17 4242 4242 0 -1 4194560 1200 0 0 0 150 25 7 3 20 0 9 0 123456 0 0';
    expect(parseProcStat(line)).toEqual({ ppid: 17, cpuMs: (150 + 25 + 7 + 3) * 10 });
    expect(parseProcStat('garbage')).toBeUndefined();
  });

  test('GIVEN this process WHEN its CPU time is read THEN it is a number where /proc exists, and undefined for no process', () => {
    const mine = processCpuMs(process.pid);
    if (process.platform === 'linux') expect(mine).toBeGreaterThan(0);
    else expect(mine).toBeUndefined();
    expect(processCpuMs(undefined)).toBeUndefined();
    expect(processCpuMs(2 ** 30)).toBeUndefined();
  });
});
