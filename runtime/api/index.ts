export * from './auth';
export * from './client';
export type { Clock } from './clock';
export * from './errors';
export { SlidingWindowLimiter, sharedLimiter } from './rate-limiter';
export * from './schemas';
export * from './transport';
