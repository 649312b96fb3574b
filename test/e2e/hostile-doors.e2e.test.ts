/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- end-to-end tooling: runs a real n8n and attacks it, never loaded by n8n */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { prepareN8n } from '../../scripts/lib/demo-setup';
import {
	freePort,
	RESTARTABLE_ENV,
	startN8n,
	waitForWebhook,
	type N8nOptions,
	type RunningN8n,
} from '../../scripts/lib/n8n-process';
import { BURST_SECRET, Sink } from '../helpers/delivery-burst';
import {
	badHeaderAuth,
	badSignature,
	deepSigned,
	endlessChunked,
	flood,
	hugeBody,
	idle,
	signedOdd,
	slowloris,
	type Answers,
} from './hostile/attacks';
import { doorWorkflows, HEADER_AUTH, headerAuthCredential } from './hostile/doors';
import { startSteady, watchMemory, type Steady } from './hostile/steady';

jest.setTimeout(900_000);

type Door = { name: string; url: string; port: number; path: string };

/**
 * Both triggers in a real n8n (the packed package) under hostile requests, while a process of its
 * own sends signed deliveries at 5 a second to the door under attack: each must be answered 200
 * within 1 s. n8n's Webhook node with Header Auth takes the bad-signature flood first, in the same
 * run, as the baseline of what n8n itself costs per refused request.
 */
describe('the webhook doors under hostile input, in a real n8n', () => {
	let n8n: RunningN8n;
	let options: N8nOptions;
	const sink = new Sink();
	let doors: { trigger: Door; own: Door; plain: Door };

	beforeAll(async () => {
		const sinkUrl = await sink.start();
		const ownPort = await freePort();
		options = {
			userFolder: mkdtempSync(path.join(tmpdir(), 'mb-hostile-')),
			port: await freePort(),
			brokerPort: await freePort(),
			env: RESTARTABLE_ENV,
		};
		prepareN8n(
			options,
			{ baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'unused' },
			BURST_SECRET,
			doorWorkflows(sinkUrl, ownPort),
			[headerAuthCredential],
		);
		n8n = await startN8n(options);
		const n8nDoor = (p: string, name: string): Door => ({
			name,
			url: `${n8n.url}${p}`,
			port: options.port,
			path: p,
		});
		doors = {
			trigger: n8nDoor(
				'/webhook/hostile-trigger/messaging-bot',
				"Messaging Bot Trigger (n8n's URL)",
			),
			own: {
				name: 'Own Port Trigger',
				url: `http://127.0.0.1:${ownPort}/messaging-bot`,
				port: ownPort,
				path: '/messaging-bot',
			},
			plain: n8nDoor('/webhook/hostile-plain', "n8n's Webhook node, Header Auth"),
		};
		for (const door of Object.values(doors)) await waitForWebhook(door.url);
	}, 600_000);

	afterAll(async () => {
		await n8n?.stop();
		await sink.close();
		if (options) rmSync(options.userFolder, { recursive: true, force: true });
	});

	/** Runs `attack` on `door` while the steady stream flows; prints and returns the figures. */
	async function underAttack<T>(door: Door, label: string, attack: () => Promise<T>) {
		const steady = await startSteady(door.url, BURST_SECRET, `${label}-${door.port}`, {
			[HEADER_AUTH.header]: HEADER_AUTH.value,
		});
		const watched = await watchMemory(n8n.process.pid as number, attack);
		const s = await steady.stop();
		process.stdout.write(
			`${door.name} | ${label}: steady ${s.ok}/${s.sent} answered 200, p99 ${Math.round(s.p99)} ms, max ${Math.round(s.max)} ms; n8n memory +${Math.round(watched.growthMb)} MB (peak ${Math.round(watched.peak)} MB)${summary(watched.result)}\n`,
		);
		return { steady: s, growthMb: watched.growthMb, result: watched.result };
	}

	function onTime(s: Steady) {
		expect(s.sent).toBeGreaterThan(0);
		expect(s.statuses).toEqual({ '200': s.sent });
		expect(s.max).toBeLessThan(1000);
	}

	it('a flood of 500 bad signatures from 20 senders: refused, no execution, deliveries on time', async () => {
		const baseline = await underAttack(
			doors.plain,
			'bad header auth flood',
			async () => await flood(doors.plain.url, 500, 20, badHeaderAuth),
		);
		for (const door of [doors.trigger, doors.own]) {
			const r = await underAttack(
				door,
				'bad signature flood',
				async () => await flood(door.url, 500, 20, badSignature(String(door.port))),
			);
			expect(r.result.statuses).toEqual({ '401': 500 });
			onTime(r.steady);
			expect(r.growthMb).toBeLessThan(200);
			// No worse than n8n's own node refusing the same flood (with 20 % slack for noise).
			expect(r.result.p50).toBeLessThan(Math.max(baseline.result.p50 * 1.2, 50));
		}
		await new Promise((r) => setTimeout(r, 1000));
		expect([...sink.done.keys()].filter((id) => id.startsWith('bad_'))).toEqual([]);
	});

	for (const which of ['own', 'trigger'] as const) {
		describe(`at the ${which === 'own' ? 'Own Port Trigger' : "Messaging Bot Trigger's n8n URL"}`, () => {
			const door = () => doors[which];

			it('a 1 GiB body is answered 413', async () => {
				const r = await underAttack(
					door(),
					'huge body',
					async () => await hugeBody(door().port, door().path),
				);
				expect(r.result.answer).toMatch(/^HTTP\/1\.1 413 /);
				onTime(r.steady);
			});

			it('a validly signed body nested 100,000 levels deep is refused with a 4xx within 100 ms', async () => {
				const r = await underAttack(
					door(),
					'deep JSON',
					async () =>
						await flood(door().url, 5, 1, (i) =>
							deepSigned(BURST_SECRET, 100_000, `deep_${which}_${i}`),
						),
				);
				expect(Object.keys(r.result.statuses)).toEqual(['400']);
				expect(r.result.max).toBeLessThan(100);
				onTime(r.steady);
			});

			it.each([
				['malformed JSON', 'malformed'],
				['JSON that is not an object', 'array'],
				['a JSON string', 'string'],
				['no delivery id', 'no id'],
			] as const)('signed %s is refused with a 4xx and starts nothing', async (label, kind) => {
				const r = await underAttack(
					door(),
					label,
					async () => await flood(door().url, 40, 4, signedOdd(BURST_SECRET, kind)),
				);
				for (const status of Object.keys(r.result.statuses))
					expect(Number(status)).toBeGreaterThanOrEqual(400);
				for (const status of Object.keys(r.result.statuses))
					expect(Number(status)).toBeLessThan(500);
				onTime(r.steady);
			});

			it('300 slowloris connections for 12 s', async () => {
				const r = await underAttack(
					door(),
					'slowloris',
					async () => await slowloris(door().port, 300, 12_000),
				);
				onTime(r.steady);
			});

			it('1,000 idle connections for 6 s', async () => {
				const r = await underAttack(
					door(),
					'idle connections',
					async () => await idle(door().port, 1000, 6_000),
				);
				onTime(r.steady);
			});

			it('100 chunked bodies that never end, for 6 s', async () => {
				const r = await underAttack(
					door(),
					'endless chunked',
					async () => await endlessChunked(door().port, door().path, 100, 6_000),
				);
				onTime(r.steady);
			});
		});
	}

	afterAll(() => {
		// What the attacks started: only the steady deliveries were worked on.
		const strangers = [...sink.done.keys()].filter((id) => !id.startsWith('steady_'));
		expect(strangers).toEqual([]);
	});
});

function summary(result: unknown): string {
	if (typeof result === 'number')
		return `; the door closed ${result} of the attacker's connections`;
	if (result && typeof result === 'object' && 'statuses' in result) {
		const a = result as Answers;
		return `; attack answered ${JSON.stringify(a.statuses)} at ${Math.round(a.perSecond)}/s, p50 ${Math.round(a.p50)} ms, max ${Math.round(a.max)} ms`;
	}
	if (result && typeof result === 'object' && 'answer' in result) {
		const h = result as { answer: string; sentMb: number };
		return `; answered "${h.answer}" after ${h.sentMb} MiB sent`;
	}
	return '';
}
