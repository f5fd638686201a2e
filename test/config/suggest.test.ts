import { closestMatch, didYouMean, editDistance } from '../../lib/config/suggest';
import { EXPOSURE_MODES } from '../../lib/model/modes';

describe('did you mean', () => {
  test.each([
    ['nodeport', 'nodeprot', 1],
    ['datapath', 'datapth', 1],
    ['vpcCidr', 'vpcCIDR', 0],
    ['native', 'ingress', 6],
    ['', 'abc', 3],
  ])('GIVEN %p and %p WHEN compared THEN they are %p edits apart (a swap of neighbours is one, case is ignored)', (a, b, distance) => {
    expect(editDistance(a, b)).toBe(distance);
    expect(editDistance(b, a)).toBe(distance);
  });

  test.each([
    ['nodeprot', 'nodeport'],
    ['nodeport-l', 'nodeport-l4'],
    ['Native', 'native'],
    ['gatway', 'gateway'],
    ['ingress', undefined],
    ['l4', undefined],
    ['nodeport-loca', 'nodeport-local'],
  ])('GIVEN the exposure mode %p WHEN matched THEN the suggestion is %p', (input, expected) => {
    expect(closestMatch(input, EXPOSURE_MODES)).toBe(expected);
  });

  test('GIVEN a value that is not a string, or an exact one WHEN asked THEN there is nothing to suggest', () => {
    expect(didYouMean(3, ['3'])).toBeUndefined();
    expect(didYouMean('native', EXPOSURE_MODES)).toBeUndefined();
    expect(didYouMean('nativ', EXPOSURE_MODES)).toBe('did you mean "native"?');
  });
});
