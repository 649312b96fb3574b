/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/require-node-api-error -- dev tooling: runs a real n8n, never loaded by n8n */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { ensureN8n, ensureNode, N8N_1_NODE, N8N_VERSION } from './n8n-install';

export { freePort } from './free-port';

const root = path.resolve(__dirname, '../..');

/** The Node that runs n8n: this one when it is 24 or newer, else the `node` dev dependency's. */
function node24(): string {
	const major = Number(process.versions.node.split('.')[0]);
	return major >= 24 ? process.execPath : path.join(root, 'node_modules/node/bin/node');
}

/** The Node.js that runs an n8n version: Node 24 for 2.x (which needs it), Node 22 for 1.x. */
function nodeFor(n8nVersion: string): string {
	return n8nVersion.startsWith('1.') ? ensureNode(N8N_1_NODE) : node24();
}

/** "2.41.1 on Node.js 24.9.0": which n8n ran, and on which Node.js. */
export function runtimeLabel(n8nVersion: string): string {
	const node = execFileSync(nodeFor(n8nVersion), ['--version'], { encoding: 'utf8' }).trim();
	return `${n8nVersion} on Node.js ${node.replace(/^v/, '')}`;
}

export type N8nOptions = {
	userFolder: string;
	port: number;
	brokerPort: number;
	env?: Record<string, string>;
	/** The n8n version to run (installed on first use); the current one unless said. */
	n8nVersion?: string;
};

/**
 * For an n8n that is killed and started again: n8n 2.41's insights module can stop n8n from
 * starting after a SIGKILL ("Cannot read properties of null (reading 'getTime')", recovering an
 * execution that never started), and it does so again at every start. Users meet it too; the
 * README's Troubleshooting gives the same setting.
 */
export const RESTARTABLE_ENV = { N8N_DISABLED_MODULES: 'insights' };

function n8nEnv(o: N8nOptions): NodeJS.ProcessEnv {
	// n8n exits at once, silently, under NODE_ENV=test (which jest sets); jest's own variables go too.
	const inherited = Object.fromEntries(
		Object.entries(process.env).filter(([k]) => !k.startsWith('JEST_') && k !== 'NODE_ENV'),
	);
	return {
		...inherited,
		NODE_ENV: 'production',
		N8N_USER_FOLDER: o.userFolder,
		N8N_PORT: String(o.port),
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_RUNNERS_BROKER_PORT: String(o.brokerPort),
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_ENCRYPTION_KEY: 'messaging-bot-local-key',
		N8N_SECURE_COOKIE: 'false',
		N8N_LOG_LEVEL: 'warn',
		N8N_WEBHOOK_URL: `http://127.0.0.1:${o.port}/`,
		...o.env,
	};
}

/** Runs an n8n CLI command (import, publish…) against a stopped instance's user folder. */
export function n8nCli(o: N8nOptions, args: string[]): string {
	const version = o.n8nVersion ?? N8N_VERSION;
	try {
		return execFileSync(nodeFor(version), [ensureN8n(undefined, version), ...args], {
			env: n8nEnv(o),
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'pipe'],
		});
	} catch (error) {
		// What n8n said, not only that the command failed.
		const { stdout, stderr } = error as { stdout?: string; stderr?: string };
		throw new Error(`n8n ${version} ${args[0]} failed:\n${stderr ?? ''}${stdout ?? ''}`.trim());
	}
}

export type RunningN8n = {
	url: string;
	process: ChildProcess;
	log: () => string;
	stop(): Promise<void>;
	/** SIGKILL to n8n and its task runners, as a crash or an OOM kill would: nothing runs after. */
	kill(): Promise<void>;
};

/**
 * n8n's own start, after a SIGKILL and under a burst of webhook calls, can time out waiting for
 * its SQLite database's write lock (60 s) while it recovers the killed executions; it then never
 * becomes ready (seen once in CI, n8n 2.41.1: ExecutionRecoveryService.recoverFromLogs). Said at
 * once, so that a test can start it again, as a supervisor restarts an n8n that fails its checks.
 */
const HUNG_ON_LOCK = /LockAcquireTimeoutError|timeout while waiting for mutex/;

class StartHungOnLock extends Error {
	constructor(readonly log: string) {
		super(`n8n's start hung on its database's write lock:\n${log}`);
	}
}

/** Starts n8n again after a kill; once more if its own start hung on its database's lock. */
export async function restartN8n(o: N8nOptions): Promise<RunningN8n> {
	try {
		return await startN8n(o);
	} catch (error) {
		if (!(error instanceof StartHungOnLock)) throw error;
		process.stdout.write(
			"n8n's start hung on its database's write lock: stopped and started again\n",
		);
		return await startN8n(o);
	}
}

/** Starts n8n and resolves once /healthz/readiness answers 200 (database connected and migrated). */
export async function startN8n(
	o: N8nOptions,
	timeoutMs = 180_000,
	command: 'start' | 'worker' | 'webhook' = 'start',
): Promise<RunningN8n> {
	// Its own process group, so stop() reaches the task runners n8n starts as well.
	const version = o.n8nVersion ?? N8N_VERSION;
	const child = spawn(nodeFor(version), [ensureN8n(undefined, version), command], {
		env: n8nEnv(o),
		stdio: ['ignore', 'pipe', 'pipe'],
		detached: true,
	});
	let output = '';
	child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
	child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
	const url = `http://127.0.0.1:${o.port}`;
	const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
	const signalGroup = (signal: NodeJS.Signals) => {
		try {
			process.kill(-(child.pid as number), signal);
		} catch {
			// The group is gone already.
		}
	};
	// A test runner that exits early must not leave n8n serving in the background.
	const killOnExit = () => signalGroup('SIGKILL');
	process.once('exit', killOnExit);
	const stop = async () => {
		process.off('exit', killOnExit);
		if (child.exitCode === null && child.signalCode === null) {
			signalGroup('SIGTERM');
			// The grace timer is unref'd: once n8n is gone it must not keep the caller alive.
			const stopped = await Promise.race([
				exited.then(() => true),
				sleep(20_000, false, { ref: false }),
			]);
			if (!stopped) signalGroup('SIGKILL');
		}
		await exited;
		signalGroup('SIGKILL');
	};
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		if (child.exitCode !== null)
			throw new Error(`n8n exited with code ${child.exitCode}:\n${output.slice(-4000)}`);
		if (HUNG_ON_LOCK.test(output)) {
			await stop();
			throw new StartHungOnLock(output.slice(-4000));
		}
		const ok = await fetch(`${url}/healthz/readiness`).then(
			(r) => r.ok,
			() => false,
		);
		const kill = async () => {
			process.off('exit', killOnExit);
			signalGroup('SIGKILL');
			await exited;
		};
		if (ok) return { url, process: child, log: () => output, stop, kill };
		await sleep(500);
	}
	await stop();
	throw new Error(`n8n did not become healthy within ${timeoutMs} ms:\n${output.slice(-4000)}`);
}

/**
 * Waits until n8n has registered a production webhook: it answers 404 until then, and 503
 * ("Database is not ready") while it starts. As long as n8n's own start may take: on a slow
 * 2-core machine running other suites, activating the workflows took over a minute.
 */
export async function waitForWebhook(url: string, timeoutMs = 180_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		const res = await fetch(url, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: '{}',
		}).catch(() => undefined);
		if (res && res.status !== 404 && res.status !== 503) return;
		await sleep(500);
	}
	throw new Error(`The webhook ${url} was not registered within ${timeoutMs} ms`);
}

export const DEMO_OWNER = {
	email: 'owner@example.com',
	password: 'Messaging-Bot-1',
	firstName: 'Demo',
	lastName: 'Owner',
};

/** Creates the instance owner (first start) and returns a session cookie. */
export async function setupOwner(
	n8nUrl: string,
	owner = DEMO_OWNER,
	timeoutMs = 60_000,
): Promise<string> {
	// /healthz answers before the REST API is mounted; until then every route is a 404, and a 503
	// "Database is not ready" while migrations still run on a busy machine.
	const deadline = Date.now() + timeoutMs;
	let setup = await postOwner(n8nUrl, owner);
	while ((setup.status === 404 || setup.status === 503) && Date.now() < deadline) {
		await sleep(500);
		setup = await postOwner(n8nUrl, owner);
	}
	if (setup.ok) return cookieOf(setup);
	// Already set up (a later start): log in instead.
	const login = await fetch(`${n8nUrl}/rest/login`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify({ emailOrLdapLoginId: owner.email, password: owner.password }),
	});
	if (!login.ok)
		throw new Error(
			`Could not set up or log in the n8n owner: ${setup.status} ${await setup.text()} / ${login.status} ${await login.text()}`,
		);
	return cookieOf(login);
}

async function postOwner(n8nUrl: string, owner: typeof DEMO_OWNER): Promise<Response> {
	return await fetch(`${n8nUrl}/rest/owner/setup`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify(owner),
	});
}

function cookieOf(res: Response): string {
	const cookie = res.headers.getSetCookie().find((c) => c.startsWith('n8n-auth='));
	if (!cookie) throw new Error('n8n answered without a session cookie');
	return cookie.split(';')[0];
}
