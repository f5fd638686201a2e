/**
 * The one Terraform child-process runner (lib/kit/terraform/terraform.ts), with
 * a stand-in `terraform` on the PATH: what it logs, how it ends, which process
 * group it runs in, and Ctrl-C forwarded once.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runTerraform, TerraformRunner } from '../../../lib/kit/terraform/terraform';
import { fakeTerraformOnPath } from '../../support/fake-terraform';

// `output -json` prints a secret on stdout; `pgid` prints its process group and its parent's;
// `fail` prints 30 numbered lines and exits 3; `wait` says so and waits until it gets SIGINT.
const SCRIPT = `#!/bin/sh
case "$1" in
  output) echo '{"token":{"sensitive":true,"value":"s3cret"}}' ;;
  pgid) echo "$(ps -o pgid= -p $$ | tr -d ' ') $(ps -o pgid= -p $PPID | tr -d ' ')" ;;
  fail) i=1; while [ $i -le 30 ]; do echo "line $i"; i=$((i+1)); done; echo 'Error: it broke' >&2; exit 3 ;;
  wait) trap 'echo interrupted; exit 130' INT; echo waiting; while true; do sleep 0.05; done ;;
  *) echo "$1 ok"; echo "$1 note" >&2 ;;
esac
`;

let restore: () => void;
let cwd: string;
let logFile: string;
beforeAll(() => {
  restore = fakeTerraformOnPath('hoplab-tf-runner-', SCRIPT).restore;
});
afterAll(() => restore());
beforeEach(() => {
  cwd = mkdtempSync(join(tmpdir(), 'hoplab-tf-runner-cwd-'));
  logFile = join(cwd, 'terraform.log');
  writeFileSync(logFile, '');
});

describe('runTerraform', () => {
  test('GIVEN a command WHEN it runs THEN its line and both streams are logged, each line is passed on, and it resolves with its code and output', async () => {
    const lines: string[] = [];
    const result = await runTerraform(['plan', '-no-color'], { cwd, env: {}, logFile, onLine: (l) => lines.push(l) });
    expect(result).toEqual({ code: 0, stdout: 'plan ok\n', stderr: 'plan note\n', tail: expect.arrayContaining(['plan ok', 'plan note']) });
    expect(lines.sort()).toEqual(['plan note', 'plan ok']);
    expect(readFileSync(logFile, 'utf8')).toMatch(/^\n\$ terraform plan -no-color\n(plan ok\nplan note\n|plan note\nplan ok\n)$/);
  });

  test('GIVEN a -json command WHEN it runs THEN its stdout is returned but not logged (it can hold sensitive values)', async () => {
    const result = await runTerraform(['output', '-json'], { cwd, env: {}, logFile });
    expect(JSON.parse(result.stdout)).toEqual({ token: { sensitive: true, value: 's3cret' } });
    expect(readFileSync(logFile, 'utf8')).toBe('\n$ terraform output -json\n');
  });

  test('GIVEN a failing command WHEN it runs THEN it resolves with its code and the last 25 lines', async () => {
    const result = await runTerraform(['fail'], { cwd, env: {}, logFile });
    expect(result.code).toBe(3);
    expect(result.tail).toHaveLength(25);
    expect(result.tail).toContain('Error: it broke');
    expect(result.tail).not.toContain('line 5');
  });

  test('GIVEN no terraform on the PATH WHEN run THEN it resolves with 127 and why, and the runner rejects with it', async () => {
    // The child's environment decides where spawn looks terraform up.
    const missing = await runTerraform(['plan'], { cwd, env: { PATH: cwd }, logFile });
    expect(missing).toMatchObject({ code: 127, startError: expect.stringMatching(/^could not run terraform: spawn terraform ENOENT/) });
    await expect(new TerraformRunner({ cwd, env: { PATH: cwd }, logFile }).run(['plan'])).rejects.toThrow(/^could not run terraform: spawn terraform ENOENT/);
  });

  test('GIVEN the process groups WHEN run THEN own is a group of its own and shared is hoplab’s', async () => {
    const own = (await runTerraform(['pgid'], { cwd, env: {}, logFile })).stdout.trim().split(' ');
    const shared = (await runTerraform(['pgid'], { cwd, env: {}, logFile, processGroup: 'shared' })).stdout.trim().split(' ');
    expect(own[0]).not.toBe(own[1]);
    expect(shared[0]).toBe(shared[1]);
  });
});

describe('TerraformRunner', () => {
  test('GIVEN a failing command WHEN run THEN it rejects with the command, the code, the last lines and the log', async () => {
    await expect(new TerraformRunner({ cwd, env: {}, logFile }).run(['fail'])).rejects.toThrow(`terraform fail failed (3); last lines:\n`);
    await expect(new TerraformRunner({ cwd, env: {}, logFile }).run(['fail'])).rejects.toThrow(/Error: it broke\n\(full log: .*terraform\.log\)$/);
  });

  test('GIVEN a running command WHEN interrupted THEN it gets one SIGINT and the run ends with its exit', async () => {
    const runner = new TerraformRunner({
      cwd,
      env: {},
      logFile,
      onLine: (line) => {
        if (line === 'waiting') runner.interrupt();
      },
    });
    await expect(runner.run(['wait'])).rejects.toThrow(/terraform wait failed \(130\); last lines:\nwaiting\ninterrupted\n/);
  });
});
