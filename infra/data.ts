import { Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import { AttributeType, BillingMode, ProjectionType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { TABLE_SCHEMA } from '../shared/store/table.js';

export interface GatehouseDataProps {
  readonly removalPolicy: RemovalPolicy;
  /** Also the access-log bucket's object expiry, so S3 and CloudWatch keep logs equally long. */
  readonly logRetentionDays: number;
}

/**
 * Where Gatehouse keeps things: the single table (keys from the same schema local runs use), the
 * logo and portal buckets and the access-log bucket they (and CloudFront) log into.
 *
 * The resources are created in the stack's scope, not in this construct's: logical IDs come from
 * construct paths, and a deployed table or bucket whose logical ID changes is replaced by a new,
 * empty one. This construct only names the group; `Stack.of(this)` owns what it creates.
 */
export class GatehouseData extends Construct {
  readonly table: Table;
  readonly accessLogs: Bucket;
  readonly logoBucket: Bucket;
  readonly portalBucket: Bucket;
  /** The OpenID Connect signing key set (shared/oidc/keys.ts), written by `npx idm keys rotate`. */
  readonly signingKeys: Secret;

  constructor(scope: Construct, id: string, props: GatehouseDataProps) {
    super(scope, id);
    const stack = Stack.of(this);
    const { removalPolicy } = props;
    const destroy = removalPolicy === RemovalPolicy.DESTROY;

    const attr = (name: string) => ({ name, type: AttributeType.STRING });
    this.table = new Table(stack, 'Table', {
      partitionKey: attr(TABLE_SCHEMA.partitionKey),
      sortKey: attr(TABLE_SCHEMA.sortKey),
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      timeToLiveAttribute: TABLE_SCHEMA.ttlAttribute,
      deletionProtection: !destroy,
      removalPolicy,
    });
    for (const index of TABLE_SCHEMA.indexes) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: attr(index.partitionKey),
        sortKey: attr(index.sortKey),
        projectionType: ProjectionType.ALL,
      });
    }

    this.accessLogs = new Bucket(stack, 'AccessLogs', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      // CloudFront standard logging writes through an ACL grant, so ACLs stay enabled here.
      objectOwnership: ObjectOwnership.BUCKET_OWNER_PREFERRED,
      lifecycleRules: [{ expiration: Duration.days(props.logRetentionDays) }],
      removalPolicy,
      autoDeleteObjects: destroy,
    });
    Validations.of(this.accessLogs).acknowledge({
      id: 'AwsSolutions-S1',
      reason: 'This is the access-log bucket itself; logging it into itself would loop.',
    });
    this.logoBucket = this.privateBucket('Logos', 's3/logos/', removalPolicy);
    this.portalBucket = this.privateBucket('Portal', 's3/portal/', removalPolicy);

    // CloudFormation cannot create an empty secret: it starts with a random placeholder, which
    // reads as "no key yet" until `npx idm keys rotate` writes the first key (docs/operations.md).
    this.signingKeys = new Secret(stack, 'SigningKeys', {
      description:
        'Gatehouse OpenID Connect signing keys (JWK set with private keys); see docs/operations.md',
      generateSecretString: { excludePunctuation: true, passwordLength: 32 },
      removalPolicy,
    });
    Validations.of(this.signingKeys).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'Signing keys rotate with `npx idm keys rotate`, which publishes the new key before it signs and keeps the old one published while its tokens live; a Secrets Manager rotation function cannot keep that overlap.',
    });
  }

  /** Public access blocked, SSE-S3, TLS 1.2+ only, no ACLs, server access logs kept. */
  private privateBucket(id: string, logPrefix: string, removalPolicy: RemovalPolicy): Bucket {
    return new Bucket(Stack.of(this), id, {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      serverAccessLogsBucket: this.accessLogs,
      serverAccessLogsPrefix: logPrefix,
      removalPolicy,
      autoDeleteObjects: removalPolicy === RemovalPolicy.DESTROY,
    });
  }
}
