/**
 * A handout page in a real browser (Debian's chromium, see test/support/browser.ts):
 * no console error, no request leaving the file, every path picture visible,
 * the URLs and the client-IP verdicts on the page; printed, no command cut
 * inside a word. The access cards: printed on A4 and on Letter, one page each,
 * with every exposure of both clouds and the longest access lines, for an
 * attendee with both identities, a plain one (a kubeconfig with tokens minted
 * on a loopback Kubernetes API) and one with an AWS identity only.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validConfig } from '../../../lib/config/load';
import { handout } from '../../../lib/commands/handout/handout';
import { explainLab } from '../../../lib/lab/anatomy/explain-lab';
import { CARD_PRINT_MARGIN_MM } from '../../../lib/commands/handout/render-card';
import { HANDOUT_PRINT_MARGIN_MM } from '../../../lib/commands/handout/render-handout';
import { EXPOSURE_FACTS } from '../../../lib/model/exposure-facts';
import { fixture } from '../../support/fixtures';
import { drawnSizes, openFile, OpenedPage } from '../../support/browser';
import { handoutOutputs, writeHandoutOutputs } from '../../support/handout-outputs';
import { HOST_TOKEN, KubernetesApi, LOOPBACK_CA, serveKubernetesApi } from '../../support/kubernetes-api';
import { Paper, printedPages, preWraps } from '../../support/print';

const dir = mkdtempSync(join(tmpdir(), 'hoplab-handout-browser-'));
let opened: OpenedPage;
let index: OpenedPage;
/** The card and the page of a lab with every exposure of both clouds (the longest card), with both identities and an end. */
let card: OpenedPage;
let full: OpenedPage;
/** The cards of a plain attendee (dee: tokens on both clusters) and of one with an AWS identity only (eve: a token on GKE), every exposure of both clouds each. */
let plainCard: OpenedPage;
let awsOnlyCard: OpenedPage;
/** The clusters' API, where handout mints dee's and eve's tokens. */
let clusterApi: KubernetesApi;
const EVE_AWS = 'arn:aws:iam::123456789012:role/workshop/eve';

/** The outputs of every exposure of both clouds for environment `env`, its clusters' endpoints at the loopback API. */
function outputsFor(env: string): Record<string, Record<string, unknown>> {
  const ca = Buffer.from(LOOPBACK_CA).toString('base64');
  const renamed = Object.entries(handoutOutputs({ every: true })).map(([stack, outputs]) => [stack.replace(/^lab-/, `${env}-`), { ...outputs }] as const);
  const all = Object.fromEntries(renamed) as Record<string, Record<string, unknown>>;
  Object.assign(all[`${env}-aws-cluster`], { cluster_name: `${env}-eks`, cluster_endpoint: clusterApi.base, cluster_ca_certificate: ca });
  Object.assign(all[`${env}-gcp-cluster`], { cluster_name: `${env}-gke`, cluster_endpoint: clusterApi.base.replace(/^https:\/\//, ''), cluster_ca_certificate: ca });
  return all;
}

/** Writes the handouts of `outputs` for `attendee` into `out`, with the fixture lab's explanation. */
async function write(outputs: string, out: string, attendee: Record<string, string>, more: Record<string, unknown> = {}): Promise<void> {
  const config = validConfig({ attendees: [attendee], gcp: { project: 'acme-lab' }, ...more }, 'test');
  const io = { out: () => undefined, err: () => undefined, config: () => config, explain: () => explainLab(validConfig({ name: 'lab', gcp: { project: 'acme-lab' } }, 'test')) };
  expect(await handout(['--outputs', outputs, '--out', out], io)).toBe(0);
}

beforeAll(async () => {
  await write(fixture('outputs.json'), dir, { name: 'lab', aws: 'arn:aws:iam::123456789012:role/lab', gcp: 'user:lab@example.com' });
  opened = await openFile(join(dir, 'lab.html'));
  index = await openFile(join(dir, 'index.html'));

  const every = join(dir, 'every');
  await write(
    writeHandoutOutputs(join(dir, 'every.json'), { every: true }),
    every,
    { name: 'lab', aws: 'arn:aws:iam::123456789012:role/workshop/lab', gcp: 'user:lab@example.com' },
    { workshop: { expiresAt: '2026-12-10T18:00:00Z' } },
  );
  card = await openFile(join(every, 'lab.card.html'));
  full = await openFile(join(every, 'lab.html'));

  // dee and eve: handout mints their ServiceAccounts' tokens with the host's access, on the loopback API.
  clusterApi = await serveKubernetesApi({
    objects: { '/api/v1/namespaces/hoplab/serviceaccounts/hoplab-attendee': { kind: 'ServiceAccount', metadata: { name: 'hoplab-attendee', namespace: 'hoplab' } } },
    now: () => new Date('2026-12-10T08:00:00Z'),
  });
  const plain = join(dir, 'plain');
  const outputs = join(dir, 'plain.json');
  writeFileSync(outputs, JSON.stringify({ ...outputsFor('dee'), ...outputsFor('eve') }));
  const config = validConfig({ attendees: ['dee', { name: 'eve', aws: EVE_AWS }], gcp: { project: 'acme-lab' }, workshop: { expiresAt: '2026-12-10T18:00:00Z' } }, 'test');
  const io = {
    out: () => undefined,
    err: () => undefined,
    config: () => config,
    explain: () => explainLab(validConfig({ name: 'lab', gcp: { project: 'acme-lab' } }, 'test')),
    tokens: { token: async () => HOST_TOKEN },
  };
  expect(await handout(['--outputs', outputs, '--out', plain], io)).toBe(0);
  plainCard = await openFile(join(plain, 'dee.card.html'));
  awsOnlyCard = await openFile(join(plain, 'eve.card.html'));
});

afterAll(async () => {
  await opened?.close();
  await index?.close();
  await card?.close();
  await full?.close();
  await plainCard?.close();
  await awsOnlyCard?.close();
  await clusterApi?.close();
  rmSync(dir, { recursive: true, force: true });
});

test('GIVEN the handout page and the index WHEN opened THEN no console error and no request leaves the file', () => {
  expect([opened.consoleErrors, opened.requests, index.consoleErrors, index.requests]).toEqual([[], [], [], []]);
});

test('GIVEN the handout page THEN each exposure’s picture is drawn at a visible, non-zero size', async () => {
  const sizes = await drawnSizes(opened, 'section.exposure svg');
  expect(sizes).toHaveLength(6);
  for (const size of sizes) {
    expect(size.width).toBeGreaterThan(100);
    expect(size.height).toBeGreaterThan(50);
  }
});

test('GIVEN the handout page THEN the URLs, verdicts and kubeconfig commands are visible text', async () => {
  const text = await opened.page.innerText('body');
  for (const expected of [
    'http://k8s-hoplab-echonati-3f1c2a9b7d-1234567890.us-east-1.elb.amazonaws.com/',
    'http://35.192.55.66/',
    'client IP in X-Forwarded-For',
    'client IP kept',
    'AWS_PROFILE=<your profile> kubectl --kubeconfig lab.kubeconfig --context lab-eks get pods',
    'kubectl --kubeconfig lab.kubeconfig --context lab-gke get pods',
  ]) {
    expect(text).toContain(expected);
  }
  expect(await index.page.innerText('body')).toContain('lab');
});

describe('printed', () => {
  test.each(['A4', 'Letter'] as const)('GIVEN the handout printed on %s THEN its commands wrap between words only, never inside one', async (paper: Paper) => {
    for (const page of [opened, full]) {
      const { wraps, insideWords, overflowing, pageWiderThanPaper } = await preWraps(page, paper, HANDOUT_PRINT_MARGIN_MM);
      expect({ insideWords, overflowing, pageWiderThanPaper }).toEqual({ insideWords: [], overflowing: [], pageWiderThanPaper: false });
      // There were long commands to wrap.
      expect(wraps).toBeGreaterThan(10);
    }
  });

  /** Each card by whose it is: both identities, none (tokens), an AWS identity only. */
  const cards = () => ({ 'identity attendee’s': card, 'plain attendee’s': plainCard, 'AWS-only attendee’s': awsOnlyCard });
  test.each((['identity attendee’s', 'plain attendee’s', 'AWS-only attendee’s'] as const).flatMap((who) => (['A4', 'Letter'] as const).map((paper) => [who, paper] as const)))(
    'GIVEN the %s access card with every exposure of both clouds WHEN printed on %s THEN it is one page, no command cut inside a word',
    async (who, paper: Paper) => {
      const page = cards()[who];
      const { pages, bytes } = await printedPages(page, paper);
      expect(bytes).toBeGreaterThan(1000);
      expect(pages).toBe(1);
      const { insideWords, overflowing, pageWiderThanPaper } = await preWraps(page, paper, CARD_PRINT_MARGIN_MM, 'pre, td');
      expect({ insideWords, overflowing, pageWiderThanPaper }).toEqual({ insideWords: [], overflowing: [], pageWiderThanPaper: false });
    },
  );

  test('GIVEN the access card THEN it shows every URL, kubectl in two lines per cluster from the handout’s access steps, and the workshop’s end', async () => {
    const text = await card.page.innerText('body');
    const urls = [...text.matchAll(/http:\/\/\S+/g)].map((m) => m[0]);
    expect(urls).toHaveLength(Object.keys(EXPOSURE_FACTS.aws).length + Object.keys(EXPOSURE_FACTS.gcp).length);
    const commands = await card.page.$$eval('pre', (pres) => pres.map((p) => p.textContent));
    expect(commands).toEqual([
      'AWS_PROFILE=<your profile> kubectl --kubeconfig lab.kubeconfig --context lab-eks get pods',
      'kubectl --kubeconfig lab.kubeconfig --context lab-eks auth can-i patch deployments -n hoplab   # yes; "get nodes" works, "get secrets -A" does not',
      'gcloud auth login lab@example.com',
      'kubectl --kubeconfig lab.kubeconfig --context lab-gke get pods',
    ]);
    // The same lines as the handout's own access steps, in their order.
    const handoutText = await full.page.innerText('body');
    for (const command of commands) expect(handoutText).toContain(command);
    expect(text).toContain('The workshop ends 2026-12-10 18:00 UTC');
    expect([card.consoleErrors, card.requests]).toEqual([[], []]);
  });

  test('GIVEN the plain and the AWS-only attendees’ cards THEN each shows their kubeconfig’s lines: the minted token where they have no identity, their own AWS credentials where they do', async () => {
    const commands = (page: OpenedPage) => page.page.$$eval('pre', (pres) => pres.map((p) => p.textContent));
    const check = (env: string, cluster: string) =>
      `kubectl --kubeconfig ${env}.kubeconfig --context ${env}-${cluster} auth can-i patch deployments -n hoplab   # yes; "get nodes" works, "get secrets -A" does not`;
    expect(await commands(plainCard)).toEqual([
      'kubectl --kubeconfig dee.kubeconfig --context dee-eks get pods',
      check('dee', 'eks'),
      'kubectl --kubeconfig dee.kubeconfig --context dee-gke get pods',
      check('dee', 'gke'),
    ]);
    expect(await commands(awsOnlyCard)).toEqual([
      'AWS_PROFILE=<your profile> kubectl --kubeconfig eve.kubeconfig --context eve-eks get pods',
      check('eve', 'eks'),
      'kubectl --kubeconfig eve.kubeconfig --context eve-gke get pods',
      check('eve', 'gke'),
    ]);
    // The tokens were minted (one per cluster of dee, GKE's of eve) and their expiry is on the cards.
    expect(clusterApi.issued).toHaveLength(3);
    expect(await plainCard.page.innerText('body')).toContain(`valid until ${clusterApi.issued[0].expirationTimestamp}`);
    expect(await awsOnlyCard.page.innerText('body')).toContain(EVE_AWS);
    for (const page of [plainCard, awsOnlyCard]) {
      const text = await page.page.innerText('body');
      expect([...text.matchAll(/http:\/\/\S+/g)]).toHaveLength(Object.keys(EXPOSURE_FACTS.aws).length + Object.keys(EXPOSURE_FACTS.gcp).length);
      expect(text).toContain('The workshop ends 2026-12-10 18:00 UTC');
      expect([page.consoleErrors, page.requests]).toEqual([[], []]);
    }
  });

  test('GIVEN the index THEN it links each attendee’s access card', async () => {
    expect(await index.page.$$eval('a', (links) => links.map((a) => a.getAttribute('href')))).toEqual(['lab.md', 'lab.html', 'lab.card.html']);
  });
});
