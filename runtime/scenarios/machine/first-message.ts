import { chooseOption, prepareMenu } from '../format/menu';
import {
	acceptAnswer,
	matchesText,
	prepareCheck,
	prepareMatcher,
	type PreparedMatcher,
} from '../format/matchers';
import type { ScenarioDocument } from '../format/schema';

/**
 * Whether a conversation's first message already answers the state the greeting left it in: a
 * keyword, a transition that matches particular words, a menu option, or a capture's answer of a
 * given kind (an email, a number, one of a list…). A transition on any message and a capture of
 * free text take every message, a "hello" too, so they wait for the next one: the client has not
 * seen the question yet.
 */
export function firstAnswerTest(doc: ScenarioDocument): (state: string, text: string) => boolean {
	const matchers = (list: ScenarioDocument['keywords']): PreparedMatcher[] =>
		(list ?? []).filter((t) => !('any' in t.match)).map((t) => prepareMatcher(t.match));
	const keywords = matchers(doc.keywords);
	const tests = new Map(
		Object.entries(doc.states).map(([name, def]) => {
			const on = matchers(def.on);
			const menu = def.menu ? prepareMenu(def.menu.options) : undefined;
			const check =
				def.capture && def.capture.check !== 'text' ? prepareCheck(def.capture.check) : undefined;
			const test = (text: string) =>
				on.some((m) => matchesText(m, text)) ||
				(menu !== undefined && chooseOption(menu, text) !== undefined) ||
				(check !== undefined && acceptAnswer(check, text) !== undefined);
			return [name, test] as const;
		}),
	);
	return (state, text) =>
		keywords.some((m) => matchesText(m, text)) || (tests.get(state)?.(text) ?? false);
}
