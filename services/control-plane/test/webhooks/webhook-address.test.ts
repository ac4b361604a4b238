import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import { describe, expect, it } from 'vitest';
import { isPublicAddress, REFUSED_ADDRESS_TEXT } from '../../src/webhooks/domain/address.ts';
import { webhookUrlRefusal } from '../../src/webhooks/domain/url.ts';

// Every class of address a webhook must not reach, each refused with the same text whatever the class.
const REFUSED: Record<string, string[]> = {
  loopback: ['127.0.0.1', '127.255.0.9', '::1'],
  private: ['10.1.2.3', '172.16.0.1', '172.31.255.254', '192.168.1.1'],
  'link-local': ['169.254.169.254', 'fe80::1'],
  'carrier-grade NAT 100.64/10': ['100.64.0.1', '100.127.255.254'],
  'this host 0/8': ['0.0.0.0', '0.1.2.3', '::'],
  'benchmark 198.18/15': ['198.18.0.1', '198.19.255.254', '2001:2::1'],
  documentation: ['192.0.2.1', '198.51.100.7', '203.0.113.9', '2001:db8::1'],
  multicast: ['224.0.0.1', '239.255.255.250', 'ff02::1', 'ff0e::1'],
  'reserved 240/4': ['240.0.0.1', '250.1.2.3'],
  broadcast: ['255.255.255.255'],
  'IETF protocol assignments 192.0.0/24': ['192.0.0.8'],
  'NAT64 64:ff9b::/96 and 64:ff9b:1::/48': ['64:ff9b::a00:1', '64:ff9b::808:808', '64:ff9b:1::7f00:1'],
  'IPv4-compatible ::a.b.c.d': ['::127.0.0.1', '::10.0.0.1', '::8.8.8.8'],
  'IPv4-mapped ::ffff:a.b.c.d of a refused address': [
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254',
  ],
  '6to4 2002::/16 embedding a private address': ['2002:a00:1::1', '2002:7f00:1::1', '2002:c0a8:101::1'],
  'Teredo 2001::/32': ['2001:0:4136:e378:8000:63bf:3fff:fdd2'],
  'unique local fc00::/7': ['fc00::1', 'fd12:3456::1'],
  'site-local (deprecated)': ['fec0::1'],
  'discard 100::/64': ['100::1'],
};

const ownAddresses = Object.values(networkInterfaces())
  .flatMap((entries) => entries ?? [])
  .map((entry) => entry.address);

describe('webhook addresses: only global unicast', () => {
  for (const [kind, addresses] of Object.entries(REFUSED)) {
    it(`refuses ${kind} with the one text`, () => {
      for (const address of addresses) {
        expect(isPublicAddress(address), address).toBe(false);
        expect(webhookUrlRefusal(urlOf(address), strict), address).toBe(REFUSED_ADDRESS_TEXT);
      }
    });
  }

  it("refuses this machine's own interface addresses, public ones included", () => {
    expect(ownAddresses.length).toBeGreaterThan(0);
    for (const address of ownAddresses) expect(isPublicAddress(address), address).toBe(false);
  });

  it('admits public unicast addresses, in brackets and as IPv4-mapped', () => {
    for (const address of [
      '8.8.8.8',
      '1.1.1.1',
      '172.32.0.1',
      '2606:4700::1111',
      '[2a00:1450:4001::1]',
      '::ffff:1.1.1.1',
    ]) {
      expect(isPublicAddress(address), address).toBe(true);
    }
    expect(webhookUrlRefusal('https://8.8.8.8/hook', strict)).toBeUndefined();
    expect(webhookUrlRefusal('https://[2606:4700::1111]/hook', strict)).toBeUndefined();
  });

  it('treats names as not addresses (they are checked on what they resolve to, at connect)', () => {
    expect(isPublicAddress('hooks.example.com')).toBe(false);
    expect(webhookUrlRefusal('https://hooks.example.com/hook', strict)).toBeUndefined();
  });
});

const strict = { allowInsecure: false, allowPrivateAddresses: false };
const urlOf = (address: string) =>
  isIP(address) === 4 ? `https://${address}/hook` : `https://[${address}]/hook`;
