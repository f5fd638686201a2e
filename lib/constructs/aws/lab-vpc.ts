import { Eip } from '@cdktf/provider-aws/lib/eip';
import { InternetGateway } from '@cdktf/provider-aws/lib/internet-gateway';
import { NatGateway } from '@cdktf/provider-aws/lib/nat-gateway';
import { Route } from '@cdktf/provider-aws/lib/route';
import { RouteTable } from '@cdktf/provider-aws/lib/route-table';
import { RouteTableAssociation } from '@cdktf/provider-aws/lib/route-table-association';
import { Subnet } from '@cdktf/provider-aws/lib/subnet';
import { Vpc } from '@cdktf/provider-aws/lib/vpc';
import { ITerraformDependable } from 'cdktf';
import { Construct } from 'constructs';

export interface LabVpcProps {
  /** Name prefix of every resource, normally the EKS cluster name. Required. */
  readonly name: string;
  /** VPC CIDR block. Required. */
  readonly cidr: string;
  /** Availability zones, one public and one private subnet each. Required. */
  readonly availabilityZones: readonly string[];
  /** Public subnet CIDR per availability zone, same order. Required. */
  readonly publicSubnetCidrs: readonly string[];
  /** Private subnet CIDR per availability zone, same order. Required. */
  readonly privateSubnetCidrs: readonly string[];
  /**
   * EKS cluster whose load balancers and nodes use these subnets: the subnets
   * are tagged `kubernetes.io/cluster/<name>: shared` for it.
   * Required.
   */
  readonly clusterName: string;
  /**
   * NAT gateways: `single` routes every private subnet through one gateway in
   * the first public subnet (cheap, one AZ is a single point of failure);
   * `one-per-az` gives each AZ its own.
   * @default 'single'
   */
  readonly natGateways?: 'single' | 'one-per-az';
}

/**
 * A VPC laid out for EKS: public subnets for internet-facing load balancers
 * (tagged `kubernetes.io/role/elb`), private subnets for nodes and Pods (tagged
 * `kubernetes.io/role/internal-elb`), an internet gateway, NAT and route tables.
 * The AWS Load Balancer Controller discovers subnets by these tags.
 */
export class LabVpc extends Construct {
  /** The VPC's ID. */
  public readonly vpcId: string;
  /** The VPC's ARN (what `ec2:Vpc` conditions compare). */
  public readonly vpcArn: string;
  /** Public subnet IDs, one per AZ. */
  public readonly publicSubnetIds: string[];
  /** Private subnet IDs, one per AZ. */
  public readonly privateSubnetIds: string[];
  /** The NAT gateways; the private subnets' default routes depend on them. */
  public readonly natGateways: NatGateway[];
  /**
   * The private subnets' default routes and route table associations: nodes in
   * the private subnets depend on them, so they exist before nodes join and
   * stay until the nodes are gone (nodes draining without a route cannot reach
   * the EC2 API, and the VPC CNI strands its ENIs).
   */
  public readonly privateRouting: ITerraformDependable[];

  constructor(scope: Construct, id: string, props: LabVpcProps) {
    super(scope, id);
    if (props.publicSubnetCidrs.length !== props.availabilityZones.length || props.privateSubnetCidrs.length !== props.availabilityZones.length) {
      throw new Error(
        `LabVpc ${id}: availabilityZones has ${props.availabilityZones.length} entries, publicSubnetCidrs ${props.publicSubnetCidrs.length}, ` +
          `privateSubnetCidrs ${props.privateSubnetCidrs.length}; give one public and one private subnet CIDR per availability zone, in the same order`,
      );
    }
    const clusterTag = { [`kubernetes.io/cluster/${props.clusterName}`]: 'shared' };

    const vpc = new Vpc(this, 'vpc', {
      cidrBlock: props.cidr,
      enableDnsHostnames: true,
      enableDnsSupport: true,
      tags: { Name: props.name },
    });
    this.vpcId = vpc.id;
    this.vpcArn = vpc.arn;

    const igw = new InternetGateway(this, 'igw', { vpcId: vpc.id, tags: { Name: props.name } });
    const publicRoutes = new RouteTable(this, 'public-rt', { vpcId: vpc.id, tags: { Name: `${props.name}-public` } });
    new Route(this, 'public-default', { routeTableId: publicRoutes.id, destinationCidrBlock: '0.0.0.0/0', gatewayId: igw.id });

    const publicSubnets = props.availabilityZones.map((az, i) => {
      const subnet = new Subnet(this, `public-${az}`, {
        vpcId: vpc.id,
        availabilityZone: az,
        cidrBlock: props.publicSubnetCidrs[i],
        // Nothing launches here with an address of its own: the NAT gateways take Elastic IPs, and the
        // load balancers get their public addresses from ELB. An instance started here by mistake stays private.
        mapPublicIpOnLaunch: false,
        tags: { Name: `${props.name}-public-${az}`, 'kubernetes.io/role/elb': '1', ...clusterTag },
      });
      new RouteTableAssociation(this, `public-${az}-rta`, { subnetId: subnet.id, routeTableId: publicRoutes.id });
      return subnet;
    });
    this.publicSubnetIds = publicSubnets.map((s) => s.id);

    const natCount = (props.natGateways ?? 'single') === 'single' ? 1 : props.availabilityZones.length;
    this.natGateways = publicSubnets.slice(0, natCount).map((subnet, i) => {
      const az = props.availabilityZones[i];
      const eip = new Eip(this, `nat-eip-${az}`, { domain: 'vpc', tags: { Name: `${props.name}-nat-${az}` } });
      return new NatGateway(this, `nat-${az}`, {
        allocationId: eip.allocationId,
        subnetId: subnet.id,
        tags: { Name: `${props.name}-nat-${az}` },
        dependsOn: [igw],
      });
    });

    const privateRouting: ITerraformDependable[] = [];
    this.privateSubnetIds = props.availabilityZones.map((az, i) => {
      const subnet = new Subnet(this, `private-${az}`, {
        vpcId: vpc.id,
        availabilityZone: az,
        cidrBlock: props.privateSubnetCidrs[i],
        tags: { Name: `${props.name}-private-${az}`, 'kubernetes.io/role/internal-elb': '1', ...clusterTag },
      });
      const routes = new RouteTable(this, `private-${az}-rt`, { vpcId: vpc.id, tags: { Name: `${props.name}-private-${az}` } });
      privateRouting.push(
        new Route(this, `private-${az}-default`, {
          routeTableId: routes.id,
          destinationCidrBlock: '0.0.0.0/0',
          natGatewayId: this.natGateways[Math.min(i, natCount - 1)].id,
        }),
        new RouteTableAssociation(this, `private-${az}-rta`, { subnetId: subnet.id, routeTableId: routes.id }),
      );
      return subnet.id;
    });
    this.privateRouting = privateRouting;
  }
}
