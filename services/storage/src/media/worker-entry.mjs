// The file piscina starts in each media worker thread (see import-typescript.mjs for why it is JavaScript).
import { importTypeScript } from './import-typescript.mjs';

const worker = await importTypeScript(new URL('./worker.ts', import.meta.url).href);

export default worker.default;
