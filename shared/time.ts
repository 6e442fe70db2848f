/** Epoch seconds: how expiries (`expiresAt`, DynamoDB's TTL attribute) are written everywhere. */
export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

export function isoNow(): string {
  return new Date().toISOString();
}
