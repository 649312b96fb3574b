/**
 * The page's one door into the scenario runtime: the format, validation, compilation and the
 * rehearsal Test Conversation uses, run in the browser unchanged. Every runtime import of the page
 * is here, so a move of runtime files changes this file only.
 */
export { compileScenario } from '../../scenarios/machine/compile';
export { rehearse, type Rehearsal } from '../../scenarios/offline/rehearse';
export { scenarioJsonSchema } from '../../scenarios/format/schema';
export type { WorkflowPort } from '../../scenarios/durability/workflow-call';
export type { ClientProfile } from '../../scenarios/format/templates';
export { validateScenario } from '../../scenarios/format/validate';
export type { ScenarioIssue } from '../../scenarios/format/issue';
export {
	ANY,
	END,
	START,
	edgeText,
	scenarioGraph,
	type ScenarioGraph,
	type StateBox,
} from '../../scenarios/offline/picture/graph';
export {
	boxHeight,
	layoutGraph,
	type Layout,
	type Routed,
} from '../../scenarios/offline/picture/layout';
export { routePath } from '../../scenarios/offline/picture/svg';
export {
	trafficOverlay,
	type EdgeTraffic,
	type Overlay,
	type StateTraffic,
	type Traffic,
} from '../../scenarios/offline/picture/traffic';
export { stateOrder } from '../../scenarios/analytics/main-path';
export type { StateFunnel } from '../../scenarios/analytics/funnel';
export type { VersionFunnel } from '../../scenarios/analytics/reading';
export type { ScenarioDocument } from '../../scenarios/format/schema';
export type { SplitTestReport } from '../../scenarios/analytics/split-reading';
export type { MovePlan } from '../../scenarios/engine/versions/move-plan';
export type { MovePreview, MoveReport } from '../../scenarios/engine/versions/move';
export type { VersionWithStates } from '../../scenarios/offline/scenario-versions';
