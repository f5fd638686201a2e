/**
 * A stand-in `terraform` for tests of commands that run it: a shell script in a
 * fresh folder put first on the PATH. Its plan is clean, `version -json` names
 * Terraform 1.11.4 and the AWS provider 5.100.0, `output -json` is empty.
 */
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The script: every other subcommand prints "<subcommand> ok" and exits 0. */
export const CLEAN_TERRAFORM = `#!/bin/sh
case "$1" in
  version) echo '{"terraform_version":"1.11.4","provider_selections":{"registry.terraform.io/hashicorp/aws":"5.100.0"}}' ;;
  output) echo '{}' ;;
  *) echo "$1 ok" ;;
esac
exit 0
`;

/** Makes a folder (`prefix`) holding `script` as `terraform` (or another `command`, e.g. `aws`), first on the PATH; returns it and how to restore the PATH. */
export function fakeTerraformOnPath(prefix: string, script = CLEAN_TERRAFORM, command = 'terraform'): { readonly dir: string; readonly restore: () => void } {
  const saved = process.env.PATH;
  const dir = mkdtempSync(join(tmpdir(), prefix));
  writeFileSync(join(dir, command), script);
  chmodSync(join(dir, command), 0o755);
  process.env.PATH = `${dir}:${saved}`;
  return { dir, restore: () => (process.env.PATH = saved) };
}
