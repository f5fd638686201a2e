/**
 * compare --probe probes every exposure of every environment at the same time,
 * each exposure within its --concurrency and all of them within --max-in-flight.
 * The servers hold each request open until as many as the bound allows are
 * open at once (or a hold window passes), so what is measured is how many
 * requests the prober keeps open together, not how fast the machine is.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCompare } from '../../../lib/commands/compare/compare-cli';
import { UsageError } from '../../../lib/kit/cli/cli';
import { CompareModel } from '../../../lib/lab/probe/compare-model';
import { EXPOSURE_FACTS } from '../../../lib/model/exposure-facts';
import { ControlledServer, InFlightGauge, startControlledEchoServer } from '../../support/echo-servers';

const ENVIRONMENTS = ['ann', 'bob', 'chen'];
const MODES = ['nodeport-local', 'native-l4'] as const;
/** The most a held request waits for the others; far above what opening a dozen loopback connections takes. */
const HOLD_WINDOW_MS = 5000;

let servers: ControlledServer[] = [];
let gauge: InFlightGauge;
let outputsFile: string;

/** A gate that opens once `open` requests are in flight at once, plus `settleMs` for any request beyond the bound to show up; or after the hold window. */
function gateAt(open: number, settleMs: number): Promise<void> {
  return new Promise((resolve) => {
    const started = Date.now();
    const poll = setInterval(() => {
      if (gauge.now >= open || Date.now() - started > HOLD_WINDOW_MS) {
        clearInterval(poll);
        setTimeout(resolve, gauge.now >= open ? settleMs : 0);
      }
    }, 5);
  });
}

beforeAll(async () => {
  gauge = new InFlightGauge();
  servers = await Promise.all(ENVIRONMENTS.flatMap(() => MODES.map(() => startControlledEchoServer({}, gauge))));
  const outputs: Record<string, Record<string, unknown>> = {};
  ENVIRONMENTS.forEach((env, e) => {
    outputs[`${env}-aws-lb`] = Object.fromEntries(
      MODES.map((mode, m) => [`exposure_${mode.replace(/-/g, '_')}`, { mode, cloud: 'aws', ...EXPOSURE_FACTS.aws[mode], url: servers[e * MODES.length + m].url }]),
    );
  });
  outputsFile = join(mkdtempSync(join(tmpdir(), 'hoplab-concurrent-')), 'outputs.json');
  writeFileSync(outputsFile, JSON.stringify(outputs));
});

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

async function probe(...extra: string[]): Promise<{ code: number; model: CompareModel }> {
  let out = '';
  const code = await runCompare(['--outputs', outputsFile, '--probe', '--timeout', String(6 * HOLD_WINDOW_MS), '--format', 'json', ...extra], {
    out: (t) => (out += t),
    err: () => undefined,
    progress: { write: () => true, isTTY: false },
  });
  return { code, model: JSON.parse(out) as CompareModel };
}

const cells = (model: CompareModel) => model.environments.flatMap((e) => e.rows.flatMap((r) => Object.values(r.clouds)));

test('GIVEN 3 environments of 2 exposures WHEN probed with --concurrency 2 and room in the global bound THEN all 6 exposures are in flight at once (12 requests), each measured in full', async () => {
  gauge.max = 0;
  const gate = gateAt(ENVIRONMENTS.length * MODES.length * 2, 0);
  for (const s of servers) s.control.gate = gate;
  const { code, model } = await probe('--count', '4', '--concurrency', '2');
  expect(code).toBe(0);
  expect(gauge.max).toBe(12);
  expect(cells(model).map((c) => c!.probe!.ok)).toEqual([4, 4, 4, 4, 4, 4]);
});

test('GIVEN the same exposures WHEN probed with --max-in-flight 5 THEN never more than 5 requests are open at once, and 5 are', async () => {
  gauge.max = 0;
  // After 5 are open, wait a moment more: a sixth request would show up now if the bound did not hold.
  const gate = gateAt(5, 300);
  for (const s of servers) s.control.gate = gate;
  const { code, model } = await probe('--count', '4', '--concurrency', '2', '--max-in-flight', '5');
  expect(code).toBe(0);
  expect(gauge.max).toBe(5);
  expect(model.probe?.max_in_flight).toBe(5);
  expect(cells(model).every((c) => c!.probe!.ok === 4)).toBe(true);
});

test.each([
  ['0', '--max-in-flight: "0" is not a whole number from 1 to 4096'],
  ['5000', '--max-in-flight: "5000" is not a whole number from 1 to 4096'],
  ['many', '--max-in-flight: "many" is not a whole number from 1 to 4096'],
])('GIVEN --max-in-flight %s WHEN compare runs THEN a usage error names the flag and what is allowed', async (value, message) => {
  const run = runCompare(['--outputs', outputsFile, '--probe', '--max-in-flight', value], { out: () => undefined, err: () => undefined, progress: { write: () => true } });
  await expect(run).rejects.toThrow(new UsageError(message, 'compare'));
});
