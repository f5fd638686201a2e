/**
 * A resource found by hoplab's own tags (AWS) or labels (GCP), whatever
 * config or state made it: what the reaper's search (tag-search.ts) lists, the
 * lab it belongs to is read from its tags (tagged-labs.ts), what it costs from
 * the price table (lib/lab/estimate/standing-cost.ts).
 */
import { Cloud } from '../../model/contract';

interface Found {
  readonly cloud: Cloud;
  /**
   * Where it was found, as slots are named: `<account id or host>/<region>` on AWS, `<project>/<region>`
   * on GCP (`<project>/global` for a global forwarding rule or address).
   */
  readonly slot: string;
  /** Its region (`global` for a global GCP resource). */
  readonly region: string;
  /** Its id, name or ARN: what the cloud's delete command takes. */
  readonly id: string;
  /** Its tags (GCP: labels, as the API returns them). */
  readonly tags: Readonly<Record<string, string>>;
}

/** The kinds the search looks for, each with what its price and its delete command need. */
export type TaggedResource = Found &
  (
    | { readonly kind: 'eks:cluster'; readonly nodegroups: readonly string[] }
    | { readonly kind: 'ec2:vpc' }
    | { readonly kind: 'ec2:nat-gateway' }
    | { readonly kind: 'ec2:elastic-ip' }
    /** `nodegroup`: the EKS managed node group it belongs to (EKS tags its nodes `eks:nodegroup-name`). */
    | { readonly kind: 'ec2:instance'; readonly instanceType: string; readonly nodegroup?: string }
    | {
        readonly kind: 'elbv2:load-balancer';
        readonly name: string;
        /** `application`, `network` or `gateway`. */
        readonly lbType: string;
        /** Internet-facing: one public IPv4 address per zone. */
        readonly internetFacing: boolean;
        readonly zones: number;
      }
    | {
        readonly kind: 'gke:cluster';
        /** Its zone or region. */
        readonly location: string;
        readonly nodes: number;
        readonly machineType?: string;
        readonly diskType?: string;
        readonly diskSizeGb?: number;
      }
    | { readonly kind: 'compute:instance'; readonly zone: string; readonly machineType: string }
    | { readonly kind: 'compute:forwarding-rule' }
    | { readonly kind: 'compute:address' }
  );

export type TaggedKind = TaggedResource['kind'];

/** `eks:cluster lab-eks`, `ec2:instance i-0abc (t3.medium)`, `elbv2:load-balancer k8s-hoplab-echo-1a2b (application)`. */
export function describeTagged(resource: TaggedResource): string {
  switch (resource.kind) {
    case 'ec2:instance':
      return `${resource.kind} ${resource.id} (${resource.instanceType}${resource.nodegroup ? `, node group ${resource.nodegroup}` : ''})`;
    case 'elbv2:load-balancer':
      return `${resource.kind} ${resource.name} (${resource.lbType}${resource.internetFacing ? ', internet-facing' : ''})`;
    case 'gke:cluster':
      return `${resource.kind} ${resource.id} (${resource.location}, ${resource.nodes} ${resource.machineType ?? 'nodes of an unknown type'}${
        resource.machineType ? ` node${resource.nodes === 1 ? '' : 's'}` : ''
      })`;
    case 'compute:instance':
      return `${resource.kind} ${resource.id} (${resource.zone}, ${resource.machineType})`;
    default:
      return `${resource.kind} ${resource.id}`;
  }
}
