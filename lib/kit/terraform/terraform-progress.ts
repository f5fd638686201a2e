/**
 * What Terraform is doing, read from its output as it streams: which
 * resources are being created, changed, destroyed or read, since when, and
 * which of them it has waited on longest. Terraform prints (with -no-color,
 * one line each):
 *
 *   aws_eks_cluster.eks: Creating...
 *   aws_eks_cluster.eks: Still creating... [5m0s elapsed]
 *   aws_eks_cluster.eks: Creation complete after 9m3s [id=lab-eks]
 *   aws_nat_gateway.nat: Destroying... [id=nat-0abc]
 *   aws_nat_gateway.nat: Still destroying... [id=nat-0abc, 1m0s elapsed]
 *   aws_nat_gateway.nat: Destruction complete after 1m2s
 *   aws_vpc.vpc: Modifying... [id=vpc-1]  /  Modifications complete after 1s [id=vpc-1]
 *   data.aws_eks_cluster_auth.auth: Reading...  /  Read complete after 0s [id=lab-eks]
 *   aws_vpc.vpc: Creation errored after 3s  (and Destruction / Modifications errored)
 *   aws_vpc.vpc: Refreshing state... [id=vpc-1]   (plan: no end line)
 *
 * deploy, teardown and verify show the resource each running stack waits on.
 */

export type ResourceAction = 'creating' | 'destroying' | 'modifying' | 'reading';

/** One line of Terraform's progress. */
export interface ProgressLine {
  readonly address: string;
  readonly action: ResourceAction | 'refreshing';
  /** `start`: the action began. `still`: still at it after `elapsedMs`. `end`: complete or errored. */
  readonly kind: 'start' | 'still' | 'end';
  /** Terraform's own count (`Still ... [5m0s elapsed]`, `complete after 9m3s`). */
  readonly elapsedMs?: number;
  readonly errored?: boolean;
}

const START: Record<string, ResourceAction> = { Creating: 'creating', Destroying: 'destroying', Modifying: 'modifying', Reading: 'reading' };
const END: Record<string, ResourceAction> = { Creation: 'creating', Destruction: 'destroying', Modifications: 'modifying', Read: 'reading' };

/** `9m3s`, `1h2m0s`, `0s`, `1.5s` as ms; undefined when it is not Terraform's duration. */
export function parseTerraformDuration(text: string): number | undefined {
  const match = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+(?:\.\d+)?)s)?$/.exec(text);
  if (!match || text === '') return undefined;
  const [, h, m, s] = match;
  return ((Number(h ?? 0) * 60 + Number(m ?? 0)) * 60 + Number(s ?? 0)) * 1000;
}

/** One progress line of Terraform's output, or undefined for any other line. */
export function parseProgressLine(raw: string): ProgressLine | undefined {
  const line = raw.trim();
  // The address never holds ": " followed by one of these words, so the first such split is the right one.
  const match =
    /^(.+?): (Creating|Destroying|Modifying|Reading|Still (creating|destroying|modifying|reading)|Refreshing state|(Creation|Destruction|Modifications|Read) (complete|errored) after (\S+?))(\.\.\.)?(?: \[(.*)\])?$/.exec(
      line,
    );
  if (!match) return undefined;
  const [, address, verb, stillAction, endNoun, endHow, endAfter, , bracket] = match;
  if (verb === 'Refreshing state') return { address, action: 'refreshing', kind: 'start' };
  if (START[verb]) return { address, action: START[verb], kind: 'start' };
  if (stillAction) {
    const elapsed = /(?:^|, )(\S+) elapsed$/.exec(bracket ?? '');
    return { address, action: stillAction as ResourceAction, kind: 'still', elapsedMs: elapsed ? parseTerraformDuration(elapsed[1]) : undefined };
  }
  return { address, action: END[endNoun], kind: 'end', elapsedMs: parseTerraformDuration(endAfter), errored: endHow === 'errored' };
}

/** A resource Terraform is at now. */
export interface InFlight {
  readonly address: string;
  readonly action: ResourceAction;
  /** When it started, on the caller's clock (backdated by Terraform's own elapsed count when the start was missed). */
  readonly since: number;
}

/**
 * The resources one Terraform run is at, fed its output lines. `now` comes
 * from the caller, so a test drives it with its own clock.
 */
export class TerraformActivity {
  private readonly inFlight = new Map<string, InFlight>();
  /** The last resource a plan's refresh reached (no end line comes for it). */
  private refreshing: string | undefined;
  private finishedCount = 0;

  /** Reads one line of Terraform's output seen at `now`. */
  feed(line: string, now: number): void {
    const event = parseProgressLine(line);
    if (!event) return;
    if (event.action === 'refreshing') {
      this.refreshing = event.address;
      return;
    }
    const current = this.inFlight.get(event.address);
    if (event.kind === 'end') {
      if (this.inFlight.delete(event.address)) this.finishedCount += 1;
      return;
    }
    const since = event.kind === 'still' && event.elapsedMs !== undefined ? now - event.elapsedMs : now;
    this.inFlight.set(event.address, { address: event.address, action: event.action, since: current ? Math.min(current.since, since) : since });
  }

  /** In flight, the longest-waited-on first (then by address, so the order is stable). */
  running(): InFlight[] {
    return [...this.inFlight.values()].sort((a, b) => a.since - b.since || a.address.localeCompare(b.address));
  }

  /** Resources whose action completed (or errored) so far. */
  get finished(): number {
    return this.finishedCount;
  }

  /** The last resource a plan's refresh reached, if any. */
  get lastRefreshed(): string | undefined {
    return this.refreshing;
  }

  /** Forget everything (a new Terraform command of the same stack starts). */
  reset(): void {
    this.inFlight.clear();
    this.refreshing = undefined;
    this.finishedCount = 0;
  }
}

/** Shorter elapsed text, as Terraform prints it: `4m40s`, `12s`, `1h2m`. */
function elapsedText(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return h > 0 ? `${h}h${m}m` : m > 0 ? `${m}m${s}s` : `${s}s`;
}

/**
 * What a running stack waits on, in one phrase: the resource Terraform has been
 * at longest, e.g. `waiting on aws_eks_cluster.eks (creating, 4m40s), +2 more`;
 * during a plan, the last resource refreshed; undefined before anything started.
 */
export function describeActivity(activity: TerraformActivity, now: number): string | undefined {
  const [first, ...rest] = activity.running();
  if (first) return `waiting on ${first.address} (${first.action}, ${elapsedText(now - first.since)})${rest.length > 0 ? `, +${rest.length} more` : ''}`;
  if (activity.lastRefreshed) return `refreshed ${activity.lastRefreshed}`;
  return undefined;
}
