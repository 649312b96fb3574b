/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- the demo launcher, never loaded by n8n */
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';

import type { RunningStudio } from '../runtime/studio/server/server';
import { startEmulator } from '../test/emulator';
import { demoGuide } from './lib/demo-guide';
import { prepareN8n, subscribeExamples } from './lib/demo-setup';
import { startDemoStudio } from './lib/demo-studio';
import { n8nCacheDir } from './lib/n8n-install';
import { freePort, setupOwner, startN8n, type RunningN8n } from './lib/n8n-process';

const DEMO_SECRET = ['whsec', 'demo', 'local'].join('_');
async function portOr(preferred: number): Promise<number> {
	const probe = await fetch(`http://127.0.0.1:${preferred}/`).then(
		() => true,
		() => false,
	);
	return probe ? await freePort() : preferred;
}

/**
 * `npm start`: the emulator, and a real n8n with this package installed as a community package
 * and the example workflows published and subscribed. Ctrl-C stops both.
 */
async function main(): Promise<void> {
	const say = (line = '') => process.stdout.write(`${line}\n`);
	const emulator = await startEmulator({ port: await portOr(8080) });
	const userFolder = path.join(path.dirname(n8nCacheDir()), 'demo');
	const packageDir = path.join(
		userFolder,
		'.n8n',
		'nodes',
		'node_modules',
		'n8n-nodes-messaging-bot',
	);
	if (existsSync(packageDir)) rmSync(packageDir, { recursive: true, force: true });
	mkdirSync(userFolder, { recursive: true });
	const options = { userFolder, port: await portOr(5678), brokerPort: await freePort() };
	say('Preparing n8n: installing the package, importing credentials and example workflows…');
	prepareN8n(options, { baseUrl: emulator.baseUrl, apiKey: emulator.apiKey }, DEMO_SECRET);
	const running: { n8n?: RunningN8n; studio?: RunningStudio } = {};
	let stopping = false;
	const stop = async (code: number) => {
		if (stopping) return;
		stopping = true;
		say('\nStopping n8n and the emulator…');
		await running.n8n?.stop();
		await running.studio?.close();
		await emulator.close();
		process.exit(code);
	};
	process.once('SIGINT', () => void stop(0));
	process.once('SIGTERM', () => void stop(0));
	try {
		await serve(options, emulator, running, () => stopping, say);
	} catch (error) {
		process.stderr.write(`npm start failed: ${(error as Error).message}\n`);
		await stop(1);
	}
}

async function serve(
	options: { userFolder: string; port: number; brokerPort: number },
	emulator: Awaited<ReturnType<typeof startEmulator>>,
	running: { n8n?: RunningN8n; studio?: RunningStudio },
	isStopping: () => boolean,
	say: (line?: string) => void,
): Promise<void> {
	say('Starting n8n…');
	const n8n = await startN8n(options);
	running.n8n = n8n;
	await setupOwner(n8n.url);
	await subscribeExamples(n8n.url, emulator.adminUrl, DEMO_SECRET);
	const { studio, store } = await startDemoStudio(options.userFolder, await portOr(5680));
	running.studio = studio;
	say();
	const guide = demoGuide({
		n8nUrl: n8n.url,
		baseUrl: emulator.baseUrl,
		adminUrl: emulator.adminUrl,
		apiKey: emulator.apiKey,
		secret: DEMO_SECRET,
		studioUrl: running.studio.url,
		store,
	});
	for (const line of guide) say(line);
	n8n.process.once('exit', (code) => {
		if (!isStopping()) {
			say(
				`n8n stopped unexpectedly (exit code ${code}). Its last output:\n${n8n.log().slice(-2000)}`,
			);
			process.kill(process.pid, 'SIGTERM');
		}
	});
}

main().catch((error: Error) => {
	process.stderr.write(`npm start failed: ${error.message}\n`);
	process.exit(1);
});
