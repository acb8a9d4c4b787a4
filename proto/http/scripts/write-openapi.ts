import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { OPENAPI_FILE, serializeDocument } from '../src/openapi/committed.js';
import { openApiDocument } from '../src/openapi/document.js';

// `pnpm openapi:write`: the committed copy of the document, which the tests compare with the one the code generates.
writeFileSync(fileURLToPath(OPENAPI_FILE), serializeDocument(openApiDocument()));
console.log(`wrote ${fileURLToPath(OPENAPI_FILE)}`);
