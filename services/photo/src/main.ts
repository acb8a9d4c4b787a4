import { runComponent } from '@snapcracks/kit';
import { photoService } from './index.js';

await runComponent(photoService);
