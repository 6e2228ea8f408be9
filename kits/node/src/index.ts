/** `sms-emulator-testcontainers`: the emulator's container for Testcontainers, handing back sms-emulator's own handle. */

export { SmsEmulatorContainer } from './smsEmulatorContainer.js';
export { StartedSmsEmulatorContainer } from './startedSmsEmulatorContainer.js';
export { containerSettings } from './containerSettings.js';
