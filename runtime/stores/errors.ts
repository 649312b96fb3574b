/** The shared store could not be used; the message names it and what to check. */
export class StateStoreError extends Error {
	override name = 'StateStoreError';
}
