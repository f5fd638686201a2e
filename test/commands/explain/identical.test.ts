import { validConfig } from '../../../lib/config/load';
import { explainLab } from '../../../lib/lab/anatomy/explain-lab';
import { groupIdentical, groupStackName, labKey, namesText } from '../../../lib/commands/explain/identical';
import { EnvironmentExplanation } from '../../../lib/lab/anatomy/model';

// A workshop of three attendees, synthesized as the app does it: three labs that differ only in their names.
const model = explainLab(validConfig({ name: 'demo', attendees: ['ann', 'bob', 'chen'] }, 'test'));

/** `env` with its first exposure's SNAT flipped: a lab that really differs. */
function altered(env: EnvironmentExplanation): EnvironmentExplanation {
  const [first, ...rest] = env.clouds;
  const [exposure, ...others] = first.exposures;
  return { ...env, clouds: [{ ...first, exposures: [{ ...exposure, snat: !exposure.snat }, ...others] }, ...rest] };
}

describe('groupIdentical', () => {
  test('GIVEN three attendees with the same lab THEN they are one group with every name, in order', () => {
    const groups = groupIdentical(model.environments);
    expect(groups.map((g) => g.names)).toEqual([['ann', 'bob', 'chen']]);
    expect(groups[0].environment.env).toBe('ann');
  });

  test('GIVEN one lab that differs in one fact THEN it is its own group, where it stands', () => {
    const [ann, bob, chen] = model.environments;
    const groups = groupIdentical([ann, altered(bob), chen]);
    expect(groups.map((g) => g.names)).toEqual([['ann', 'chen'], ['bob']]);
  });

  test('GIVEN two labs THEN their keys ignore the stack names but nothing else', () => {
    const [ann, bob] = model.environments;
    expect(labKey(ann)).toBe(labKey(bob));
    expect(labKey(altered(ann))).not.toBe(labKey(bob));
  });
});

describe('names', () => {
  test.each([
    [[], ''],
    [['lab'], 'lab'],
    [['ann', 'bob'], 'ann and bob'],
    [['ann', 'bob', 'chen'], 'ann, bob and chen'],
  ])('namesText(%j) is %j', (names, text) => {
    expect(namesText(names)).toBe(text);
  });

  test('GIVEN a group of several labs THEN a stack is named <env>-...; GIVEN one THEN by its own name', () => {
    const [group] = groupIdentical(model.environments);
    expect(groupStackName(group, 'ann-aws-cluster')).toBe('<env>-aws-cluster');
    expect(groupStackName({ names: ['ann'], environment: model.environments[0] }, 'ann-aws-cluster')).toBe('ann-aws-cluster');
  });
});
