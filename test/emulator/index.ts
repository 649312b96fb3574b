export { startEmulator, type RunningEmulator } from './server';
export type { EmulatorOptions } from './core';
export { sign, USER_AGENT } from './webhooks';
export { EVENT_TYPES, LIMITS, TEST_EVENT } from './schemas';
