/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/require-node-api-error -- editor test tooling: runs n8n and a browser, never loaded by n8n */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { startEmulator, type RunningEmulator } from '../emulator';
import { exampleWorkflows, prepareN8n, subscribeExamples } from '../../scripts/lib/demo-setup';
import {
	freePort,
	n8nCli,
	setupOwner,
	startN8n,
	type RunningN8n,
} from '../../scripts/lib/n8n-process';
import { tourWorkflow } from './tour';

const REDIS_CREDENTIAL_ID = 'mbRedisState0001';
export const DEMO_SECRET = ['whsec', 'editor', 'test'].join('_');

export type Demo = {
	emulator: RunningEmulator;
	n8n: RunningN8n;
	/** The owner's session cookie, `name=value`. */
	cookie: string;
	ownPort: number;
	stop(): Promise<void>;
};

/**
 * The demo `npm start` sets up (the emulator; n8n with the packed package, both credentials, the
 * example workflows published and subscribed), in a fresh user folder, plus a workflow holding
 * one of each node for the editor test to open, not published.
 */
export async function startDemo(): Promise<Demo> {
	const emulator = await startEmulator();
	const userFolder = mkdtempSync(path.join(tmpdir(), 'mb-editor-'));
	const options = { userFolder, port: await freePort(), brokerPort: await freePort() };
	prepareN8n(
		options,
		{ baseUrl: emulator.baseUrl, apiKey: emulator.apiKey },
		DEMO_SECRET,
		exampleWorkflows(),
		[
			{
				id: REDIS_CREDENTIAL_ID,
				name: 'Messaging Bot Redis',
				type: 'messagingBotRedisApi',
				data: { host: '127.0.0.1', port: 6379, database: 0, ssl: false },
			},
		],
	);
	const ownPort = await freePort();
	const tourFile = path.join(userFolder, 'tour.json');
	writeFileSync(tourFile, JSON.stringify([tourWorkflow(ownPort)]));
	n8nCli(options, ['import:workflow', `--input=${tourFile}`]);
	const n8n = await startN8n(options);
	const stop = async () => {
		await n8n.stop();
		await emulator.close();
		rmSync(userFolder, { recursive: true, force: true });
	};
	try {
		const cookie = await setupOwner(n8n.url);
		await subscribeExamples(n8n.url, emulator.adminUrl, DEMO_SECRET);
		return { emulator, n8n, cookie, ownPort, stop };
	} catch (error) {
		await stop();
		throw error;
	}
}
