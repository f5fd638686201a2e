/** Fixture helpers: copy the hand-written synthesized app to a temp dir and alter it. */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixture } from '../../support/fixtures';

export const FIXTURE_APP = fixture('lab');

const made: string[] = [];

/** A fresh copy of the fixture app (or only the named stacks of it). */
export function fixtureCopy(stacks?: readonly string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'hoplab-explain-test-'));
  made.push(dir);
  if (stacks) {
    for (const stack of stacks) {
      cpSync(join(FIXTURE_APP, 'stacks', stack), join(dir, 'stacks', stack), { recursive: true });
    }
  } else {
    cpSync(FIXTURE_APP, dir, { recursive: true });
  }
  return dir;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/** Rewrites one stack's cdk.tf.json in `dir` with `change`. */
export function alterStack(dir: string, stack: string, change: (json: Json) => void): void {
  const file = join(dir, 'stacks', stack, 'cdk.tf.json');
  const json = JSON.parse(readFileSync(file, 'utf8'));
  change(json);
  writeFileSync(file, JSON.stringify(json, null, 2));
}

export function removeTempDirs(): void {
  for (const dir of made.splice(0)) {
    rmSync(dir, { recursive: true, force: true });
  }
}
