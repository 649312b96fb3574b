export type { StateStore, Versioned } from './types';
export { MemoryStore } from './memory';
