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

/**
 * A stand-in that logs every call and keeps a state of sorts, for the order of a deploy across
 * clouds, stacks and environments, and for a deploy run again. Each call appends
 * `<stack> <subcommand>` (the stack is the folder it runs in) to `$HOPLAB_TF_LOG`. `apply` writes
 * the stack's local state file (`$HOPLAB_TF_STATE/terraform.<stack>.tfstate`, where a local backend
 * keeps it, with one resource) and says what it added, or, when the file is there, "No changes."
 * as Terraform 1.11 does; `destroy` empties it, or says "No changes." when it is empty; `state list` lists its
 * resources, or says "No state file was found!" and exits 1 without one, as Terraform does. A `<stack> <subcommand>` line in `$HOPLAB_TF_FAIL`
 * makes that call fail; a stack named in `$HOPLAB_TF_DRIFT` plans a change (`plan
 * -detailed-exitcode` exits 2; `show -json` names one resource). `output -json` prints
 * `$HOPLAB_TF_OUTPUTS/<stack>.json`, else `{}`.
 */
export const LOGGING_TERRAFORM = `#!/bin/sh
stack=$(basename "$PWD")
echo "$stack $1" >> "$HOPLAB_TF_LOG"
if [ -f "$HOPLAB_TF_FAIL" ] && grep -qx "$stack $1" "$HOPLAB_TF_FAIL"; then
  echo "Error: $1 of $stack failed (stand-in)"
  exit 1
fi
state="$HOPLAB_TF_STATE/terraform.$stack.tfstate"
case "$1" in
  version) echo '{"terraform_version":"1.11.4","provider_selections":{"registry.terraform.io/hashicorp/aws":"5.100.0"}}' ;;
  init) echo "Terraform has been successfully initialized!" ;;
  apply)
    if grep -q aws_vpc "$state" 2>/dev/null; then
      printf 'No changes. Your infrastructure matches the configuration.\\n\\nApply complete! Resources: 0 added, 0 changed, 0 destroyed.\\n'
    else
      echo '{"version":4,"resources":[{"type":"aws_vpc","name":"vpc"}]}' > "$state"
      echo "Apply complete! Resources: 1 added, 0 changed, 0 destroyed."
    fi ;;
  destroy)
    if grep -q aws_vpc "$state" 2>/dev/null; then
      echo '{"version":4,"resources":[]}' > "$state"
      echo "Destroy complete! Resources: 1 destroyed."
    else
      printf 'No changes. No objects need to be destroyed.\n\nDestroy complete! Resources: 0 destroyed.\n'
    fi ;;
  plan)
    if [ -f "$HOPLAB_TF_DRIFT" ] && grep -qx "$stack" "$HOPLAB_TF_DRIFT"; then
      echo "Plan: 0 to add, 1 to change, 0 to destroy."
      exit 2
    fi
    echo "No changes. Your infrastructure matches the configuration." ;;
  state)
    if [ -f "$state" ]; then grep -o '"type":"[a-z_]*","name":"[a-z_]*"' "$state" | sed 's/"type":"\\([a-z_]*\\)","name":"\\([a-z_]*\\)"/\\1.\\2/'
    else echo 'No state file was found!'; exit 1; fi ;;
  show) echo '{"resource_changes":[{"address":"aws_vpc.vpc","change":{"actions":["update"],"before":{"tags":{"hoplab-owner":"jane-doe"}},"after":{"tags":{"hoplab-owner":"someone-else"}}}}]}' ;;
  output)
    if [ -f "$HOPLAB_TF_OUTPUTS/$stack.json" ]; then cat "$HOPLAB_TF_OUTPUTS/$stack.json"; else echo '{}'; fi ;;
  *) echo "$1 ok" ;;
esac
exit 0
`;
