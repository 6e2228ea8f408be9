/** `sms-emulator/client`: the typed API client on its own, without any of the emulator's server code. */

export { createClient } from './createClient.js';
export { formatSchedule } from './scheduleTime.js';
export { SmsApiError } from './smsApiError.js';
export type * from './publicTypes.js';
