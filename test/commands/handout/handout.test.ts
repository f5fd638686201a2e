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
import { expectedReply } from '../../../lib/commands/handout/handout-model';
import { explainLab } from '../../../lib/lab/anatomy/explain-lab';
import { ExplainModel } from '../../../lib/lab/anatomy/model';
import { fixture } from '../../support/fixtures';

const ANN = { name: 'lab', aws: 'arn:aws:iam::123456789012:role/workshop/lab', gcp: 'user:lab@example.com' };
const CONFIG = validConfig({ attendees: [ANN, 'bob'], gcp: { project: 'acme-lab' } }, 'test');
let explained: ExplainModel | undefined;
const explain = () => (explained ??= explainLab(validConfig({ name: 'lab', gcp: { project: 'acme-lab' } }, 'test')));

const dir = mkdtempSync(join(tmpdir(), 'hoplab-handout-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

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

  test('GIVEN the outputs fixture WHEN run THEN it writes the attendee’s Markdown and page and the index, and skips bob (no outputs) saying so', () => {
    expect(result).toEqual({
      code: 0,
      out:
        `handout: wrote 1 handout (markdown and html) and index.html to ${out}/\n` +
        `handout: kubeconfigs in ${out}/ (mode 0600)\n` +
        '+----------------+---------+----------------------------+\n' +
        '| file           | context | kubectl authenticates with |\n' +
        '+----------------+---------+----------------------------+\n' +
        '| lab.kubeconfig | lab-eks | own AWS identity           |\n' +
        '| lab.kubeconfig | lab-gke | own Google identity        |\n' +
        '+----------------+---------+----------------------------+\n',
      err: `handout: no outputs for environment bob (not deployed, or not in ${fixture('outputs.json')}): skipped\n`,
    });
    expect(readdirSync(out).sort()).toEqual(['index.html', 'lab.html', 'lab.kubeconfig', 'lab.md']);
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
    expect(html).toContain(curl.replace(/'/g, '&#39;').replace(/\|/g, '|'));
  });

  test.each([
    ['x-forwarded-for', 'Cluster', '`client_address` is an address of the load balancer (a proxy), not yours; `x-forwarded-for` ends with your public address.'],
    ['tcp-source', 'Local', '`client_address` is your public address; there is no `x-forwarded-for`.'],
    ['none', 'Cluster', '`client_address` is a node address (in the VPC), not yours; there is no `x-forwarded-for`.'],
  ] as const)('GIVEN client_ip_via %s THEN the reply expected is exactly said', (via, policy, expect_) => {
    expect(expectedReply({ client_ip_via: via, lb_kind: 'x', external_traffic_policy: policy }).expect).toBe(expect_);
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
      'iptables-save | grep echo-nodeport-local',
      'kubectl -n hoplab rollout restart deployment echo',
      'kubectl drain <node> --ignore-daemonsets --delete-emptydir-data',
      'kubectl debug node/<node> -n hoplab -it --profile=sysadmin --image=nicolaka/netshoot',
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
    expect(index).toContain('<a href="lab.md">Markdown</a> · <a href="lab.html">page</a>');
    expect(index).toContain('<code>arn:aws:iam::123456789012:role/workshop/lab</code>');
  });

  test('GIVEN --format markdown and --env WHEN run THEN only the Markdown of that environment is written', async () => {
    const only = join(dir, 'md');
    expect((await run('--outputs', fixture('outputs.json'), '--format', 'markdown', '--env', 'lab', '--out', only)).code).toBe(0);
    expect(readdirSync(only).sort()).toEqual(['index.html', 'lab.kubeconfig', 'lab.md']);
  });

  test.each([
    ['kube-proxy-nftables', 'nft list table ip kube-proxy | grep -B2 -A6 echo-nodeport-local'],
    ['kube-proxy-ipvs', 'ipvsadm -Ln'],
    ['cilium-ebpf', 'kubectl -n kube-system exec ds/cilium -- cilium-dbg bpf lb list'],
  ])('GIVEN the dataplane output %s WHEN run THEN the datapath exercise reads the node the way that datapath needs', async (dataplane, command) => {
    const raw = JSON.parse(readFileSync(fixture('outputs.json'), 'utf8')) as Record<string, Record<string, unknown>>;
    raw['lab-aws-cluster'].dataplane = dataplane;
    const file = join(dir, `outputs-${dataplane}.json`);
    writeFileSync(file, JSON.stringify(raw));
    const where = join(dir, dataplane);
    expect((await run('--outputs', file, '--env', 'lab', '--format', 'markdown', '--out', where)).code).toBe(0);
    const text = readFileSync(join(where, 'lab.md'), 'utf8');
    expect(text).toContain(`### 6. The datapath in AWS (EKS): ${dataplane} (nodeport-local)`);
    expect(text.slice(text.indexOf('### 6.'), text.indexOf('### 7.'))).toContain(command);
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
    expect(readdirSync(single).sort()).toEqual(['index.html', 'lab.html', 'lab.md']);
  });

  test.each([
    [['--format', 'pdf'], '--format: "pdf" is not one of markdown, html'],
    [['--env', 'zed'], '--env: "zed" not in this config; environments: lab, bob'],
  ])('GIVEN %j WHEN run THEN a usage error says what is allowed', async (argv, message) => {
    await expect(run('--outputs', fixture('outputs.json'), ...argv)).rejects.toThrow(message);
  });

  test('GIVEN a missing outputs file WHEN run THEN exit 1 naming it', async () => {
    const { code, err } = await run('--outputs', '/nonexistent/outputs.json');
    expect([code, err]).toEqual([1, 'handout: cannot read outputs file /nonexistent/outputs.json: ENOENT\n']);
  });

  test('GIVEN --help THEN the usage', async () => {
    expect((await run('--help')).out).toBe(HANDOUT_COMMAND.help());
  });
});
