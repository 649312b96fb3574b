export { startEmulator, type RunningEmulator } from './server';
export { PROFILES, type Profile } from './profiles';
export type { EmulatorOptions } from './core';
export { sign, USER_AGENT } from './webhooks';
export { EVENT_TYPES, LIMITS, TEST_EVENT } from './schemas';
