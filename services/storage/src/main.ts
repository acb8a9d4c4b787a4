import { exitOnConfigError, runComponent } from '@snapcracks/kit';
import { loadStorageConfig } from './config.js';
import { storageService } from './index.js';

// Checked before anything starts, so a missing variable for the chosen backend is one line on stderr.
exitOnConfigError(() => loadStorageConfig(process.env.DATA_DIR || '/data'));
await runComponent(storageService);
