/**
 * What a route's function may touch, written out action by action from its route-table entry:
 * CDK's grantReadData/grantWriteData would add Scan, DescribeTable and more (docs/architecture.md).
 */
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Route } from '../shared/routes.js';
import { TABLE_SCHEMA } from '../shared/store/table.js';

/** Actions per table access level. TransactWriteItems is authorised per item by these actions. */
export const TABLE_ACTIONS = {
  read: ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:BatchGetItem'],
  write: [
    'dynamodb:GetItem',
    'dynamodb:Query',
    'dynamodb:BatchGetItem',
    'dynamodb:PutItem',
    'dynamodb:UpdateItem',
    'dynamodb:DeleteItem',
    'dynamodb:BatchWriteItem',
    'dynamodb:ConditionCheckItem',
  ],
} as const;

/** Actions per logo-bucket access level; objects live under `logos/` (see local/server.ts). */
export const LOGO_ACTIONS = {
  read: ['s3:GetObject'],
  write: ['s3:PutObject', 's3:GetObject'],
} as const;
export const LOGO_PREFIX = 'logos/';

/**
 * The signing key set: this one secret's current value, and writing its first version (the
 * first function that needs a key makes it; shared/store/signing-keys.ts). Rotation is the
 * operator's `idm keys rotate`, not a function's.
 */
export const SIGNING_KEY_ACTIONS = [
  'secretsmanager:GetSecretValue',
  'secretsmanager:PutSecretValue',
] as const;

/** The at-rest key material: read only (CloudFormation generated it; nobody writes it). */
export const AT_REST_KEY_ACTIONS = ['secretsmanager:GetSecretValue'] as const;

/** Sending mail through SES v2 (`SendEmail` authorises on the identity and configuration set). */
export const MAIL_ACTIONS = ['ses:SendEmail'] as const;

/** What a mail-sending function may send as: the SES identity and the configuration set. */
export interface SesResources {
  identityArn: string;
  configurationSetArn?: string | undefined;
}

/** The IAM statements a route's function gets, straight from its route-table entry. */
export function routeStatements(
  route: Route,
  table: ITable,
  logoBucket: IBucket,
  signingKeys?: ISecret,
  mail?: SesResources,
  atRestKey?: ISecret,
): PolicyStatement[] {
  const statements: PolicyStatement[] = [];
  if (route.table !== 'none') {
    statements.push(
      new PolicyStatement({
        effect: Effect.ALLOW,
        actions: [...TABLE_ACTIONS[route.table]],
        // The table and each named index; never `index/*`.
        resources: [
          table.tableArn,
          ...TABLE_SCHEMA.indexes.map((index) => `${table.tableArn}/index/${index.name}`),
        ],
      }),
    );
  }
  if (route.logos !== 'none') {
    statements.push(
      new PolicyStatement({
        effect: Effect.ALLOW,
        actions: [...LOGO_ACTIONS[route.logos]],
        resources: [logoBucket.arnForObjects(`${LOGO_PREFIX}*`)],
      }),
    );
  }
  if (route.signingKeys === 'read') {
    if (!signingKeys)
      throw new Error(`Route ${route.method} ${route.path} reads signing keys: pass the secret.`);
    statements.push(
      new PolicyStatement({
        effect: Effect.ALLOW,
        actions: [...SIGNING_KEY_ACTIONS],
        resources: [signingKeys.secretArn],
      }),
    );
  }
  if (route.atRestKey === 'read') {
    if (!atRestKey)
      throw new Error(`Route ${route.method} ${route.path} reads the at-rest key: pass the secret.`);
    statements.push(
      new PolicyStatement({
        effect: Effect.ALLOW,
        actions: [...AT_REST_KEY_ACTIONS],
        resources: [atRestKey.secretArn],
      }),
    );
  }
  if (route.mail === 'send' && mail) {
    statements.push(
      new PolicyStatement({
        effect: Effect.ALLOW,
        actions: [...MAIL_ACTIONS],
        resources: [mail.identityArn, ...(mail.configurationSetArn ? [mail.configurationSetArn] : [])],
      }),
    );
  }
  return statements;
}
