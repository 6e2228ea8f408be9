/** `sms-emulator send --to 27831234567 --text "Hi"`: one signed API send (or schedule) from a shell, as an app would make it. */

import { createClient } from '../client/createClient.js';
import { defaultEnvironment, environments, isEnvironment } from '../domain/environment.js';
import { SmsApiError } from '../client/smsApiError.js';
import { type CommandLine, UsageError, takeText } from './commandLine.js';
import { type CommandResult, printed } from './commandResult.js';
import { targetOf } from './commandTarget.js';
import { sendHelp } from './commandHelp.js';

export async function sendCommand(line: CommandLine, env: NodeJS.ProcessEnv): Promise<CommandResult> {
  if (line.help) return { stdout: sendHelp(), stderr: '', exitCode: 0 };
  const target = targetOf(line, env, true);
  const recipients = (line.flags.get('to') ?? []).flatMap((value) => {
    if (value === true) throw new UsageError('--to needs a number');
    return value.split(',').map((number) => number.trim());
  });
  line.flags.delete('to');
  const text = takeText(line, 'text');
  const schedule = takeText(line, 'schedule');
  const reference = takeText(line, 'reference');
  const environment = takeText(line, 'environment') ?? defaultEnvironment;
  const outcome = takeText(line, 'outcome');
  const [unknown] = line.flags.keys();
  if (unknown !== undefined) throw new UsageError(`unknown flag --${unknown} for send`);
  if (line.positionals.length > 0) throw new UsageError(`unexpected argument "${line.positionals[0]}"`);
  if (recipients.length === 0) throw new UsageError('send needs --to <number>');
  if (text === undefined) throw new UsageError('send needs --text <message>');
  if (!isEnvironment(environment))
    throw new UsageError(`--environment is ${environments.join(' or ')}, not "${environment}"`);
  const client = createClient({
    baseUrl: target.origin,
    apiKey: target.apiKey,
    signingSecret: target.signingSecret,
    environment,
    fetch: target.fetch,
  });
  const input = {
    recipient: recipients,
    message: text,
    ...(reference === undefined ? {} : { client_reference: reference }),
  };
  const options = outcome === undefined ? {} : { headers: { 'x-emulator-outcome': outcome } };
  try {
    const sent =
      schedule === undefined
        ? await client.send(input, options)
        : await client.schedule({ ...input, schedule }, options);
    return { stdout: printed(sent), stderr: '', exitCode: 0 };
  } catch (error) {
    if (!(error instanceof SmsApiError)) throw error;
    return { stdout: '', stderr: `sms-emulator: ${error.code}: ${error.description}\n`, exitCode: 1 };
  }
}
