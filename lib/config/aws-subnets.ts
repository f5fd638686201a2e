import { AwsConfig } from './schema';
import { cidr, subnet } from '../model/cidr';

/** The public and private subnet CIDR blocks of the lab VPC, one of each per availability zone. */
export interface AwsSubnetLayout {
  readonly public: readonly string[];
  readonly private: readonly string[];
}

/**
 * The smallest public subnet (largest prefix) the lab accepts: an ALB needs a /27 or larger
 * subnet with at least 8 free addresses in each zone, and the AWS Load Balancer Controller
 * skips subnets with fewer free addresses when it discovers them.
 */
export const MIN_PUBLIC_SUBNET_PREFIX = 27;

/** The smallest VPC (largest prefix) that the default subnet layout can split: /27 public subnets need a /20. */
export const DEFAULT_LAYOUT_MAX_VPC_PREFIX = MIN_PUBLIC_SUBNET_PREFIX - 7;

/**
 * The subnets of the lab VPC: the configured ones, or by default the VPC's
 * first eighths for private subnets (Pods take their addresses from these, so
 * they get the room) and /(vpc+7) blocks from the last eighth for public ones.
 * For 10.0.0.0/16: private 10.0.0.0/19, 10.0.32.0/19 ...; public 10.0.224.0/23, 10.0.226.0/23 ...
 */
export function awsSubnetLayout(aws: Pick<AwsConfig, 'vpcCidr' | 'availabilityZones' | 'publicSubnetCidrs' | 'privateSubnetCidrs'>): AwsSubnetLayout {
  const vpc = cidr(aws.vpcCidr);
  const azs = aws.availabilityZones.length;
  const lastEighth = subnet(vpc, 3, 7);
  return {
    private: aws.privateSubnetCidrs ?? Array.from({ length: azs }, (_, i) => subnet(vpc, 3, i).text),
    public: aws.publicSubnetCidrs ?? Array.from({ length: azs }, (_, i) => subnet(lastEighth, 4, i).text),
  };
}
