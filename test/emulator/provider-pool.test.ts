/**
 * The `terraform` shim of the provider pool (bin/terraform, provider-pool.ts),
 * run for real with a stand-in for the real Terraform that prints which
 * provider it was attached to. A provider must never serve two Terraform
 * processes at once, and a busy pool must never make a command wait or fail.
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SHIM_DIR, providerPoolPossible, realTerraform, withoutProviderPool } from './provider-pool';

describe('the provider pool shim', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hoplab-pool-'));
  const fake = join(dir, 'real-terraform');
  // Prints the command and its provider; with HOLD=<file>, waits until that file exists (holding its slot meanwhile).
  writeFileSync(fake, '#!/bin/sh\necho "$1 ${TF_REATTACH_PROVIDERS:-own}"\nif [ -n "$HOLD" ]; then while [ ! -e "$HOLD" ]; do sleep 0.05; done; fi\n');
  chmodSync(fake, 0o755);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const pool = join(dir, 'pool');
  for (const i of [0, 1]) {
    mkdirSync(join(pool, `slot-${i}`), { recursive: true });
    writeFileSync(join(pool, `slot-${i}`, 'reattach'), `{"slot":${i}}`);
  }
  const env = (extra: NodeJS.ProcessEnv = {}) => ({ ...process.env, TF_REATTACH_PROVIDERS: '', HOPLAB_TEST_PROVIDER_POOL: pool, HOPLAB_TEST_REAL_TERRAFORM: fake, ...extra });
  const terraform = (args: string[], extra: NodeJS.ProcessEnv = {}) => spawnSync(join(SHIM_DIR, 'terraform'), args, { env: env(extra), encoding: 'utf8' }).stdout.trim();
  /** Starts a command that holds its slot until `release` is called; resolves once it has printed its provider. */
  const holding = (name: string) =>
    new Promise<{ line: string; release: () => Promise<void> }>((resolveStart) => {
      const releaseFile = join(dir, `release-${name}`);
      const child = spawn(join(SHIM_DIR, 'terraform'), ['apply'], { env: env({ HOLD: releaseFile }) });
      const exited = new Promise<void>((done) => child.on('exit', () => done()));
      child.stdout.once('data', (chunk: Buffer) =>
        resolveStart({
          line: chunk.toString().trim(),
          release: async () => {
            writeFileSync(releaseFile, '');
            await exited;
          },
        }),
      );
    });

  test('GIVEN an idle pool WHEN a plan runs THEN it attaches to the first slot, and init never attaches', () => {
    expect(terraform(['plan', '-no-color'])).toBe('plan {"slot":0}');
    expect(terraform(['init', '-input=false'])).toBe('init own');
    expect(terraform(['output', '-json'])).toBe('output own');
  });

  test('GIVEN a running command on a slot WHEN others start THEN each takes a free slot, and with none free runs its own provider; a slot is free again once its command exits', async () => {
    const first = await holding('first');
    expect(first.line).toBe('apply {"slot":0}');
    const second = await holding('second');
    expect(second.line).toBe('apply {"slot":1}');
    expect(terraform(['destroy'])).toBe('destroy own');
    await first.release();
    expect(terraform(['plan'])).toBe('plan {"slot":0}');
    await second.release();
    expect(terraform(['plan'])).toBe('plan {"slot":0}');
  });

  test('GIVEN a slot whose provider process or socket is gone, or whose lock cannot be opened WHEN a plan runs THEN the shim skips that slot', () => {
    writeFileSync(join(pool, 'slot-0', 'pid'), '999999999');
    writeFileSync(join(pool, 'slot-1', 'pid'), String(process.pid));
    expect(terraform(['plan'])).toBe('plan {"slot":1}');
    writeFileSync(join(pool, 'slot-0', 'pid'), String(process.pid));
    writeFileSync(join(pool, 'slot-0', 'socket'), join(dir, 'no-such-socket'));
    expect(terraform(['plan'])).toBe('plan {"slot":1}');
    rmSync(join(pool, 'slot-0', 'socket'));
    // A directory where the lock file should be: `exec 9>` cannot open it.
    rmSync(join(pool, 'slot-0', 'lock'), { force: true });
    mkdirSync(join(pool, 'slot-0', 'lock'));
    expect(terraform(['plan'])).toBe('plan {"slot":1}');
    rmSync(join(pool, 'slot-0', 'lock'), { recursive: true });
    expect(terraform(['plan'])).toBe('plan {"slot":0}');
  });

  test('GIVEN a reattach already set, or no pool WHEN a plan runs THEN the shim leaves Terraform as it is', () => {
    expect(terraform(['plan'], { TF_REATTACH_PROVIDERS: '{"mine":1}' })).toBe('plan {"mine":1}');
    expect(terraform(['plan'], { HOPLAB_TEST_PROVIDER_POOL: '' })).toBe('plan own');
  });

  test('GIVEN a PATH with the shim first THEN realTerraform skips it, and withoutProviderPool removes it and the pool', () => {
    const path = `${SHIM_DIR}:${dir}`;
    writeFileSync(join(dir, 'terraform'), '');
    expect(realTerraform(path)).toBe(join(dir, 'terraform'));
    expect(withoutProviderPool({ PATH: path, HOPLAB_TEST_PROVIDER_POOL: pool })).toEqual({ PATH: dir });
  });

  test('GIVEN the emulator project where the pool can run (mirrored provider, terraform, flock) THEN its global setup started it and put the shim first on PATH', () => {
    // Guards the suite's speed-up against being lost silently: where the pool can run, it must be running.
    if (!providerPoolPossible()) {
      expect(process.env.HOPLAB_TEST_PROVIDER_POOL).toBeUndefined();
      return;
    }
    const dir = process.env.HOPLAB_TEST_PROVIDER_POOL;
    expect(dir).toBeDefined();
    expect(process.env.PATH?.split(':')[0]).toBe(SHIM_DIR);
    expect(JSON.parse(readFileSync(`${dir}/slot-0/reattach`, 'utf8'))).toMatchObject({ 'registry.terraform.io/hashicorp/aws': { Protocol: 'grpc', Test: true } });
    expect(existsSync(process.env.HOPLAB_TEST_REAL_TERRAFORM ?? '')).toBe(true);
  });
});
