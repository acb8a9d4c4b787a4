import { runStandalone } from '@snapcracks/kit';
import { supportService } from './index.js';

await runStandalone(supportService);
