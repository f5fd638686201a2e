export * from './aws-subnets';
export * from './cidr';
export * from './eni-limits';
export * from './gke-limits';
export * from './load';
export * from './problems';
export * from './schema';
export * from './validate';
