import { runStandalone } from '@snapcracks/kit';
import { moderationService } from './index.js';

await runStandalone(moderationService);
