/**
 * `handout` in-process against the outputs fixture (environment `lab`) with
 * the config naming `lab` as an attendee with both identities: the files it
 * writes, every exposure, the kubeconfig commands, the curl commands and what
 * the replies show, the exercises with their commands.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validConfig } from '../../../lib/config/load';
import { handout, HandoutIo } from '../../../lib/commands/handout/handout';
import { HANDOUT_COMMAND } from '../../../lib/commands/handout/command';
import { handoutHtml, handoutMarkdown } from '../../../lib/commands/handout/render-handout';
import { buildHandout, Exercise, expectedReply, Handout, HandoutSources, Step } from '../../../lib/commands/handout/handout-model';
import { explainLab } from '../../../lib/lab/anatomy/explain-lab';
import { ExplainModel } from '../../../lib/lab/anatomy/model';
import { readOutputsFile } from '../../../lib/lab/files/outputs';
import { Cloud } from '../../../lib/model/contract';
import { AWS_DATAPATHS, awsDataplane, DATAPLANES, GCP_DATAPATHS, gcpDataplane } from '../../../lib/model/datapaths';
import { EXPOSURE_FACTS } from '../../../lib/model/exposure-facts';
import { inspectorLogCommands, inspectorSections } from '../../../lib/model/inspector';
import { fixture } from '../../support/fixtures';
import { exposureOutput, HandoutOutputsOptions, writeHandoutOutputs } from '../../support/handout-outputs';
import { attendeeCommandProblems } from '../../support/privileged-commands';

const ANN = { name: 'lab', aws: 'arn:aws:iam::123456789012:role/workshop/lab', gcp: 'user:lab@example.com' };
const CONFIG = validConfig({ attendees: [ANN, 'bob'], gcp: { project: 'acme-lab' } }, 'test');
let explained: ExplainModel | undefined;
const explain = () => (explained ??= explainLab(validConfig({ name: 'lab', gcp: { project: 'acme-lab' } }, 'test')));

const dir = mkdtempSync(join(tmpdir(), 'hoplab-handout-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A handout built in memory from the outputs `options` describe (see handout-outputs.ts), with the fixture's explanation. */
function built(options: HandoutOutputsOptions = {}, sources: Partial<HandoutSources> = {}): Handout {
  const file = join(dir, `built-${JSON.stringify(options).replace(/\W+/g, '-')}.json`);
  const outputs = readOutputsFile(writeHandoutOutputs(file, options)).environments.find((e) => e.env === 'lab')!;
  return buildHandout({ outputs, explanation: explain().environments[0], replicas: 2, ...sources });
}

/** The commands of a page: the text of its `pre` blocks (each word is a span there). */
const commandsOf = (page: string) =>
  [...page.matchAll(/<pre><code>([\s\S]*?)<\/code><\/pre>/g)].map((m) =>
    m[1]
      .replace(/<[^>]+>/g, '')
      .replace(/&#39;/g, "'")
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&'),
  );

/** Every step of an exercise, its measuring steps included. */
const stepsOf = (x: Exercise): Step[] => [...x.steps, ...x.measure];

async function run(...argv: string[]) {
  let out = '';
  let err = '';
  const io: HandoutIo = { out: (t) => (out += t), err: (t) => (err += t), config: () => CONFIG, explain };
  const code = await handout(argv, io);
  return { code, out, err };
}

describe('handout', () => {
  const out = join(dir, 'both');
  let result: { code: number; out: string; err: string };
  let markdown: string;
  let html: string;
  beforeAll(async () => {
    result = await run('--outputs', fixture('outputs.json'), '--out', out);
    markdown = readFileSync(join(out, 'lab.md'), 'utf8');
    html = readFileSync(join(out, 'lab.html'), 'utf8');
  });

  test('GIVEN the outputs fixture WHEN run THEN it writes the attendee’s Markdown, page and access card and the index, and skips bob (no outputs) saying so', () => {
    expect(result).toEqual({
      code: 0,
      out:
        `hoplab handout: wrote 1 handout (markdown, html, card), index.html to ${out}/\n` +
        `hoplab handout: kubeconfigs in ${out}/ (mode 0600)\n` +
        '+----------------+---------+----------------------------+\n' +
        '| file           | context | kubectl authenticates with |\n' +
        '+----------------+---------+----------------------------+\n' +
        '| lab.kubeconfig | lab-eks | own AWS identity           |\n' +
        '| lab.kubeconfig | lab-gke | own Google identity        |\n' +
        '+----------------+---------+----------------------------+\n',
      err: `hoplab handout: no outputs for environment bob (not deployed, or not in ${fixture('outputs.json')}): skipped\n`,
    });
    expect(readdirSync(out).sort()).toEqual(['index.html', 'lab.card.html', 'lab.html', 'lab.kubeconfig', 'lab.md']);
  });

  test('GIVEN the handout THEN it names the attendee’s identities, where each cluster is, and how kubectl reaches it with their kubeconfig and that identity (no aws eks update-kubeconfig: it needs eks:DescribeCluster)', () => {
    expect(markdown).toContain("# hoplab: lab's lab (environment `lab`)");
    expect(markdown).toContain('- AWS identity: `arn:aws:iam::123456789012:role/workshop/lab`');
    expect(markdown).toContain('- Google identity: `user:lab@example.com`');
    expect(markdown).toContain("- Your cluster lab-eks is in the host's AWS account, region us-east-1.\n");
    expect(markdown).toContain('  AWS_PROFILE=<your profile> kubectl --kubeconfig lab.kubeconfig --context lab-eks get pods\n');
    expect(markdown).toContain('use the context lab-eks-assume-role: it adds --role-arn.');
    // The GKE location is the cluster_location output, not computed from the config.
    expect(markdown).toContain('- Your cluster lab-gke is in Google Cloud project acme-lab, zone us-central1-a.\n');
    expect(markdown).toContain('  gcloud auth login lab@example.com\n');
    expect(markdown).toContain('  kubectl --kubeconfig lab.kubeconfig --context lab-gke get pods\n');
    expect(markdown).not.toContain('update-kubeconfig');
    expect(markdown).not.toContain('get-credentials');
  });

  test.each([
    ['aws', 'native', 'http://k8s-hoplab-echonati-3f1c2a9b7d-1234567890.us-east-1.elb.amazonaws.com/', 'client IP in X-Forwarded-For'],
    ['aws', 'nodeport', 'http://k8s-hoplab-echonode-8e2d4b6a1c-987654321.us-east-1.elb.amazonaws.com/', 'client IP in X-Forwarded-For'],
    ['aws', 'nodeport-local', 'http://k8s-hoplab-echonode-5a7b9c1d3e-0f1e2d3c4b5a6978.elb.us-east-1.amazonaws.com/', 'client IP kept'],
    ['gcp', 'native', 'http://34.120.11.22/', 'client IP in X-Forwarded-For'],
    ['gcp', 'nodeport', 'http://34.117.33.44/', 'client IP in X-Forwarded-For'],
    ['gcp', 'nodeport-local', 'http://35.192.55.66/', 'client IP kept'],
  ])('GIVEN %s %s THEN its URL, curl command and verdict are in both formats', (cloud, mode, url, verdict) => {
    expect(markdown).toContain(`| ${cloud} | ${mode} | ${url} |`);
    expect(markdown).toContain(`| ${verdict} |`);
    const curl = `curl -s ${url} | grep -Ei 'client_address|x-forwarded-for|node name|pod name'`;
    expect(markdown).toContain(`\`\`\`sh\n${curl}\n\`\`\``);
    expect(html).toContain(`<section class="exposure" id="${cloud}-${mode}">`);
    expect(html).toContain(`URL: <code>${url}</code>`);
    expect(commandsOf(html)).toContain(curl);
  });

  test('GIVEN the handout THEN every exercise is there with its commands and the compare or watch command that measures it', () => {
    const titles = [...markdown.matchAll(/^### (\d+\. .*)$/gm)].map((m) => m[1]);
    expect(titles).toEqual([
      '1. SNAT on a NodePort path: your address is gone (nodeport-local, AWS (EKS))',
      '2. nodeport-local: nodes without a Pod fail the health check (AWS (EKS))',
      '3. Readiness gates hold a Pod out during a rollout (native, AWS (EKS))',
      '4. The extra hop of NodePort paths (native against nodeport)',
      '5. Drain a node while traffic flows',
      '6. The datapath in AWS (EKS): kube-proxy-iptables (nodeport-local)',
      '7. The datapath in Google Cloud (GKE): kube-proxy-iptables (nodeport-local)',
    ]);
    for (const command of [
      `kubectl -n hoplab patch service echo-nodeport-local -p '{"spec":{"externalTrafficPolicy":"Cluster"}}'`,
      'kubectl -n hoplab scale deployment echo --replicas=1',
      'kubectl -n hoplab scale deployment echo --replicas=2',
      'kubectl logs -n hoplab-inspector -l app.kubernetes.io/name=hoplab-inspector --prefix --since=35s',
      'kubectl -n hoplab rollout restart deployment echo',
      'kubectl drain <node> --ignore-daemonsets --delete-emptydir-data',
      `for i in $(seq 20); do curl -s -m 5 http://k8s-hoplab-echonode-5a7b9c1d3e-0f1e2d3c4b5a6978.elb.us-east-1.amazonaws.com/; done | grep -Ei 'client_address|x-forwarded-for|node name|pod name' | sort | uniq -c`,
      `npm run compare -- --outputs ${fixture('outputs.json')} --probe --my-ip <your public address>`,
      'npm run watch -- --env lab --exposure nodeport-local --rate 5 --duration 300',
      'npm run watch -- --env lab --exposure native --rate 5 --duration 300',
      'npm run watch -- --env lab --exposure nodeport --rate 5 --duration 300',
    ]) {
      expect(markdown).toContain(command);
    }
    expect(markdown.match(/\*\*What confirms it:\*\*/g)).toHaveLength(7);
  });

  test('GIVEN the page THEN it is self-contained: one svg per exposure, nothing loaded from outside', () => {
    expect(html.match(/<svg /g)).toHaveLength(6);
    expect(html).not.toMatch(/\b(src|href)="(?!data:|#)/);
    const index = readFileSync(join(out, 'index.html'), 'utf8');
    expect(index).toContain('<a href="lab.md">Markdown</a> · <a href="lab.html">page</a> · <a href="lab.card.html">access card</a>');
    expect(index).toContain('<code>arn:aws:iam::123456789012:role/workshop/lab</code>');
  });

  test('GIVEN --format card WHEN run THEN only the access card is written, and the index links it', async () => {
    const only = join(dir, 'card');
    expect(await run('--outputs', fixture('outputs.json'), '--format', 'card', '--env', 'lab', '--out', only)).toEqual({
      code: 0,
      out: expect.stringMatching(new RegExp(`^hoplab handout: wrote 1 handout \\(card\\), index\\.html to ${only}/\\nhoplab handout: kubeconfigs in ${only}/ \\(mode 0600\\)\\n`)),
      err: '',
    });
    expect(readdirSync(only).sort()).toEqual(['index.html', 'lab.card.html', 'lab.kubeconfig']);
    expect(readFileSync(join(only, 'index.html'), 'utf8')).toContain('<td><a href="lab.card.html">access card</a></td>');
    const card = readFileSync(join(only, 'lab.card.html'), 'utf8');
    expect(card).toContain('<title>hoplab access card: lab</title>');
    expect(card).toContain('The host says when the workshop ends.');
  });

  test('GIVEN --format markdown and --env WHEN run THEN only the Markdown of that environment is written', async () => {
    const only = join(dir, 'md');
    expect((await run('--outputs', fixture('outputs.json'), '--format', 'markdown', '--env', 'lab', '--out', only)).code).toBe(0);
    expect(readdirSync(only).sort()).toEqual(['index.html', 'lab.kubeconfig', 'lab.md']);
  });

  test('GIVEN --env naming two of three attendees WHEN run THEN the handouts of those two only, as every command that reads outputs takes a list', async () => {
    const outputs = readFileSync(fixture('outputs.json'), 'utf8');
    const one = (env: string) => JSON.parse(outputs.replace(/"lab-/g, `"${env}-`));
    const file = join(dir, 'three.json');
    writeFileSync(file, JSON.stringify({ ...one('ann'), ...one('bob'), ...one('cy') }));
    const config = validConfig({ attendees: ['ann', 'bob', 'cy'], gcp: { project: 'acme-lab' } }, 'test');
    const where = join(dir, 'two');
    let err = '';
    const io: HandoutIo = { out: () => undefined, err: (t) => (err += t), config: () => config, explain };
    expect(await handout(['--outputs', file, '--env', 'cy,ann', '--format', 'markdown', '--no-kubeconfigs', '--out', where], io)).toBe(0);
    expect([readdirSync(where).sort(), err]).toEqual([['ann.md', 'cy.md', 'index.html'], '']);
    await expect(handout(['--outputs', file, '--env', 'ann,zed', '--out', where], io)).rejects.toThrow('--env: "zed" not in this config; environments: ann, bob, cy');
  });

  test.each([...DATAPLANES])(
    'GIVEN the dataplane output %s WHEN run THEN the datapath exercise reads the inspector’s log with kubectl, names what its dump holds there, and says what to look for in it',
    async (dataplane) => {
      const file = writeHandoutOutputs(join(dir, `outputs-${dataplane}.json`), { dataplane: { aws: dataplane } });
      const where = join(dir, dataplane);
      expect((await run('--outputs', file, '--env', 'lab', '--format', 'markdown', '--out', where)).code).toBe(0);
      const text = readFileSync(join(where, 'lab.md'), 'utf8');
      expect(text).toContain(`### 6. The datapath in AWS (EKS): ${dataplane} (nodeport-local)`);
      const exercise = text.slice(text.indexOf('### 6.'), text.indexOf('### 7.'));
      for (const { command } of inspectorLogCommands(dataplane, 'hoplab', 8080).commands) expect(exercise).toContain(`  ${command}\n`);
      const sections = inspectorSections(dataplane, 'hoplab', 8080).map((section) => section.title);
      expect(exercise).toContain(`A dump holds ${sections.map((title) => `\`--- ${title}\``).join(' and ')}.`);
      // What to look for is worded after the parts of that datapath's dump.
      const observe = exercise.slice(exercise.indexOf('**What confirms it:**'), exercise.indexOf('**Measure it:**'));
      const parts: Record<string, string> = {
        'NAT rules': 'NAT rules',
        'connection tracking': 'connection tracking',
        IPVS: 'IPVS part',
        "Cilium's Service table": "Cilium's Service table",
        'nftables rules': 'rules part says they are not shown',
      };
      for (const title of sections) expect(observe).toContain(parts[Object.keys(parts).find((p) => title.startsWith(p))!]);
      // Its commands (the Markdown's code blocks) are the attendee's to run.
      const commands = [...exercise.matchAll(/```sh\n([\s\S]*?)\n\s*```/g)].flatMap((m) => m[1].split('\n').map((line) => line.trim()));
      expect(commands.length).toBeGreaterThan(0);
      expect(commands.flatMap(attendeeCommandProblems)).toEqual([]);
    },
  );

  describe('what the reply shows, from the facts the fact box shows', () => {
    /** Every exposure each cloud offers, on every datapath of that cloud, as its -lb stack exports it. */
    const CASES = (['aws', 'gcp'] as const).flatMap((cloud) =>
      Object.keys(EXPOSURE_FACTS[cloud]).flatMap((mode) => (cloud === 'aws' ? AWS_DATAPATHS.map(awsDataplane) : GCP_DATAPATHS.map(gcpDataplane)).map((dataplane) => [cloud, mode, dataplane] as const)),
    );
    const output = (cloud: Cloud, mode: string, dataplane: string) => exposureOutput(cloud, mode, dataplane) as unknown as Parameters<typeof expectedReply>[0] & { target_type: string };

    test.each(CASES)('GIVEN %s %s on %s THEN the reply it says agrees with the fact box: SNAT, where the Pod finds you, and under Cilium only for a Pod on another node', (cloud, mode, dataplane) => {
      const info = output(cloud, mode, dataplane);
      const { expect: shows } = expectedReply(info, dataplane);
      // The fact box's "source NAT" row: a node address as the TCP peer, or no SNAT.
      if (info.source_nat) expect(shows).toMatch(/^`client_address` is a node address \(SNAT\)/);
      else expect(shows).not.toContain('node address');
      // Its "client IP at the Pod" row: kept via X-Forwarded-For, kept as the TCP source, or lost.
      if (info.client_ip_via === 'x-forwarded-for') {
        expect(shows).toContain('`x-forwarded-for` ends with your public address');
        expect(shows).not.toContain('is your public address');
      } else {
        expect(shows).toContain('there is no `x-forwarded-for`');
      }
      if (info.client_ip_via === 'tcp-source') expect(shows).toBe('`client_address` is your public address; there is no `x-forwarded-for`.');
      if (info.client_ip_via === 'x-forwarded-for' && !info.source_nat) expect(shows).toContain('an address of the load balancer (a proxy)');
      // What the Pod sees, worded for the datapath: Cilium SNATs only for a Pod on another node.
      const remoteOnly = info.client_ip_seen_as!.includes('when the Pod is on another node');
      expect(remoteOnly).toBe(info.source_nat && dataplane === 'cilium-ebpf');
      expect(shows.includes('when the Pod is on another node')).toBe(remoteOnly);
      if (info.client_ip_via === 'none') expect(shows.includes('your address is gone')).toBe(!remoteOnly);
      if (info.client_ip_via === 'none' && remoteOnly) expect(shows).toContain('your public address when it is on that node');
      if (info.client_ip_via === 'x-forwarded-for' && remoteOnly) expect(shows).toContain("the load balancer's address when it is on that node");
    });

    test.each(CASES)(
      'GIVEN %s %s on %s THEN why names the traffic policy of an exposure that targets nodes, its own and not the other, and none where the load balancer targets Pods',
      (cloud, mode, dataplane) => {
        const info = output(cloud, mode, dataplane);
        const { why } = expectedReply(info, dataplane);
        const targetsNodes = ['instance', 'instance-group'].includes(info.target_type);
        if (targetsNodes) {
          expect(why).toContain(`externalTrafficPolicy ${info.external_traffic_policy}`);
          expect(why).not.toContain(`externalTrafficPolicy ${info.external_traffic_policy === 'Local' ? 'Cluster' : 'Local'}`);
        } else {
          expect(why).not.toContain('externalTrafficPolicy');
        }
        if (info.external_traffic_policy === 'Local' && targetsNodes) expect(why).toContain('only to a Pod on itself, so nothing rewrites the source');
      },
    );

    test.each([
      ['aws', 'native', 'kube-proxy-iptables', '`client_address` is an address of the load balancer (a proxy), not yours; `x-forwarded-for` ends with your public address.'],
      ['aws', 'nodeport', 'kube-proxy-iptables', "`client_address` is a node address (SNAT), not the load balancer's and not yours; `x-forwarded-for` ends with your public address."],
      ['gcp', 'nodeport', 'kube-proxy-iptables', "`client_address` is a node address (SNAT), not the load balancer's and not yours; `x-forwarded-for` ends with your public address."],
      [
        'aws',
        'nodeport',
        'cilium-ebpf',
        "`client_address` is a node address (SNAT) when the Pod is on another node than the one the load balancer connected to, and the load balancer's address when it is on that node; never yours; `x-forwarded-for` ends with your public address.",
      ],
      ['aws', 'nodeport-l4', 'kube-proxy-ipvs', '`client_address` is a node address (SNAT), not yours; there is no `x-forwarded-for`: your address is gone.'],
      [
        'gcp',
        'nodeport-l4',
        'cilium-ebpf',
        '`client_address` is a node address (SNAT) when the Pod is on another node than the one the load balancer sent your packets to, and your public address when it is on that node (about one request in as many as there are nodes); there is no `x-forwarded-for`.',
      ],
      ['aws', 'native-l4', 'cilium-ebpf', '`client_address` is your public address; there is no `x-forwarded-for`.'],
    ] as const)('GIVEN %s %s on %s THEN the reply it says is exactly', (cloud, mode, dataplane, shows) => {
      expect(expectedReply(output(cloud, mode, dataplane), dataplane).expect).toBe(shows);
    });

    test('GIVEN the handout THEN each exposure’s reply is the one its fact box’s facts give (the explained source_nat, client_ip_via and client_ip_seen_as it draws)', () => {
      const h = built();
      expect(h.exposures).toHaveLength(6);
      for (const e of h.exposures) {
        const dataplane = h.clusters.find((c) => c.cloud === e.cloud)!.dataplane;
        expect(e.explanation).not.toBeNull();
        expect({ mode: e.mode, ...expectedReply(e.explanation!, dataplane) }).toEqual({ mode: e.mode, expect: e.expect, why: e.why });
      }
      expect(markdown).toContain("**The reply shows:** `client_address` is a node address (SNAT), not the load balancer's and not yours; `x-forwarded-for` ends with your public address.");
    });
  });

  describe('the SNAT exercise, per datapath', () => {
    const snat = (h: Handout) => h.exercises.find((x) => x.id === 'snat')!;

    test.each([
      ['kube-proxy-iptables', false],
      ['kube-proxy-ipvs', true],
    ] as const)('GIVEN kube-proxy (%s; nodeport-l4 deployed: %s) THEN every request loses your address, and it says so', (dataplane, every) => {
      const x = snat(built({ dataplane: { aws: dataplane }, every }));
      expect(x.title).toBe(`SNAT on a NodePort path: your address is gone (${every ? 'nodeport-l4' : 'nodeport-local'}, AWS (EKS))`);
      expect(x.observe).toMatch(/^`client_address` is a node address \(SNAT\), not yours; there is no `x-forwarded-for`: your address is gone\./);
    });

    test.each([false, true])('GIVEN Cilium (nodeport-l4 deployed: %s) THEN your address is gone only when the Pod is on another node: the title, the lesson and what confirms it say so', (every) => {
      const x = snat(built({ dataplane: { aws: 'cilium-ebpf' }, every }));
      expect(x.title).toBe(`SNAT on a NodePort path: your address is gone when the Pod is on another node (${every ? 'nodeport-l4' : 'nodeport-local'}, AWS (EKS))`);
      expect(x.lesson).toContain('only when the Pod it picks is on another node');
      expect(x.observe).toContain('and your public address when it is on that node');
      expect(x.observe).not.toContain('your address is gone');
    });

    test('GIVEN Cilium and nodeport-l4 deployed THEN what confirms the exercise is what nodeport-l4’s own reply says', () => {
      const h = built({ dataplane: { aws: 'cilium-ebpf' }, every: true });
      expect(snat(h).observe).toBe(h.exposures.find((e) => e.cloud === 'aws' && e.mode === 'nodeport-l4')!.expect);
    });
  });

  describe('the steps in order', () => {
    /** The traffic policy a step sets on a Service: `[service, policy]`, or undefined. */
    const patchOf = (step: Step) => /patch service (\S+) .*"externalTrafficPolicy":"(Cluster|Local)"/.exec(step.command ?? '')?.slice(1, 3) as [string, string] | undefined;

    test.each<[string, HandoutOutputsOptions]>([
      ['nodeport-local only', {}],
      ['every exposure', { every: true }],
      ['Cilium', { dataplane: { aws: 'cilium-ebpf', gcp: 'cilium-ebpf' } }],
    ])('GIVEN %s THEN an exercise that flips a Service’s traffic policy asks while it is Cluster and leaves it as deployed', (_, options) => {
      const h = built(options);
      const policies = new Map(h.exposures.filter((e) => e.explanation?.service).map((e) => [`echo-${e.mode}`, e.info.external_traffic_policy]));
      for (const x of h.exercises) {
        const now = new Map(policies);
        const flipped: string[] = [];
        for (const step of x.steps) {
          const patch = patchOf(step);
          if (patch) {
            expect(policies.has(patch[0])).toBe(true);
            now.set(patch[0], patch[1]);
            flipped.push(patch[0]);
          } else if (flipped.length > 0 && step.command === h.exposures.find((e) => `echo-${e.mode}` === flipped[0])?.curl) {
            // The request that shows the SNAT is sent while the Service is Cluster.
            expect([x.id, now.get(flipped[0])]).toEqual([x.id, 'Cluster']);
          }
        }
        expect([x.id, now]).toEqual([x.id, policies]);
      }
      // The nodeport-local case flips it, asks, and flips it back.
      const snat = h.exercises.find((x) => x.id === 'snat')!;
      if (!options.every) expect(snat.steps.map(patchOf).map((p) => p?.[1])).toEqual(['Cluster', undefined, 'Local']);
    });
  });

  describe('nothing privileged for attendees, and the host’s steps marked', () => {
    const HANDOUTS: [string, HandoutOutputsOptions, Partial<HandoutSources>][] = [
      ...DATAPLANES.map((d): [string, HandoutOutputsOptions, Partial<HandoutSources>] => [d, { dataplane: { aws: d, gcp: d }, every: true }, {}]),
      ['unknown datapath', {}, {}],
      ['Hubble on both clouds', { dataplane: { aws: 'cilium-ebpf', gcp: 'cilium-ebpf' } }, { hubble: { aws: true, gcp: true } }],
    ];

    test.each(HANDOUTS)(
      'GIVEN %s THEN no step of an attendee names a namespace but hoplab (the inspector’s log aside) or uses exec, port-forward, debug, --overrides or --privileged outside it; such a step is the host’s',
      (_, options, sources) => {
        const h = built(options, sources);
        const steps = [...h.clusters.flatMap((c) => c.access), ...h.exercises.flatMap(stepsOf)];
        expect(steps.filter((s) => !s.hostOnly).flatMap((s) => attendeeCommandProblems(s.command ?? ''))).toEqual([]);
      },
    );

    test.each(HANDOUTS)(
      'GIVEN %s THEN what measures an exercise is the attendee’s own curl loop, and the host’s compare and watch, marked host only: no attendee step names the host’s commands or files',
      (_, options, sources) => {
        const h = built(options, { ...sources, outputsFile: '/home/host/hoplab/outputs.json' });
        for (const x of h.exercises) {
          const attendee = stepsOf(x).filter((s) => !s.hostOnly);
          expect(attendee.filter((s) => /npm run|\/home\/host|--outputs/.test(s.command ?? ''))).toEqual([]);
          expect(x.measure[0]).toMatchObject({ command: expect.stringMatching(/^(for i in \$\(seq 20\)|while sleep 1); do curl /) });
          expect(x.measure[0].hostOnly).toBeUndefined();
          expect(x.measure.slice(1).every((m) => m.hostOnly === true && /^npm run (compare|watch) /.test(m.command!))).toBe(true);
        }
      },
    );

    test('GIVEN the Markdown and the page THEN a host-only step and a host-led exercise carry the mark, and an attendee’s step does not', () => {
      const h = built({ dataplane: { aws: 'cilium-ebpf' } }, { hubble: { aws: true, gcp: false } });
      const text = handoutMarkdown(h);
      expect(text).toContain('- **[host only]** The host watches it live, on the projector:\n\n  ```sh\n  npm run watch -- --env lab --exposure nodeport-local');
      expect(text).toContain('- **[host only]** The host forwards Hubble Relay');
      expect(text).toContain('**[host only]** The host leads this one on the projector');
      expect(text).toContain('- Meanwhile, send requests through the exposure:');
      // The marked bullets are the steps the model marks host only, in order, and only those.
      const marked = text
        .split('\n- ')
        .filter((bullet) => bullet.startsWith('**[host only]** '))
        .map((bullet) => bullet.slice('**[host only]** '.length).split('\n')[0]);
      expect(marked).toEqual(
        h.exercises
          .flatMap(stepsOf)
          .filter((step) => step.hostOnly)
          .map((step) => step.say),
      );
      expect(marked.length).toBeGreaterThan(h.exercises.length);
      const page = handoutHtml(h);
      expect(page).toContain('<li class="host-step"><span class="host-only">host only</span> The host watches it live, on the projector:<pre><code><span class="word">npm</span>');
      expect(page).toContain('<p class="host-led"><span class="host-only">host only</span> The host leads this one on the projector');
      expect(page.match(/<li class="host-step">/g)).toHaveLength(h.exercises.flatMap(stepsOf).filter((s) => s.hostOnly).length);
      // Copied from the page, each command is the one the step holds.
      for (const step of h.exercises.flatMap(stepsOf)) if (step.command) expect(commandsOf(page)).toContain(step.command);
    });
  });

  describe('Hubble, from the config', () => {
    async function withConfig(name: string, datapaths: Record<string, unknown>): Promise<string> {
      const config = validConfig({ attendees: [ANN], gcp: { project: 'acme-lab' }, ...datapaths }, 'test');
      const where = join(dir, `hubble-${name}`);
      const io: HandoutIo = { out: () => undefined, err: () => undefined, config: () => config, explain };
      expect(await handout(['--outputs', fixture('outputs.json'), '--env', 'lab', '--format', 'markdown', '--out', where], io)).toBe(0);
      return readFileSync(join(where, 'lab.md'), 'utf8');
    }
    const titles = (text: string) => [...text.matchAll(/^### (\d+\. .*)$/gm)].map((m) => m[1]);

    test.each([
      ['no datapath setting', {}],
      ['Cilium without hubble', { aws: { datapath: 'cilium' } }],
      ['Cilium with hubble false, Dataplane V2 without observability', { aws: { datapath: 'cilium', cilium: { hubble: false } }, gcp: { project: 'acme-lab', datapath: 'dataplane-v2' } }],
    ])('GIVEN %s WHEN run THEN there is no Hubble exercise (the node rules only)', async (name, datapaths) => {
      const text = await withConfig(name.replace(/\W+/g, '-'), datapaths);
      expect(titles(text)).toHaveLength(7);
      expect(text).not.toContain('Hubble');
      expect(text).not.toContain('hubble observe');
    });

    test('GIVEN aws.cilium.hubble with aws.datapath cilium WHEN run THEN the AWS handout gets the Hubble exercise with the relay, the flows and the UI', async () => {
      const text = await withConfig('aws', { aws: { datapath: 'cilium', cilium: { hubble: true } } });
      expect(titles(text).slice(7)).toEqual(['8. Flows inside the cluster in AWS (EKS): Hubble (nodeport-local)']);
      const exercise = text.slice(text.indexOf('### 8.'));
      for (const command of [
        'cilium hubble port-forward &',
        'hubble observe --namespace hoplab --follow',
        'kubectl -n kube-system port-forward svc/hubble-ui 12000:80',
        'npm run watch -- --env lab --exposure nodeport-local --rate 5 --duration 300',
      ]) {
        expect(exercise).toContain(command);
      }
      expect(exercise).toContain('pre-xlate-fwd, then post-xlate-fwd TRANSLATED');
      expect(exercise).toContain('a node address on a Cluster NodePort path (the SNAT)');
      expect(exercise).not.toContain('gke-managed-dpv2-observability');
    });

    test('GIVEN gcp.observability with gcp.datapath dataplane-v2 WHEN run THEN the GKE handout gets the Hubble exercise through the managed relay', async () => {
      const text = await withConfig('gcp', { gcp: { project: 'acme-lab', datapath: 'dataplane-v2', observability: true } });
      expect(titles(text).slice(7)).toEqual(['8. Flows inside the cluster in Google Cloud (GKE): Hubble (nodeport-local)']);
      const exercise = text.slice(text.indexOf('### 8.'));
      expect(exercise).toContain('kubectl -n gke-managed-dpv2-observability exec -it deployment/hubble-relay -c hubble-cli -- hubble observe --namespace hoplab --follow');
      expect(exercise).not.toContain('cilium hubble port-forward');
    });

    test('GIVEN Hubble on both clouds WHEN run THEN each cluster gets its own Hubble exercise', async () => {
      const text = await withConfig('both', { aws: { datapath: 'cilium', cilium: { hubble: true } }, gcp: { project: 'acme-lab', datapath: 'dataplane-v2', observability: true } });
      expect(titles(text).slice(7)).toEqual(['8. Flows inside the cluster in AWS (EKS): Hubble (nodeport-local)', '9. Flows inside the cluster in Google Cloud (GKE): Hubble (nodeport-local)']);
    });
  });

  test('GIVEN a single environment (no attendee) THEN the handout gives the host’s own commands, and no kubeconfig is written', async () => {
    const single = join(dir, 'single');
    let err = '';
    const code = await handout(['--outputs', fixture('outputs.json'), '--out', single], {
      out: () => undefined,
      err: (t) => (err += t),
      config: () => validConfig({ name: 'lab', gcp: { project: 'acme-lab' } }, 'test'),
      explain,
    });
    expect([code, err]).toEqual([0, '']);
    const text = readFileSync(join(single, 'lab.md'), 'utf8');
    expect(text).toContain('- AWS identity: none (this environment is no attendee’s)');
    expect(text).toContain('  aws eks update-kubeconfig --name lab-eks --region us-east-1\n');
    expect(text).toContain('  gcloud container clusters get-credentials lab-gke --location us-central1-a --project acme-lab\n');
    expect(readdirSync(single).sort()).toEqual(['index.html', 'lab.card.html', 'lab.html', 'lab.md']);
    // The card's kubectl lines are the handout's own.
    expect(commandsOf(readFileSync(join(single, 'lab.card.html'), 'utf8'))).toContain('aws eks update-kubeconfig --name lab-eks --region us-east-1');
  });

  test.each([
    [['--format', 'pdf'], '--format: "pdf" is not one of markdown, html, card'],
    [['--env', 'zed'], '--env: "zed" not in this config; environments: lab, bob'],
  ])('GIVEN %j WHEN run THEN a usage error says what is allowed', async (argv, message) => {
    await expect(run('--outputs', fixture('outputs.json'), ...argv)).rejects.toThrow(message);
  });

  test('GIVEN a missing outputs file WHEN run THEN exit 1 naming it', async () => {
    const { code, err } = await run('--outputs', '/nonexistent/outputs.json');
    expect([code, err]).toEqual([1, 'hoplab handout: cannot read outputs file /nonexistent/outputs.json: ENOENT\n']);
  });

  test('GIVEN --help THEN the usage', async () => {
    expect((await run('--help')).out).toBe(HANDOUT_COMMAND.help());
  });
});
