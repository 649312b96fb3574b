export * from './dedupe';
export * from './envelope';
export * from './events';
export * from './signature';
export * from './intake';
export * from './dispatch';
export * from './listener';
export * from './kept-secrets';
