export * from './compile';
export * from './conversation';
export { renderDiagram } from './diagram';
export * from './engine';
export { KeyedQueue } from './keyed-queue';
export { RecordingApi, type RecordedCall } from './recording-api';
export * from './schema';
export type { ClientProfile, MessageFields } from './templates';
export * from './validate';
