import { runStandalone } from '@snapcracks/kit';
import { statsService } from './index.js';

await runStandalone(statsService);
