import type { ScenarioDocument } from './schema';
import { isObject, items, walkScenario } from './walk';

/** What a scenario document declares and uses, each found through the one walk (walk.ts). */

type Json = Record<string, unknown>;

/** Variables a scenario may use: its list, every capture's and menu's variable, every call's "store". */
export function declaredVariables(doc: ScenarioDocument | unknown): Set<string> {
	const declared = assignedVariables(doc, false);
	if (isObject(doc))
		for (const name of items(doc.variables)) if (typeof name === 'string') declared.add(name);
	return declared;
}

/** Variables something sets: a capture, a menu, a call's "store", and (`withSet`) a "set" action. */
export function assignedVariables(doc: ScenarioDocument | unknown, withSet: boolean): Set<string> {
	const assigned = new Set<string>();
	const add = (names: unknown) => {
		if (isObject(names)) for (const name of Object.keys(names)) assigned.add(name);
	};
	walkScenario(doc, {
		action: (a) => {
			if (withSet) add((a as unknown as Json).set);
		},
		step: (visit) => {
			if (visit.kind === 'capture' && typeof visit.step.into === 'string')
				assigned.add(visit.step.into);
		},
		call: (call) => add(call.store),
		menu: (menu) => {
			if (typeof menu.into === 'string') assigned.add(menu.into);
		},
	});
	return assigned;
}

/** Whether a scenario looks up the client's orders (they are then read on every step). */
export function readsOrders(doc: ScenarioDocument | unknown): boolean {
	let reads = false;
	walkScenario(doc, {
		action: (a) => {
			if (isObject(a) && 'findOrder' in a) reads = true;
		},
	});
	return reads;
}

/** The workflows a scenario calls, by name. */
export function calledWorkflows(doc: ScenarioDocument | unknown): Set<string> {
	const names = new Set<string>();
	walkScenario(doc, {
		call: (call) => {
			if (typeof call.workflow === 'string') names.add(call.workflow);
		},
	});
	return names;
}
