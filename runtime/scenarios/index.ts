/**
 * What the Scenario node and the benchmarks use of the scenario runtime; the CLI and the tests
 * import the layers themselves.
 */
export { ScenarioValidationError, formatIssue } from './format/issue';
export type { ClientProfile } from './format/templates';
export { calledWorkflows } from './format/document-facts';
export { compileScenario, type CompiledScenario, type PersistedSnapshot } from './machine/compile';
export type { WorkflowPort } from './durability/workflow-call';
export type { TimerResult } from './engine/due';
export { conversationScope } from './engine/scope';
export { ScenarioEngine, type DueWork } from './engine/engine';
export { MoveError, type MovePreview, type MoveReport } from './engine/versions/move';
export type { MovePlan } from './engine/versions/move-plan';
export type { LiveConversations } from './engine/versions/pinned';
export type { VersionListed } from './engine/versions/versioning';
export {
	trafficOf,
	type AnalyticsQuery,
	type AnalyticsReport,
	type Traffic,
} from './analytics/reading';
export { stateOrder } from './analytics/main-path';
export type { MessageReceived } from './engine/inbox';
export type { HandleResult, LatePolicy } from './engine/results';
export type { ReorderMode, ReorderSettings } from './engine/reorder-wait';
export { renderDiagram } from './offline/diagram';
export {
	renderFunnel,
	renderPicture,
	renderPictures,
	undrawn,
	type FunnelTraffic,
	type PictureOptions,
} from './offline/picture';
export { readTraffic, trafficPeriod, type TrafficQuery } from './offline/traffic-reading';
export { RecordingApi } from './offline/recording-api';
export { rehearse } from './offline/rehearse';
export { timerWait } from './offline/timer-wait';
export { issuesInWords, jsonErrorInWords } from './format/wording';
export { scenarioWarnings } from './format/warnings';
