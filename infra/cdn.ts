import { Duration, Stack, Validations } from 'aws-cdk-lib';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import {
  AllowedMethods,
  type BehaviorOptions,
  CachePolicy,
  Function as CloudFrontFunction,
  Distribution,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  HttpVersion,
  OriginProtocolPolicy,
  OriginRequestPolicy,
  OriginSslPolicy,
  PriceClass,
  ResponseHeadersPolicy,
  SecurityPolicyProtocol,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { PAGE_CSP } from '../shared/http/security-headers.js';
import type { Route } from '../shared/routes.js';
import type { DeploySettings } from './settings.js';
import { rateLimitAcl } from './waf.js';

/**
 * CloudFront path patterns that go to the HTTP API, derived from the route table: a one-segment
 * route (`/user`) matches itself, a deeper one sends its whole first segment (`/users/*`).
 */
export function apiPathPatterns(routes: readonly Route[]): string[] {
  const patterns = new Set<string>();
  for (const route of routes) {
    const segments = route.path.split('/').slice(1);
    const first = segments[0] ?? '';
    if (first === '' || first.includes('{') || first.includes('*')) {
      throw new Error(`Route ${route.method} ${route.path}: the first path segment must be a literal.`);
    }
    patterns.add(segments.length === 1 ? `/${first}` : `/${first}/*`);
  }
  return [...patterns].sort();
}

/**
 * SPA fallback as a viewer-request function on the portal behaviour only: a path without a file
 * extension is the portal's client-side route and gets /index.html. Distribution-wide error
 * responses (403/404 → index.html) would also rewrite the API's JSON 403/404 into an HTML 200.
 */
export const SPA_REWRITE = `function handler(event) {
  var request = event.request;
  var last = request.uri.split('/').pop();
  if (last.indexOf('.') === -1) request.uri = '/index.html';
  return request;
}`;

export interface GatehouseCdnProps {
  readonly routes: readonly Route[];
  /** The HTTP API's execute-api host name. */
  readonly apiDomain: string;
  readonly portalBucket: IBucket;
  readonly logoBucket: IBucket;
  /** Receives CloudFront's standard logs under `cloudfront/`. */
  readonly accessLogs: IBucket;
  readonly settings: Pick<DeploySettings, 'domainName' | 'certificateArn' | 'wafRateLimit'>;
}

/**
 * The one CloudFront distribution in front of everything: the portal (default behaviour, with the
 * SPA fallback), logos and the API paths, security headers on all of them, and the optional custom
 * domain and WAF rule. Created in the stack's scope so logical IDs match the deployed stack.
 */
export class GatehouseCdn extends Construct {
  readonly distribution: Distribution;
  /** The portal and OAuth issuer URL: the custom domain if configured, else CloudFront's. */
  readonly publicUrl: string;

  constructor(scope: Construct, id: string, props: GatehouseCdnProps) {
    super(scope, id);
    const stack = Stack.of(this);
    const { settings } = props;
    const headers = new ResponseHeadersPolicy(stack, 'SecurityHeaders', {
      comment: 'Gatehouse security headers (handlers may set stricter ones)',
      securityHeadersBehavior: {
        // override: false keeps what a handler chose (e.g. the API's default-src 'none').
        contentSecurityPolicy: { contentSecurityPolicy: PAGE_CSP, override: false },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
        referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.NO_REFERRER, override: false },
        strictTransportSecurity: {
          accessControlMaxAge: Duration.days(365),
          includeSubdomains: true,
          override: true,
        },
      },
      removeHeaders: ['server'],
    });
    const spaRewrite = new CloudFrontFunction(stack, 'SpaRewrite', {
      code: FunctionCode.fromInline(SPA_REWRITE),
      runtime: FunctionRuntime.JS_2_0,
      comment: 'Portal client-side routes serve /index.html',
    });
    const apiBehavior: BehaviorOptions = {
      origin: new HttpOrigin(props.apiDomain, {
        protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
        originSslProtocols: [OriginSslPolicy.TLS_V1_2],
      }),
      // No redirect: a redirected POST /oauth2/token would lose its body.
      viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
      allowedMethods: AllowedMethods.ALLOW_ALL,
      cachePolicy: CachePolicy.CACHING_DISABLED,
      // Cookies, query strings and headers reach the API; Host must be the API's own.
      originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
      responseHeadersPolicy: headers,
      compress: true,
    };
    const additionalBehaviors: Record<string, BehaviorOptions> = {
      '/logos/*': {
        origin: S3BucketOrigin.withOriginAccessControl(props.logoBucket),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        cachePolicy: CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: headers,
      },
    };
    for (const pattern of apiPathPatterns(props.routes)) additionalBehaviors[pattern] = apiBehavior;

    const webAcl =
      settings.wafRateLimit === undefined ? undefined : rateLimitAcl(stack, settings.wafRateLimit);
    const custom = settings.domainName !== undefined && settings.certificateArn !== undefined;
    this.distribution = new Distribution(stack, 'Cdn', {
      comment: 'Gatehouse',
      defaultRootObject: 'index.html',
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(props.portalBucket),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        cachePolicy: CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: headers,
        functionAssociations: [{ function: spaRewrite, eventType: FunctionEventType.VIEWER_REQUEST }],
        compress: true,
      },
      additionalBehaviors,
      httpVersion: HttpVersion.HTTP2_AND_3,
      priceClass: PriceClass.PRICE_CLASS_100,
      enableLogging: true,
      logBucket: props.accessLogs,
      logFilePrefix: 'cloudfront/',
      ...(custom
        ? {
            domainNames: [settings.domainName!],
            minimumProtocolVersion: SecurityPolicyProtocol.TLS_V1_2_2021,
            certificate: Certificate.fromCertificateArn(stack, 'Certificate', settings.certificateArn!),
          }
        : {}),
      ...(webAcl ? { webAclId: webAcl.attrArn } : {}),
    });
    this.publicUrl = `https://${custom ? settings.domainName : this.distribution.distributionDomainName}`;
    this.acknowledgeFindings(webAcl !== undefined, custom);
  }

  /** cdk-nag findings accepted on purpose; the WAF and TLS ones only while that option is off. */
  private acknowledgeFindings(waf: boolean, customDomain: boolean): void {
    const findings = Validations.of(this.distribution);
    findings.acknowledge({
      id: 'AwsSolutions-CFR1',
      reason: 'An identity service for a global audience; no country is excluded.',
    });
    if (!waf) {
      findings.acknowledge({
        id: 'AwsSolutions-CFR2',
        reason:
          'WAF is opt-in (context wafRateLimit); the HTTP API stage throttles and the sign-in guard limits guessing.',
      });
    }
    if (!customDomain) {
      findings.acknowledge({
        id: 'AwsSolutions-CFR4',
        reason:
          'Without a custom domain CloudFront serves its default *.cloudfront.net certificate, whose TLS policy cannot be set; with domainName/certificateArn the policy is TLSv1.2_2021.',
      });
    }
  }
}
