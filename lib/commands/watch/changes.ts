/**
 * When `watch` reports a change, from the newest replies rather than the
 * window: the window (`--window`, 10 s by default) keeps the figures
 * (requests, errors, latency, Pods and nodes counted), and this decides,
 * at every snapshot, what is true now.
 *
 * Each exposure follows a few things that are either there or not: failures,
 * each Pod and each node that answers, and each kind of reply the client-IP
 * verdict is made of (`tcp-source/no-snat`, `none/snat`, ...: one reply's own
 * verdict, see replyVerdicts). One reply is enough to say a thing appeared
 * (a failure, a Pod's name, a SNATed reply: none of them can come from a state
 * without it). That a thing is gone is a matter of chance: the balancer may
 * simply not have picked a Pod for a while. So a thing is gone once the
 * replies since its last one would come without it with a chance below
 * {@link CHANCE}, given its share of the replies from its first in the window
 * to its last (estimated as (count + 1/2) / (replies + 1), the
 * Krichevsky-Trofimov estimate, so a share seen on few replies is not taken
 * for certain), or once the window holds none of it. A thing that answered
 * nearly every reply is gone after a few replies without it (errors stop
 * after an outage; the SNATed replies of `externalTrafficPolicy: Cluster` end
 * when it becomes `Local`); one of two Pods takes about 20 replies (4 s at 5
 * requests per second).
 *
 * The verdict shown is the one of the window's replies whose kind is still
 * there (as `compare --probe` judges a set of replies: summarizeProbe), and a
 * change of it is an event.
 *
 * With `watch --endpoints` the cluster's API also says when a Pod leaves the
 * endpoints (clusterSays): it is gone at once, and so is a node left without a
 * serving Pod; their replies no longer count until the API says they serve again.
 */
import { ProbeTarget } from '../../lab/probe/compare-model';
import { Sample } from '../../lab/probe/probe';
import { proberAddressFor, replyVerdicts, summarizeProbe } from '../../lab/probe/probe-summary';
import { ClientIpVia, Cloud } from '../../model/contract';
import { ServingChange, ServingPods } from '../../lab/cluster/serving-pods';

/**
 * How unlikely the replies since a thing's last one must be, were it still there, before it is
 * said to be gone. Errors and the verdict: one in a million (one or two of each per exposure).
 * Pods and nodes: one in 10^8, because a room has over a thousand of them (30 attendees, 11
 * exposures each, 2 Pods on 2 nodes): a false "Pod gone" at one in a million would show about
 * ten times an hour there; at one in 10^8, about once in ten hours.
 */
export const CHANCE = { state: 1e-6, member: 1e-8 } as const;

export type WatchEventKind = 'errors-started' | 'errors-stopped' | 'verdict-changed' | 'pod-appeared' | 'pod-gone' | 'node-appeared' | 'node-gone';

/** A reply (or failure) and when it arrived on the watch's clock. */
export interface Timed {
  readonly at: number;
  readonly sample: Sample;
}

/** The client-IP verdict as shown. */
export interface Verdict {
  readonly client_ip_via: ClientIpVia | null;
  readonly source_nat: boolean | null;
  readonly as_expected: boolean | null;
}

/** What one cluster's API said of the app's Pods at a read that changed them (watch --endpoints). */
export interface ClusterNews {
  readonly env: string;
  readonly cloud: Cloud;
  /** What left since the read before. */
  readonly change: ServingChange;
  /** What serves now. */
  readonly serving: ServingPods;
}

/** A change found in one snapshot. */
export interface Change {
  readonly kind: WatchEventKind;
  readonly text: string;
}

/** The replies without a thing it takes to say it is gone: the smallest k with (1 - share)^k <= chance. */
export function repliesToGone(share: number, chance: number): number {
  if (share >= 1) return 1;
  if (share <= 0) return Infinity;
  return Math.max(1, Math.ceil(Math.log(chance) / Math.log(1 - share)));
}

/**
 * Replies of an exposure's Pods and nodes that are learned before anything of them is reported: a balancer that picks at random may leave one of three Pods out of the first
 * second's five replies (a chance of 3 x (2/3)^5, 40%), but out of 20 replies only 0.1% of the
 * time. At 5 requests per second, the first 4 s.
 */
export const LEARN_REPLIES = 20;

/** Things of one family (Pods, nodes, kinds of reply) present now, with what makes them gone. */
class Family {
  readonly present = new Set<string>();
  /** Replies seen so far. */
  private seen = 0;

  constructor(
    private readonly chance: number,
    /** Pods and nodes: a share is never taken above 1/m with m of them there (one more Pod means smaller shares for all). */
    private readonly capByCount: boolean,
    /** Replies learned without a change reported (the first snapshot's at least). */
    private readonly learn: number,
  ) {}

  /** Still learning what is there: nothing is reported yet. */
  get learning(): boolean {
    return this.seen < Math.max(1, this.learn);
  }

  /**
   * Moves on to `keys` (the window's replies of this family, oldest first, one key each) of
   * which those from `fresh` on arrived since the last snapshot. Returns what appeared and what
   * is gone; nothing while it learns what is there.
   */
  advance(keys: readonly string[], fresh: number): { appeared: string[]; gone: string[] } {
    if (keys.length === 0) return { appeared: [], gone: [] };
    if (this.learning) {
      // The first snapshot's replies all count, however many of them the window holds.
      const learned = this.seen === 0 ? keys : keys.slice(fresh);
      this.seen += learned.length;
      for (const k of learned) this.present.add(k);
      return { appeared: [], gone: [] };
    }
    this.seen += keys.length - fresh;
    const appeared: string[] = [];
    for (const k of keys.slice(fresh)) {
      if (!this.present.has(k)) {
        this.present.add(k);
        appeared.push(k);
      }
    }
    const gone: string[] = [];
    // Only new replies are new evidence (an outage brings none).
    if (fresh >= keys.length) return { appeared, gone };
    const first = new Map<string, number>();
    const last = new Map<string, number>();
    const count = new Map<string, number>();
    keys.forEach((k, i) => {
      if (!first.has(k)) first.set(k, i);
      last.set(k, i);
      count.set(k, (count.get(k) ?? 0) + 1);
    });
    const m = this.present.size;
    for (const k of [...this.present]) {
      const lastAt = last.get(k);
      if (lastAt === undefined) {
        gone.push(k);
        continue;
      }
      const run = keys.length - 1 - lastAt;
      if (run === 0) continue;
      const span = lastAt - first.get(k)! + 1;
      let share = (count.get(k)! + 0.5) / (span + 1);
      if (this.capByCount) share = Math.min(share, 1 / m);
      if (run >= repliesToGone(share, this.chance)) gone.push(k);
    }
    for (const k of gone) this.present.delete(k);
    return { appeared, gone };
  }
}

const FAILED = 'failed';
const ANSWERED = 'answered';

/** What one exposure knows between snapshots. */
export class ExposureChanges {
  /** Failed or answered: errors start on the first failure, even the first snapshot's learns only what is there. */
  private readonly outcomes = new Family(CHANCE.state, false, 0);
  private readonly pods = new Family(CHANCE.member, true, LEARN_REPLIES);
  private readonly nodes = new Family(CHANCE.member, true, LEARN_REPLIES);
  /** Kinds of reply: not learned first, so that a flip in the first seconds shows (a mixed verdict whose first replies were all of one kind, a chance of (1/3)^5 for Cilium's, may show a flip once). */
  private readonly kinds = new Family(CHANCE.state, false, 0);
  /** The last verdict that measured something (an outage in between does not hide a flip). */
  private measured: Verdict | null = null;
  /**
   * Pods and nodes the cluster's API said left (watch --endpoints), until it says they serve again:
   * their replies (a load balancer still sends to a Pod while it deregisters it, and the Pod serves
   * through its preStop sleep) do not bring them back.
   */
  private readonly left = { pods: new Set<string>(), nodes: new Set<string>() };

  constructor(private readonly target: ProbeTarget, private readonly myIp: string | undefined) {}

  /** Whether the exposure fails now (errors started and not stopped). */
  get failing(): boolean {
    return this.outcomes.present.has(FAILED);
  }

  /**
   * What the cluster's API said since the last snapshot (watch --endpoints): a Pod or node that
   * left is gone now, not once its replies have been missing too long to be chance.
   */
  clusterSays(news: ClusterNews): Change[] {
    const changes: Change[] = [];
    for (const pod of news.serving.serving.keys()) this.left.pods.delete(pod);
    for (const node of news.serving.serving.values()) this.left.nodes.delete(node);
    for (const { pod, why } of news.change.podsLeft) {
      this.left.pods.add(pod);
      if (this.pods.present.delete(pod)) changes.push({ kind: 'pod-gone', text: `Pod ${pod} left the endpoints: ${why} (cluster API)` });
    }
    for (const node of news.change.nodesLeft) {
      this.left.nodes.add(node);
      if (this.nodes.present.delete(node)) changes.push({ kind: 'node-gone', text: `node ${node} has no serving Pod left (cluster API)` });
    }
    return changes;
  }

  /**
   * One snapshot: `window` is every reply still in the window, oldest first, of which the last
   * `newCount` arrived since the last snapshot. Returns the changes and the verdict shown now.
   * `whole` is the verdict of the whole window (summarizeProbe's, with the claims), when the
   * caller has it: it is the one shown while every kind of reply in the window is still there.
   */
  advance(window: readonly Timed[], newCount: number, whole?: Verdict): { changes: Change[]; verdict: Verdict } {
    const changes: Change[] = [];
    const isNew = new Set(window.slice(Math.max(0, window.length - newCount)));
    /** Where the new replies of `list` (a part of the window, in its order) begin. */
    const fresh = (list: readonly Timed[]) => {
      const i = list.findIndex((t) => isNew.has(t));
      return i < 0 ? list.length : i;
    };

    // Errors: a failure is a thing that appears and goes; the successes are only its absence.
    const wasFailing = this.failing;
    const outcomes = this.outcomes.advance(
      window.map((t) => (t.sample.ok ? ANSWERED : FAILED)),
      fresh(window),
    );
    this.outcomes.present.add(ANSWERED);
    if (!wasFailing && outcomes.appeared.includes(FAILED)) {
      const kinds = [...new Set(window.filter((t) => isNew.has(t) && !t.sample.ok).map((t) => (t.sample.ok ? '' : t.sample.error)))];
      changes.push({ kind: 'errors-started', text: `errors started: ${kinds.join(', ')}` });
    }
    if (wasFailing && outcomes.gone.includes(FAILED)) changes.push({ kind: 'errors-stopped', text: 'errors stopped' });

    const ok = window.filter((t) => t.sample.ok);
    const okFresh = fresh(ok);
    const reply = (t: Timed) => (t.sample.ok ? t.sample.reply : {});
    const podOf = (t: Timed) => reply(t).pod ?? '(no pod name)';
    const nodeOf = (t: Timed) => reply(t).node ?? '(no node name)';
    const podReplies = this.left.pods.size === 0 ? ok : ok.filter((t) => !this.left.pods.has(podOf(t)));
    const nodeReplies = this.left.nodes.size === 0 ? ok : ok.filter((t) => !this.left.nodes.has(nodeOf(t)));
    const pods = this.pods.advance(podReplies.map(podOf), podReplies === ok ? okFresh : fresh(podReplies));
    const nodes = this.nodes.advance(nodeReplies.map(nodeOf), nodeReplies === ok ? okFresh : fresh(nodeReplies));
    for (const pod of pods.appeared) changes.push({ kind: 'pod-appeared', text: `Pod ${pod} answers` });
    for (const pod of pods.gone) changes.push({ kind: 'pod-gone', text: `Pod ${pod} no longer answers` });
    for (const node of nodes.appeared) changes.push({ kind: 'node-appeared', text: `node ${node} answers` });
    for (const node of nodes.gone) changes.push({ kind: 'node-gone', text: `node ${node} no longer answers` });

    // The verdict: of the window's replies whose kind is still there.
    const url = this.target.url as URL;
    const ctx = { proberAddress: proberAddressFor(url, this.myIp), nodeRanges: this.target.nodeRanges };
    const classes = replyVerdicts(
      ok.map((t) => t.sample),
      ctx,
    );
    const classed = ok.map((t, i) => ({ t, c: classes[i] })).filter((x): x is { t: Timed; c: string } => x.c !== undefined);
    this.kinds.advance(
      classed.map((x) => x.c),
      fresh(classed.map((x) => x.t)),
    );
    const current = ok.filter((_, i) => classes[i] === undefined || this.kinds.present.has(classes[i]!));
    let verdict: Verdict;
    if (whole && current.length === ok.length) verdict = { client_ip_via: whole.client_ip_via, source_nat: whole.source_nat, as_expected: whole.as_expected };
    else {
      const summary = summarizeProbe(
        current.map((t) => t.sample),
        {
          url: url.href,
          planned: current.length,
          gaveUp: false,
          ...ctx,
          expectedPreserved: this.target.exposure.client_ip_preserved,
          expectedVia: this.target.exposure.client_ip_via,
          expectedSourceNat: this.target.exposure.source_nat,
        },
      ).client_ip;
      verdict = { client_ip_via: summary.client_ip_via, source_nat: summary.source_nat, as_expected: summary.as_expected };
    }
    if (verdict.client_ip_via !== null) {
      const before = this.measured;
      if (before && (before.client_ip_via !== verdict.client_ip_via || before.source_nat !== verdict.source_nat)) {
        changes.push({ kind: 'verdict-changed', text: `client IP ${verdictText(before)} -> ${verdictText(verdict)}` });
      }
      this.measured = verdict;
    }
    return { changes, verdict };
  }
}

function verdictText(v: Verdict): string {
  return `${v.client_ip_via ?? '?'}/${v.source_nat === null ? '?' : v.source_nat ? 'snat' : 'no-snat'}`;
}
