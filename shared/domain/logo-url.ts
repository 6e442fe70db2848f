/**
 * The path a logo is shown from. Logo keys are `logos/<name>` in the bucket, and CloudFront (and
 * the local server) map `/logos/<name>` to that key, so the path is the key behind a slash. One
 * place for the rule: the portal's views and the consent page both use it. No imports, so the
 * OAuth functions do not pull in the portal's view code (or sharp) to show a logo.
 */
export function logoUrl(logoKey: string | undefined): string | undefined {
  return logoKey ? `/${logoKey}` : undefined;
}
