/**
 * Where the nodes' Docs links lead, written once (a credential's `documentationUrl` must be a
 * literal in its class, as n8n's lint requires). test/unit/doc-links.test.ts follows every link
 * the editor shows, codex files included, to a file and heading.
 * npm's package page renders the README only, so each node and credential links to its README
 * section there; a page of docs/ is linked on the repository (package.json `repository`).
 */
export const PACKAGE_PAGE = 'https://www.npmjs.com/package/n8n-nodes-messaging-bot';

export const REPOSITORY = 'https://github.com/n8n-nodes-messaging-bot/n8n-nodes-messaging-bot';

const readme = (heading: string) => `${PACKAGE_PAGE}#${heading}`;

const page = (path: string) => `${REPOSITORY}/blob/main/${path}`;

export const DOCS = {
	messagingBot: readme('messaging-bot'),
	trigger: readme('messaging-bot-trigger'),
	portTrigger: readme('messaging-bot-own-port-trigger'),
	scenario: readme('messaging-bot-scenario'),
	scenarioFormat: page('docs/scenario-format.md'),
} as const;

/** The link under the Scenario field, as n8n shows HTML in a description. */
export const SCENARIO_FORMAT_LINK = `<a href="${DOCS.scenarioFormat}" target="_blank">The scenario format</a>`;
