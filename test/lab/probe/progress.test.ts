/**
 * The probe's progress goes through the kit's live region: the same redraw
 * decision as every other live line (a TTY whose TERM is not dumb redraws;
 * NO_COLOR is about colour only), the same erase-and-redraw frames and the
 * same cut to the width; off a terminal, the lines it always printed.
 */
import { progressReporter } from '../../../lib/lab/probe/progress';
import { FakeStream } from '../../support/fake-terminal';

const UP = '\r\x1b[1A\x1b[J';

/** Two exposures: one finishes, one is given up with a request unsent. */
function probeTwo(stream: FakeStream, env: Record<string, string>): string {
  const progress = progressReporter(stream, env);
  progress.start('lab aws native', 2);
  progress.start('lab gcp native', 3);
  progress.tick('lab aws native', true);
  progress.tick('lab gcp native', false);
  progress.tick('lab aws native', true);
  progress.done('lab aws native', '2/2 ok');
  progress.tick('lab gcp native', true);
  progress.done('lab gcp native', 'gave up');
  return stream.text;
}

/** What a non-terminal got before the bar went through the live region, byte for byte. */
const LINES = 'compare: probing lab aws native: 2 requests\ncompare: probing lab gcp native: 3 requests\ncompare: lab aws native: 2/2 ok\ncompare: lab gcp native: gave up\n';

test('GIVEN a pipe WHEN two exposures are probed THEN a start and an end line each, as before', () => {
  expect(probeTwo(new FakeStream(false), {})).toBe(LINES);
});

test('GIVEN a terminal with TERM=dumb WHEN probing THEN the plain lines of a pipe, no cursor movement', () => {
  expect(probeTwo(new FakeStream(true, 100), { TERM: 'dumb' })).toBe(LINES);
});

test('GIVEN a terminal WHEN two exposures are probed THEN one bar redrawn in place, each finished exposure printed above it, and no bar left at the end', () => {
  expect(probeTwo(new FakeStream(true, 100), {})).toBe(
    [
      '  probing 1 exposure [........................] 0/2\n',
      `${UP}  probing 2 exposures [........................] 0/5, 0/2 done\n`,
      `${UP}  probing 2 exposures [#####...................] 1/5, 0/2 done\n`,
      `${UP}  probing 2 exposures [##########..............] 2/5 (1 failed), 0/2 done\n`,
      `${UP}  probing 2 exposures [##############..........] 3/5 (1 failed), 0/2 done\n`,
      `${UP}  lab aws native: 2/2 ok\n  probing 2 exposures [##############..........] 3/5 (1 failed), 1/2 done\n`,
      `${UP}  probing 2 exposures [###################.....] 4/5 (1 failed), 1/2 done\n`,
      `${UP}  lab gcp native: gave up\n`,
    ].join(''),
  );
});

test('GIVEN NO_COLOR on a terminal WHEN probing THEN the bar is still redrawn (NO_COLOR is about colour), with no colour code', () => {
  const text = probeTwo(new FakeStream(true, 100), { NO_COLOR: '1' });
  expect(text).toBe(probeTwo(new FakeStream(true, 100), {}));
  expect(text).not.toMatch(/\x1b\[[\d;]*m/);
});

test('GIVEN a narrow terminal WHEN probing THEN the bar line is cut to the width less one, never wrapped', () => {
  const stream = new FakeStream(true, 30);
  const progress = progressReporter(stream, {});
  progress.start('lab aws native', 20);
  progress.start('lab gcp native', 20);
  // 29 columns each, the last three of them the kit's `...` for what was cut.
  expect(stream.text).toBe(`  probing 1 exposure [.......\n${UP}  probing 2 exposures [......\n`);
  expect(stream.writes.map((w) => w.replace(UP, '').length)).toEqual([30, 30]);
});

test('GIVEN $COLUMNS WHEN probing on a terminal THEN it sets the width, as for every live line', () => {
  const stream = new FakeStream(true, 100);
  progressReporter(stream, { COLUMNS: '20' }).start('a', 4);
  expect(stream.text).toBe('  probing 1 expo...\n');
});

test('GIVEN an exposure given up early WHEN it is done THEN its unsent requests leave the bar', () => {
  const stream = new FakeStream(true, 120);
  const progress = progressReporter(stream, {});
  progress.start('a', 4);
  progress.start('b', 4);
  progress.tick('a', false);
  progress.done('a', 'gave up');
  expect(stream.text.endsWith(`${UP}  a: gave up\n  probing 2 exposures [#####...................] 1/5 (1 failed), 1/2 done\n`)).toBe(true);
});
