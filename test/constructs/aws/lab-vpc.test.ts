import { Eip } from '@cdktf/provider-aws/lib/eip';
import { NatGateway } from '@cdktf/provider-aws/lib/nat-gateway';
import { Route } from '@cdktf/provider-aws/lib/route';
import { RouteTableAssociation } from '@cdktf/provider-aws/lib/route-table-association';
import { Subnet } from '@cdktf/provider-aws/lib/subnet';
import { Vpc } from '@cdktf/provider-aws/lib/vpc';
import { Testing } from 'cdktf';
import { LabVpc, LabVpcProps } from '../../../lib/constructs/aws/lab-vpc';

const PROPS: LabVpcProps = {
  name: 'lab-eks',
  cidr: '10.0.0.0/16',
  availabilityZones: ['us-east-1a', 'us-east-1b'],
  publicSubnetCidrs: ['10.0.224.0/23', '10.0.226.0/23'],
  privateSubnetCidrs: ['10.0.0.0/19', '10.0.32.0/19'],
  clusterName: 'lab-eks',
};

function synth(props: Partial<LabVpcProps> = {}): { json: string; parsed: { resource: Record<string, Record<string, Record<string, unknown>>> } } {
  const json = Testing.synthScope((scope) => {
    new LabVpc(scope, 'vpc', { ...PROPS, ...props });
  });
  return { json, parsed: JSON.parse(json) };
}

describe('LabVpc', () => {
  test('GIVEN a CIDR WHEN synthesized THEN the VPC has DNS hostnames (EKS nodes need them)', () => {
    expect(synth().json).toHaveResourceWithProperties(Vpc, { cidr_block: '10.0.0.0/16', enable_dns_hostnames: true, enable_dns_support: true });
  });

  test.each([
    ['us-east-1a', '10.0.224.0/23'],
    ['us-east-1b', '10.0.226.0/23'],
  ])('GIVEN AZ %s WHEN synthesized THEN its public subnet %s is tagged for internet-facing load balancers and gives nothing a public IP on launch', (az, cidr) => {
    expect(synth().json).toHaveResourceWithProperties(Subnet, {
      availability_zone: az,
      cidr_block: cidr,
      map_public_ip_on_launch: false,
      tags: { Name: `lab-eks-public-${az}`, 'kubernetes.io/role/elb': '1', 'kubernetes.io/cluster/lab-eks': 'shared' },
    });
  });

  test.each([
    ['us-east-1a', '10.0.0.0/19'],
    ['us-east-1b', '10.0.32.0/19'],
  ])('GIVEN AZ %s WHEN synthesized THEN its private subnet %s is tagged for internal load balancers and gets no public IPs', (az, cidr) => {
    const { json, parsed } = synth();
    expect(json).toHaveResourceWithProperties(Subnet, {
      availability_zone: az,
      cidr_block: cidr,
      tags: { Name: `lab-eks-private-${az}`, 'kubernetes.io/role/internal-elb': '1', 'kubernetes.io/cluster/lab-eks': 'shared' },
    });
    const subnet = Object.values(parsed.resource.aws_subnet).find((s) => s.cidr_block === cidr);
    expect(subnet?.map_public_ip_on_launch).toBeUndefined();
  });

  test('GIVEN the default NAT setting WHEN synthesized THEN one NAT gateway in the first public subnet serves every private subnet', () => {
    const { json, parsed } = synth();
    expect(Object.keys(parsed.resource.aws_nat_gateway)).toHaveLength(1);
    expect(Object.keys(parsed.resource.aws_eip)).toHaveLength(1);
    expect(json).toHaveResourceWithProperties(Eip, { domain: 'vpc' });
    const natId = Object.keys(parsed.resource.aws_nat_gateway)[0];
    const privateRoutes = Object.values(parsed.resource.aws_route).filter((r) => r.nat_gateway_id !== undefined);
    expect(privateRoutes).toHaveLength(2);
    for (const route of privateRoutes) {
      expect(route).toMatchObject({ destination_cidr_block: '0.0.0.0/0', nat_gateway_id: `\${aws_nat_gateway.${natId}.id}` });
    }
  });

  test('GIVEN one-per-az NAT WHEN synthesized THEN each AZ routes through its own gateway', () => {
    const { parsed } = synth({ natGateways: 'one-per-az' });
    const nats = Object.keys(parsed.resource.aws_nat_gateway);
    expect(nats).toHaveLength(2);
    const targets = Object.values(parsed.resource.aws_route)
      .map((r) => r.nat_gateway_id)
      .filter((id) => id !== undefined);
    expect(new Set(targets).size).toBe(2);
  });

  test('GIVEN the VPC WHEN synthesized THEN the public route table sends 0.0.0.0/0 to the internet gateway and every subnet has an association', () => {
    const { json, parsed } = synth();
    expect(json).toHaveResourceWithProperties(Route, { destination_cidr_block: '0.0.0.0/0', gateway_id: expect.stringContaining('aws_internet_gateway.') });
    expect(Object.keys(parsed.resource.aws_route_table_association)).toHaveLength(4);
    expect(json).toHaveResource(RouteTableAssociation);
  });

  test('GIVEN the NAT gateway WHEN synthesized THEN it waits for the internet gateway (AWS requires one to create it)', () => {
    const { parsed } = synth();
    const nat = Object.values(parsed.resource.aws_nat_gateway)[0] as { depends_on?: string[] };
    expect(nat.depends_on).toEqual([expect.stringMatching(/^aws_internet_gateway\./)]);
    expect(synth().json).toHaveResource(NatGateway);
  });

  test('GIVEN fewer subnet CIDRs than AZs WHEN constructed THEN it throws naming the fix', () => {
    expect(() => synth({ privateSubnetCidrs: ['10.0.0.0/19'] })).toThrow(
      'LabVpc vpc: availabilityZones has 2 entries, publicSubnetCidrs 2, privateSubnetCidrs 1; give one public and one private subnet CIDR per availability zone, in the same order',
    );
  });
});
