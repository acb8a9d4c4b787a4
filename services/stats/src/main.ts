import { runComponent } from '@snapcracks/kit';
import { statsService } from './index.js';

await runComponent(statsService);
