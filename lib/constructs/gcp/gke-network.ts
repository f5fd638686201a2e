import { ComputeNetwork } from '@cdktf/provider-google/lib/compute-network';
import { ComputeRouter } from '@cdktf/provider-google/lib/compute-router';
import { ComputeRouterNat } from '@cdktf/provider-google/lib/compute-router-nat';
import { ComputeSubnetwork } from '@cdktf/provider-google/lib/compute-subnetwork';
import { Construct } from 'constructs';

/** Name of the node subnet's secondary range for Pod alias IPs. */
export const POD_RANGE_NAME = 'pods';
/** Name of the node subnet's secondary range for Service cluster IPs. */
export const SERVICE_RANGE_NAME = 'services';

export interface GkeNetworkProps {
  /** Name of the network, and prefix of the subnet, router and NAT names (normally the GKE cluster name). Required. */
  readonly name: string;
  /** Region of the subnet, router and NAT. Required. */
  readonly region: string;
  /** Primary range of the node subnet (node IPs). Required. */
  readonly nodeCidr: string;
  /** Secondary range for Pod alias IPs; GKE carves one range per node out of it. Required. */
  readonly podCidr: string;
  /** Secondary range for Service cluster IPs. Required. */
  readonly serviceCidr: string;
}

/**
 * The network of a VPC-native GKE cluster: a custom-mode VPC network (no
 * auto-created subnets), one subnet for the nodes whose two named secondary
 * ranges hold the Pod alias IPs and the Service cluster IPs, and a Cloud
 * Router with Cloud NAT so nodes without external addresses (private nodes)
 * can pull images from outside Google. Private Google Access lets them reach
 * Google APIs and Artifact Registry without NAT.
 *
 * Deleting the network fails while anything else still uses it: firewall
 * rules, NEGs, forwarding rules or instance groups that GKE's controllers
 * created for Ingresses and LoadBalancer Services. Destroy the `-lb` stack
 * (which makes GKE delete them) before the cluster stack.
 */
export class GkeNetwork extends Construct {
  /** The network resource. */
  public readonly network: ComputeNetwork;
  /** The node subnet. */
  public readonly subnet: ComputeSubnetwork;
  /** The Cloud NAT; nodes depend on it so it outlives them on destroy. */
  public readonly nat: ComputeRouterNat;
  /** Network self link / id, for the cluster and firewall rules. */
  public readonly networkId: string;
  /** Subnet id, for the cluster. */
  public readonly subnetId: string;
  /** Name of the Pod secondary range. */
  public readonly podRangeName = POD_RANGE_NAME;
  /** Name of the Service secondary range. */
  public readonly serviceRangeName = SERVICE_RANGE_NAME;

  constructor(scope: Construct, id: string, props: GkeNetworkProps) {
    super(scope, id);
    this.network = new ComputeNetwork(this, 'network', {
      name: props.name,
      autoCreateSubnetworks: false,
      routingMode: 'REGIONAL',
      description: `hoplab: network of GKE cluster ${props.name}`,
    });
    this.networkId = this.network.id;

    this.subnet = new ComputeSubnetwork(this, 'subnet', {
      name: `${props.name}-nodes`,
      network: this.network.id,
      region: props.region,
      ipCidrRange: props.nodeCidr,
      privateIpGoogleAccess: true,
      secondaryIpRange: [
        { rangeName: POD_RANGE_NAME, ipCidrRange: props.podCidr },
        { rangeName: SERVICE_RANGE_NAME, ipCidrRange: props.serviceCidr },
      ],
    });
    this.subnetId = this.subnet.id;

    const router = new ComputeRouter(this, 'router', {
      name: `${props.name}-router`,
      network: this.network.id,
      region: props.region,
    });
    this.nat = new ComputeRouterNat(this, 'nat', {
      name: `${props.name}-nat`,
      router: router.name,
      region: props.region,
      natIpAllocateOption: 'AUTO_ONLY',
      // Only this subnet, all its ranges: nodes (image pulls) and Pods (egress).
      sourceSubnetworkIpRangesToNat: 'LIST_OF_SUBNETWORKS',
      subnetwork: [{ name: this.subnet.id, sourceIpRangesToNat: ['ALL_IP_RANGES'] }],
      logConfig: { enable: true, filter: 'ERRORS_ONLY' },
    });
  }
}
