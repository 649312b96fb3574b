export * from './auth';
export * from './client';
export type { Clock } from './clock';
export * from './errors';
export * from './budget';
export type { PageOptions, PageReader } from './pagination';
export { MAX_RETRY_AFTER_MS } from './retry-after';
export * from './schemas';
export * from './transport';
