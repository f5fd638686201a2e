/**
 * The packet's journey (lib/lab/pictures/journey.ts) against the facts it
 * comes from: for every exposure of every cloud, on every datapath, the SNAT,
 * the source the Pod sees, X-Forwarded-For and the hops are the facts of
 * lib/model/exposure-facts.ts (which explain derives and the -lb stacks
 * export); the reply comes back from where the request went; the addresses
 * are the plan's ranges' and marked as examples, or the outputs' and a
 * probe's where given.
 */
import { validConfig } from '../../../lib/config/load';
import { explainLab } from '../../../lib/lab/anatomy/explain-lab';
import { ExplainModel, ExposureExplanation } from '../../../lib/lab/anatomy/model';
import { EXAMPLE_CLIENT_BLOCK, EXAMPLE_LB_BLOCK, Journey, JourneyStep, packetJourney } from '../../../lib/lab/pictures/journey';
import { EXPOSURE_FACTS } from '../../../lib/model/exposure-facts';
import { ExposureMode } from '../../../lib/model/modes';
import { Cloud } from '../../../lib/model/contract';
import { inRanges } from '../../../lib/model/cidr';
import { defaultLab, exposureOf, unknownExposure } from '../../support/pictures';

/** The labs: the default (kube-proxy iptables on both), Cilium and Dataplane V2, IPVS and nftables (EKS). */
const LABS: Record<string, () => ExplainModel> = {
  default: defaultLab,
  'cilium, dataplane-v2': () => explainLab(validConfig({ name: 'demo', aws: { datapath: 'cilium' }, gcp: { datapath: 'dataplane-v2' } }, 'test')),
  ipvs: () => explainLab(validConfig({ name: 'demo', aws: { datapath: 'ipvs' } }, 'test')),
  nftables: () => explainLab(validConfig({ name: 'demo', aws: { datapath: 'nftables' } }, 'test')),
};
const models = new Map<string, ExplainModel>();
const lab = (name: string) => {
  if (!models.has(name)) models.set(name, LABS[name]());
  return models.get(name)!;
};

const requests = (j: Journey) => j.steps.filter((s) => s.direction === 'request');
const replies = (j: Journey) => j.steps.filter((s) => s.direction === 'reply');
const at = (s: JourneyStep, end: 'source' | 'destination') => `${s[end].address.text}:${s[end].port.text}`;

const CASES = Object.keys(LABS).flatMap((name) =>
  (['aws', 'gcp'] as const).flatMap((cloud) => (Object.keys(EXPOSURE_FACTS[cloud]) as ExposureMode[]).map((mode) => [name, cloud, mode] as [string, Cloud, ExposureMode])),
);

describe('the journey holds the facts explain shows', () => {
  test.each(CASES)('GIVEN the %s lab, %s %s THEN its SNAT, the source the Pod sees, X-Forwarded-For and hops are the exposure facts', (name, cloud, mode) => {
    const facts = EXPOSURE_FACTS[cloud][mode]!;
    const e = lab(name)
      .environments[0].clouds.find((c) => c.cloud === cloud)!
      .exposures.find((x) => x.mode === mode)!;
    const j = packetJourney(e);
    expect(j.unknown).toBeNull();
    const [first, ...rest] = requests(j);
    const last = rest[rest.length - 1];
    expect(first.source.role).toBe('client');
    expect(last.destination.role).toBe('Pod');
    // SNAT on a node exactly where the facts say so.
    expect(j.steps.some((s) => s.rewrite.kind === 'dnat+snat')).toBe(facts.source_nat);
    expect(last.source.role === 'node 1').toBe(facts.source_nat);
    // Where the Pod finds the client.
    if (facts.client_ip_via === 'tcp-source') {
      expect(at(last, 'source')).toBe(at(first, 'source'));
      expect(last.forwardedFor).toBeNull();
    } else if (facts.client_ip_via === 'x-forwarded-for') {
      expect(last.source.role).not.toBe('client');
      expect(last.forwardedFor?.split(', ')[0]).toBe(first.source.address.text);
    } else {
      expect(last.source.role).not.toBe('client');
      expect(last.forwardedFor).toBeNull();
    }
    // The hops from the load balancer to the Pod, and the targets.
    expect(Math.max(...j.steps.map((s) => s.hop ?? 0))).toBe(facts.expected_hops);
    expect(rest.some((s) => s.to === 'node 1')).toBe(facts.target_type !== 'ip' && facts.target_type !== 'neg');
    // The reply: the Pod answers whom it saw; the client hears from where it sent to.
    const back = replies(j);
    expect(back[0].from).toMatch(/^Pod/);
    expect(at(back[0], 'destination')).toBe(at(last, 'source'));
    expect([at(back[back.length - 1], 'source'), at(back[back.length - 1], 'destination')]).toEqual([at(first, 'destination'), at(first, 'source')]);
    expect(back[back.length - 1].to).toBe('client');
  });

  test.each([
    ['default', 'aws', /^kube-proxy \(iptables rules\) on node 1/],
    ['nftables', 'aws', /^kube-proxy \(nftables rules\) on node 1/],
    ['ipvs', 'aws', /^kube-proxy \(IPVS, with an iptables rule for the SNAT\) on node 1/],
    ['cilium, dataplane-v2', 'aws', /^Cilium \(eBPF, in place of kube-proxy\) on node 1/],
    ['default', 'gcp', /^kube-proxy \(iptables rules\) on node 1/],
    ['cilium, dataplane-v2', 'gcp', /^GKE Dataplane V2 \(Cilium eBPF, in place of kube-proxy\) on node 1/],
  ] as const)('GIVEN the %s lab on %s THEN the DNAT and SNAT on the node are done by its datapath', (name, cloud, by) => {
    for (const mode of ['nodeport', 'nodeport-l4', 'nodeport-local'] as const) {
      const e = lab(name)
        .environments[0].clouds.find((c) => c.cloud === cloud)!
        .exposures.find((x) => x.mode === mode)!;
      const nat = packetJourney(e).steps.find((s) => s.rewrite.kind === 'dnat' || s.rewrite.kind === 'dnat+snat')!;
      expect(nat.rewrite.words).toMatch(by);
    }
  });

  test('GIVEN Cilium THEN the SNAT step says it SNATs because the Pod is on another node; GIVEN kube-proxy THEN that it SNATs even for a Pod on the receiving node', () => {
    const snat = (name: string) => packetJourney(lab(name).environments[0].clouds[0].exposures.find((x) => x.mode === 'nodeport-l4')!).steps.find((s) => s.rewrite.kind === 'dnat+snat')!.rewrite.words;
    expect(snat('cilium, dataplane-v2')).toContain('it SNATs because the Pod is on another node: a Pod on node 1 itself would see the source as it arrived');
    expect(snat('default')).toContain('it SNATs even when the Pod it picks is on node 1 itself');
  });
});

describe('the steps of each kind of path', () => {
  const plan = (e: ExposureExplanation) => e.plan!;

  test('GIVEN nodeport-l4 on EKS THEN the NLB keeps the client as source to the NodePort, and at node 1 the source changes to node 1, an address of the node subnets', () => {
    const e = exposureOf('aws', 'nodeport-l4');
    const [, toNode, toPod] = requests(packetJourney(e));
    expect([toNode.rewrite.kind, toNode.source.role, toNode.destination.role, toNode.rewrite.source, toNode.rewrite.destination]).toEqual(['lb-forward', 'client', 'node 1', false, true]);
    expect(toPod.rewrite).toMatchObject({ kind: 'dnat+snat', source: true, destination: true });
    expect(toPod.source.address.text).not.toBe(toNode.source.address.text);
    expect(inRanges(toPod.source.address.text, plan(e).node_ranges)).toBe(true);
    expect(toPod.source.address.text).toBe(toNode.destination.address.text);
    expect(inRanges(toPod.destination.address.text, plan(e).pod_ranges)).toBe(true);
  });

  test.each(['aws', 'gcp'] as const)('GIVEN native on %s THEN no step is rewritten by a node: the load balancer opens its own connection straight to the Pod', (cloud) => {
    const j = packetJourney(exposureOf(cloud, 'native'));
    expect(j.steps.map((s) => [s.from, s.to, s.rewrite.kind])).toEqual([
      ['client', expect.any(String), 'none'],
      [expect.any(String), 'Pod', 'new-connection'],
      ['Pod', expect.any(String), 'none'],
      [expect.any(String), 'client', 'undo'],
    ]);
    expect(j.steps.some((s) => s.source.role.startsWith('node') || s.destination.role.startsWith('node'))).toBe(false);
  });

  test('GIVEN nodeport-l4 on GKE (passthrough) THEN node 1 gets the packet still addressed to the load balancer, and the reply goes straight to the client (direct server return)', () => {
    const j = packetJourney(exposureOf('gcp', 'nodeport-l4'));
    const [toLb, toNode, toPod] = requests(j);
    expect(toNode.rewrite.kind).toBe('none');
    expect(at(toNode, 'destination')).toBe(at(toLb, 'destination'));
    expect(toNode.rewrite.words).toContain("matches that address as the Service's external IP");
    expect(toPod.rewrite.kind).toBe('dnat+snat');
    const back = replies(j);
    expect(back.map((s) => [s.from, s.to])).toEqual([
      ['Pod on node 2', 'node 1'],
      ['node 1', 'client'],
    ]);
    expect(back[1].rewrite.words).toContain('direct server return');
  });

  test('GIVEN nodeport-local THEN the node DNATs to its own Pod, the source stays the client, and that stretch is no hop', () => {
    for (const cloud of ['aws', 'gcp'] as const) {
      const [first, , toPod] = requests(packetJourney(exposureOf(cloud, 'nodeport-local')));
      expect(toPod).toMatchObject({ to: 'Pod on node 1', hop: null, rewrite: { kind: 'dnat', source: false, destination: true } });
      expect(at(toPod, 'source')).toBe(at(first, 'source'));
    }
  });

  test('GIVEN native-l4 on EKS (NLB ip targets, client IP preservation) THEN the NLB sends to the Pod with the client as source', () => {
    const e = exposureOf('aws', 'native-l4');
    const [first, toPod] = requests(packetJourney(e));
    expect(toPod).toMatchObject({ from: 'NLB', to: 'Pod', hop: 1, rewrite: { kind: 'lb-forward', source: false, destination: true } });
    expect(at(toPod, 'source')).toBe(at(first, 'source'));
    expect(inRanges(toPod.destination.address.text, plan(e).pod_ranges)).toBe(true);
  });

  test("GIVEN an L7 exposure THEN the proxy's own address comes from the load balancers' subnets (EKS) or the Google Front End ranges (GKE), and X-Forwarded-For names the client (GKE: then the load balancer)", () => {
    const aws = requests(packetJourney(exposureOf('aws', 'nodeport')));
    expect(inRanges(aws[1].source.address.text, plan(exposureOf('aws', 'nodeport')).lb_ranges)).toBe(true);
    expect(aws[1].forwardedFor).toBe('203.0.113.10');
    const gcp = requests(packetJourney(exposureOf('gcp', 'native')));
    expect(inRanges(gcp[1].source.address.text, ['130.211.0.0/22', '35.191.0.0/16'])).toBe(true);
    expect(gcp[1].forwardedFor).toBe(`203.0.113.10, ${gcp[0].destination.address.text}`);
  });
});

describe('where the addresses come from', () => {
  test('GIVEN only the plan THEN the same journey every time: ports from the plan, addresses examples drawn from the ranges and documentation blocks', () => {
    const e = exposureOf('gcp', 'nodeport-l4');
    const j = packetJourney(e);
    expect(packetJourney(e)).toEqual(j);
    const ends = j.steps.flatMap((s) => [s.source, s.destination]);
    const byRole = (role: string) => ends.find((x) => x.role === role)!;
    expect(inRanges(byRole('client').address.text, [EXAMPLE_CLIENT_BLOCK])).toBe(true);
    expect(inRanges(byRole('load balancer').address.text, [EXAMPLE_LB_BLOCK])).toBe(true);
    expect(inRanges(byRole('node 1').address.text, e.plan!.node_ranges)).toBe(true);
    // GKE: the Pod on node 2 has an address of node 2's alias range, the Pod range's second /24.
    expect(byRole('Pod').address.text).toBe('10.20.1.5');
    expect(new Set(ends.map((x) => x.address.origin))).toEqual(new Set(['example']));
    expect([byRole('load balancer').port, byRole('Pod').port].map((p) => [p.text, p.origin])).toEqual([
      ['80', 'plan'],
      ['8080', 'plan'],
    ]);
    expect(byRole('node 1').address.why).toBe('drawn from 10.10.0.0/20, the node subnet');
  });

  test("GIVEN the outputs' URL THEN the load balancer's name and port come from it", () => {
    const j = packetJourney(exposureOf('aws', 'native'), { url: 'http://k8s-hoplab-echonati-3f1c2a9b7d-1234567890.us-east-1.elb.amazonaws.com:8081/' });
    expect(j.steps[0].destination.address).toMatchObject({ text: 'k8s-hoplab-echonati-3f1c2a9b7d-1234567890.us-east-1.elb.amazonaws.com', origin: 'outputs' });
    expect(j.steps[0].destination.port).toMatchObject({ text: '8081', origin: 'outputs' });
    expect(packetJourney(exposureOf('gcp', 'native'), { url: 'http://34.120.11.22/' }).steps[0].destination.port).toMatchObject({ text: '80', origin: 'outputs' });
  });

  test('GIVEN a probe THEN the prober is the client and the node address the Pods saw is node 1, marked measured', () => {
    const j = packetJourney(exposureOf('aws', 'nodeport-l4'), { measured: { client: '192.0.2.44', seenByPod: { address: '10.0.7.9', peer: 'node', replies: 20, of: 20 } } });
    const [first, , toPod] = requests(j);
    expect(first.source.address).toMatchObject({ text: '192.0.2.44', origin: 'measured' });
    expect(toPod.source.address).toMatchObject({ text: '10.0.7.9', origin: 'measured', why: 'the node address the Pods saw as the source (20 of 20 replies, compare --probe)' });
    expect(j.notes.some((n) => n.startsWith('Measured'))).toBe(false);
  });

  test('GIVEN a probe whose Pods saw another kind of source than the plan says THEN the examples stay and a note says so', () => {
    const j = packetJourney(exposureOf('aws', 'nodeport-l4'), { measured: { seenByPod: { address: '192.0.2.44', peer: 'client', replies: 7, of: 20 } } });
    expect(requests(j)[2].source.address.origin).toBe('example');
    expect(j.notes).toContain(
      "Measured: the Pods saw 192.0.2.44 (a client address) as the TCP source in 7 of 20 replies, where the plan says a node's: compare --probe shows the claim against the measurement.",
    );
  });

  test('GIVEN nodeport-local and the node of the Pod that answered THEN node 1 is that node', () => {
    const j = packetJourney(exposureOf('aws', 'nodeport-local'), { measured: { podNode: '10.0.33.7' } });
    expect(requests(j)[1].destination.address).toMatchObject({ text: '10.0.33.7', origin: 'measured' });
  });

  test('GIVEN an exposure explain could not derive, or one without a plan THEN no steps, and why', () => {
    expect(packetJourney(unknownExposure())).toMatchObject({ steps: [], unknown: 'explain could not derive the path from the synthesized stacks' });
    expect(packetJourney({ ...exposureOf('aws', 'native'), plan: undefined })).toMatchObject({ steps: [], unknown: 'the synthesized plan of this exposure is not known' });
  });
});
