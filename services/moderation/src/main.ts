import { runComponent } from '@snapcracks/kit';
import { moderationService } from './index.js';

await runComponent(moderationService);
