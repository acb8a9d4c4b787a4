import { runStandalone } from '@snapcracks/kit';
import { storageService } from './index.js';

await runStandalone(storageService);
