import {
	MessagingBotClient,
	type ClientOptions,
	type TransportRequest,
	type TransportResponse,
} from '../../runtime/api';

export type Reply = Partial<TransportResponse>;
/** Answers one request; may look at what was sent. */
export type Script = (request: TransportRequest, index: number) => Reply;

/** When every scripted client's clock starts. */
export const START = Date.parse('2025-01-15T12:00:00Z');

/** Time that moves only when the client sleeps, and remembers every sleep. */
function fakeClock(start = START) {
	const clock = {
		at: start,
		sleeps: [] as number[],
		now: () => clock.at,
		sleep: async (ms: number) => {
			clock.sleeps.push(ms);
			clock.at += ms;
		},
	};
	return clock;
}

let instances = 0;

/**
 * A client whose transport answers from a script instead of a service: every answer of the
 * service can be staged exactly, with no server and no real time.
 */
export function scriptedClient(script: Script, options: Partial<ClientOptions> = {}) {
	const requests: TransportRequest[] = [];
	const clock = fakeClock();
	// Each client its own base URL, so none shares another's request budget (one per key and URL).
	const baseUrl = `https://scripted-${++instances}.invalid/v1`;
	const client = new MessagingBotClient({
		baseUrl,
		apiKey: 'k',
		clock,
		random: () => 1,
		backoffMs: 10,
		transport: {
			async request(request) {
				requests.push(request);
				const reply = script(request, requests.length - 1);
				return {
					status: reply.status ?? 200,
					headers: reply.headers ?? {},
					body: reply.body ?? '',
				};
			},
		},
		...options,
	});
	return { client, requests, clock };
}

/** A JSON reply. */
export const json = (
	status: number,
	body: unknown,
	headers: Record<string, string> = {},
): Reply => ({
	status,
	headers: { 'content-type': 'application/json', ...headers },
	body: JSON.stringify(body),
});
