import { runComponent } from '@snapcracks/kit';
import { authService } from './index.js';

await runComponent(authService);
