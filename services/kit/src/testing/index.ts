export { createTestDatabase, openTestPool, testDatabaseServerUrl, type TestDatabase } from './postgres.js';
export { createOutboxTables } from './outbox-tables.js';
export { createTestStream, testNatsUrl, type TestStream } from './nats.js';
export { startTcpProxy, type TcpProxy } from './tcp-proxy.js';
export { createRecordingLogger, type LogRecord } from './recording-logger.js';
export { uniqueTestName } from './unique-name.js';
export { outboxEvents, processedEvents } from './outbox-events.js';
export { startTestServices, type TestServices } from './services.js';
export { seededRandom, type Random } from './seeded-random.js';
