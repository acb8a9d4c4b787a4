import { runStandalone } from '@snapcracks/kit';
import { photoService } from './index.js';

await runStandalone(photoService);
