/** What a door answers a request with. */
export type Answer = { status: number; body: object };

/** A delivery that was read but could not be recorded: the service is told to send it again. */
export type Failed = {
	kind: 'failed';
	status: 503;
	body: { success: false; message: string };
};

/**
 * The one place a failure after the body was read is answered: whatever `work` throws (the store,
 * the dispatch queue, a bug) becomes a 503, so the service sends the delivery again, and is logged
 * once with its cause. The answer names no file, host or cause: the sender may be anyone.
 */
export async function answerSafely<T>(
	work: () => Promise<T>,
	log: (message: string) => void,
): Promise<T | Failed> {
	try {
		return await work();
	} catch (error) {
		log(`A delivery was not recorded and was answered 503: ${describe(error)}`);
		return {
			kind: 'failed',
			status: 503,
			body: { success: false, message: 'Not recorded this time: send the delivery again' },
		};
	}
}

function describe(error: unknown): string {
	if (error instanceof Error) return error.message;
	return String(error);
}
