/** How the profile summaries name a V8 profile's call frames (CPU profiles and sampling heap profiles alike). */
import { fileURLToPath } from 'node:url';

export interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

/** The repository's root, as frames' file paths start with it. */
export const repositoryRoot = fileURLToPath(new URL('../..', import.meta.url));

/** A frame's file: an npm package's as `package/path`, the repository's own relative to it, Node's as `node:…`. */
export function framePlace(frame: CallFrame): string {
  const url = frame.url.replace(/^file:\/\//, '');
  if (!url) return '';
  const pnpm = /node_modules\/\.pnpm\/[^/]+\/node_modules\/((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(url);
  if (pnpm) return `${pnpm[1]}/${pnpm[2]}`;
  return url.startsWith(repositoryRoot) ? url.slice(repositoryRoot.length) : url;
}

/** `file:line function`. */
export const frameLabel = (frame: CallFrame) => `${framePlace(frame)}:${frame.lineNumber + 1} ${frame.functionName || '(anonymous)'}`;
