/**
 * The lab's stacks in their slots: places the environments, then adds every
 * stack of every environment to the app with its slot. What every command that
 * synthesizes the lab calls (synth, preflight, deploy, teardown, verify, explain).
 */
import { App } from 'cdktf';
import { LabConfig } from '../../config/schema';
import { AddLabOptions, addLab, LabStacks } from '../../stacks/hoplab-app';
import { AwsSlot, GcpSlot, Slot } from '../../model/slots';
import { CloudPlacement, LabPlacement, placeLab, PlaceLabOptions } from './lab-placement';

export interface PlacedLab {
  readonly stacks: LabStacks[];
  readonly placement: LabPlacement;
}

/** Places the environments of a validated config ({@link placeLab}: throws a ConfigError when they do not fit) and adds their stacks to `app`. */
export function addPlacedLab(app: App, config: LabConfig, options: Omit<AddLabOptions, 'slots'> & PlaceLabOptions & { readonly placement?: LabPlacement } = {}): PlacedLab {
  // A command that synthesizes some environments places them as the whole lab is: it passes the whole lab's placement.
  const placement = options.placement ?? placeLab(config, { deployed: options.deployed, needs: options.needs, source: options.source });
  // Without placement in the config the stacks are what they were (no slot props, no placement output), but for an
  // environment deployed elsewhere (aws.region or gcp.project changed since): its stacks are where its state says.
  const slots = placement.configured ? { aws: placement.aws.slotOf, gcp: placement.gcp.slotOf } : elsewhere(placement);
  return { stacks: addLab(app, config, { awsEmulator: options.awsEmulator, emulatorStateDir: options.emulatorStateDir, slots }), placement };
}

/** The environments of an unplaced config whose slot is not its one slot (deployed before aws.region or gcp.project changed); undefined when none is. */
function elsewhere(placement: LabPlacement): { readonly aws: ReadonlyMap<string, AwsSlot>; readonly gcp: ReadonlyMap<string, GcpSlot> } | undefined {
  const outside = <S extends Slot>(cloud: CloudPlacement<S>) => new Map([...cloud.slotOf].filter(([, slot]) => !cloud.slots.some((s) => s.id === slot.id)));
  const aws = outside(placement.aws);
  const gcp = outside(placement.gcp);
  return aws.size + gcp.size > 0 ? { aws, gcp } : undefined;
}
