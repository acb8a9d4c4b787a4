import { runStandalone } from '@snapcracks/kit';
import { voteService } from './index.js';

await runStandalone(voteService);
