/**
 * Setup of the `emulator` jest project, after test/setup.ts. jest's `testTimeout`
 * is a global option (a project's own is ignored), so the emulator project sets
 * its tests' timeout here. The emulator tests apply and destroy real Terraform
 * for minutes, longer on a busy machine, and what decides that one is stuck is
 * the watchdog on its progress (watchdog.ts: no output, no log growth and no CPU
 * used for 5 minutes), not a deadline. This timeout is only the safety net behind
 * it, for a test stuck outside any watched flow: two hours, far above the slowest
 * file under two concurrent `npm test` runs on a 2-core machine (see README,
 * "Tests"). Emulator files set no timeout of their own.
 *
 * It also adds `expect(run).toExitWith(code)` (exit-matcher.ts): a wrong exit code
 * shows the command's output and its Terraform errors, not only the number.
 */
import './exit-matcher';

jest.setTimeout(2 * 60 * 60 * 1000);
