// A worker thread starts without the TypeScript loader of the thread that made it: register tsx, then run the thread.
import { register } from 'tsx/esm/api';

register();
await import('./services-thread.ts');
