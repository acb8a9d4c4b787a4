import { pino } from 'pino';
import type { Logger } from '../logger.js';

export interface LogRecord {
  level: number;
  msg: string;
  [field: string]: unknown;
}

/** A logger that keeps its records in memory, so a test can wait for something to have been logged. */
export function createRecordingLogger(level: pino.Level = 'debug'): { logger: Logger; records: LogRecord[] } {
  const records: LogRecord[] = [];
  const logger = pino({ level }, { write: (line: string) => void records.push(JSON.parse(line) as LogRecord) });
  return { logger, records };
}
