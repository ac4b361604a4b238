import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import ipaddr from 'ipaddr.js';

/**
 * The one text every refused address gets, whatever its class: a text per class would tell an
 * organization's admins which internal addresses exist.
 */
export const REFUSED_ADDRESS_TEXT = 'the host is not a public internet address';

/**
 * Whether a webhook may connect to `address` (an IP address, IPv6 with or without brackets): only
 * global unicast, as ipaddr.js classifies it, and never one of this machine's own addresses.
 *
 * An IPv4-mapped address (::ffff:a.b.c.d) is judged as the IPv4 address it maps. Every other form
 * that embeds an IPv4 address (NAT64 64:ff9b::/96 and 64:ff9b:1::/48, 6to4 2002::/16, Teredo) is not
 * global unicast by itself, so it is refused whatever it embeds. IPv4-compatible addresses
 * (::a.b.c.d, deprecated by RFC 4291) are not in ipaddr.js's table: they are refused here.
 */
export function isPublicAddress(address: string): boolean {
  const parsed = parseAddress(address);
  if (!parsed) return false;
  const judged = parsed.kind() === 'ipv6' ? embeddedOrSelf(parsed as ipaddr.IPv6) : parsed;
  if (judged === undefined || judged.range() !== 'unicast') return false;
  return !ownAddresses().has(judged.toNormalizedString());
}

/**
 * The address in ipaddr.js's terms, or undefined for anything but an IP address. IPv6 text goes
 * through the URL parser first: ipaddr.js reads the IPv4-compatible text "::a.b.c.d" as the mapped
 * address ::ffff:a.b.c.d, while a socket connects to it as the IPv6 address it is. A zone ("%eth0")
 * is dropped: only link-local addresses carry one, and those are refused anyway.
 */
function parseAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  const unbracketed = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  const bare = unbracketed.replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 4) return ipaddr.IPv4.parse(bare);
  if (family === 6) return ipaddr.IPv6.parse(new URL(`http://[${bare}]/`).hostname.slice(1, -1));
  return undefined;
}

/** An IPv4-mapped address as its IPv4 address; undefined for an IPv4-compatible one (refused). */
function embeddedOrSelf(address: ipaddr.IPv6): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  if (address.isIPv4MappedAddress()) return address.toIPv4Address();
  if (address.parts.slice(0, 6).every((part) => part === 0)) return undefined;
  return address;
}

/**
 * Whether a URL host (a name or an address) names an address a webhook may not reach. Names are
 * resolved and checked when the connection is made (publicOnlyLookup).
 */
export function isRefusedHost(host: string): boolean {
  return parseAddress(host) !== undefined && !isPublicAddress(host);
}

/** This machine's interface addresses, read each time: interfaces come and go. */
function ownAddresses(): Set<string> {
  const own = new Set<string>();
  for (const entries of Object.values(networkInterfaces())) {
    for (const entry of entries ?? []) {
      const parsed = parseAddress(entry.address);
      if (parsed) own.add(parsed.toNormalizedString());
    }
  }
  return own;
}
