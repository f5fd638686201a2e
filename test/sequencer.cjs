/**
 * Test order of `npm test` (jest.config.js `testSequencer`): the emulator files
 * first, longest first, then the unit files in jest's own order.
 *
 * Why: the run's wall time is the longest emulator file's, as long as it starts
 * at once. Jest's default order sorts by the durations in its cache, and on a
 * fresh clone (CI) by file size, so a long emulator flow could start after a
 * batch of unit files and end the run minutes late. The ranking below is fixed
 * (measured on this 2-core machine, see CONTRIBUTING.md, Tests), so a fresh clone gets
 * the same order as a warm one; an emulator file not listed here goes after the
 * listed ones, before the unit files.
 */
const { default: Sequencer } = require('@jest/test-sequencer');

/** Emulator files, slowest first (file name under test/emulator). */
const EMULATOR_ORDER = [
  'preflight-verify-emulator.test.ts',
  'shard-emulator.test.ts',
  'lifecycle-emulator.test.ts',
  'emulator-state.test.ts',
  'local-emulator.test.ts',
  'local-interrupt.test.ts',
  'lifecycle-cli.test.ts',
  'aws-steps-emulator.test.ts',
  'reap-emulator.test.ts',
];

// test/emulator was test/integration until the layout change; matching the old name put no file first.
const isEmulator = (test) => /[\\/]test[\\/]emulator[\\/]/.test(test.path);
const rank = (test) => {
  const index = EMULATOR_ORDER.findIndex((name) => test.path.endsWith(`/${name}`) || test.path.endsWith(`\\${name}`));
  return index === -1 ? EMULATOR_ORDER.length : index;
};

class EmulatorFirstSequencer extends Sequencer {
  sort(tests) {
    const emulator = tests.filter(isEmulator).sort((a, b) => rank(a) - rank(b) || (a.path < b.path ? -1 : 1));
    const unit = super.sort(tests.filter((t) => !isEmulator(t)));
    return [...emulator, ...unit];
  }
}

module.exports = EmulatorFirstSequencer;
