export { gatewayDatabase } from './gateway.js';
export { loadGatewayConfig, type GatewayConfig } from './config.js';
export { oidcSettingsFrom, type OidcSettings } from './oidc.js';
export { gatewayComponent } from './component.js';
export { ResumableUploadRepository } from './resumable-uploads/resumable-upload.repository.js';
