/**
 * The delivery-time half of "never post to this emulator itself": every connection the webhook posts and the receiver
 * check make is checked once connected, against the address it really reached, so a name that resolves to the emulator
 * later, or a port it took after the URL was set, is caught with no DNS work of its own (the check is per connection,
 * not per try: kept-alive connections are reused).
 */

import type { buildConnector } from 'undici';
import { type OwnAddresses, isOwnAddress, ownAddressReason } from '../domain/ownAddress.js';

/** A connection that reached this emulator itself: closed before anything was sent on it, and never tried again. */
export class OwnAddressRefused extends Error {
  readonly code = 'EMULATOR_ITSELF';
}

/** `connect` (undici's connector) with the check: a socket whose peer is this emulator is destroyed unused. */
export function guardedConnector(connect: buildConnector.connector, own: OwnAddresses): buildConnector.connector {
  return (options, callback) =>
    connect(options, (...[error, socket]: Parameters<buildConnector.Callback>) => {
      // On an error undici passes no socket at all.
      if (error !== null || socket == null) return callback(error ?? new Error('no connection'), null);
      const { remoteAddress, remotePort, localAddress } = socket;
      if (
        remoteAddress !== undefined &&
        remotePort !== undefined &&
        isOwnAddress(remoteAddress, remotePort, own, localAddress)
      ) {
        socket.destroy();
        const where = `${options.hostname}:${remotePort}${options.hostname === remoteAddress ? '' : ` (${remoteAddress})`}`;
        return callback(new OwnAddressRefused(`not sent: ${ownAddressReason(where)}`), null);
      }
      callback(null, socket);
    });
}
