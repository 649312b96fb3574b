export { startEmulator, type RunningEmulator } from './server';
export { PROFILES } from './profiles';
export type { EmulatorOptions } from './core';
export { sign } from './webhooks';
