import type { Studio } from './studio-types';

/** The draft being edited. */
export const draftOf = (s: Studio) => s.history.present;

/** Whether the draft differs from the one last opened or saved. */
export const isDirty = (s: Studio) => JSON.stringify(s.history.present) !== JSON.stringify(s.saved);
