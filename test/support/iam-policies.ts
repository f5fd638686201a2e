/**
 * The IAM policies a synthesized stack attaches to each of its roles, as the
 * IAM JSON documents IAM would evaluate: customer managed policies read out of
 * cdk.tf.json (a literal JSON string with its Terraform references filled in by
 * the caller, or an `aws_iam_policy_document` data source turned into JSON),
 * AWS managed policies from their vendored documents (test/fixtures/iam/aws-managed).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Json, Synthesized } from './synth';

/** An IAM policy document. */
export interface PolicyDocument {
  readonly Version: string;
  readonly Statement: readonly PolicyStatement[];
}

export interface PolicyStatement {
  readonly Sid?: string;
  readonly Effect: 'Allow' | 'Deny';
  readonly Action: string | readonly string[];
  readonly Resource: string | readonly string[];
  readonly Condition?: Record<string, Record<string, string | readonly string[]>>;
}

/** One policy attached to a role: where it comes from (the managed ARN, or `aws_iam_policy.<id>`) and its document. */
export interface AttachedPolicy {
  readonly source: string;
  readonly document: PolicyDocument;
}

/** A role of the stack with its attached policies. */
export interface RoleWithPolicies {
  /** The role's Terraform id (`aws_iam_role.<id>`). */
  readonly id: string;
  /** The role's name, as the stack writes it. */
  readonly name: string;
  /** Who may assume it: the trust policy's principal (a service, or `Federated` for IRSA). */
  readonly trustedBy: string;
  readonly policies: readonly AttachedPolicy[];
}

const MANAGED = /^arn:aws:iam::aws:policy\/([\w+=,.@-]+)$/;
export const AWS_MANAGED_POLICY_DIR = join(__dirname, '..', 'fixtures', 'iam', 'aws-managed');

/** The vendored document of an AWS managed policy (the IAM API's get-policy-version answer, as MAMIP records it). */
export function awsManagedPolicy(arn: string): PolicyDocument {
  const name = MANAGED.exec(arn)?.[1];
  if (!name) throw new Error(`${arn} is not an AWS managed policy ARN`);
  let text: string;
  try {
    text = readFileSync(join(AWS_MANAGED_POLICY_DIR, `${name}.json`), 'utf8');
  } catch {
    throw new Error(`${arn} is attached but not vendored: add ${name}.json to test/fixtures/iam/aws-managed (see its README)`);
  }
  return (JSON.parse(text) as { PolicyVersion: { Document: PolicyDocument } }).PolicyVersion.Document;
}

const list = (value: unknown): string[] => (Array.isArray(value) ? (value as string[]) : value === undefined ? [] : [value as string]);

/** An `aws_iam_policy_document` data source's statements, as IAM JSON. */
function documentOfData(data: Json): PolicyDocument {
  return {
    Version: '2012-10-17',
    Statement: (data.statement as Json[]).map((s) => {
      const condition: Record<string, Record<string, string[]>> = {};
      for (const c of (s.condition as Json[] | undefined) ?? []) (condition[c.test] ??= {})[c.variable] = list(c.values);
      return {
        ...(s.sid ? { Sid: s.sid as string } : {}),
        Effect: (s.effect ?? 'Allow') as 'Allow' | 'Deny',
        Action: list(s.actions),
        Resource: list(s.resources),
        ...(Object.keys(condition).length > 0 ? { Condition: condition } : {}),
      };
    }),
  };
}

/**
 * Every `${...}` Terraform reference in `text` replaced by what `resolve` says
 * it stands for (e.g. `aws_vpc.vpc_1234.arn` -> a VPC ARN); a reference it
 * does not know fails, so no policy is evaluated with a placeholder in it.
 */
export function fillReferences(text: string, resolve: (reference: string) => string | undefined): string {
  return text.replace(/\$\{([^}]+)\}/g, (_, reference: string) => {
    const value = resolve(reference);
    if (value === undefined) throw new Error(`no value for the Terraform reference \${${reference}} in a policy`);
    return value;
  });
}

/** The document of `aws_iam_policy.<id>` in `stack`, its references filled in. */
function customerPolicy(stack: Synthesized, id: string, resolve: (reference: string) => string | undefined): PolicyDocument {
  const policy = stack.resource.aws_iam_policy?.[id]?.policy as string | undefined;
  if (policy === undefined) throw new Error(`aws_iam_policy.${id} is not in the stack`);
  const data = /^\$\{data\.aws_iam_policy_document\.([\w-]+)\.json\}$/.exec(policy);
  if (data) return documentOfData(stack.data?.aws_iam_policy_document?.[data[1]]);
  return JSON.parse(fillReferences(policy, resolve)) as PolicyDocument;
}

/** Every role of the stack with the documents of every policy attached to it. */
export function rolesWithPolicies(stack: Synthesized, resolve: (reference: string) => string | undefined): RoleWithPolicies[] {
  const attachments = Object.values(stack.resource.aws_iam_role_policy_attachment ?? {});
  return Object.entries(stack.resource.aws_iam_role ?? {}).map(([id, role]) => {
    const trust = /^\$\{data\.aws_iam_policy_document\.([\w-]+)\.json\}$/.exec(role.assume_role_policy as string);
    const principals = trust ? ((stack.data?.aws_iam_policy_document?.[trust[1]].statement as Json[])[0].principals as Json[]) : [];
    const policies = attachments
      .filter((a) => a.role === `\${aws_iam_role.${id}.name}`)
      .map((a) => {
        const arn = a.policy_arn as string;
        const customer = /^\$\{aws_iam_policy\.([\w-]+)\.arn\}$/.exec(arn);
        return customer ? { source: `aws_iam_policy.${customer[1]}`, document: customerPolicy(stack, customer[1], resolve) } : { source: arn, document: awsManagedPolicy(arn) };
      });
    return { id, name: role.name as string, trustedBy: principals.map((p) => `${p.type}`).join(','), policies };
  });
}

/** The actions a policy document's Allow statements name. */
export function allowedActions(documents: readonly PolicyDocument[]): string[] {
  return [...new Set(documents.flatMap((d) => d.Statement.filter((s) => s.Effect === 'Allow').flatMap((s) => list(s.Action))))].sort();
}
