/**
 * Preflight on the host: the tools a deploy runs (Terraform, the AWS CLI for
 * EKS tokens, gcloud and its GKE auth plugin), whether providers can be
 * installed, and whether the host's own public address may reach the clusters'
 * API endpoints (one bounded request, or `--my-ip`).
 */
import { spawnSync } from 'node:child_process';
import { isIP } from 'node:net';
import { inRanges } from '../../model/cidr';
import { Finding } from './finding';

/** Runs a tool and returns what it printed, or why it could not run. */
export type ToolRunner = (command: string, args: readonly string[]) => { readonly ok: boolean; readonly output: string };

export const runTool: ToolRunner = (command, args) => {
  const result = spawnSync(command, [...args], { encoding: 'utf8', timeout: 20_000 });
  if (result.error) return { ok: false, output: (result.error as NodeJS.ErrnoException).code === 'ENOENT' ? 'not found on the PATH' : result.error.message };
  // Tools print their version on stdout or (the AWS CLI v1) on stderr; warnings go to stderr.
  const stdout = (result.stdout ?? '').trim();
  return { ok: result.status === 0, output: result.status === 0 && stdout ? stdout : `${stdout}\n${(result.stderr ?? '').trim()}`.trim() };
};

/** Oldest Terraform the stacks work with (the S3 backend's native lock file). */
export const MIN_TERRAFORM = [1, 10] as const;

/** Compares dotted versions: negative when a < b. */
export function compareVersions(a: string, b: readonly number[]): number {
  const parts = a.split('.').map((p) => Number.parseInt(p, 10) || 0);
  for (let i = 0; i < b.length; i += 1) {
    if ((parts[i] ?? 0) !== b[i]) return (parts[i] ?? 0) - b[i];
  }
  return 0;
}

export interface ToolNeeds {
  /** AWS stacks are selected (real AWS: the -lb stack's providers get EKS tokens from `aws eks get-token`). */
  readonly awsCli: boolean;
  /** GKE -lb stacks with `gcp.kubernetesCredentials: gke-gcloud-auth-plugin`. */
  readonly gkeAuthPlugin: boolean;
  /** Any GCP stack (gcloud gives the ADC token hoplab's checks use). */
  readonly gcloud: boolean;
}

/** Terraform's version in what `terraform version -json` printed (or its text form, `Terraform v1.11.4`); undefined when neither is there. */
export function terraformVersionOf(output: string): string | undefined {
  try {
    return (JSON.parse(/\{[\s\S]*\}/.exec(output)?.[0] ?? '') as { terraform_version?: string }).terraform_version;
  } catch {
    return /Terraform v(\d+\.\d+\.\d+)/.exec(output)?.[1];
  }
}

export function toolFindings(needs: ToolNeeds, run: ToolRunner = runTool): Finding[] {
  const findings: Finding[] = [];
  const tf = run('terraform', ['version', '-json']);
  const tfVersion = tf.ok ? terraformVersionOf(tf.output) : undefined;
  if (!tfVersion) {
    findings.push({
      check: 'terraform',
      verdict: 'fail',
      detail: `terraform: ${tf.output || 'no version'}`,
      fix: 'install Terraform 1.10 or later (https://developer.hashicorp.com/terraform/install)',
    });
  } else if (compareVersions(tfVersion, MIN_TERRAFORM) < 0) {
    findings.push({ check: 'terraform', verdict: 'fail', detail: `Terraform ${tfVersion} is older than ${MIN_TERRAFORM.join('.')}`, fix: 'install Terraform 1.10 or later' });
  } else {
    findings.push({ check: 'terraform', verdict: 'pass', detail: `Terraform ${tfVersion}` });
  }
  if (needs.awsCli) {
    const aws = run('aws', ['--version']);
    const version = /aws-cli\/(\d+\.\d+\.\d+)/.exec(aws.output)?.[1];
    if (!aws.ok || !version)
      findings.push({ check: 'aws cli', verdict: 'fail', detail: `aws: ${aws.output || 'no version'}`, fix: 'install the AWS CLI v2 (the EKS stack’s providers run aws eks get-token)' });
    else if (compareVersions(version, [2]) < 0) findings.push({ check: 'aws cli', verdict: 'fail', detail: `AWS CLI ${version} is v1`, fix: 'install the AWS CLI v2' });
    else findings.push({ check: 'aws cli', verdict: 'pass', detail: `AWS CLI ${version}` });
  }
  if (needs.gcloud || needs.gkeAuthPlugin) {
    const gcloud = run('gcloud', ['version']);
    const version = /Google Cloud SDK (\S+)/.exec(gcloud.output)?.[1];
    findings.push(
      gcloud.ok && version
        ? { check: 'gcloud', verdict: 'pass', detail: `Google Cloud SDK ${version}` }
        : {
            check: 'gcloud',
            verdict: needs.gkeAuthPlugin ? 'fail' : 'warn',
            detail: `gcloud: ${gcloud.output || 'no version'}`,
            fix: 'install the Google Cloud CLI (https://cloud.google.com/sdk/docs/install)',
          },
    );
  }
  if (needs.gkeAuthPlugin) {
    const plugin = run('gke-gcloud-auth-plugin', ['--version']);
    findings.push(
      plugin.ok
        ? { check: 'gke-gcloud-auth-plugin', verdict: 'pass', detail: plugin.output.split('\n')[0] || 'installed' }
        : { check: 'gke-gcloud-auth-plugin', verdict: 'fail', detail: `gke-gcloud-auth-plugin: ${plugin.output || 'not found'}`, fix: 'gcloud components install gke-gcloud-auth-plugin' },
    );
  }
  return findings;
}

/** Terraform's registry discovery document: answers when provider sources are reachable. */
export const TERRAFORM_REGISTRY_URL = 'https://registry.terraform.io/.well-known/terraform.json';

/** Provider sources: the filesystem mirror in emulator mode, else the registry (one bounded request). */
export async function providerSourceFinding(options: { readonly mirror?: string; readonly emulator: boolean; readonly registryUrl?: string; readonly timeoutMs?: number }): Promise<Finding> {
  const check = 'provider sources';
  if (options.emulator) {
    return options.mirror
      ? { check, verdict: 'pass', detail: `filesystem mirror ${options.mirror} (emulator mode installs from it only)` }
      : { check, verdict: 'fail', detail: 'no filesystem provider mirror holding hashicorp/aws 5.100.0', fix: 'set HOPLAB_PROVIDER_MIRROR to a mirror made with terraform providers mirror' };
  }
  const url = options.registryUrl ?? TERRAFORM_REGISTRY_URL;
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(options.timeoutMs ?? 5000) });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return { check, verdict: 'pass', detail: `${new URL(url).host} answers (google, helm and kubernetes providers install from it)` };
  } catch (error) {
    return {
      check,
      verdict: 'fail',
      detail: `${new URL(url).host} is not reachable (${error instanceof Error ? (error.name === 'TimeoutError' ? 'timeout' : error.message) : String(error)})`,
      fix: 'terraform init downloads providers from the registry: allow HTTPS to registry.terraform.io and releases.hashicorp.com (or a proxy: HTTPS_PROXY)',
    };
  }
}

/** Where the host's public address is learned: one request, plain-text answer. */
export const MY_IP_URL = 'https://checkip.amazonaws.com';

/**
 * The host's public address: `--my-ip` when given, else one bounded GET of
 * `url`. Returns a reason instead when offline or the answer is not an address.
 */
export async function learnPublicAddress(options: { readonly myIp?: string; readonly url?: string; readonly timeoutMs?: number }): Promise<{ address: string; source: string } | { reason: string }> {
  if (options.myIp) return { address: options.myIp, source: '--my-ip' };
  const url = options.url ?? MY_IP_URL;
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(options.timeoutMs ?? 5000) });
    const text = (await response.text()).trim();
    if (!response.ok || isIP(text) === 0) return { reason: `${url} answered ${response.status} ${JSON.stringify(text.slice(0, 40))}` };
    return { address: text, source: url };
  } catch (error) {
    return { reason: `${url} did not answer (${error instanceof Error ? (error.name === 'TimeoutError' ? 'timeout' : error.message) : String(error)})` };
  }
}

/** An allow-list of client addresses the host's own address is checked against. */
export interface AddressList {
  /** The config field, e.g. `aws.endpointPublicAccessCidrs`; its first part names the check (`host address aws`). */
  readonly field: string;
  readonly cidrs: readonly string[];
  /** What goes wrong from outside the list. @default "Terraform could create the cluster but not reach its API" */
  readonly outside?: string;
  /** How bad being outside is. @default 'fail' */
  readonly verdict?: 'fail' | 'warn';
  /** The fix from outside. @default "add <address>/32 (or your network's range) to <field>" */
  readonly fix?: (address: string) => string;
}

/** Whether the host's address is inside each allow-list (the selected clouds' API endpoints, the lab's load balancers). */
export function addressFindings(learned: { address: string; source: string } | { reason: string }, lists: readonly AddressList[]): Finding[] {
  if (lists.length === 0) return [];
  if ('reason' in learned) {
    return [
      { check: 'host address', verdict: 'warn', detail: `public address unknown: ${learned.reason}; ${lists.map((l) => l.field).join(', ')} not checked`, fix: 'pass --my-ip <your public address>' },
    ];
  }
  return lists.map(({ field, cidrs, outside, verdict, fix }) =>
    inRanges(learned.address, cidrs)
      ? { check: `host address ${field.split('.')[0]}`, verdict: 'pass' as const, detail: `${learned.address} (from ${learned.source}) is inside ${field} ${cidrs.join(', ')}` }
      : {
          check: `host address ${field.split('.')[0]}`,
          verdict: verdict ?? 'fail',
          detail: `${learned.address} (from ${learned.source}) is outside ${field} ${cidrs.join(', ')}: ${outside ?? 'Terraform could create the cluster but not reach its API'}`,
          fix: fix ? fix(learned.address) : `add ${learned.address}/32 (or your network's range) to ${field}`,
        },
  );
}
