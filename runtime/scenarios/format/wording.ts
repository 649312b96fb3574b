import type { ScenarioIssue } from './issue';

/**
 * Validation results in a bot designer's words: "the second choice of state hello" for
 * `states.hello.on[1]`, one line per problem, JSON syntax errors with their line and column.
 * The paths stay in the results (tools read them); this is what people read.
 */

const ORDINALS = [
	'first',
	'second',
	'third',
	'fourth',
	'fifth',
	'sixth',
	'seventh',
	'eighth',
	'ninth',
	'tenth',
];

function ordinal(index: number): string {
	return ORDINALS[index] ?? `${index + 1}th`;
}

/** What one entry of each list is called. */
const ENTRY: Record<string, string> = {
	on: 'choice',
	messages: 'message',
	actions: 'action',
	keywords: 'keyword',
	when: 'condition',
	branches: 'branch',
	variants: 'variant',
	send: 'message',
	options: 'option',
	synonyms: 'synonym',
};

type Segment = string | number;

/** `states.hello.on[1].target` → ['states', 'hello', 'on', 1, 'target']. */
function segments(path: string): Segment[] {
	const out: Segment[] = [];
	const pattern = /\[(\d+)\]|"((?:[^"\\]|\\.)*)"|([^.[\]"]+)/g;
	for (const m of path.matchAll(pattern)) {
		if (m[1] !== undefined) out.push(Number(m[1]));
		else if (m[2] !== undefined) out.push(JSON.parse(`"${m[2]}"`) as string);
		else if (m[3] !== undefined) out.push(m[3]);
	}
	return out;
}

/** Where a problem is, as a designer says it: `"target" of the second choice of state hello`. */
function placeInWords(path: string): string {
	const parts = segments(path);
	const phrases: string[] = [];
	for (let i = 0; i < parts.length; i++) {
		const part = parts[i];
		const next = parts[i + 1];
		if (part === 'states' && typeof next === 'string') {
			phrases.push(`state ${next}`);
			i++;
		} else if (typeof part === 'string' && typeof next === 'number') {
			phrases.push(`the ${ordinal(next)} ${ENTRY[part] ?? `entry of "${part}"`}`);
			i++;
		} else if (typeof part === 'number') {
			phrases.push(`the ${ordinal(part)} entry`);
		} else {
			phrases.push(`"${part}"`);
		}
	}
	return phrases.length === 0 ? 'the scenario' : phrases.reverse().join(' of ');
}

/** One problem on one line: `The second choice of state hello, "target": no state named …`. */
export function issueInWords(issue: ScenarioIssue): string {
	const place = placeInWords(issue.path);
	const where = `${place.charAt(0).toUpperCase()}${place.slice(1)}`;
	return `${issue.scenario ? `Scenario ${issue.scenario}: ` : ''}${where}: ${issue.message}`;
}

/** Every problem, one per line. */
export function issuesInWords(issues: readonly ScenarioIssue[]): string[] {
	return issues.map(issueInWords);
}

/** A JSON syntax error with its line and column, and the usual cause when it is a stray comma. */
export function jsonErrorInWords(text: string, error: Error): string {
	const position = /position (\d+)/.exec(error.message);
	const reason = error.message
		.replace(/\s*(in JSON )?at position \d+.*$/s, '')
		.replace(/^JSON\.parse: /, '');
	if (!position) return `is not valid JSON: ${reason}`;
	const at = Number(position[1]);
	const before = text.slice(0, at);
	const line = before.split('\n').length;
	const column = at - before.lastIndexOf('\n');
	const stray = /,\s*$/.test(before) && /^\s*[}\]]/.test(text.slice(at));
	const hint = stray ? ': a comma before a closing bracket; remove it' : `: ${reason}`;
	return `is not valid JSON at line ${line}, column ${column}${hint}`;
}
