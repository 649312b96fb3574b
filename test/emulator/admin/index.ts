import type { Core } from '../core';
import type { Router } from '../router';
import { registerBots } from './bots';
import { registerClients } from './clients';
import { registerClock } from './clock';
import { registerDeliveries } from './deliveries';
import { registerEvents } from './events';
import { registerFaults } from './faults';
import { registerInbound } from './inbound';
import { registerKeys } from './keys';
import { registerLogs } from './logs';
import { registerProfile } from './profile';
import { registerService } from './service';
import { registerSubscriptions } from './subscriptions';

/** What a dashboard user (or a test) does to the service: everything under /_admin, a module a resource. */
export function registerAdmin(router: Router, core: Core): void {
	registerService(router, core);
	registerKeys(router, core);
	registerBots(router, core);
	registerClients(router, core);
	registerSubscriptions(router, core);
	registerInbound(router, core);
	registerEvents(router, core);
	registerDeliveries(router, core);
	registerLogs(router, core);
	registerFaults(router, core);
	registerClock(router, core);
	registerProfile(router, core);
}
