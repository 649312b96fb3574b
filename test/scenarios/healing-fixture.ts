/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test tooling: short real waits between a client's messages */
import { compileScenario, ScenarioEngine, type MessageReceived } from '../../runtime/scenarios';
import type { ScenarioApi } from '../../runtime/scenarios/durability/perform-effect';
import { HealingSession } from '../../runtime/scenarios/engine/healing/session';
import { MemoryStore, type StateStore } from '../../runtime/stores';
import type { PROFILES } from '../emulator/profiles';
import { stepsScenario } from '../e2e/burst';
import { clientFor, realClock } from '../helpers/client';
import { admin, sentTexts, useEmulator } from '../helpers/emulator';

type Logged = { method: string; path: string; status: number };
export const steps = compileScenario(JSON.parse(stepsScenario()));
const pause = () => new Promise((resolve) => setTimeout(resolve, 5));

/**
 * Healing's test bench: the emulator over HTTP under a profile, a store shared by the processes
 * of a test (each an engine with its own healing session), the client writing through the service.
 */
export function healingFixture(profile: (typeof PROFILES)[number]) {
	const emulator = useEmulator({ rateLimit: 100_000, profile });
	let client: ReturnType<typeof clientFor>;
	let store: StateStore;
	beforeAll(() => {
		client = clientFor(emulator(), { rateLimit: { limit: 100_000, windowMs: 60_000 } });
	});
	beforeEach(async () => {
		await admin(emulator(), 'POST', '/reset');
		store = new MemoryStore();
	});
	afterAll(async () => client.close());

	return {
		emulator,
		store: () => store,
		client: () => client,
		/** A process's engine: its own healing session, begun now on its clock. */
		engineOf(clock = realClock, api: ScenarioApi = client): ScenarioEngine {
			const session = new HealingSession(clock.now());
			return new ScenarioEngine({ scenarios: [steps], store, api, clock, healing: { session } });
		},
		/** The client writes; the service keeps it in the history and gives it its id and time. */
		async write(text: string, clientId = 'cl_grace'): Promise<MessageReceived> {
			await pause();
			const { body } = await admin<{ message: MessageReceived }>(emulator(), 'POST', '/inbound', {
				bot_id: 'bot_shop',
				client_id: clientId,
				text,
			});
			return body.data.message;
		},
		/** What the bot sent the client, in order. */
		transcript: async (clientId = 'cl_grace') => await sentTexts(emulator(), clientId),
		historyReads: async (clientId = 'cl_grace') =>
			(await admin<Logged[]>(emulator(), 'GET', '/requests')).body.data.filter(
				(r) => r.method === 'GET' && r.path === `/v1/clients/${clientId}/messages`,
			).length,
		/** The variant lists a client's message a moment after it is written (A39). */
		listed: async () => {
			if (profile === 'variant') await admin(emulator(), 'POST', '/clock/advance', { ms: 2000 });
		},
	};
}
