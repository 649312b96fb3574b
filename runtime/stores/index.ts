export type { QueuedEntry, StateStore, Versioned, WriteOptions } from './types';
export { MemoryStore } from './memory';
