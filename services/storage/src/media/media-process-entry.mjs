// The file the storage service forks as its media process (see import-typescript.mjs for why it is JavaScript).
import { importTypeScript } from './import-typescript.mjs';

await importTypeScript(new URL('./media-process-main.ts', import.meta.url).href);
