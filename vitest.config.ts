import { configDefaults, defineConfig } from 'vitest/config';

// Two tiers, one run: `npx vitest run` runs both (one report, one JSON file for .ci/run);
// `npx vitest run --project unit` (npm run test:unit) runs only the fast one.
export default defineConfig({
  test: {
    reporters: ['default'],
    projects: [
      {
        // Pure modules only: no emulators, no Java, no network. Mirrors the source tree.
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
        },
      },
      {
        // Everything else runs against DynamoDB Local and s3rver, started once by the global setup.
        extends: true,
        test: {
          name: 'integration',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, 'test/unit/**'],
          globalSetup: ['test/global-setup.ts'],
          pool: 'forks',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
