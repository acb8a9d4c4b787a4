import { runComponent } from '@snapcracks/kit';
import { voteService } from './index.js';

await runComponent(voteService);
