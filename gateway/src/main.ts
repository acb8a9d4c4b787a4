import { runComponent } from '@snapcracks/kit';
import { gatewayComponent } from './component.js';

await runComponent(gatewayComponent());
