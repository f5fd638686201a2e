/**
 * The one word wrapper (lib/kit/text/wrap.ts) in its three ways with a word
 * longer than a line: cut (tables), abbreviated (live terminal views), broken
 * after punctuation (diagram labels); and names cut so that they stay told apart (the room view).
 */
import { abbreviate, abbreviateDistinct, LongWords, wrapWords } from '../../../lib/kit/text/wrap';

describe('wrapWords', () => {
  test.each<[string, string, number, LongWords, string[]]>([
    ['words that fit', 'client -> ALB -> Pod', 10, 'cut', ['client ->', 'ALB -> Pod']],
    ['words as wide as the line', 'nodeport-local nodeport-local', 16, 'cut', ['nodeport-local', 'nodeport-local']],
    ['a long word, cut', 'kubernetes_ingress_v1', 8, 'cut', ['kubernet', 'es_ingre', 'ss_v1']],
    ['a long word between others, cut, its last piece joining the next word', 'a kubernetes_ingress_v1 b', 8, 'cut', ['a', 'kubernet', 'es_ingre', 'ss_v1 b']],
    ['words, abbreviate', 'nodeport-local targets every node', 16, 'abbreviate', ['nodeport-local', 'targets every', 'node']],
    ['a long word, abbreviated', 'container-native', 10, 'abbreviate', ['container~']],
    ['a long word in a line of one, abbreviated', 'container-native', 1, 'abbreviate', ['~']],
    ['a label, broken after punctuation', 'each Pod IP on port http (HTTP /)', 12, 'punctuation', ['each Pod IP', 'on port http', '(HTTP /)']],
    ['a long word, broken after its hyphens', 'kube-proxy-iptables', 10, 'punctuation', ['kube-', 'proxy-', 'iptables']],
    ['a long word with no punctuation, cut', 'abcdefghijkl', 5, 'punctuation', ['abcde', 'fghij', 'kl']],
    ['a broken word whose first piece fits after the word before', 'ab cd/efghijkl', 8, 'punctuation', ['ab cd/', 'efghijkl']],
  ])('GIVEN %s THEN the lines are as expected', (_what, text, width, long, lines) => {
    expect(wrapWords(text, width, long)).toEqual(lines);
  });

  test.each<LongWords>(['cut', 'abbreviate', 'punctuation'])('GIVEN newlines or no words (%s) THEN each line of the text starts a line, and nothing is one empty line', (long) => {
    expect(wrapWords('a\nb c', 10, long)).toEqual(['a', 'b c']);
    expect(wrapWords('a\n\nb', 10, long)).toEqual(['a', '', 'b']);
    expect(wrapWords('', 10, long)).toEqual(['']);
    expect(wrapWords('   ', 10, long)).toEqual(['']);
  });

  test('GIVEN any text and width THEN no line is wider than the width, and only an over-long word is split', () => {
    const text = 'the load balancer sends to http://10.0.1.2:8080/healthz on every node, kube-proxy-replacement';
    for (const long of ['cut', 'abbreviate', 'punctuation'] as const) {
      for (let width = 1; width <= 40; width += 1) {
        const lines = wrapWords(text, width, long);
        expect(lines.filter((l) => l.length > width)).toEqual([]);
        if (long !== 'abbreviate') expect(lines.join('').replace(/ /g, '')).toBe(text.replace(/ /g, ''));
      }
    }
  });

  test('GIVEN a word WHEN abbreviated THEN it keeps its start and ends in ~ only when too long', () => {
    expect([abbreviate('container-native', 10), abbreviate('native', 10), abbreviate('native', 1), abbreviate('native', 0)]).toEqual(['container~', 'native', '~', '~']);
  });
});

describe('abbreviateDistinct', () => {
  test('GIVEN two names that differ only at their end WHEN cut THEN the middle goes and each keeps its distinguishing tail; short names stay whole', () => {
    expect(abbreviateDistinct(['london-team-alice-1', 'london-team-alice-2', 'bob', 'london-team-alice-1'], 16)).toEqual(['london-t~alice-1', 'london-t~alice-2', 'bob', 'london-t~alice-1']);
    // abbreviate keeps the start only: the two would read the same.
    expect(abbreviate('london-team-alice-1', 16)).toBe(abbreviate('london-team-alice-2', 16));
  });

  test('GIVEN names that the middle cut leaves equal WHEN cut THEN all at the one place nearest the middle that tells them apart', () => {
    expect(abbreviateDistinct(['aaaa-1-bbbbbbbbbbbb', 'aaaa-2-bbbbbbbbbbbb', 'aaaa-3-bbbbbbbbbbbb'], 10)).toEqual(['aaaa-1~bbb', 'aaaa-2~bbb', 'aaaa-3~bbb']);
  });

  test('GIVEN names that differ only where every cut falls WHEN cut THEN each at a place of its own: still distinct, within the width', () => {
    const words = ['aaaaaaaXaaaaaaaaaaaa', 'aaaaaaaYaaaaaaaaaaaa', 'aaaaaaaZaaaaaaaaaaaa'];
    const cut = abbreviateDistinct(words, 5);
    expect(new Set(cut).size).toBe(3);
    for (const c of cut) expect(c).toMatch(/^a*~a*$/);
    expect(cut.every((c) => c.length === 5)).toBe(true);
  });

  test('GIVEN a width of 1 or less THEN a long name is ~, as abbreviate makes it', () => {
    expect(abbreviateDistinct(['ann', 'a'], 1)).toEqual(['~', 'a']);
  });
});
