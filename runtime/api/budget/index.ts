export { closeBudgets, sharedBudget, type BudgetSettings } from './registry';
export { LocalWindow } from './local-window';
export { RequestBudget, type Slot } from './request-budget';
export type { Priority, SlotRequest, SlotSource, Take } from './types';
