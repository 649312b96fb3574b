/** Shapes the event and webhook contract tests expect alike. */

/** An ISO 8601 UTC timestamp, as the spec writes every time. */
export const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;

/** The `message.received` data of Ada writing "hi" to the shop bot. */
export function hiFromAda(): Record<string, unknown> {
	return {
		message_id: expect.stringMatching(/\S/),
		client_id: 'cl_ada',
		bot_id: 'bot_shop',
		text: 'hi',
		channel: expect.stringMatching(/\S/),
		timestamp: expect.stringMatching(ISO_UTC),
		metadata: { message_type: 'text', has_attachments: false },
	};
}
