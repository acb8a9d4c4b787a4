import { runGatewayStandalone } from './standalone.js';

await runGatewayStandalone();
