import faq from '../../../examples/scenarios/faq.json';
import leadQualification from '../../../examples/scenarios/lead-qualification.json';
import orderStatus from '../../../examples/scenarios/order-status.json';
import support from '../../../examples/scenarios/support.json';
import booking from '../templates/booking.json';
import feedback from '../templates/feedback.json';
import type { Draft } from './draft';

/**
 * New: a blank scenario, or one of the gallery's bots for common jobs (each a valid scenario: the
 * examples of examples/scenarios and the studio's own templates; test/unit/studio-templates checks).
 */

export interface Template {
	key: string;
	title: string;
	about: string;
	draft: Draft;
}

export const BLANK: Draft = {
	id: 'my-bot',
	version: 1,
	start: 'welcome',
	states: { welcome: { messages: ['Hi {{client.first_name|there}}!'], end: true } },
};

/** The examples name the schema by a path relative to their folder: not where a new file goes. */
function withoutSchema(draft: object): Draft {
	const rest = { ...(draft as Draft) };
	delete rest.$schema;
	return rest;
}

export const TEMPLATES: Template[] = [
	{ key: 'blank', title: 'Blank', about: 'One state: start from nothing.', draft: BLANK },
	...(
		[
			['faq', 'FAQ', faq],
			['order-status', 'Order status', orderStatus],
			['lead-qualification', 'Lead qualification', leadQualification],
			['booking', 'Booking', booking],
			['feedback', 'Feedback (NPS)', feedback],
			['support', 'Support triage', support],
		] as const
	).map(([key, title, json]) => ({
		key,
		title,
		about: String((json as { description?: unknown }).description ?? ''),
		draft: withoutSchema(json),
	})),
];
