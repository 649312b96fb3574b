import {
	compileScenario,
	RecordingApi,
	ScenarioEngine,
	type AnalyticsReport,
} from '../../runtime/scenarios';
import { readAnalytics } from '../../runtime/scenarios/analytics/reading';
import { MemoryStore } from '../../runtime/stores';
import { SqliteStore } from '../../runtime/stores/sqlite';
import { BURST_SCOPE, stepsScenario } from './burst';

/**
 * The burst's funnel as the analytics counters tell it, and as a one-at-a-time run of the same
 * messages tells it: after kills they must agree. What depends on timing (waits, which replies
 * went unknown) is left out; the replies' outcomes together must make one per step.
 */
function comparable(report: AnalyticsReport) {
	return report.versions.map((v) => ({
		scenario: v.scenario,
		version: v.version,
		states: v.states.map((s) => ({
			state: s.state,
			reached: s.reached,
			visits: s.visits,
			completed: s.completed,
			handedOff: s.handedOff,
			stoppedLive: s.dropped + s.inProgress,
			edges: s.edges,
			keywordEdges: s.keywordEdges,
			now: s.now,
		})),
		conversations: v.summary.conversations,
		completed: v.summary.completed,
		handoffs: v.summary.handoffs,
		messages: v.summary.messages,
		fallbacks: v.summary.fallbacks,
		replies: v.summary.replies.sent + v.summary.replies.unknown + v.summary.replies.failed,
	}));
}

/** The funnel in the SQLite state store `file`, over the days around `since`. */
export async function storedFunnel(file: string, since: number) {
	const store = new SqliteStore(file);
	try {
		const report = await readAnalytics(store, {
			scope: BURST_SCOPE,
			from: since - 86_400_000,
			to: Date.now() + 86_400_000,
		});
		return comparable(report);
	} finally {
		await store.close();
	}
}

/** Each client's applied messages (its step + 1: the first starts it in s0) one at a time. */
export async function oneAtATimeFunnel(steps: ReadonlyMap<string, number>) {
	const store = new MemoryStore();
	const engine = new ScenarioEngine({
		scenarios: [compileScenario(JSON.parse(stepsScenario()))],
		store,
		api: new RecordingApi(),
		clock: { now: () => Date.now() },
		scope: BURST_SCOPE,
	});
	for (const [client, step] of [...steps.entries()].sort())
		for (let i = 1; i <= step + 1; i++)
			await engine.handle({
				message_id: `${client}-m${i}`,
				client_id: client,
				bot_id: 'bot_shop',
				text: `m${i}`,
			});
	const today = Date.now();
	// Read as the stored one is: without the scenario's order of states.
	const window = { scope: BURST_SCOPE, from: today - 86_400_000, to: today + 86_400_000 };
	return comparable(await readAnalytics(store, window));
}
