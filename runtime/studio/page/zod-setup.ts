import { config } from 'zod/v4';

// Imported first: zod then compiles no code at run time, so the page's policy (no eval) is never
// tried. Its schemas read this when they are made, as the runtime's modules load.
config({ jitless: true });
