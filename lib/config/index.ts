export * from './aws-subnets';
export * from '../model/cidr';
export * from '../model/eni-limits';
export * from '../model/gke-limits';
export * from './load';
export * from './problems';
export * from './schema';
export * from './validate';
