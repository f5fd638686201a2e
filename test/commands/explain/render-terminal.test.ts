/**
 * The terminal view of `explain`: fits the width (60, 80, 120, 200 columns),
 * never splits a word, colours only when asked, one exposure per screen with
 * --exposure, identical labs once.
 */
import { validConfig } from '../../../lib/config/load';
import { renderExplainTable } from '../../../lib/commands/explain/render-terminal';
import { urlsFromOutputs } from '../../../lib/commands/explain/words';
import { stripAnsi } from '../../../lib/kit/terminal/terminal';
import { explainDir } from '../../../lib/lab/anatomy/explain-dir';
import { explainLab } from '../../../lib/lab/anatomy/explain-lab';
import { readOutputsFile } from '../../../lib/lab/files/outputs';
import { fixture } from '../../support/fixtures';
import { FIXTURE_APP } from '../../lab/anatomy/support';
import { defaultLab } from '../../support/pictures';

const WIDTHS = [60, 80, 120, 200] as const;
const workshop = explainLab(validConfig({ name: 'demo', attendees: ['ann', 'bob', 'chen'] }, 'test'));

/** The words of terminal text, table rules and borders left out (a label's colon too: narrow views put it above its value). */
function words(text: string): string[] {
  return text
    .split(/[\s|]+/)
    .filter((w) => w !== '' && !/^[+=-]+$/.test(w))
    .map((w) => w.replace(/:$/, ''));
}

/** Every word the views can show, laid out so wide that nothing wraps. */
function wholeWords(): Set<string> {
  const model = defaultLab();
  const wide = { width: 10_000 };
  return new Set([
    ...words(renderExplainTable(model, { ...wide, layout: 'table' })),
    ...words(renderExplainTable(model, { ...wide, layout: 'blocks' })),
    ...words(renderExplainTable(model, { ...wide, details: true })),
    ...['native', 'nodeport', 'nodeport-l4', 'nodeport-local', 'native-l4', 'gateway'].flatMap((exposure) => words(renderExplainTable(model, { ...wide, exposure }))),
  ]);
}

const VIEWS = [
  ['summary', {}],
  ['details', { details: true }],
  ['one exposure', { exposure: 'nodeport-l4' }],
] as const;

describe.each(VIEWS)('the %s view', (_, view) => {
  const whole = wholeWords();

  test.each(WIDTHS)('GIVEN %i columns THEN no line is longer and no word is split', (width) => {
    const text = renderExplainTable(defaultLab(), { ...view, width });
    const lines = text.split('\n');
    expect(lines.filter((l) => l.length > width)).toEqual([]);
    expect(words(text).filter((w) => !whole.has(w))).toEqual([]);
  });
});

describe('the summary', () => {
  const text = renderExplainTable(defaultLab(), { width: 80 });

  test('GIVEN the default lab at 80 columns THEN one row per exposure with its path, hops, SNAT and client IP, far shorter than every detail', () => {
    expect(text).toContain('| nodeport-l4    | client -> NLB -> node | 2    | SNAT       | LOST            |');
    expect(text).toContain('one variable apart:');
    expect(text).toContain('not offered: native-l4 (GKE passthrough Network Load Balancers only target');
    expect(text.split('\n').length).toBeLessThan(70);
    expect(renderExplainTable(defaultLab(), { width: 80, details: true }).split('\n').length).toBeGreaterThan(200);
  });

  test('GIVEN no room for the table (40 columns) THEN each exposure is a block of lines', () => {
    const narrow = renderExplainTable(defaultLab(), { width: 40 });
    expect(narrow).not.toContain('+---');
    expect(narrow).toContain('nodeport-l4: client -> NLB -> node\n    -> Pod');
    expect(narrow).toContain('  2 hops; SNAT; client IP LOST');
    expect(narrow.split('\n').filter((l) => l.length > 40)).toEqual([]);
  });

  test('is stable (regression guard)', () => {
    expect(text).toMatchSnapshot();
  });
});

describe('colour', () => {
  test('GIVEN colour off (no TTY, or NO_COLOR) THEN no escape code at all', () => {
    expect(renderExplainTable(defaultLab(), { width: 80 })).not.toContain('\x1b[');
    expect(renderExplainTable(defaultLab(), { width: 80, color: false, details: true })).not.toContain('\x1b[');
  });

  test('GIVEN colour on THEN SNAT and LOST are red, "no SNAT" is not, and the layout is the same once the codes are taken out', () => {
    const plain = renderExplainTable(defaultLab(), { width: 80, exposure: 'nodeport-l4' });
    const coloured = renderExplainTable(defaultLab(), { width: 80, exposure: 'nodeport-l4', color: true });
    expect(coloured).toContain('\x1b[31mLOST\x1b[0m');
    expect(renderExplainTable(defaultLab(), { width: 80, color: true })).toContain('| \x1b[31mSNAT\x1b[0m       |');
    expect(stripAnsi(coloured)).toBe(plain);
  });
});

describe('one exposure (--exposure), for a projector', () => {
  test('GIVEN nodeport-l4 THEN a tall block per cloud: path, hops, source NAT, client IP, health check, neighbours', () => {
    const text = renderExplainTable(defaultLab(), { width: 80, exposure: 'nodeport-l4' });
    expect(text).toContain('nodeport-l4 on AWS (EKS), environment demo');
    expect(text).toContain('nodeport-l4 on GCP (GKE), environment demo');
    for (const title of ['path', 'hops from the load balancer to the Pod', 'source NAT', 'client IP at the Pod', 'health check', 'one variable away']) {
      expect(text.split('\n')).toContain(title);
    }
    expect(text).toContain('    2 (LB -> node -> Pod)');
    expect(text).not.toContain('| native ');
  });

  test('GIVEN native-l4, which GKE does not offer THEN the GKE block says why', () => {
    const text = renderExplainTable(defaultLab(), { width: 80, exposure: 'native-l4' });
    expect(text).toContain('    not offered: GKE passthrough Network Load Balancers only target nodes,');
  });
});

describe('URLs from outputs', () => {
  const urls = urlsFromOutputs(readOutputsFile(fixture('outputs.json')));
  const model = explainDir(FIXTURE_APP);

  test('GIVEN outputs THEN the summary lists each URL whole, on one line', () => {
    const text = renderExplainTable(model, { width: 120, urls });
    expect(text).toContain('  native          http://k8s-hoplab-echonati-3f1c2a9b7d-1234567890.us-east-1.elb.amazonaws.com/');
    expect(text).toContain('  nodeport-local  http://35.192.55.66/');
  });

  test('GIVEN 60 columns THEN a URL longer than the width is on a line of its own, never wrapped, and is the only longer line', () => {
    const text = renderExplainTable(model, { width: 60, urls });
    const long = text.split('\n').filter((l) => l.length > 60);
    expect(long).toEqual([
      'http://k8s-hoplab-echonati-3f1c2a9b7d-1234567890.us-east-1.elb.amazonaws.com/',
      expect.stringMatching(/^http:\/\/k8s-hoplab-echonode-/),
      expect.stringMatching(/^http:\/\/k8s-hoplab-echonode-/),
    ]);
  });
});

describe('identical labs', () => {
  test('GIVEN three attendees with the same lab THEN one section with their names, each exposure once per cloud', () => {
    const text = renderExplainTable(workshop, { width: 80 });
    expect(text).toContain('== environments ann, bob and chen: 3 identical labs, shown once ==');
    expect(text).toContain('stacks');
    expect(text).toContain('<env>-aws-cluster, <env>-aws-lb --');
    expect(text.match(/^\| nodeport-l4 /gm)).toHaveLength(2);
    expect(text).not.toContain('environment "bob"');
  });

  test('GIVEN --exposure THEN one screen per cloud names every attendee', () => {
    const text = renderExplainTable(workshop, { width: 80, exposure: 'native' });
    expect(text).toContain('native on AWS (EKS), environments ann, bob and chen');
    expect(text.match(/^native on /gm)).toHaveLength(2);
  });
});
