import { DefaultStackSynthesizer, Stack, Validations } from 'aws-cdk-lib';
import type { IDistribution } from 'aws-cdk-lib/aws-cloudfront';
import type { CfnBucket, IBucket } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { Construct, type IConstruct } from 'constructs';

export interface PortalFilesProps {
  /** The built portal (portal/dist). */
  readonly portalDir: string;
  readonly portalBucket: IBucket;
  /** Invalidated after each upload, so a deploy is visible at once. */
  readonly distribution: IDistribution;
}

/**
 * Uploads the portal's static files with CDK's BucketDeployment, then invalidates CloudFront.
 * Create it after every bucket: it also acknowledges the findings of CDK's auto-delete helper,
 * which exists only once a bucket asked for it. Created in the stack's scope so logical IDs match
 * the deployed stack.
 */
export class PortalFiles extends Construct {
  constructor(scope: Construct, id: string, props: PortalFilesProps) {
    super(scope, id);
    const deployment = new BucketDeployment(Stack.of(this), 'PortalFiles', {
      sources: [Source.asset(props.portalDir)],
      destinationBucket: props.portalBucket,
      distribution: props.distribution,
      distributionPaths: ['/*'],
      memoryLimit: 256,
      prune: true,
    });
    this.acknowledgeCdkHelpers(deployment, props.portalBucket);
  }

  /**
   * CDK's own helper functions (BucketDeployment, auto-delete objects): their code and roles come
   * from aws-cdk-lib and cannot be changed here, so their findings are acknowledged.
   */
  private acknowledgeCdkHelpers(deployment: BucketDeployment, portalBucket: IBucket): void {
    const stack = Stack.of(this);
    const helpers: IConstruct[] = [deployment];
    for (const child of stack.node.children) {
      if (/^Custom::(CDKBucketDeployment|S3AutoDeleteObjects)/.test(child.node.id)) helpers.push(child);
    }
    const reason = 'CDK-provided deployment helper (BucketDeployment): aws-cdk-lib defines its role';
    const portal = stack.getLogicalId(portalBucket.node.defaultChild as CfnBucket);
    const qualifier = DefaultStackSynthesizer.DEFAULT_QUALIFIER;
    const wildcards = [
      ['Action::s3:GetObject*', 'it reads the staged portal zip from the CDK assets bucket'],
      ['Action::s3:GetBucket*', 'it reads the staged portal zip from the CDK assets bucket'],
      ['Action::s3:List*', 'it lists the portal bucket to prune files a new build removed'],
      ['Action::s3:DeleteObject*', 'it deletes portal files a new build removed'],
      ['Action::s3:Abort*', 'it aborts its own failed multipart uploads'],
      [
        `Resource::arn:<AWS::Partition>:s3:::cdk-${qualifier}-assets-<AWS::AccountId>-<AWS::Region>/*`,
        'the staged asset lives in the bootstrap assets bucket',
      ],
      [`Resource::<${portal}.Arn>/*`, 'it writes every portal file'],
      [
        'Resource::*',
        'CloudFront CreateInvalidation/GetInvalidation do not support resource-level permissions',
      ],
    ] as const;
    for (const helper of helpers) {
      Validations.of(helper).acknowledge(
        {
          id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
          reason: `${reason} with the basic execution policy.`,
        },
        { id: 'AwsSolutions-L1', reason: 'CDK-provided deployment helper; aws-cdk-lib pins its runtime.' },
        ...wildcards.map(([finding, why]) => ({
          id: `AwsSolutions-IAM5[${finding}]`,
          reason: `${reason}; ${why}.`,
        })),
      );
    }
  }
}
