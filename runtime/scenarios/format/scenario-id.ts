/** A scenario's id: letters, digits, "_" or "-", starting with a letter or digit, at most 64. */
export const SCENARIO_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
