export * from './auth';
export * from './client';
export type { Clock } from './clock';
export * from './errors';
export * from './budget';
export * from './schemas';
export * from './transport';
