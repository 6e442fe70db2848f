/**
 * Deployment settings from CDK context: each variant is synthesized without esbuild (CDK's
 * `aws:cdk:bundling-stacks` set to none; test/infra.test.ts covers real bundles) and must still
 * pass cdk-nag without the acknowledgements the default needs.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { Stack } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import { SPA_REWRITE } from '../infra/stack.js';
import { projectRoot, type Synthesized, synthesize } from '../infra/synth.js';
import { routes } from '../shared/routes.js';
import { TABLE_SCHEMA } from '../shared/store/table.js';

// biome-ignore lint/suspicious/noExplicitAny: CloudFormation JSON is untyped.
type Json = any;

function nagFindings(synth: Synthesized): string[] {
  return new AwsSolutionsChecks()
    .validateScope(synth.app)
    .violations.flatMap((v) => v.violatingResources.map((r) => `${v.ruleName} ${r.resourceLogicalId}`));
}
function distributionConfig(synth: Synthesized): Json {
  return Object.values(synth.template.findResources('AWS::CloudFront::Distribution'))[0]!.Properties
    .DistributionConfig;
}

const CERT = 'arn:aws:acm:us-east-1:123456789012:certificate/0a1b2c3d-1111-2222-3333-444455556666';

describe('deployment settings from context', () => {
  it('destroys instead of retaining when removalPolicy=destroy', () => {
    const synth = synthesize({ bundle: false, context: { removalPolicy: 'destroy' } });
    synth.template.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Delete',
      Properties: { DeletionProtectionEnabled: false },
    });
    for (const bucket of Object.values(synth.template.findResources('AWS::S3::Bucket'))) {
      expect(bucket.DeletionPolicy).toBe('Delete');
    }
    synth.template.resourceCountIs('Custom::S3AutoDeleteObjects', 3);
    expect(nagFindings(synth)).toEqual([]);
  });

  it('serves a custom domain with its certificate and TLS 1.2, and uses it as the public URL', () => {
    const synth = synthesize({
      bundle: false,
      context: { domainName: 'idm.example.com', certificateArn: CERT },
    });
    const config = distributionConfig(synth);
    expect(config.Aliases).toEqual(['idm.example.com']);
    expect(config.ViewerCertificate).toEqual({
      AcmCertificateArn: CERT,
      MinimumProtocolVersion: 'TLSv1.2_2021',
      SslSupportMethod: 'sni-only',
    });
    expect(synth.template.toJSON().Outputs.PortalUrl.Value).toBe('https://idm.example.com');
    const fns = Object.values(synth.template.findResources('AWS::Lambda::Function')).filter(
      (f) => f.Properties.Runtime === 'nodejs22.x' && f.Properties.Handler === 'index.handler',
    );
    expect(fns.length).toBe(new Set(routes.map((r) => r.fn)).size);
    for (const fn of fns) {
      expect(fn.Properties.Environment.Variables.IDM_PUBLIC_URL).toBe('https://idm.example.com');
    }
    expect(nagFindings(synth)).toEqual([]);
  });

  it('attaches a WAF rate-based rule when wafRateLimit is set', () => {
    const synth = synthesize({ bundle: false, context: { wafRateLimit: '1000' } });
    synth.template.hasResourceProperties('AWS::WAFv2::WebACL', {
      Scope: 'CLOUDFRONT',
      DefaultAction: { Allow: {} },
      Rules: [
        {
          Name: 'rate-per-ip',
          Action: { Block: {} },
          Statement: { RateBasedStatement: { Limit: 1000, AggregateKeyType: 'IP' } },
        },
      ],
    });
    expect(distributionConfig(synth).WebACLId).toEqual({ 'Fn::GetAtt': [expect.any(String), 'Arn'] });
    expect(nagFindings(synth)).toEqual([]);
  });

  it('has no WAF by default', () => {
    const synth = synthesize({ bundle: false });
    synth.template.resourceCountIs('AWS::WAFv2::WebACL', 0);
    expect(distributionConfig(synth).WebACLId).toBeUndefined();
  });

  it('takes API throttling and log retention from context', () => {
    const synth = synthesize({
      bundle: false,
      context: { throttleRate: 25, throttleBurst: 50, logRetentionDays: '90' },
    });
    synth.template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      DefaultRouteSettings: { ThrottlingRateLimit: 25, ThrottlingBurstLimit: 50 },
    });
    for (const group of Object.values(synth.template.findResources('AWS::Logs::LogGroup'))) {
      expect(group.Properties.RetentionInDays).toBe(90);
    }
  });

  it('lets only the mail-sending functions call ses:SendEmail, as the configured sender', () => {
    // The portal's routes only: the grants are per route, and Keyrock's /v1 routes add nothing here.
    const synth = synthesize({
      bundle: false,
      routes: routes.filter((r) => r.path.startsWith('/api/')),
      context: {
        mailFrom: 'no-reply@mail.example.com',
        sesConfigurationSet: 'gatehouse-mail',
        requireEmailVerification: 'false',
      },
    });
    const resources = synth.template.toJSON().Resources;
    const senders = routes.filter((r) => r.mail === 'send').map((r) => r.fn);
    expect(synth.stack.functions.functions.size).toBeGreaterThan(senders.length);
    expect(senders).toEqual(
      expect.arrayContaining(['api-users-create', 'api-email-verification-send', 'api-password-reset-send']),
    );
    for (const [fn, construct] of synth.stack.functions.functions) {
      const id = Stack.of(construct).getLogicalId(construct.node.defaultChild as never);
      const props = resources[id].Properties;
      const roleId = props.Role['Fn::GetAtt'][0];
      const statements = Object.values(resources as Record<string, Json>)
        .filter(
          (r) => r.Type === 'AWS::IAM::Policy' && r.Properties.Roles.some((x: Json) => x.Ref === roleId),
        )
        .flatMap((p) => p.Properties.PolicyDocument.Statement);
      const ses = statements.filter((st: Json) =>
        [st.Action].flat().some((a: string) => a.startsWith('ses:')),
      );
      const env = props.Environment.Variables;
      expect(env.IDM_REQUIRE_EMAIL_VERIFICATION, fn).toBe('false');
      if (senders.includes(fn)) {
        expect(ses, fn).toHaveLength(1);
        expect(ses[0].Action, fn).toBe('ses:SendEmail');
        const arns = JSON.stringify(ses[0].Resource);
        expect(arns).toContain(':identity/mail.example.com');
        expect(arns).toContain(':configuration-set/gatehouse-mail');
        expect(arns).not.toContain('*');
        expect(env.IDM_MAIL_FROM, fn).toBe('no-reply@mail.example.com');
        expect(env.IDM_SES_CONFIGURATION_SET, fn).toBe('gatehouse-mail');
      } else {
        expect(ses, fn).toEqual([]);
        expect(env.IDM_MAIL_FROM, fn).toBeUndefined();
      }
    }
    expect(nagFindings(synth)).toEqual([]);
  });

  it.each([
    [{ removalPolicy: 'keep' }, /removalPolicy must be "retain" or "destroy"/],
    [{ throttleRate: 'fast' }, /throttleRate must be an integer/],
    [{ logRetentionDays: 2 }, /logRetentionDays must be one of/],
    [{ domainName: 'idm.example.com' }, /domainName and certificateArn go together/],
    [{ domainName: 'idm.example.com', certificateArn: CERT.replace('us-east-1', 'eu-west-1') }, /us-east-1/],
    [{ domainName: 'not a domain', certificateArn: CERT }, /not a lower-case DNS name/],
    [{ wafRateLimit: 5 }, /wafRateLimit must be an integer from 10/],
    [{ mailFrom: 'Gatehouse <no-reply@example.com>' }, /mailFrom must be a plain email address/],
    [{ sesConfigurationSet: 'gatehouse' }, /need mailFrom/],
    [{ mailFrom: 'a@example.com', sesConfigurationSet: 'no spaces' }, /sesConfigurationSet/],
    [{ requireEmailVerification: 'yes' }, /requireEmailVerification must be true or false/],
  ])('rejects bad context %j with a sentence naming the key', (context, message) => {
    expect(() => synthesize({ bundle: false, context })).toThrow(message);
  });

  it('builds whatever the route table holds', () => {
    const subset = routes.slice(0, 3);
    const synth = synthesize({ bundle: false, routes: subset });
    synth.template.resourceCountIs('AWS::ApiGatewayV2::Route', subset.length);
    const keys = Object.values(synth.template.findResources('AWS::ApiGatewayV2::Route')).map(
      (r) => r.Properties.RouteKey,
    );
    expect(keys.sort()).toEqual(subset.map((r) => `${r.method} ${r.path}`).sort());
  });
});

describe('portal SPA fallback (CloudFront Function)', () => {
  const rewrite = (uri: string): string =>
    runInNewContext(`${SPA_REWRITE}; handler({ request: { uri: ${JSON.stringify(uri)} } }).uri`);

  it('serves index.html for client-side routes and files as they are', () => {
    expect(rewrite('/')).toBe('/index.html');
    expect(rewrite('/applications/12')).toBe('/index.html');
    expect(rewrite('/organizations/3/members')).toBe('/index.html');
    expect(rewrite('/app.js')).toBe('/app.js');
    expect(rewrite('/styles.css')).toBe('/styles.css');
    expect(rewrite('/index.html')).toBe('/index.html');
  });

  it('is the code attached to the portal behaviour', () => {
    const synth = synthesize({ bundle: false });
    synth.template.hasResourceProperties('AWS::CloudFront::Function', { FunctionCode: SPA_REWRITE });
  });
});

describe('the table matches docs/data-model.md', () => {
  it('declares exactly the indexes the data model names', () => {
    const doc = readFileSync(join(projectRoot, 'docs', 'data-model.md'), 'utf8');
    const named = new Set(doc.match(/\bGSI\d+\b/g));
    expect([...named].sort()).toEqual(TABLE_SCHEMA.indexes.map((index) => index.name).sort());
    for (const index of TABLE_SCHEMA.indexes) {
      expect(doc).toContain(index.partitionKey);
      expect(doc).toContain(index.sortKey);
    }
  });
});
