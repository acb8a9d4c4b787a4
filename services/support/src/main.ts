import { runComponent } from '@snapcracks/kit';
import { supportService } from './index.js';

await runComponent(supportService);
