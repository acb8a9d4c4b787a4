export * from './rules.js';
export * from './route.js';
export { routes } from './routes.js';
export { loginPath, sameOriginPath } from './return-to.js';
export { pageProblem } from './fields.js';
export { privacyBarsProblem, type Bar } from './privacy-bars.js';
export * as schemas from './schemas/index.js';
export type * from './types.js';
