#!/usr/bin/env python3
"""make_pcap_seeds.py - write the seed captures of fuzz_pcap into
corpus/fuzz_pcap/: one small file per link type and protocol path the
reader decodes (Ethernet with VLAN tags, IPv4/IPv6 with an extension
header, Linux cooked v1/v2, raw IP, BSD loopback, pcapng), so the fuzzer
starts deep inside the frame decoders.  Run from anywhere; rerun after
changing it and commit the files."""
import os
import struct

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus", "fuzz_pcap")


def tcp(payload):
    return struct.pack("!HHIIBBHHH", 1234, 80, 1, 0, 5 << 4, 0x18, 512, 0, 0) + payload


def udp(payload):
    return struct.pack("!HHHH", 53, 53, 8 + len(payload), 0) + payload


def ipv4(proto, l4):
    return struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(l4), 1, 0, 64, proto, 0,
                       b"\x0a\x00\x00\x01", b"\x0a\x00\x00\x02") + l4


def ipv6(proto, l4, ext=False):
    body = l4
    nxt = proto
    if ext:  # hop-by-hop options, 8 bytes
        body = bytes([proto, 0]) + b"\x01\x04\x00\x00\x00\x00" + l4
        nxt = 0
    return struct.pack("!IHBB16s16s", 6 << 28, len(body), nxt, 64,
                       b"\x20\x01" + b"\x00" * 13 + b"\x01",
                       b"\x20\x01" + b"\x00" * 13 + b"\x02") + body


def eth(ethertype, l3, vlans=0):
    h = b"\x02" * 6 + b"\x04" * 6
    for _ in range(vlans):
        h += struct.pack("!HH", 0x8100, 7)
    return h + struct.pack("!H", ethertype) + l3


def pcap(linktype, frames):
    out = struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, linktype)
    for i, f in enumerate(frames):
        out += struct.pack("<IIII", i, 0, len(f), len(f)) + f
    return out


def pcapng(linktype, frames):
    def block(btype, body):
        body += b"\x00" * (-len(body) % 4)
        n = 12 + len(body)
        return struct.pack("<II", btype, n) + body + struct.pack("<I", n)
    out = block(0x0A0D0D0A, struct.pack("<IHHq", 0x1A2B3C4D, 1, 0, -1))
    out += block(1, struct.pack("<HHI", linktype, 0, 65535))
    for f in frames:
        out += block(6, struct.pack("<IIIII", 0, 0, 0, len(f), len(f)) + f)
    return out


GET = b"GET /index.html?q=union+select HTTP/1.1\r\nHost: x\r\n\r\n"
SEEDS = {
    "eth_ipv4_tcp.pcap": pcap(1, [eth(0x0800, ipv4(6, tcp(GET)))]),
    "eth_vlan2_ipv6_udp.pcap": pcap(1, [eth(0x86dd, ipv6(17, udp(b"dns?")), vlans=2)]),
    "eth_ipv6_ext_tcp.pcap": pcap(1, [eth(0x86dd, ipv6(6, tcp(GET), ext=True))]),
    "sll_ipv4_udp.pcap": pcap(113, [struct.pack("!HHH8sH", 0, 1, 6, b"\x00" * 8, 0x0800)
                                    + ipv4(17, udp(b"hello"))]),
    "sll2_ipv6_tcp.pcap": pcap(276, [struct.pack("!HHIHBB8s", 0x86dd, 0, 1, 1, 0, 6, b"\x00" * 8)
                                     + ipv6(6, tcp(GET))]),
    "raw_ipv4_tcp.pcap": pcap(101, [ipv4(6, tcp(GET)), ipv4(17, udp(b"x"))]),
    "null_ipv6_udp.pcap": pcap(0, [struct.pack("<I", 24) + ipv6(17, udp(b"abc"))]),
    "eth_ipv4_tcp.pcapng": pcapng(1, [eth(0x0800, ipv4(6, tcp(GET))),
                                      eth(0x0800, ipv4(17, udp(b"y")))]),
}

if __name__ == "__main__":
    os.makedirs(OUT, exist_ok=True)
    for name, data in SEEDS.items():
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(data)
