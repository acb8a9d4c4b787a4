import { runStandalone } from '@snapcracks/kit';
import { authService } from './index.js';

await runStandalone(authService);
