import { getOrCreate } from '../../per-process';
import { field, type ScenarioRef } from './counter-keys';
import { token } from './reached';

/**
 * A state's counter names in one scenario version, made once and read by the lean step
 * (lean-step.ts): one lookup of the state gives its visit, its "reached", its arrows and its waits,
 * where building each name is a lookup of its own.
 */
export class StateNames {
	/** How the state sits in a record's reached states (reached.ts). */
	readonly token: string;
	readonly entered: string;
	readonly reached: string;
	private readonly edges = new Map<string, string>();
	private readonly keywordEdges = new Map<string, string>();
	private readonly waits: string[] = [];

	constructor(readonly state: string) {
		this.token = token(state);
		this.entered = field.of('entered', state);
		this.reached = field.of('reached', state);
	}

	/** The arrow to `to`: a keyword's move apart. */
	edge(to: string, keyword: boolean): string {
		// No closure made for a lookup that finds the name: this runs at every arrow counted.
		const edges = keyword ? this.keywordEdges : this.edges;
		let name = edges.get(to);
		if (name === undefined) {
			name = keyword ? field.keyword(this.state, to) : field.edge(this.state, to);
			if (edges.size < 1_000) edges.set(to, name);
		}
		return name;
	}

	/** The wait before leaving it, by its bucket (counter-keys.ts's waitBucket). */
	wait(bucket: number): string {
		return (this.waits[bucket] ??= field.wait(this.state, bucket));
	}
}

/** One scenario version's states' names (at most 10,000 states kept). */
export class VersionNames {
	private readonly states = new Map<string, StateNames>();

	constructor(
		readonly id: string,
		readonly version: number,
	) {}

	of(state: string): StateNames {
		let names = this.states.get(state);
		if (names === undefined) {
			if (this.states.size >= 10_000) this.states.clear();
			this.states.set(state, (names = new StateNames(state)));
		}
		return names;
	}
}

// The versions' names, at most 1,000 versions kept; the last one asked for is at hand.
const versions = new Map<string, VersionNames>();
let last: VersionNames | undefined;

export function namesOf(scenario: ScenarioRef): VersionNames {
	if (last?.id === scenario.id && last.version === scenario.version) return last;
	const key = `${encodeURIComponent(scenario.id)}@${scenario.version}`;
	last = getOrCreate(versions, key, () => new VersionNames(scenario.id, scenario.version), 1_000);
	return last;
}
