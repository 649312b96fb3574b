export type {
	CounterHash,
	CounterIncrements,
	QueuedEntry,
	StateStore,
	Versioned,
	WriteOptions,
} from './types';
export { MemoryStore } from './memory';
