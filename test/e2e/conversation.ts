/* eslint-disable @n8n/community-nodes/no-restricted-globals -- end-to-end tooling: polls with timers, never loaded by n8n */
import type { RunningEmulator } from '../emulator';
import { admin, sentTexts } from '../helpers/emulator';

/** Probes until `ok` holds or the time is up; returns the last value either way. */
export async function until<T>(
	probe: () => T | Promise<T>,
	ok: (v: T) => boolean,
	timeoutMs = 30_000,
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	let value = await probe();
	while (!ok(value) && Date.now() < deadline) {
		await new Promise((r) => setTimeout(r, 250));
		value = await probe();
	}
	return value;
}

/** A client of the emulator writing to a bot that n8n answers asynchronously. */
export function clientOf(emulator: () => RunningEmulator, botId: string, clientId: string) {
	const sent = async () => await sentTexts(emulator(), clientId);
	return {
		/** Every message the bot has sent this client, oldest first. */
		sent,
		/** The client writes; resolves with the next `replies` messages the bot sends. */
		async write(text: string, replies: number, timeoutMs = 60_000): Promise<string[]> {
			const before = (await sent()).length;
			await admin(emulator(), 'POST', '/inbound', { bot_id: botId, client_id: clientId, text });
			const all = await until(sent, (s) => s.length >= before + replies, timeoutMs);
			return all.slice(before);
		},
	};
}
