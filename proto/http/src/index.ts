export * from './rules.js';
export * from './route.js';
export { routes, type RouteName } from './routes.js';
export { MAX_RETURN_TO_LENGTH, loginPath, sameOriginPath } from './return-to.js';
export { pageProblem } from './fields.js';
export { isValidPrivacyBar, privacyBarsProblem, type Bar } from './privacy-bars.js';
export { errorBody, messageBody } from './schemas/errors.js';
export * as schemas from './schemas/index.js';
export type * from './types.js';
