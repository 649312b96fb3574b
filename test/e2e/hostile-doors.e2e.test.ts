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
	summary,
} from './hostile/attacks';
import { bigHeaderAuth, bigSigned, plainSigned } from './hostile/bodies';
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
			// n8n takes an expression isolate per request for every start node but its own Webhook
			// node unless it acquires them lazily (docs/triggers.md): the setting a trigger on a
			// public URL should run with, and the one this suite holds both n8n doors to.
			env: { ...RESTARTABLE_ENV, N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE: 'true' },
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

	/**
	 * Runs `attack` on `door` while the steady stream flows (3 s at least, so it sends during any
	 * attack); prints and returns the figures.
	 */
	async function underAttack<T>(door: Door, label: string, attack: () => Promise<T>) {
		const steady = await startSteady(door.url, BURST_SECRET, `${label}-${door.port}`, {
			[HEADER_AUTH.header]: HEADER_AUTH.value,
		});
		const started = performance.now();
		const watched = await watchMemory(n8n.process.pid as number, attack);
		await sleep(3000 - (performance.now() - started));
		const s = await steady.stop();
		process.stdout.write(
			`${door.name} | ${label}: steady ${s.ok}/${s.sent} answered 200${s.ok === s.sent ? '' : ` ${JSON.stringify(s.statuses)}`}, p99 ${Math.round(s.p99)} ms, max ${Math.round(s.max)} ms; n8n memory +${Math.round(watched.growthMb)} MB (peak ${Math.round(watched.peak)} MB)${summary(watched.result)}\n`,
		);
		return { steady: s, growthMb: watched.growthMb, result: watched.result };
	}

	/** The steady stream sent during the attack, and every delivery of it was answered 200. */
	function allAnswered(s: Steady) {
		expect(s.sent).toBeGreaterThan(0);
		expect(s.statuses).toEqual({ '200': s.sent });
	}

	function onTime(s: Steady, limitMs = 1000) {
		allAnswered(s);
		expect(s.max).toBeLessThan(limitMs);
	}

	/**
	 * Through n8n's URL, what docs/triggers.md promises there: every steady delivery answered 200
	 * within the service's 5 s. n8n reads those bodies itself, and its own pauses (a collection of
	 * a heap the large bodies grew past 1 GB) can hold every request for a second.
	 */
	const inServiceTime = (s: Steady) => onTime(s, 5000);

	/**
	 * Through n8n's URL under an attack whose cost is n8n's own (it reads and parses every body
	 * before a node sees it): every steady delivery answered 200 within the service's 5 s, unless
	 * n8n's own Webhook node, under the same attack on this machine, could not keep 5 s either (a
	 * slow 2-core machine: 10.5 s under the flood); then no slower than it. `webhookNode`: its
	 * figures, or how to take them when they decide (only then: they cost a run of the attack).
	 */
	async function withinN8nsOwnTime(s: Steady, webhookNode: Steady | (() => Promise<Steady>)) {
		allAnswered(s);
		if (s.max < 5000) return;
		const node = typeof webhookNode === 'function' ? await webhookNode() : webhookNode;
		expect(s.max).toBeLessThan(Math.max(5000, node.max));
	}

	/** n8n's own server held the attack (the node never saw it): n8n answers again within 5 s. */
	async function recovers(door: Door) {
		const r = await flood(door.url, 1, 1, (i) =>
			plainSigned(`after_${door.port}_${Date.now()}_${i}`),
		);
		expect(r.statuses).toEqual({ '200': 1 });
		expect(r.max).toBeLessThan(5000);
	}

	it('a flood of 500 bad signatures from 20 senders: refused, no execution, deliveries on time', async () => {
		const baseline = await underAttack(
			doors.plain,
			'bad header auth flood',
			async () => await flood(doors.plain.url, 500, 20, badHeaderAuth),
		);
		const own = await underAttack(
			doors.own,
			'bad signature flood',
			async () => await flood(doors.own.url, 500, 20, badSignature('own')),
		);
		expect(own.result.statuses).toEqual({ '401': 500 });
		onTime(own.steady);
		expect(own.growthMb).toBeLessThan(200);
		const viaN8n = await underAttack(
			doors.trigger,
			'bad signature flood',
			async () => await flood(doors.trigger.url, 500, 20, badSignature('n8n')),
		);
		expect(viaN8n.result.statuses).toEqual({ '401': 500 });
		expect(viaN8n.growthMb).toBeLessThan(200);
		// On n8n's URL, n8n's own per-request work decides how fast. How the two compare is printed,
		// not asserted further (two latency samples of a shared machine; docs/triggers.md has them).
		await withinN8nsOwnTime(viaN8n.steady, baseline.steady);
		process.stdout.write(
			`n8n's URL against n8n's Webhook node under the same flood: attack p50 ${Math.round(viaN8n.result.p50)} / ${Math.round(baseline.result.p50)} ms, steady p99 ${Math.round(viaN8n.steady.p99)} / ${Math.round(baseline.steady.p99)} ms\n`,
		);
		await sleep(1000);
		expect([...sink.done.keys()].filter((id) => id.startsWith('bad_'))).toEqual([]);
	});

	for (const which of ['own', 'trigger'] as const) {
		const own = which === 'own';
		describe(`at the ${own ? 'Own Port Trigger' : "Messaging Bot Trigger's n8n URL"}`, () => {
			const door = () => doors[which];
			// What each door promises its steady deliveries (inServiceTime says why they differ).
			const doorOnTime = own ? onTime : inServiceTime;

			it('a body over the limit is answered 413', async () => {
				const r = await underAttack(
					door(),
					'body of 4 MiB',
					async () => await flood(door().url, 3, 1, (i) => bigSigned(`big_${which}_${i}`)),
				);
				expect(r.result.statuses).toEqual({ '413': 3 });
				if (own) onTime(r.steady);
				else
					// Three bodies of 4 MiB held every request through n8n's URL for 6 s on a slow
					// machine (1.9 s on another): n8n reads them before the node refuses them.
					await withinN8nsOwnTime(
						r.steady,
						async () =>
							(
								await underAttack(
									doors.plain,
									'body of 4 MiB, wrong header',
									async () => await flood(doors.plain.url, 3, 1, bigHeaderAuth),
								)
							).steady,
					);
			});

			it('a body of 1 GiB is refused while it is sent', async () => {
				const r = await underAttack(
					door(),
					'body of 1 GiB',
					async () => await hugeBody(door().port, door().path),
				);
				if (own) {
					expect(r.result.answer).toMatch(/^HTTP\/1\.1 413 /);
					onTime(r.steady);
				} else {
					// n8n reads bodies on its URL itself and refuses this one before the node sees it.
					expect(r.result.answer).toMatch(/^HTTP\/1\.1 [45]\d\d /);
					await recovers(door());
				}
			});

			it('a validly signed body nested 100,000 levels deep is refused with a 4xx within 100 ms of an ordinary delivery', async () => {
				const plain = await flood(door().url, 5, 1, (i) => plainSigned(`plain_${which}_${i}`));
				const r = await underAttack(
					door(),
					'deep JSON',
					async () =>
						await flood(door().url, 5, 1, (i) =>
							deepSigned(BURST_SECRET, 100_000, `deep_${which}_${i}`),
						),
				);
				expect(Object.keys(r.result.statuses)).toEqual(['400']);
				// Within 100 ms, beyond what an ordinary delivery takes through this door. Through
				// n8n's URL by the median of five: n8n reads these bodies itself, and on a slow machine
				// it held every request, the steady deliveries too, for about a second during one of
				// them (p50 69 to 106 ms, max 906 to 1,173 ms); a slow refusal would show in each.
				if (own) expect(r.result.max).toBeLessThan(100);
				else expect(r.result.p50).toBeLessThan(100 + plain.max);
				if (own) onTime(r.steady);
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
				doorOnTime(r.steady);
			});

			it.each([
				[
					'300 slowloris connections for 12 s',
					async (d: Door) => await slowloris(d.port, 300, 12_000),
				],
				['1,000 idle connections for 6 s', async (d: Door) => await idle(d.port, 1000, 6_000)],
				[
					'100 chunked bodies that never end, for 6 s',
					async (d: Door) => await endlessChunked(d.port, d.path, 100, 6_000),
				],
			] as const)('%s', async (label, attack) => {
				const r = await underAttack(door(), label, async () => await attack(door()));
				if (own) onTime(r.steady);
				else await recovers(door());
			});
		});
	}

	afterAll(() => {
		// What the attacks started: only deliveries that were meant to be worked on.
		const strangers = [...sink.done.keys()].filter((id) => !/^(steady|plain|after)_/.test(id));
		expect(strangers).toEqual([]);
	});
});

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));
